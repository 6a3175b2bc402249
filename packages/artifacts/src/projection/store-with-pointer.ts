import { ArtifactError } from '../artifact-error.js';
import type { ArtifactIndex } from '../storage/artifact-index.js';
import type { ArtifactRecord } from '../storage/artifact-record.js';
import type { ArtifactStore } from '../storage/artifact-store.js';
import { isSha256Hex } from '../storage/is-sha256-hex.js';
import {
  type ArtifactRecordInput,
  buildArtifactRecord,
} from '../storage/record-stored-artifact.js';
import type { StoredArtifact } from '../storage/stored-artifact.js';
import { artifactNotStoredLine, artifactPointerLine } from './artifact-pointer-line.js';

/** The index record's fields besides the stored file (`buildArtifactRecord`'s input). */
export type PointerRecordFields = Omit<ArtifactRecordInput, 'stored'>;

/** What `storeWithPointer` stores and records. */
export interface StoreWithPointerInput {
  store: ArtifactStore;
  /** The operation (tool call) id, any shape: it names the file and enters the artifact id. */
  opId: string;
  /** The text to store: the result, or its stored layout (`storedFormOf`). */
  content: string;
  /** The record's fields, or a function of the stored file when they depend on it (its size, its name). */
  record: PointerRecordFields | ((stored: StoredArtifact) => PointerRecordFields);
  /** The index the record is added to. Default `store.index`. */
  index?: ArtifactIndex;
  /**
   * Lowercase hex SHA-256 of `content`'s UTF-8 bytes, when the caller already hashed these very
   * bytes (`ResultProcessorContext.contentDigest`): the store trusts it and does not hash again.
   * Pass it only for `content` itself, never for a result whose stored layout differs. One not
   * shaped like a SHA-256 (64 lowercase hex) is ignored and the content hashed.
   */
  contentDigest?: string;
  /** Cancels the write and the record. */
  signal?: AbortSignal;
}

/** The result was stored and indexed: `line` is its pointer line. */
export interface StoredPointer {
  stored: StoredArtifact;
  record: ArtifactRecord;
  /** `artifactPointerLine(record)`. */
  line: string;
  failure?: undefined;
  orphan?: undefined;
}

/** The result could not be stored or indexed: nothing resolves to it. */
export interface NotStoredPointer {
  stored?: undefined;
  record?: undefined;
  /** `artifactNotStoredLine` with the reason: `write failed: <the failure's first line>`. */
  line: string;
  /** The short reason an excerpt marker gives (`notStoredReason`). */
  reason: 'write failed';
  /** `artifact_store_failed`, whose `cause` is what the store or the index threw. */
  failure: ArtifactError;
  /**
   * The file, when it was written but its record could not be added: an orphan that no id
   * names (pruning removes it), reported so a caller can log it.
   */
  orphan?: StoredArtifact;
}

/** What `storeWithPointer` resolves to. */
export type StoreWithPointerOutcome = StoredPointer | NotStoredPointer;

const firstLine = (text: string) => text.split('\n')[0]!;

function notStored(failure: ArtifactError, orphan?: StoredArtifact): NotStoredPointer {
  return {
    line: artifactNotStoredLine(`write failed: ${firstLine(failure.message)}`),
    reason: 'write failed',
    failure,
    ...(orphan ? { orphan } : {}),
  };
}

const messageOf = (error: unknown) => (error instanceof Error ? error.message : String(error));

/**
 * Stores one full result, adds its index record, and returns the pointer line every front end
 * prints for it (the artifact processor, tool-output externalizing, the synthesis path, artifact
 * mode). One rule for what goes wrong:
 * - an abort (`signal` aborted) rejects with the signal's reason, even after the file is written;
 * - any other failure of the write or of the record resolves to a "not stored" outcome that says
 *   why (`failure`, and the not-stored `line`), with `orphan` when the file was written but not
 *   indexed. A caller that must fail open prints that outcome; one that must throw throws
 *   `failure`.
 */
export async function storeWithPointer(
  input: StoreWithPointerInput,
): Promise<StoreWithPointerOutcome> {
  const { store, opId, signal } = input;
  let stored: StoredArtifact;
  try {
    stored = await store.store(opId, input.content, {
      ...(signal ? { signal } : {}),
      ...(isSha256Hex(input.contentDigest) ? { digest: input.contentDigest } : {}),
    });
  } catch (error) {
    signal?.throwIfAborted();
    return notStored(
      ArtifactError.isInstance(error) && error.code === 'artifact_store_failed'
        ? error
        : new ArtifactError({
            code: 'artifact_store_failed',
            message: `Could not store the full result of ${JSON.stringify(opId.slice(0, 80))}: ${messageOf(error)}`,
            subject: opId,
            cause: error,
          }),
    );
  }
  // Outside the catch: a caller's record function that throws is its own error, not a store's.
  const fields = typeof input.record === 'function' ? input.record(stored) : input.record;
  try {
    const index = input.index ?? store.index;
    const record = await index.add(buildArtifactRecord({ ...fields, stored }), {
      ...(signal ? { signal } : {}),
    });
    return { stored, record, line: artifactPointerLine(record) };
  } catch (error) {
    signal?.throwIfAborted();
    return notStored(
      new ArtifactError({
        code: 'artifact_store_failed',
        message: `Could not index the stored result of ${JSON.stringify(opId.slice(0, 80))} (${stored.file}): ${messageOf(error)}`,
        subject: opId,
        cause: error,
      }),
      stored,
    );
  }
}
