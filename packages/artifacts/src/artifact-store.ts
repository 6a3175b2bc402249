import { randomBytes } from 'node:crypto';
import { join } from 'node:path';
import { InvalidArgumentError } from '@compaction/core';
import { artifactDirFor } from './artifact-dir-for.js';
import { ArtifactError } from './artifact-error.js';
import {
  type ArtifactFileSystem,
  type ArtifactWriteHandle,
  nodeArtifactFileSystem,
} from './artifact-file-system.js';
import { countGraphemes } from './count-graphemes.js';
import type { Excerpt, ExcerptOptions } from './excerpt.js';
import { assertSafeId, isSafeId } from './safe-id.js';
import { sha256Hex } from './sha256-hex.js';
import { type StreamExcerptResult, storeStreamExcerpt } from './store-stream-excerpt.js';

/** What a store says about one stored result (seed 000's metadata). */
export interface StoredArtifact {
  /** Basename of the file in the store directory, `<operation id>.txt`. */
  file: string;
  /** Lowercase hex SHA-256 of the file's bytes. */
  digest: string;
  /** Size of the file in bytes. */
  bytes: number;
  /** Grapheme clusters of the result as text. */
  chars: number;
}

/** Settings of `createArtifactStore`; give `dir` or `transcriptPath`. */
export interface ArtifactStoreSettings {
  /** The store directory. Default: `artifactDirFor(transcriptPath)`. No environment variable. */
  dir?: string;
  /** The session transcript the store sits beside; used when `dir` is absent. */
  transcriptPath?: string;
  /** File operations used to write. Default: the real filesystem. */
  fileSystem?: ArtifactFileSystem;
}

/** Options of `storeStream`. */
export interface StoreStreamOptions extends ExcerptOptions {
  /** Excerpt budget in chars (grapheme clusters), marker included. */
  budgetChars: number;
  /** Cancels the copy; the temp file is removed and the promise rejects with the reason. */
  signal?: AbortSignal;
}

/** A directory of full results, one file per operation, written before anything names them. */
export interface ArtifactStore {
  /** The store directory. */
  readonly dir: string;
  /**
   * Writes `content` to `<opId>.txt` through a temp file and a rename, so the file either holds
   * all the bytes or does not exist. Throws `ArtifactError` (`artifact_store_failed`) when the
   * write fails and `artifact_invalid_id` for an id that could escape the directory.
   */
  store(
    opId: string,
    content: string | Uint8Array,
    options?: { signal?: AbortSignal },
  ): Promise<StoredArtifact>;
  /**
   * Copies a stream of any size to `<opId>.txt` while hashing and counting it, keeping only a
   * window at each end, and returns the excerpt. A failed write does not fail the call: the
   * stream is still read to the end and the excerpt's marker says the result was not stored.
   */
  storeStream(
    opId: string,
    source: AsyncIterable<string | Uint8Array>,
    options: StoreStreamOptions,
  ): Promise<StreamExcerptResult>;
  /** Absolute path of a stored file, after checking that `file` is a plain safe basename. */
  pathOf(file: string): string;
}

/** A temp-file writer that the streaming path and `store` share. */
export interface TempWrite {
  write(data: Uint8Array): Promise<void>;
  /** Syncs, closes and renames into place; returns the file's basename. */
  commit(): Promise<string>;
  /** Closes and removes the temp file, ignoring errors. */
  abandon(): Promise<void>;
}

function storeFailed(opId: string, cause: unknown): ArtifactError {
  const reason = cause instanceof Error ? cause.message : String(cause);
  return new ArtifactError({
    code: 'artifact_store_failed',
    message: `Could not store the full result of ${opId}: ${reason}`,
    subject: opId,
    cause,
  });
}

/** Creates a store in `settings.dir` (or beside `settings.transcriptPath`). */
export function createArtifactStore(settings: ArtifactStoreSettings = {}): ArtifactStore {
  const dir =
    settings.dir ??
    (settings.transcriptPath !== undefined ? artifactDirFor(settings.transcriptPath) : undefined);
  if (dir === undefined) {
    throw new InvalidArgumentError({
      argument: 'dir',
      message: 'createArtifactStore needs a dir or a transcriptPath',
    });
  }
  const fs = settings.fileSystem ?? nodeArtifactFileSystem;

  async function beginWrite(opId: string): Promise<TempWrite> {
    const file = `${opId}.txt`;
    const finalPath = join(dir!, file);
    const tempPath = join(dir!, `.${opId}.${randomBytes(6).toString('hex')}.tmp`);
    let handle: ArtifactWriteHandle | undefined;
    let closed = false;
    try {
      await fs.mkdir(dir!);
      handle = await fs.openForWrite(tempPath);
    } catch (error) {
      throw storeFailed(opId, error);
    }
    const opened = handle;
    return {
      async write(data) {
        try {
          await opened.write(data);
        } catch (error) {
          throw storeFailed(opId, error);
        }
      },
      async commit() {
        try {
          await opened.sync();
          closed = true;
          await opened.close();
          await fs.rename(tempPath, finalPath);
          return file;
        } catch (error) {
          await fs.unlink(tempPath).catch(() => {});
          throw storeFailed(opId, error);
        }
      },
      async abandon() {
        if (!closed) await opened.close().catch(() => {});
        closed = true;
        await fs.unlink(tempPath).catch(() => {});
      },
    };
  }

  return {
    dir,
    async store(opId, content, options = {}) {
      assertSafeId('operation id', opId);
      options.signal?.throwIfAborted();
      const data = typeof content === 'string' ? Buffer.from(content, 'utf8') : content;
      const text =
        typeof content === 'string'
          ? content
          : new TextDecoder('utf-8', { ignoreBOM: true }).decode(content);
      const write = await beginWrite(opId);
      try {
        await write.write(data);
        options.signal?.throwIfAborted();
      } catch (error) {
        await write.abandon();
        throw error;
      }
      const file = await write.commit();
      return { file, digest: sha256Hex(data), bytes: data.byteLength, chars: countGraphemes(text) };
    },
    async storeStream(opId, source, options) {
      assertSafeId('operation id', opId);
      return storeStreamExcerpt(source, {
        ...options,
        opId,
        beginWrite: () => beginWrite(opId),
      });
    },
    pathOf(file) {
      if (!isSafeId(file)) assertSafeId('artifact file', file);
      return join(dir!, file);
    },
  };
}

export type { Excerpt };
