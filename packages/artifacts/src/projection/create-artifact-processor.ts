import {
  assertSize,
  assertString,
  BudgetTooSmallError,
  losslessMetadata,
  type ProcessedResult,
  type ResultProcessor,
  utf8ByteLength,
} from '@compaction/core';
import type { ArtifactStore } from '../storage/artifact-store.js';
import { isSha256Hex } from '../storage/is-sha256-hex.js';
import { type StoredForm, storedFormOf } from '../storage/json-layout.js';
import { describeText } from '../text/describe-text.js';
import { headGraphemes } from '../text/grapheme-window.js';
import { excerpt, minimumExcerptBudget } from './excerpt.js';
import type { ExcerptSource } from './excerpt-marker.js';
import { kindForTool } from './kind-for-tool.js';
import type { ProjectionPolicy } from './projection-policy.js';
import { storeWithPointer } from './store-with-pointer.js';

/** Settings of `createArtifactProcessor`. */
export interface ArtifactProcessorSettings {
  /** Where full results go. Default none: the marker says the result was not stored. */
  store?: ArtifactStore;
  /** The session the records belong to. Default: `store.sessionId` (the store directory's name). */
  sessionId?: string;
  /** Share of the kept text taken from the head, 0–1. Default 0.75. */
  headShare?: number;
  /** Routes `context.toolName` to the kind recorded in the index. Default `DEFAULT_PROJECTION_POLICIES`. */
  policies?: readonly ProjectionPolicy[];
  /** Milliseconds since the epoch, for index records. Default `Date.now`. */
  clock?: () => number;
}

/**
 * The core `ResultProcessor` seam over the excerpt, on the same settle path as a session
 * transcript: a result over `maxBytes` is written to the store (under `context.stepId`, any
 * shape) and indexed, and the view is one pointer line naming the `art_` id and
 * `artifact_read`, then a head/tail excerpt whose marker names the file, all within `maxBytes`
 * UTF-8 bytes (the pointer line is left out when the budget cannot hold it). A failed write or
 * index append fails open to the "not stored" marker (`storeWithPointer`'s rule). Rejects with
 * the signal's reason when it is aborted, and with `BudgetTooSmallError` when `maxBytes` cannot hold the marker line
 * (~150 bytes).
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
      const store = settings.store;
      // The caller's SHA-256 of `result`, trusted as given (the contract says it is this
      // result's); one that is not even shaped like a digest is ignored.
      const digest = isSha256Hex(context.contentDigest) ? context.contentDigest : undefined;
      // A one-line JSON result is stored one value per line (see `layOutJson`), and the excerpt
      // is cut from what is stored, so its marker describes the file.
      let form: StoredForm = store ? storedFormOf(result, digest) : { text: result };
      const preview = headGraphemes(form.text, 400).text;
      // A write or index failure fails open to the "not stored" marker; an abort rejects.
      const outcome = store
        ? await storeWithPointer({
            store,
            opId: context.stepId ?? 'result',
            content: form.text,
            // The caller's digest is of `result`: it names the file only when that is what is stored.
            ...(digest !== undefined && !form.original ? { contentDigest: digest } : {}),
            record: {
              sessionId: settings.sessionId ?? store.sessionId,
              ...(context.stepId === undefined ? {} : { toolCallId: context.stepId }),
              ...(context.toolName ? { toolName: context.toolName } : {}),
              kind: kindForTool(context.toolName, preview, settings.policies),
              preview,
              ...(form.original ? { original: form.original } : {}),
              ...(settings.clock ? { clock: settings.clock } : {}),
            },
            ...(context.signal ? { signal: context.signal } : {}),
          })
        : undefined;
      const stored = outcome?.stored;
      if (!stored) form = { text: result };
      const text = form.text;
      // The store measured the file while writing; unstored, the result is measured here, with
      // the caller's digest when it has one.
      const described = stored ?? describeText(text, digest);
      const source: ExcerptSource = {
        totalChars: described.chars,
        totalBytes: described.bytes,
        digest: described.digest,
        ...(stored
          ? { file: stored.file }
          : { notStoredReason: outcome?.failure ? outcome.reason : 'no session' }),
      };
      const minimumBytes = minimumExcerptBudget(source);
      if (maxBytes < minimumBytes) {
        throw new BudgetTooSmallError({
          budgetBytes: maxBytes,
          minimumBytes,
          what: 'an artifact excerpt',
        });
      }
      const pointer = outcome?.stored ? `${outcome.line}\n` : '';
      const pointerBytes = utf8ByteLength(pointer);
      const withPointer = pointer !== '' && maxBytes - pointerBytes >= minimumBytes;
      const room = withPointer ? maxBytes - pointerBytes : maxBytes;
      // Every char is at least one byte, so a char budget of `room` never binds first.
      const cut = excerpt(text, room, source, {
        maxBytes: room,
        ...(settings.headShare === undefined ? {} : { headShare: settings.headShare }),
      });
      const view = withPointer ? pointer + cut.text : cut.text;
      const outputBytes = utf8ByteLength(view);
      return {
        text: view,
        metadata: {
          contentLost: true,
          originalBytes,
          outputBytes,
          strategy: 'bytes',
          // Of the text the excerpt is cut from (the stored layout, when there is one).
          keptRatio:
            described.bytes > 0
              ? (utf8ByteLength(cut.head) + utf8ByteLength(cut.tail)) / described.bytes
              : 1,
        },
      };
    },
  };
}
