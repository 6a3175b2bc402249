import {
  assertSize,
  assertString,
  BudgetTooSmallError,
  losslessMetadata,
  type ProcessedResult,
  type ResultProcessor,
  utf8ByteLength,
} from '@compaction/core';
import { ArtifactError } from './artifact-error.js';
import type { ArtifactStore, StoredArtifact } from './artifact-store.js';
import { describeText } from './describe-text.js';
import { excerpt, minimumExcerptBudget } from './excerpt.js';
import type { ExcerptSource } from './excerpt-marker.js';
import { isSafeId } from './safe-id.js';
import { sha256Hex } from './sha256-hex.js';

/** Settings of `createArtifactProcessor`. */
export interface ArtifactProcessorSettings {
  /** Where full results go. Default none: the marker says the result was not stored. */
  store?: ArtifactStore;
  /** Share of the kept text taken from the head, 0–1. Default 0.75. */
  headShare?: number;
}

/**
 * The core `ResultProcessor` seam over the excerpt: a result over `maxBytes` becomes a head/tail
 * excerpt of at most `maxBytes` UTF-8 bytes (and as many chars), marker included, and its full
 * bytes go to the store under `context.stepId` (or a digest-derived id). A failed write fails
 * open to the "not stored" marker. Rejects with the signal's reason when it is already aborted,
 * and with `BudgetTooSmallError` when `maxBytes` cannot hold the marker line (~150 bytes).
 */
export function createArtifactProcessor(settings: ArtifactProcessorSettings = {}): ResultProcessor {
  return {
    async process(result, maxBytes, context = {}): Promise<ProcessedResult> {
      context.signal?.throwIfAborted();
      assertString(result, 'result');
      assertSize(maxBytes, 'maxBytes', { allowInfinity: true });
      const originalBytes = utf8ByteLength(result);
      if (originalBytes <= maxBytes)
        return { text: result, metadata: losslessMetadata(result, result) };
      let stored: StoredArtifact | undefined;
      let failed = false;
      if (settings.store) {
        const opId = isSafeId(context.stepId)
          ? context.stepId
          : `result-${sha256Hex(result).slice(0, 16)}`;
        try {
          stored = await settings.store.store(opId, result, { signal: context.signal });
        } catch (error) {
          if (!ArtifactError.isInstance(error) || error.code !== 'artifact_store_failed')
            throw error;
          failed = true;
        }
      }
      const described = stored ?? describeText(result);
      const source: ExcerptSource = {
        totalChars: described.chars,
        totalBytes: described.bytes,
        digest: described.digest,
        ...(stored
          ? { file: stored.file }
          : { notStoredReason: failed ? 'write failed' : 'no session' }),
      };
      const minimumBytes = minimumExcerptBudget(source);
      if (maxBytes < minimumBytes) {
        throw new BudgetTooSmallError({
          budgetBytes: maxBytes,
          minimumBytes,
          what: 'an artifact excerpt',
        });
      }
      // Every char is at least one byte, so a char budget of maxBytes never binds first.
      const cut = excerpt(result, maxBytes, source, {
        maxBytes,
        ...(settings.headShare === undefined ? {} : { headShare: settings.headShare }),
      });
      const outputBytes = utf8ByteLength(cut.text);
      return {
        text: cut.text,
        metadata: {
          contentLost: cut.contentLost,
          originalBytes,
          outputBytes,
          strategy: 'bytes',
          keptRatio:
            originalBytes > 0
              ? (outputBytes - utf8ByteLength(cut.marker ?? '')) / originalBytes
              : 1,
        },
      };
    },
  };
}
