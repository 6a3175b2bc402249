import { parseArtifactPointerLine } from '@compaction/artifacts';
import {
  type AIClient,
  type CompactionTelemetry,
  type JsonValue,
  stripDisclosureNotes,
  type TokenCounter,
} from '@compaction/core';
import type { PlanningSection, StepRecord } from '@compaction/digest';
import {
  type Compaction,
  createCompaction,
  type SynthesisAssembly,
} from '@compaction/orchestration';
import { checkBuriedFacts } from './check-buried-facts.js';
import { DEMO_TOOLS, NEEDLES, ToolFailure, tool } from './tools.js';

/** One planned call; params may hold `{{step-N.path}}` references to earlier results. */
export interface PlannedCall {
  tool: string;
  params: Record<string, JsonValue>;
  task: string;
}

/** Everything the run did, for printing and for tests. */
export interface DevopsAgentRun {
  question: string;
  mode: 'model' | 'offline';
  steps: StepRecord[];
  /** Milliseconds each tool took, by step id. */
  toolMs: Record<string, number>;
  /** The continuation section phase 2 was planned from: the first three steps. */
  plannerSection: PlanningSection;
  /** The continuation section of the whole run, all four steps: what the planner would see next. */
  continuation: PlanningSection;
  /** The `{{…}}` reference the second phase bound, and what it bound to. */
  binding: { template: string; value: string } | undefined;
  synthesis: SynthesisAssembly;
  /**
   * Wall-clock milliseconds the synthesis assembly took in all: storing the full results, then
   * compacting every view. The views are compacted concurrently, so their own times overlap and
   * none of them is a per-result cost.
   */
  synthesisMs: number;
  answer: string;
  /** Whether the facts each payload hides made it into the synthesis prompt. */
  needles: Array<{ what: string; found: boolean }>;
  compaction: Compaction;
}

/** Inputs of `runDevopsAgent`. */
export interface DevopsAgentSettings {
  /** Environment for `COMPACTION_*` knobs. */
  env: Readonly<Record<string, string | undefined>>;
  /** The model; without one the run is offline on the structural floor. */
  aiClient?: AIClient;
  /** Progress lines (plans, bindings). */
  log?: (line: string) => void;
  question?: string;
  /** Telemetry for every compaction of the run. Default none. */
  telemetry?: CompactionTelemetry;
  /** Session transcript path: full results are stored beside it as artifacts. Default none. */
  transcriptPath?: string;
  /** Counts tokens for routing and for the report. Default: UTF-8 bytes / 3.5. */
  tokenCounter?: TokenCounter;
}

const DEFAULT_QUESTION =
  'Payments in the shop namespace started failing after the last deploy. What is failing, why, and what changed?';

const FIRST_PLAN: PlannedCall[] = [
  {
    tool: 'kubectl_get_pods',
    params: { namespace: 'shop' },
    task: 'List the pods of the shop namespace and their status.',
  },
  {
    tool: 'git_diff',
    params: { range: 'deploy-41..deploy-42' },
    task: 'Show what the last deploy changed.',
  },
  {
    tool: 'prometheus_query',
    params: {
      query: 'sum(rate(http_requests_total{namespace="shop",code=~"5.."}[5m])) by (pod)',
      range: '30m',
    },
    task: 'Error rate per pod over the last 30 minutes.',
  },
];

function extractJson(text: string): unknown {
  const start = text.indexOf('{');
  const end = text.lastIndexOf('}');
  if (start < 0 || end <= start) return undefined;
  try {
    return JSON.parse(text.slice(start, end + 1));
  } catch {
    return undefined;
  }
}

async function execute(
  call: PlannedCall,
  id: string,
  params: Record<string, JsonValue>,
): Promise<StepRecord> {
  try {
    const result = await tool(call.tool).run(params);
    return {
      id,
      status: 'succeeded',
      toolName: call.tool,
      task: call.task,
      result,
      inputs: params,
    };
  } catch (error) {
    const code = error instanceof ToolFailure ? error.code : 'tool_error';
    const message = error instanceof Error ? error.message : String(error);
    return {
      id,
      status: 'failed',
      toolName: call.tool,
      task: call.task,
      error: { code, message },
      inputs: params,
    };
  }
}

