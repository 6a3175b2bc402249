import { parseArtifactPointerLine } from '@compaction/artifacts';
import { type TrimStrategy, trailingDisclosureNotes, utf8ByteLength } from '@compaction/core';
import type { SynthesisSection } from '@compaction/orchestration';
import type { DevopsAgentRun } from './run-devops-agent.js';

function size(bytes: number): string {
  return bytes >= 1024 * 1024
    ? `${(bytes / 1024 / 1024).toFixed(2)} MiB`
    : `${(bytes / 1024).toFixed(1)} KiB`;
}

const DECISIONS: Record<TrimStrategy, string> = {
  unchanged: 'kept whole',
  minified: 'kept whole (minified)',
  json: 'trimmed (JSON)',
  ndjson: 'trimmed (NDJSON)',
  text: 'trimmed (text)',
  bytes: 'cut to bytes',
  floor: 'cut to bytes (fallback)',
  distilled: 'distilled',
  'map-reduce': 'map-reduced',
  passthrough: 'passed through',
  custom: 'custom processor',
  omitted: 'left out',
};

/** What was done to a result: its view, and whether its full text went to an artifact. */
function decision(section: SynthesisSection): string {
  if (section.status === 'failed') return `failed-operation evidence (${section.evidence})`;
  if (section.status !== 'succeeded') return 'rejected before dispatch';
  const strategy = section.metadata?.strategy;
  // A strategy this table does not know (from a newer core) is shown as the processor named it.
  const view = strategy ? (DECISIONS[strategy] ?? strategy) : 'processed (no strategy given)';
  return parseArtifactPointerLine(section.text.split('\n', 2)[1] ?? '') ? `${view} + stored` : view;
}

function table(header: string[], rows: string[][]): string {
  const widths = header.map((cell, i) =>
    Math.max(cell.length, ...rows.map((row) => row[i]!.length)),
  );
  const line = (cells: string[]) =>
    cells
      .map((cell, i) => cell.padEnd(widths[i]!))
      .join('  ')
      .trimEnd();
  return [line(header), line(widths.map((w) => '-'.repeat(w))), ...rows.map(line)].join('\n');
}

/** Options of `formatRunReport`. */
export interface RunReportOptions {
  /** How the hints run pnpm: `pnpm`, or `npx -y pnpm@12.4.2` without it installed (`pnpmCommand`). Default `pnpm`. */
  pnpm?: string;
}

/** The human-readable report of a run: one row per result, the notes, the continuation view, the answer. */
export function formatRunReport(run: DevopsAgentRun, options: RunReportOptions = {}): string {
  const pnpm = options.pnpm ?? 'pnpm';
  const out: string[] = [];
  const counter = run.compaction.tokenCounter;
  const tokens = (text: string) => counter.countTokens(text);
  const budgets = run.compaction.synthesisBudgets;
  out.push(
    '',
    `Tokens counted with ${counter.name}.`,
    `Synthesis prompt (budget ${size(budgets.totalBytes)} in all, ${size(budgets.perResultBytes)} per result):`,
  );
  let rowTokens = 0;
  const rows = run.synthesis.sections.map((section) => {
    const step = run.steps.find((s) => s.id === section.stepId)!;
    const viewTokens = tokens(section.text);
    rowTokens += viewTokens;
    const notes = trailingDisclosureNotes(section.text).length;
    const succeeded = section.status === 'succeeded';
    return [
      section.stepId,
      section.toolName ?? '',
      `${succeeded ? size(utf8ByteLength(step.result ?? '')) : '—'} → ${size(utf8ByteLength(section.text))}`,
      `${succeeded ? tokens(step.result ?? '') : '—'} → ${viewTokens}`,
      decision(section),
      notes
        ? `${notes} (below)`
        : section.metadata?.contentLost === false
          ? 'none (lossless)'
          : 'none',
    ];
  });
  out.push(table(['step', 'tool', 'bytes', 'tokens', 'decision', 'notes'], rows));
  const notes = run.synthesis.sections.flatMap((section) =>
    trailingDisclosureNotes(section.text).map((note) => `${section.stepId}  ${note.text}`),
  );
  if (notes.length)
    out.push('Disclosure notes, as the model reads them at the end of each view:', ...notes);
  // Counted on the prompt as sent: the blank lines between sections are tokens too, and a
  // tokenizer may merge them with their neighbours, so the total need not be the rows' sum.
  const promptTokens = tokens(run.synthesis.text);
  const resultBytes = run.steps.reduce((sum, step) => sum + utf8ByteLength(step.result ?? ''), 0);
  out.push(
    `whole prompt: ${size(run.synthesis.bytes)} and ${promptTokens} tokens, from ${size(resultBytes)} of results`,
  );
  if (promptTokens !== rowTokens)
    out.push(
      `  (counted as sent: the rows sum to ${rowTokens} tokens; the blank lines between sections make the difference)`,
    );
  const stored = run.synthesis.sections.filter((section) =>
    decision(section).endsWith(' + stored'),
  );
  out.push(
    `Assembled in ${run.synthesisMs.toFixed(0)} ms: ${stored.length ? `storing ${stored.length} full result${stored.length === 1 ? '' : 's'}, then ` : ''}compacting all views concurrently`,
    '  (one time for all of them: the views overlap in time, so none has a time of its own)',
  );

  out.push(
    '',
    `Continuation section for the planner after the run (soft target ${size(run.compaction.config.continuation.maxTotalBytes)}): ${size(run.continuation.bytes)}, ${run.continuation.stepsShown} of ${run.continuation.stepsTotal} steps shown`,
    `  (phase 2 was planned from the section of the first ${run.plannerSection.stepsTotal} steps: ${size(run.plannerSection.bytes)}, ${run.plannerSection.stepsShown} shown)`,
  );
  out.push(
    table(
      ['step', 'view'],
      run.continuation.views.map((view) => [view.stepId, view.view]),
    ),
  );
  if (run.binding)
    out.push(
      `phase 2 bound ${run.binding.template} → ${run.binding.value} (against the full result, not the digest)`,
    );

  if (run.compaction.artifacts && stored.length > 0) {
    out.push(
      '',
      `The ${stored.length === 1 ? 'result' : `${stored.length} results`} that did not fit whole ${stored.length === 1 ? 'is' : 'are'} stored in full in ${run.compaction.artifacts.dir}`,
      `Open them in the inspector:  ${pnpm} exec compaction serve --dir .demo   (then the printed URL)`,
      `or give them to an MCP client: ${pnpm} exec compaction mcp --dir .demo`,
    );
  }
  out.push('', 'Did the evidence survive compaction?');
  for (const needle of run.needles) out.push(`  ${needle.found ? 'yes' : 'NO '}  ${needle.what}`);
  out.push(
    '',
    `Answer (${run.mode === 'model' ? 'from the model' : 'offline, structural floor only'}):`,
    run.answer,
  );
  return out.join('\n');
}
