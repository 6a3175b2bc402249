import {
  assertSize,
  assertString,
  BudgetTooSmallError,
  losslessMetadata,
  type ProcessedResult,
  type ResultProcessor,
  utf8ByteLength,
} from '@compaction/core';
import { ArtifactError } from '../artifact-error.js';
import type { ArtifactRecord } from '../storage/artifact-record.js';
import type { ArtifactStore } from '../storage/artifact-store.js';
import { type StoredForm, storedFormOf } from '../storage/json-layout.js';
import { buildArtifactRecord } from '../storage/record-stored-artifact.js';
import type { StoredArtifact } from '../storage/stored-artifact.js';
import { describeText } from '../text/describe-text.js';
import { headGraphemes } from '../text/grapheme-window.js';
import { artifactPointerLine } from './artifact-pointer-line.js';
import { excerpt, minimumExcerptBudget } from './excerpt.js';
import type { ExcerptSource } from './excerpt-marker.js';
import { kindForTool } from './kind-for-tool.js';
import type { ProjectionPolicy } from './projection-policy.js';

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
 * index append fails open to the "not stored" marker. Rejects with the signal's reason when it is
 * already aborted, and with `BudgetTooSmallError` when `maxBytes` cannot hold the marker line
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
      let stored: StoredArtifact | undefined;
      let record: ArtifactRecord | undefined;
      let failed = false;
      const store = settings.store;
      // A one-line JSON result is stored one value per line (see `layOutJson`), and the excerpt
      // is cut from what is stored, so its marker describes the file.
      let form: StoredForm = store ? storedFormOf(result) : { text: result };
      if (store) {
        try {
          stored = await store.store(context.stepId ?? 'result', form.text, {
            signal: context.signal,
          });
          const preview = headGraphemes(form.text, 400).text;
          record = await store.index.add(
            buildArtifactRecord({
              sessionId: settings.sessionId ?? store.sessionId,
              stored,
              ...(context.stepId === undefined ? {} : { toolCallId: context.stepId }),
              ...(context.toolName ? { toolName: context.toolName } : {}),
              kind: kindForTool(context.toolName, preview, settings.policies),
              preview,
              ...(form.original ? { original: form.original } : {}),
              ...(settings.clock ? { clock: settings.clock } : {}),
            }),
            { signal: context.signal },
          );
        } catch (error) {
          context.signal?.throwIfAborted();
          if (ArtifactError.isInstance(error) && error.code !== 'artifact_store_failed')
            throw error;
          stored = undefined;
          record = undefined;
          failed = true;
        }
      }
      if (!stored) form = { text: result };
      const text = form.text;
      const described = stored ?? describeText(text);
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
      const pointer = record ? `${artifactPointerLine(record)}\n` : '';
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
