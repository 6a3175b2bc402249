import {
  BYTES_PER_TOKEN,
  type CallDeadline,
  disclosureNotes,
  fitsWhole,
  floorGraceMs,
  type ProcessedResult,
  type ResultProcessor,
  type ResultProcessorContext,
  type ResultTrimMetadata,
  SeamDeadlineError,
  type StepRecord,
  startCallDeadline,
  type TokenCounter,
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
   * The structural floor. A result meant to be distilled whose distillation fell open
   * (`metadata.fellOpen`) is floored here, once, at the share it would have had undistilled
   * (the budget other views left unused), instead of a floor the size of a summary: the
   * processor is asked to leave the floor to the composer (`deferFloor`). Default none (the
   * processor floors its own fall-opens).
   */
  floor?: ResultProcessor;
  /**
   * The compaction deadline of each result, derived here once per result and handed to the
   * processor and the floor in the context. Default none (each processor derives its own).
   */
  deadline?: { deadlineMs: number; now?: () => number };
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
  /**
   * Token shares the success views are held to, as `counter` counts them: the byte budgets
   * above are then read as token shares at 3.5 bytes a token, and each structural view gets the
   * bytes its result's own density gives that share (measured once on a sample of the result).
   * When the counted views still exceed a share, the structural views are floored once more,
   * to budgets from their counted bytes per token; model views are never made again. Default
   * none: the budgets are bytes.
   */
  tokens?: { counter: TokenCounter; totalTokens: number; perResultTokens: number };
}

const MESSAGE_BYTES = 300;
// Bytes of a result counted to measure its bytes per token.
const DENSITY_SAMPLE_BYTES = 65_536;
// Shrink a little past the measured ratio, so a corrected view lands under its share.
const MARGIN = 0.97;

/** True for a view a model wrote (a distillation), as opposed to a structural one. */
function isModelView(metadata: ResultTrimMetadata): boolean {
  return metadata.strategy === 'distilled' || metadata.strategy === 'map-reduce';
}

