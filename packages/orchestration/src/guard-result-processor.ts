import {
  assertSize,
  cutWithNote,
  disclosureNotes,
  type ProcessedResult,
  type ResultProcessor,
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

/**
 * Holds any `ResultProcessor` (yours included) to the built-ins' contract:
 * - a processor that throws, rejects, or returns nothing usable (no text for a non-empty input,
 *   malformed metadata) falls back to the byte-cut floor with `[reduced without model analysis: …]`;
 * - a view that says `contentLost` but carries no framework note gets one, like the built-ins;
 * - a view over budget is cut to the budget and disclosed;
 * - byte counts in the metadata are recomputed from the actual text.
 * Cancellation through the context's `AbortSignal` is passed on, not swallowed, and so is an
 * `InvalidArgumentError` for a `maxBytes` that is not an integer ≥ 0 or Infinity (a caller's
 * bug, checked before the processor runs).
 */
export function guardResultProcessor(processor: ResultProcessor): ResultProcessor {
  return {
    async process(result, maxBytes, context) {
      assertSize(maxBytes, 'maxBytes', { allowInfinity: true });
      let produced: unknown;
      try {
        produced = await processor.process(result, maxBytes, context);
      } catch (error) {
        if (context?.signal?.aborted && error === context.signal.reason) throw error;
        return byteCutFloor(result, maxBytes);
      }
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
    },
  };
}
