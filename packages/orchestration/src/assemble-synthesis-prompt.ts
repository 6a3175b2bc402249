import {
  type ProcessedResult,
  type ResultProcessor,
  type ResultTrimMetadata,
  truncateUtf8,
  utf8ByteLength,
} from '@compaction/core';
import {
  type FailedOperationEvidence,
  type FailedOperationInputPolicy,
  projectFailedOperationEvidence,
  type StepRecord,
} from '@compaction/digest';
import { allocateSynthesisBudgets } from './allocate-synthesis-budgets.js';

/** One rendered result of a synthesis prompt. */
export interface SynthesisSection {
  stepId: string;
  toolName: string | undefined;
  status: StepRecord['status'];
  /** The section as it appears in the prompt, heading included. */
  text: string;
  /** Budget the result's view was given, in bytes (successes only). */
  budgetBytes?: number;
  /** How the view was made (successes only). */
  metadata?: ResultTrimMetadata;
  /** Wall-clock milliseconds the processor took (successes only). */
  durationMs?: number;
  /** Failed-operation evidence status (failures only). */
  evidence?: FailedOperationEvidence['status'];
}

/** The assembled results of a synthesis prompt. */
export interface SynthesisAssembly {
  /** Every section, in step order, separated by blank lines. */
  text: string;
  /** UTF-8 bytes of `text`. */
  bytes: number;
  sections: SynthesisSection[];
  /** True when any section's view is not its whole result. */
  contentLost: boolean;
  /** Bytes of the success views (bounded by the total budget). */
  successBytes: number;
  /** Bytes of the failed-operation evidence (bounded separately). */
  evidenceBytes: number;
}

/** Everything `assembleSynthesisPrompt` needs besides the steps. */
export interface SynthesisAssemblyInput {
  processor: ResultProcessor;
  /** Budget of all success views together, headings included. */
  totalBytes: number;
  /** Cap per success view. */
  perResultBytes: number;
  /** Post-distill footprint used for allocation. */
  distilledBytes: number;
  /** Whether a result of this many bytes will be distilled. */
  willDistill: (bytes: number) => boolean;
  /** Smallest budget worth giving a result; below it the result is left out and says so. */
  minimumBytes: number;
  failedOperationView: {
    enabled: boolean;
    maxInputBytes: number;
    maxStepBytes: number;
    maxPromptBytes: number;
    policy?: FailedOperationInputPolicy;
  };
  /**
   * A line shown under a success's heading, before its view (an artifact marker, say); its
   * bytes come out of the total budget. Called once per success, before budgets are split.
   */
  annotate?: (step: StepRecord, willDistill: boolean) => Promise<string | undefined>;
  userQuery?: string;
  requestId?: string;
  signal?: AbortSignal;
  /** Handed to the processor of every view (see `ResultProcessorContext.shouldStop`). */
  shouldStop?: () => boolean;
  /** Views computed at once. Default 4. */
  concurrency?: number;
}

const MESSAGE_BYTES = 300;

function heading(step: StepRecord, suffix = ''): string {
  return `### ${step.id}${step.toolName ? ` · ${step.toolName}` : ''}${suffix}\n`;
}