/** Bytes per token of `result` as `counter` counts a sample of it, over the 3.5 estimate, at most 1. */
function densityOf(result: string, counter: TokenCounter): number {
  if (result === '') return 1;
  const sample = truncateUtf8(result, DENSITY_SAMPLE_BYTES);
  const tokens = counter.countTokens(sample);
  if (!(tokens > 0)) return 1;
  return Math.min(1, utf8ByteLength(sample) / tokens / BYTES_PER_TOKEN);
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
  // Budgets are in units: bytes, or with token shares tokens × 3.5 (what the byte budgets
  // assume). A view of a result gets its units times the result's measured density (a summary
  // quoting a dense result is dense too).
  const fit = input.tokens;
  // Never fewer units than bytes: text sparser than the estimate keeps the byte budgets.
  const units = (text: string) =>
    fit
      ? Math.max(utf8ByteLength(text), Math.ceil(fit.counter.countTokens(text) * BYTES_PER_TOKEN))
      : utf8ByteLength(text);
  const density = new Map(
    successes.map((step) => [step.id, fit ? densityOf(step.result ?? '', fit.counter) : 1]),
  );
  const viewBytes = (step: StepRecord, budget: number) => {
    if (budget <= 0) return budget;
    const bytes = Math.floor(budget * density.get(step.id)!);
    return Math.max(bytes, Math.min(budget, input.minimumBytes));
  };
  const sizeUnits = (step: StepRecord) => Math.ceil(sizes.get(step.id)! / density.get(step.id)!);
  const headings = successes.reduce((sum, step) => sum + units(heading(step)) + 2, 0);
  const allocate = (distilled: ReadonlySet<string>, totalBytes: number) =>
    allocateSynthesisBudgets(
      successes.map((step) => ({
        id: step.id,
        bytes: sizeUnits(step),
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
          !fitsWhole(step.result ?? '', viewBytes(step, undistilled.get(step.id)!), bytes)
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
    headings + successes.reduce((sum, step) => sum + units(annotations.get(step.id) ?? ''), 0);
  const leftOut = (step: StepRecord) =>
    disclosureNotes.resultLeftOut({ originalBytes: sizes.get(step.id)! });
  // A result that gets no budget is stood for by its note, which takes room too: allocate again
  // without that room until the set of results left out stops growing.
  let viewsBytes = input.totalBytes - overhead;
  let budgets = allocate(distilled, viewsBytes);
  for (let reserved = 0; ; ) {
    const notes = successes.reduce(
      (sum, step) =>
        budgets.get(step.id) === 0 && (step.result ?? '') !== '' ? sum + units(leftOut(step)) : sum,
      0,
    );
    if (notes <= reserved) break;
    reserved = notes;
    viewsBytes = input.totalBytes - overhead - reserved;
    budgets = allocate(distilled, viewsBytes);
  }
  const base = (step: StepRecord): ResultProcessorContext => ({
    userQuery: input.userQuery,
    stepTask: step.task,
    stepId: step.id,
    requestId: input.requestId,
    toolName: step.toolName,
    signal: input.signal,
    ...(input.shouldStop ? { shouldStop: input.shouldStop } : {}),
  });
  // One deadline per result, from the moment its view is started; released when all are done.
  const releases: Array<() => void> = [];
  const bounded = new Map<string, ResultProcessorContext>();
  const context = (step: StepRecord): ResultProcessorContext => {
    const within = input.deadline
      ? startCallDeadline(base(step), {
          deadlineMs: input.deadline.deadlineMs,
          now: input.deadline.now,
          reason: () =>
            new SeamDeadlineError({
              seam: 'resultProcessor',
              deadlineMs: input.deadline!.deadlineMs,
            }),
        })
      : { context: base(step), release: () => {} };
    releases.push(within.release);
    bounded.set(step.id, within.context);
    return within.context;
  };
  // The floor of a fall-open runs on the caller's signal and the result's deadline plus the
  // floor's grace, so a model that timed out still leaves an ordinary result its floor.
  const floorContext = (step: StepRecord): ResultProcessorContext => {
    const deadline: CallDeadline | undefined = bounded.get(step.id)?.deadline;
    if (!deadline) return base(step);
    return {
      ...base(step),
      shouldStop: deadline.pollWithGrace(floorGraceMs(deadline.deadlineMs)),
      deadline,
    };
  };
  try {
    return await assembleWithin();
  } finally {
    for (const release of releases) release();
  }

  async function assembleWithin(): Promise<SynthesisAssembly> {
    const views = await mapLimited(successes, input.concurrency ?? 4, async (step) => {
      const share = budgets.get(step.id)!;
      const budget = viewBytes(step, share);
      const result = step.result ?? '';
      if (budget === 0 && result !== '') return { budget, processed: undefined, durationMs: 0 };
      const started = performance.now();
      const processed: ProcessedResult = await input.processor.process(
        result,
        Math.max(budget, 0),
        {
          ...context(step),
          ...(input.floor && distilled.has(step.id) ? { deferFloor: true } : {}),
        },
      );
      return { budget, processed, durationMs: performance.now() - started };
    });
    const viewById = new Map(successes.map((step, i) => [step.id, views[i]!]));

    // A distillation that fell open left its floor to this composer: floor it once, with the
    // budget the other views left unused, up to the share it would have had undistilled. (A
    // distiller that threw or hung got the guard's byte cut instead: floored here too.)
    const fellOpen = successes.filter((step) => {
      const { processed } = viewById.get(step.id)!;
      return (
        distilled.has(step.id) &&
        processed !== undefined &&
        (processed.metadata.fellOpen === true || !isModelView(processed.metadata))
      );
    });
    if (input.floor && fellOpen.length > 0) {
      let room = viewsBytes;
      for (const step of successes) {
        if (fellOpen.includes(step)) continue;
        const { processed } = viewById.get(step.id)!;
        room -= units(processed ? processed.text : leftOut(step));
      }
      const order = [...fellOpen].sort((a, b) => sizes.get(a.id)! - sizes.get(b.id)!);
      // In units, as the budgets were allocated.
      let reserved = order.reduce((sum, step) => sum + budgets.get(step.id)!, 0);
      for (let k = 0; k < order.length; k++) {
        const step = order[k]!;
        const view = viewById.get(step.id)!;
        const given = budgets.get(step.id)!;
        reserved -= given;
        const surplus = Math.max(0, room - reserved - given);
        const share = viewBytes(
          step,
          Math.max(
            given,
            Math.min(cap, sizeUnits(step), given + Math.floor(surplus / (order.length - k))),
          ),
        );
        const started = performance.now();
        const floored = await input.floor.process(step.result ?? '', share, floorContext(step));
        viewById.set(step.id, {
          budget: share,
          processed: { text: floored.text, metadata: { ...floored.metadata, fellOpen: true } },
          durationMs: view.durationMs + performance.now() - started,
        });
        room -= units(floored.text);
      }
    }

    const sectionText = (step: StepRecord) => {
      const { processed } = viewById.get(step.id)!;
      return `${heading(step)}${annotations.get(step.id) ?? ''}${processed ? processed.text : leftOut(step)}`;
    };
    // With token shares: count the views, and when they exceed a share, floor the structural
    // views once more with budgets from their own counted bytes per token.
    let successTokens: number | undefined;
    if (fit) {
      const count = () => successes.map((step) => fit.counter.countTokens(sectionText(step)));
      let counts = count();
      const capTokens = successes.length === 1 ? fit.totalTokens : fit.perResultTokens;
      const total = counts.reduce((sum, n) => sum + n, 0);
      const structural = successes
        .map((step, i) => ({ step, i, view: viewById.get(step.id)! }))
        .filter(({ view }) => view.processed && !isModelView(view.processed.metadata));
      const structuralTokens = structural.reduce((sum, { i }) => sum + counts[i]!, 0);
      if (
        input.floor &&
        structuralTokens > 0 &&
        (total > fit.totalTokens || counts.some((n) => n > capTokens))
      ) {
        const scale = Math.min(
          1,
          (fit.totalTokens - (total - structuralTokens)) / structuralTokens,
        );
        for (const { step, i, view } of structural) {
          const target = Math.min(counts[i]! * scale, capTokens);
          if (target >= counts[i]!) continue;
          const bodyTokens = Math.max(1, counts[i]! - fit.counter.countTokens(heading(step)));
          const bodyTarget = target - (counts[i]! - bodyTokens);
          const bytes = utf8ByteLength(view.processed!.text);
          const budget = Math.max(
            Math.min(bytes, input.minimumBytes),
            Math.floor(((bytes * bodyTarget) / bodyTokens) * MARGIN),
          );
          const started = performance.now();
          const floored = await input.floor.process(step.result ?? '', budget, floorContext(step));
          const { fellOpen } = view.processed!.metadata;
          viewById.set(step.id, {
            budget,
            processed: fellOpen
              ? { text: floored.text, metadata: { ...floored.metadata, fellOpen } }
              : floored,
            durationMs: view.durationMs + performance.now() - started,
          });
        }
        counts = count();
      }
      successTokens = counts.reduce((sum, n) => sum + n, 0);
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
        const text = sectionText(step);
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
    return {
      text,
      bytes: utf8ByteLength(text),
      sections,
      contentLost,
      successBytes,
      ...(successTokens !== undefined ? { successTokens } : {}),
      evidenceBytes,
    };
  }
}
