import {
  disclosureNotes,
  fitsWhole,
  type ProcessedResult,
  type ResultProcessor,
  type ResultTrimMetadata,
  type StepRecord,
  truncateUtf8,
  utf8ByteLength,
} from '@compaction/core';
import {
  type FailedOperationEvidence,
  type FailedOperationInputPolicy,
  projectFailedOperationEvidence,
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
  /**
   * Wall-clock milliseconds from the processor's call to its result (successes only). Views are
   * made `concurrency` at a time and a processor's synchronous work (a trim) runs while the
   * others wait on I/O (storing a full result), so with more than one success these spans
   * overlap and each holds part of the others' work: not the cost of this view alone.
   */
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
  /**
   * Tokens of the success views as the `tokenCounter` counts them, when `createCompaction` was
   * given a counter and `contextWindowTokens` (the views then fit the window's token share).
   */
  successTokens?: number;
  /** Bytes of the failed-operation evidence (bounded separately). */
  evidenceBytes: number;
}

/** Everything `assembleSynthesisPrompt` needs besides the steps. */
export interface SynthesisAssemblyInput {
  processor: ResultProcessor;
  /** Budget of all success views together, headings included. */
  totalBytes: number;
  /**
   * Cap per success view when several successes share the prompt; a lone success gets the whole
   * `totalBytes` (seed 002 §4: the total is the per-call budget of a single result).
   */
  perResultBytes: number;
  /** Footprint of a distilled view, its notes included (`distilledViewBytes(targetBytes)`). */
  distilledBytes: number;
  /**
   * Whether a result of this many bytes is over the distill threshold with a model to send it
   * to. A result that fits its undistilled share whole (minified, for JSON) is never distilled.
   */
  willDistill: (bytes: number) => boolean;
  /** Smallest budget worth giving a result; below it the result is left out and says so. */
  minimumBytes: number;
  /**
   * The structural floor. A result meant to be distilled whose distillation fell open is
   * floored again at the share it would have had undistilled (the budget other views left
   * unused), instead of keeping a floor the size of a summary. Default none.
   */
  floor?: ResultProcessor;
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

/** True for a view a model wrote (a distillation), as opposed to a structural floor. */
function isModelView(metadata: ResultTrimMetadata): boolean {
  return metadata.strategy === 'distilled' || metadata.strategy === 'map-reduce';
}

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
 * budget max-min fairly (a lone result gets all of it; several are capped per result); a result
 * is distilled only when it is over the threshold and does not fit its undistilled share whole,
 * and is then sized at its distilled footprint, notes included, so the rest get more. Each is
 * compacted by `processor` to its share; a distillation that fell open is floored again with
 * the budget left unused. Failed steps enter through the failed-operation evidence view,
 * bounded separately; bindings rejected before dispatch are shown as such, not as tool failures.
 */
export async function assembleSynthesisPrompt(
  steps: readonly StepRecord[],
  input: SynthesisAssemblyInput,
): Promise<SynthesisAssembly> {
  const successes = steps.filter((step) => step.status === 'succeeded');
  const sizes = new Map(successes.map((step) => [step.id, utf8ByteLength(step.result ?? '')]));
  const cap = successes.length === 1 ? input.totalBytes : input.perResultBytes;
  const headings = successes.reduce((sum, step) => sum + utf8ByteLength(heading(step)) + 2, 0);
  const allocate = (distilled: ReadonlySet<string>, totalBytes: number) =>
    allocateSynthesisBudgets(
      successes.map((step) => ({
        id: step.id,
        bytes: sizes.get(step.id)!,
        willDistill: distilled.has(step.id),
      })),
      {
        perResultBytes: cap,
        totalBytes: Math.max(1, totalBytes),
        distilledBytes: input.distilledBytes,
        minimumBytes: input.minimumBytes,
      },
    );

  // A result is distilled only when it does not fit the share it would get undistilled.
  const undistilled = allocate(new Set(), input.totalBytes - headings);
  const distilled = new Set(
    successes
      .filter((step) => {
        const bytes = sizes.get(step.id)!;
        return (
          input.willDistill(bytes) &&
          !fitsWhole(step.result ?? '', undistilled.get(step.id)!, bytes)
        );
      })
      .map((step) => step.id),
  );

  const annotations = new Map<string, string>();
  if (input.annotate) {
    for (const step of successes) {
      const line = await input.annotate(step, distilled.has(step.id));
      if (line) annotations.set(step.id, `${line}\n`);
    }
  }
  const overhead =
    headings +
    successes.reduce((sum, step) => sum + utf8ByteLength(annotations.get(step.id) ?? ''), 0);
  const leftOut = (step: StepRecord) =>
    disclosureNotes.resultLeftOut({ originalBytes: sizes.get(step.id)! });
  // A result that gets no budget is stood for by its note, which takes room too: allocate again
  // without that room until the set of results left out stops growing.
  let viewsBytes = input.totalBytes - overhead;
  let budgets = allocate(distilled, viewsBytes);
  for (let reserved = 0; ; ) {
    const notes = successes.reduce(
      (sum, step) =>
        budgets.get(step.id) === 0 && (step.result ?? '') !== ''
          ? sum + utf8ByteLength(leftOut(step))
          : sum,
      0,
    );
    if (notes <= reserved) break;
    reserved = notes;
    viewsBytes = input.totalBytes - overhead - reserved;
    budgets = allocate(distilled, viewsBytes);
  }
  const context = (step: StepRecord) => ({
    userQuery: input.userQuery,
    stepTask: step.task,
    stepId: step.id,
    requestId: input.requestId,
    toolName: step.toolName,
    signal: input.signal,
    ...(input.shouldStop ? { shouldStop: input.shouldStop } : {}),
  });
  const views = await mapLimited(successes, input.concurrency ?? 4, async (step) => {
    const budget = budgets.get(step.id)!;
    const result = step.result ?? '';
    if (budget === 0 && result !== '') return { budget, processed: undefined, durationMs: 0 };
    const started = performance.now();
    const processed: ProcessedResult = await input.processor.process(
      result,
      Math.max(budget, 0),
      context(step),
    );
    return { budget, processed, durationMs: performance.now() - started };
  });
  const viewById = new Map(successes.map((step, i) => [step.id, views[i]!]));

  // A distillation that fell open got a floor the size of a summary: floor it again with the
  // budget the other views left unused, up to the share it would have had undistilled.
  const fellOpen = successes.filter((step) => {
    const { processed } = viewById.get(step.id)!;
    return distilled.has(step.id) && processed !== undefined && !isModelView(processed.metadata);
  });
  if (input.floor && fellOpen.length > 0) {
    let room = viewsBytes;
    for (const step of successes) {
      if (fellOpen.includes(step)) continue;
      const { processed } = viewById.get(step.id)!;
      room -= utf8ByteLength(processed ? processed.text : leftOut(step));
    }
    const order = [...fellOpen].sort((a, b) => sizes.get(a.id)! - sizes.get(b.id)!);
    let reserved = order.reduce((sum, step) => sum + viewById.get(step.id)!.budget, 0);
    for (let k = 0; k < order.length; k++) {
      const step = order[k]!;
      const view = viewById.get(step.id)!;
      reserved -= view.budget;
      const surplus = Math.max(0, room - reserved - view.budget);
      const share = Math.min(
        cap,
        sizes.get(step.id)!,
        view.budget + Math.floor(surplus / (order.length - k)),
      );
      if (share > view.budget) {
        const started = performance.now();
        const processed = await input.floor.process(step.result ?? '', share, context(step));
        viewById.set(step.id, {
          budget: share,
          processed,
          durationMs: view.durationMs + performance.now() - started,
        });
      }
      room -= utf8ByteLength(viewById.get(step.id)!.processed!.text);
    }
  }

  const failedCount = steps.filter((step) => step.status === 'failed').length;
  let evidenceLeft = input.failedOperationView.maxPromptBytes;
  const sections: SynthesisSection[] = [];
  let contentLost = false;
  let successBytes = 0;
  let evidenceBytes = 0;
  for (const step of steps) {
    if (step.status === 'succeeded') {
      const { budget, processed, durationMs } = viewById.get(step.id)!;
      const body = processed ? processed.text : leftOut(step);
      const text = `${heading(step)}${annotations.get(step.id) ?? ''}${body}`;
      const metadata: ResultTrimMetadata = processed
        ? processed.metadata
        : {
            contentLost: true,
            originalBytes: sizes.get(step.id)!,
            outputBytes: utf8ByteLength(body),
            strategy: 'omitted',
          };
      contentLost ||= metadata.contentLost;
      successBytes += utf8ByteLength(text);
      sections.push({
        stepId: step.id,
        toolName: step.toolName,
        status: step.status,
        text,
        budgetBytes: budget,
        metadata,
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