/** The offline planner: reads the FULL step-1 value (not the digest) to find the failing pod. */
function offlineNextCall(steps: StepRecord[], compaction: Compaction): PlannedCall {
  const pods = compaction.resolver(steps).resolve('{{step-1.items}}').value as Array<
    Record<string, JsonValue>
  >;
  const index = pods.findIndex((pod) => JSON.stringify(pod.status).includes('CrashLoopBackOff'));
  return {
    tool: 'fetch_logs',
    params: { pod: `{{step-1.items[${Math.max(0, index)}].metadata.name}}` },
    task: 'Fetch the logs of the crash-looping pod.',
  };
}

async function modelNextCall(
  client: AIClient,
  question: string,
  section: PlanningSection,
  fallback: () => PlannedCall,
  log: (line: string) => void,
): Promise<PlannedCall> {
  const tools = DEMO_TOOLS.map((t) => `- ${t.name}: ${t.description}`).join('\n');
  try {
    const reply = await client.complete({
      model: 'default',
      system:
        'You plan the next tool call of a DevOps investigation. Answer with one JSON object {"tool": NAME, "params": {...}, "task": TEXT} and nothing else. ' +
        'A param may pass a value from an earlier step with a {{step-N.path}} reference (for example {{step-1.items[3].metadata.name}}); it is bound to the full value at run time.',
      prompt: `Question: ${question}\n\nTools:\n${tools}\n\n${section.text}\n\nWhich single call should run next?`,
      maxTokens: 400,
    });
    const call = extractJson(reply.text) as Partial<PlannedCall> | undefined;
    if (call && typeof call.tool === 'string' && call.params && typeof call.params === 'object') {
      return {
        tool: call.tool,
        params: call.params as Record<string, JsonValue>,
        task: call.task ?? 'planned by the model',
      };
    }
    log('  the planner model did not answer with a call; using the offline planner for this phase');
  } catch (error) {
    log(
      `  the planner model failed (${error instanceof Error ? error.message : String(error)}); using the offline planner`,
    );
  }
  return fallback();
}

const EVIDENCE = /error|fail|oom|crashloop|exhausted|timeout|back-off|poolmax/i;
const MAX_HITS = 6;
const MAX_LINE_CHARS = 240;

/** `path = "value"` for each string in `value` that reads as evidence (a key alone is not: `failureThreshold` is a setting). */
function jsonHits(value: unknown, path: string, hits: Set<string>): void {
  if (hits.size >= MAX_HITS) return;
  if (typeof value === 'string') {
    if (EVIDENCE.test(value)) hits.add(`${path} = ${JSON.stringify(value)}`);
  } else if (Array.isArray(value)) {
    for (const [i, item] of value.entries()) jsonHits(item, `${path}[${i}]`, hits);
  } else if (value !== null && typeof value === 'object') {
    for (const [key, item] of Object.entries(value))
      jsonHits(
        item,
        /^[A-Za-z_$][\w$]*$/.test(key)
          ? `${path ? `${path}.` : ''}${key}`
          : `${path}[${JSON.stringify(key)}]`,
        hits,
      );
  }
}

