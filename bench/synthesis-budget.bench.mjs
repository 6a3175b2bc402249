// Synthesis budget use on the demo's results: bytes of the synthesis prompt's result views over
// the budget (192 KiB), offline, with a model that answers, and with a model that fails every
// call. The model is the real `openai` SDK client talking HTTP to the local provider server.
import { METRIC_NAMES, trailingDisclosureNotes, utf8ByteLength } from '@compaction/core';
import { createRecordingTelemetry } from '@compaction/core/test';
import { createOpenAIClient } from '@compaction/distiller/openai';
import { createProviderServer } from '@compaction/distiller/test';
import { runDevopsAgent } from '@compaction/example-devops-agent';
import { markdownTable, writeResult } from './lib/report.mjs';

// A distill call answers with about the size it was asked for, quoting the log failure and the
// config change when its source holds them (as a fast model told to copy evidence would).
function answer(request) {
  const asked = Number(/under about (\d+) bytes/.exec(request.system)?.[1]);
  if (!Number.isFinite(asked)) return { text: 'The payments pool is exhausted after the deploy.' };
  // Lines, and the records of minified JSON, that look like evidence.
  const units = request.prompt.split(/\n|(?<=\}),(?=\{)/);
  const evidence = units.filter((unit) =>
    /ERROR|FATAL|CrashLoopBackOff|OOMKilled|exhausted|^[-+][^-+]/.test(unit),
  );
  const text = (evidence.length ? evidence : units.slice(-3)).join('\n');
  return { text: text.slice(0, Math.max(1, asked)) || 'nothing relevant' };
}

const server = await createProviderServer();
const client = createOpenAIClient({
  env: { OPENAI_API_KEY: 'bench', OPENAI_BASE_URL: server.openaiBaseUrl },
  maxRetries: 0,
});

const kib = (bytes) => `${(bytes / 1024).toFixed(1)} KiB`;
const scenarios = [
  ['no model (structural floor)', undefined, () => ({})],
  ['a model that answers', client, answer],
  ['a model that fails every call (HTTP 500)', client, () => ({ status: 500 })],
];
const summary = [];
const detail = [];
const perAssembly = [];
for (const [name, aiClient, handler] of scenarios) {
  server.setHandler(handler);
  server.resetStats();
  const telemetry = createRecordingTelemetry();
  const run = await runDevopsAgent({ env: {}, aiClient, telemetry });
  const { synthesis, compaction } = run;
  const runCalls = server.requests.length;
  // One assembly alone: the model calls and distillations it makes, against the results it
  // distils (a model view, or a distillation that fell open).
  server.resetStats();
  const before = telemetry.total(METRIC_NAMES.distillTriggered);
  const again = await compaction.assembleSynthesis(run.steps);
  const distilledResults = again.sections.filter(
    (section) =>
      section.metadata?.strategy === 'distilled' ||
      section.metadata?.strategy === 'map-reduce' ||
      section.metadata?.fellOpen === true,
  ).length;
  perAssembly.push([
    name,
    String(distilledResults),
    String(telemetry.total(METRIC_NAMES.distillTriggered) - before),
    String(server.requests.length),
  ]);
  const budget = compaction.synthesisBudgets.totalBytes;
  const successes = synthesis.sections.filter((section) => section.status === 'succeeded');
  summary.push([
    name,
    String(successes.length),
    kib(synthesis.successBytes),
    kib(budget),
    `**${((synthesis.successBytes / budget) * 100).toFixed(1)}%**`,
    String(runCalls),
    run.needles.map((needle) => (needle.found ? 'yes' : 'no')).join(' / '),
  ]);
  for (const section of successes) {
    const step = run.steps.find((s) => s.id === section.stepId);
    detail.push([
      name,
      `${section.stepId} ${section.toolName}`,
      kib(utf8ByteLength(step.result ?? '')),
      kib(section.budgetBytes ?? 0),
      kib(utf8ByteLength(section.text)),
      section.metadata?.strategy ?? '',
      trailingDisclosureNotes(section.text)
        .map((note) => note.kind)
        .join(', ') || '(lossless)',
    ]);
  }
}
await server.close();

writeResult(
  'synthesis-budget',
  'Synthesis budget use on the demo results',
  `
The demo (\`examples/devops-agent\`) gathers a 1 MB pod list, a 360 KB deploy diff and 3 MB of
logs (plus a failed metrics query) and puts them into one synthesis prompt with the default
budgets: 192 KiB in all, 64 KiB per result when several share it. "Budget use" is the bytes
of the success views (headings included) over the 192 KiB. The answering model returns about
the size it is asked for; the failing one answers HTTP 500 to every call, so every
distillation falls open to the structural floor. "Model calls" counts every call of the run
(continuation summaries and the planner included).

${markdownTable(
  [
    'model',
    'results',
    'bytes in the prompt',
    'budget',
    'budget use',
    'model calls',
    'needles found (pod / log / diff)',
  ],
  summary,
)}

One synthesis assembly of the same results, alone: each distilled result is distilled once
(a distillation may make several model calls: map-reduce segments and their reduce).

${markdownTable(
  ['model', 'distilled results', 'distillations per assembly', 'model calls per assembly'],
  perAssembly,
)}

Per result:

${markdownTable(['model', 'step', 'result', 'budget', 'view', 'strategy', 'notes'], detail)}

Without a model, and with a model that fails every call, the prompt uses the whole budget:
each result gets its 64 KiB share (a fallen-open distillation is trimmed again with the budget
the other views left, up to the share it would have had undistilled, instead of keeping a
summary-sized 4 KiB floor; the distiller leaves the floor to the composer, which runs it
once). With a model that answers, the prompt is small by design: a result
that is distilled is allocated its summary (\`COMPACTION_RESULT_DISTILL_TARGET\`, 4 KiB) plus
room for its notes, and budget it does not use goes to results that are not distilled; here
all three are. Which needles reach the prompt then depends on the model (this stand-in copies
lines and records that look like evidence; the diff's change sits in the part Stage 1 leaves
out, as \`[partial source: …]\` says).
`,
);