async function mapLimited<T, R>(
  items: readonly T[],
  limit: number,
  fn: (item: T) => Promise<R>,
): Promise<R[]> {
  const results = new Array<R>(items.length);
  let next = 0;
  const worker = async () => {
    while (next < items.length) {
      const index = next++;
      results[index] = await fn(items[index]!);
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
  return results;
}

/**
 * Puts several step results into one synthesis prompt. Successful results share the total
 * budget (max-min fair, with results that will be distilled sized at their post-distill
 * footprint) and each is compacted by `processor` to its share; failed steps enter through the
 * failed-operation evidence view, bounded separately; bindings rejected before dispatch are
 * shown as such, not as tool failures.
 */
export async function assembleSynthesisPrompt(
  steps: readonly StepRecord[],
  input: SynthesisAssemblyInput,
): Promise<SynthesisAssembly> {
  const successes = steps.filter((step) => step.status === 'succeeded');
  const annotations = new Map<string, string>();
  if (input.annotate) {
    for (const step of successes) {
      const line = await input.annotate(step, input.willDistill(utf8ByteLength(step.result ?? '')));
      if (line) annotations.set(step.id, `${line}\n`);
    }
  }
  const overhead = successes.reduce(
    (sum, step) =>
      sum + utf8ByteLength(heading(step)) + utf8ByteLength(annotations.get(step.id) ?? '') + 2,
    0,
  );
  const budgets = allocateSynthesisBudgets(
    successes.map((step) => {
      const bytes = utf8ByteLength(step.result ?? '');
      return { id: step.id, bytes, willDistill: input.willDistill(bytes) };
    }),
    {
      perResultBytes: input.perResultBytes,
      totalBytes: Math.max(1, input.totalBytes - overhead),
      distilledBytes: input.distilledBytes,
      minimumBytes: input.minimumBytes,
    },
  );
  const views = await mapLimited(successes, input.concurrency ?? 4, async (step) => {
    const budget = budgets.get(step.id)!;
    const result = step.result ?? '';
    if (budget === 0 && result !== '') return { budget, processed: undefined, durationMs: 0 };
    const started = performance.now();
    const processed: ProcessedResult = await input.processor.process(result, Math.max(budget, 0), {
      userQuery: input.userQuery,
      stepTask: step.task,
      stepId: step.id,
      requestId: input.requestId,
      toolName: step.toolName,
      signal: input.signal,
      ...(input.shouldStop ? { shouldStop: input.shouldStop } : {}),
    });
    return { budget, processed, durationMs: performance.now() - started };
  });
  const viewById = new Map(successes.map((step, i) => [step.id, views[i]!]));

  const failedCount = steps.filter((step) => step.status === 'failed').length;
  let evidenceLeft = input.failedOperationView.maxPromptBytes;
  const sections: SynthesisSection[] = [];
  let contentLost = false;
  let successBytes = 0;
  let evidenceBytes = 0;
  for (const step of steps) {
    if (step.status === 'succeeded') {
      const { budget, processed, durationMs } = viewById.get(step.id)!;
      const body = processed
        ? processed.text
        : `[result left out: ${utf8ByteLength(step.result ?? '')} bytes did not fit the synthesis budget; its content is UNKNOWN]`;
      const text = `${heading(step)}${annotations.get(step.id) ?? ''}${body}`;
      contentLost ||= processed ? processed.metadata.contentLost : true;
      successBytes += utf8ByteLength(text);
      sections.push({
        stepId: step.id,
        toolName: step.toolName,
        status: step.status,
        text,
        budgetBytes: budget,
        metadata: processed?.metadata,
        durationMs,
      });
      continue;
    }
    const code = step.error?.code ?? 'unknown';
    const message = truncateUtf8((step.error?.message ?? '').replace(/\s+/g, ' '), MESSAGE_BYTES);
    if (step.status === 'rejected') {
      sections.push({
        stepId: step.id,
        toolName: step.toolName,
        status: step.status,
        text: `${heading(step, ' · REJECTED before dispatch')}[REJECTED: ${code}${message ? ` — ${message}` : ''}; the tool was not called]`,
      });
      continue;
    }
    let evidenceText = '';
    let status: FailedOperationEvidence['status'] = 'not_applicable';
    if (input.failedOperationView.enabled) {
      const perStep = Math.min(input.failedOperationView.maxStepBytes, Math.max(0, evidenceLeft));
      const evidence = projectFailedOperationEvidence(step, {
        maxInputBytes: input.failedOperationView.maxInputBytes,
        maxStepBytes: perStep,
        policy: input.failedOperationView.policy,
      });
      status = evidence.status;
      if (evidence.status === 'complete' || evidence.status === 'partial') {
        evidenceText = `\nevidence (${evidence.status}): ${evidence.json}`;
        evidenceLeft -= evidence.bytes;
        evidenceBytes += evidence.bytes;
      } else if (evidence.status === 'unavailable') {
        evidenceText = '\nevidence: unavailable (no dispatch evidence recorded for this attempt)';
      } else if (evidence.status === 'omitted') {
        evidenceText = `\nevidence: omitted (the prompt's failed-operation budget of ${input.failedOperationView.maxPromptBytes} bytes is spent${failedCount > 1 ? ` across ${failedCount} failures` : ''})`;
      }
    }
    sections.push({
      stepId: step.id,
      toolName: step.toolName,
      status: step.status,
      text: `${heading(step, ' · FAILED')}[FAILED: ${code}${message ? ` — ${message}` : ''}]${evidenceText}`,
      evidence: status,
    });
  }
  const text = sections.map((section) => section.text).join('\n\n');
  return { text, bytes: utf8ByteLength(text), sections, contentLost, successBytes, evidenceBytes };
}