function parsedJson(text: string): { value: unknown } | undefined {
  if (!/^\s*[[{]/.test(text)) return undefined;
  try {
    return { value: JSON.parse(text) };
  } catch {
    return undefined;
  }
}

/** A whole line, or its first MAX_LINE_CHARS code points and a mark that it goes on. */
function wholeLine(line: string): string {
  const points = [...line];
  return points.length > MAX_LINE_CHARS
    ? `${points.slice(0, MAX_LINE_CHARS).join('')} …(line cut)`
    : line;
}

/**
 * What the structural floor kept that looks like evidence, per section: JSON is read as JSON
 * (each matching string as `path = "value"`, never a cut fragment of the text), anything else
 * line by line.
 */
function offlineAnswer(synthesis: SynthesisAssembly): string {
  const lines: string[] = [
    'No model was configured, so this report lists what the structural floor kept that looks like evidence:',
  ];
  for (const section of synthesis.sections) {
    const hits = new Set<string>();
    const body = stripDisclosureNotes(section.text)
      .split('\n')
      .slice(1)
      .filter((line) => !parseArtifactPointerLine(line));
    const whole = parsedJson(body.join('\n'));
    if (whole) jsonHits(whole.value, '', hits);
    else {
      for (const raw of body) {
        if (hits.size >= MAX_HITS) break;
        const line = raw.trim();
        // A labelled JSON value, as failed-operation evidence is written: `evidence (complete): {…}`.
        const labelled = /^([^{["]*?):\s*([[{].*)$/.exec(line);
        const json = parsedJson(labelled ? labelled[2]! : line);
        if (json) jsonHits(json.value, labelled ? labelled[1]! : '', hits);
        else if (EVIDENCE.test(line)) hits.add(wholeLine(line));
      }
    }
    lines.push(
      `- ${section.stepId} (${section.toolName}):${hits.size ? '' : ' nothing error-like kept'}`,
    );
    for (const hit of hits) lines.push(`    ${hit}`);
  }
  return lines.join('\n');
}

/**
 * A small planner/synthesizer loop: phase 1 fans out over three tools (one fails), the
 * continuation section shows the planner digests of what came back, phase 2 binds a
 * `{{step-1.…}}` reference against the full pod list to fetch one pod's logs, and synthesis
 * puts every result into one prompt within its budget.
 */
export async function runDevopsAgent(settings: DevopsAgentSettings): Promise<DevopsAgentRun> {
  const log = settings.log ?? (() => {});
  const question = settings.question ?? DEFAULT_QUESTION;
  const compaction = createCompaction({
    env: settings.env,
    aiClient: settings.aiClient,
    telemetry: settings.telemetry,
    ...(settings.tokenCounter ? { tokenCounter: settings.tokenCounter } : {}),
    ...(settings.transcriptPath ? { transcriptPath: settings.transcriptPath } : {}),
  });
  const steps: StepRecord[] = [];
  const toolMs: Record<string, number> = {};

  log('phase 1: kubectl_get_pods, git_diff, prometheus_query (in parallel)');
  const first = await Promise.all(
    FIRST_PLAN.map(async (call, i) => {
      const started = performance.now();
      const step = await execute(call, `step-${i + 1}`, call.params);
      toolMs[step.id] = performance.now() - started;
      return step;
    }),
  );
  steps.push(...first);

  const plannerSection = await compaction.renderContinuation(steps, { userQuery: question });
  const offline = () => offlineNextCall(steps, compaction);
  const next = settings.aiClient
    ? await modelNextCall(settings.aiClient, question, plannerSection, offline, log)
    : offline();
  let binding: DevopsAgentRun['binding'];
  const params: Record<string, JsonValue> = {};
  const resolver = compaction.resolver(steps);
  for (const [name, value] of Object.entries(next.params)) {
    if (typeof value === 'string' && value.includes('{{')) {
      try {
        const bound = resolver.bind(value);
        params[name] = bound.value;
        binding = {
          template: value,
          value: typeof bound.value === 'string' ? bound.value : bound.json,
        };
      } catch (error) {
        log(`  could not bind ${value}: ${error instanceof Error ? error.message : String(error)}`);
        params[name] = value;
      }
    } else params[name] = value;
  }
  log(
    `phase 2: ${next.tool}(${JSON.stringify(next.params)})${binding ? ` → ${binding.value}` : ''}`,
  );
  const started = performance.now();
  const fourth = await execute(next, 'step-4', params);
  toolMs[fourth.id] = performance.now() - started;
  steps.push(fourth);
  const continuation = await compaction.renderContinuation(steps, { userQuery: question });

  const assemblyStarted = performance.now();
  const synthesis = await compaction.assembleSynthesis(steps, { userQuery: question });
  const synthesisMs = performance.now() - assemblyStarted;
  let answer: string;
  if (settings.aiClient) {
    try {
      const reply = await settings.aiClient.complete({
        model: 'default',
        system:
          'You are an SRE. Answer the question from the tool results only. Lines in [brackets] say what a view leaves out: treat that content as UNKNOWN, not absent.',
        prompt: `Question: ${question}\n\nTool results:\n\n${synthesis.text}`,
        maxTokens: 1200,
      });
      answer = reply.text;
    } catch (error) {
      answer = `${offlineAnswer(synthesis)}\n(the synthesis model failed: ${error instanceof Error ? error.message : String(error)})`;
    }
  } else answer = offlineAnswer(synthesis);

  return {
    question,
    mode: settings.aiClient ? 'model' : 'offline',
    steps,
    toolMs,
    plannerSection,
    continuation,
    binding,
    synthesis,
    synthesisMs,
    answer,
    needles: checkBuriedFacts(synthesis.text, NEEDLES),
    compaction,
  };
}
