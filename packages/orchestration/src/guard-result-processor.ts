import {
  assertSize,
  type CompactionTelemetry,
  callWithDeadline,
  createShouldStop,
  cutWithNote,
  disclosureNotes,
  type ProcessedResult,
  type ResultProcessor,
  resultTrimSpanAttributes,
  SeamDeadlineError,
  SPAN_NAMES,
  startCallDeadline,
  trailingDisclosureNotes,
  utf8ByteLength,
} from '@compaction/core';
import { byteCutFloor } from './byte-cut-floor.js';

function usable(value: unknown): value is ProcessedResult {
  if (typeof value !== 'object' || value === null) return false;
  const candidate = value as Partial<ProcessedResult>;
  return (
    typeof candidate.text === 'string' &&
    typeof candidate.metadata === 'object' &&
    candidate.metadata !== null &&
    typeof candidate.metadata.contentLost === 'boolean'
  );
}

/** Settings of `guardResultProcessor`. */
export interface GuardSettings {
  /** The seam's name, for errors and telemetry. Default `resultProcessor`. */
  seam?: string;
  /**
   * Deadline of one call in milliseconds, when its context carries none (one a layer above
   * derived, `context.deadline`, is used as given); 0 disables. The processor's `signal` aborts
   * (and its `shouldStop` turns true) at the deadline; one that has not settled a second later
   * is abandoned and the result gets the byte-cut floor. Default 0. The orchestration passes
   * `distill.deadlineMs` (`COMPACTION_RESULT_DISTILL_DEADLINE`) for the seams you replace.
   */
  deadlineMs?: number;
  /**
   * When given, a `result_trim.completed` span is emitted for every view that differs from the
   * input (for processors that do not emit their own, such as yours). Default none.
   */
  telemetry?: CompactionTelemetry;
}

/**
 * Holds any `ResultProcessor` (yours included) to the built-ins' contract:
 * - a processor that throws, rejects, does not settle within `deadlineMs`, or returns nothing
 *   usable (no text for a non-empty input, malformed metadata) falls back to the byte-cut floor
 *   with `[reduced without model analysis: …]`;
 * - a view that says `contentLost` but carries no framework note gets one, like the built-ins;
 * - a view over budget is cut to the budget and disclosed;
 * - byte counts in the metadata are recomputed from the actual text.
 * Cancellation through the context's `AbortSignal` is passed on, not swallowed, and so is an
 * `InvalidArgumentError` for a `maxBytes` that is not an integer ≥ 0 or Infinity (a caller's
 * bug, checked before the processor runs).
 */
export function guardResultProcessor(
  processor: ResultProcessor,
  settings: GuardSettings = {},
): ResultProcessor {
  const seam = settings.seam ?? 'resultProcessor';
  const deadlineMs = settings.deadlineMs ?? 0;
  const { telemetry } = settings;
  const guarded = async (
    result: string,
    maxBytes: number,
    context: Parameters<ResultProcessor['process']>[2],
  ): Promise<ProcessedResult> => {
    let produced: unknown;
    // The deadline a layer above put in the context, else this guard's own, derived once.
    const within = startCallDeadline(context ?? {}, {
      deadlineMs,
      reason: () => new SeamDeadlineError({ seam, deadlineMs }),
    });
    const bound = within.context;
    const callerSignal = bound.deadline ? bound.deadline.callerSignal : bound.signal;
    try {
      produced = await callWithDeadline(
        (signal) =>
          processor.process(result, maxBytes, {
            ...bound,
            signal,
            // Without a deadline the synchronous work still stops with the caller's signal.
            shouldStop: bound.shouldStop ?? createShouldStop({ signal }),
          }),
        { seam, deadlineMs, signal: bound.signal, deadline: bound.deadline },
      );
    } catch (error) {
      if (callerSignal?.aborted && error === callerSignal.reason) throw error;
      return byteCutFloor(result, maxBytes);
    } finally {
      within.release();
    }
    // A processor that left its fall-open to the caller's floor (`deferFloor`) says so.
    if (usable(produced) && produced.metadata.fellOpen && context?.deferFloor) return produced;
    if (!usable(produced) || (produced.text === '' && result !== ''))
      return byteCutFloor(result, maxBytes);

    const originalBytes = utf8ByteLength(result);
    let { text } = produced;
    let contentLost = produced.metadata.contentLost;
    if (contentLost && trailingDisclosureNotes(text).length === 0) {
      const cut = cutWithNote(text, maxBytes, (keptBytes) =>
        disclosureNotes.trimmedBytes({ originalBytes, keptBytes, where: 'custom processor' }),
      );
      if (cut) text = cut.text;
    }
    if (utf8ByteLength(text) > maxBytes) {
      const cut = byteCutFloor(text, maxBytes);
      text = cut.text;
      contentLost = true;
    }
    return {
      text,
      metadata: {
        ...produced.metadata,
        contentLost,
        originalBytes,
        outputBytes: utf8ByteLength(text),
      },
    };
  };
  return {
    async process(result, maxBytes, context) {
      assertSize(maxBytes, 'maxBytes', { allowInfinity: true });
      const processed = await guarded(result, maxBytes, context);
      if (telemetry && (processed.metadata.contentLost || processed.text !== result)) {
        try {
          await telemetry.withSpan(
            SPAN_NAMES.resultTrimCompleted,
            resultTrimSpanAttributes(processed.metadata, context),
            () => undefined,
          );
        } catch {
          // Telemetry never breaks the host.
        }
      }
      return processed;
    },
  };
}
