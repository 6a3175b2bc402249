import { createHash, randomBytes } from 'node:crypto';
import { basename, join } from 'node:path';
import { InvalidArgumentError } from '@compaction/core/internal';
import { ArtifactError } from '../artifact-error.js';
import type { Excerpt, ExcerptOptions } from '../projection/excerpt.js';
import { countGraphemes } from '../text/count-graphemes.js';
import { artifactDirFor } from './artifact-dir-for.js';
import { artifactFileName, operationSlug } from './artifact-file-name.js';
import {
  type ArtifactFileSystem,
  type ArtifactWriteHandle,
  nodeArtifactFileSystem,
} from './artifact-file-system.js';
import { type ArtifactIndex, createArtifactIndex } from './artifact-index.js';
import type { ArtifactRecord } from './artifact-record.js';
import { isSha256Hex } from './is-sha256-hex.js';
import { assertSafeId, isSafeId } from './safe-id.js';
import { type StreamExcerptResult, storeStreamExcerpt } from './store-stream-excerpt.js';
import type { StoredArtifact } from './stored-artifact.js';
import type { TempWrite } from './temp-write.js';

/** Settings of `createArtifactStore`; give `dir` or `transcriptPath`. */
export interface ArtifactStoreSettings {
  /** The store directory. Default: `artifactDirFor(transcriptPath)`. No environment variable. */
  dir?: string;
  /** The session transcript the store sits beside; used when `dir` is absent. */
  transcriptPath?: string;
  /** File operations the store and its index write with. Default: the real filesystem. */
  fileSystem?: ArtifactFileSystem;
}

/** Options of `storeStream`. */
export interface StoreStreamOptions extends ExcerptOptions {
  /** Excerpt budget in chars (grapheme clusters), marker included. */
  budgetChars: number;
  /**
   * Records the stored file (in `store.index`, through `recordStoredArtifact`) before the
   * excerpt is cut, given the file and the start of the text as a preview; the result carries
   * what it resolves to as `artifact`. When it throws, the result is that of a failed write: no
   * `stored`, a `failure`, and the marker says the result was not stored, since nothing names
   * the file. Default: no record.
   */
  record?: (stored: StoredArtifact, preview: string) => Promise<ArtifactRecord>;
  /** Cancels the copy; the temp file is removed and the promise rejects with the reason. */
  signal?: AbortSignal;
}

/** A directory of full results, one file per distinct result, written before anything names them. */
export interface ArtifactStore {
  /** The store directory. */
  readonly dir: string;
  /** The session the store belongs to: its directory name without `.artifacts`. */
  readonly sessionId: string;
  /** The store's index (`index.jsonl`), kept in memory and in step with the file. */
  readonly index: ArtifactIndex;
  /**
   * Writes `content` through a temp file to `artifactFileName(opId, sha256)`, so the file
   * either holds all the bytes or does not exist, and a reused operation id never replaces an
   * earlier result. Any operation id is accepted (it is mapped to a safe name). Throws
   * `ArtifactError` (`artifact_store_failed`) when the write fails.
   *
   * `digest`: the lowercase hex SHA-256 of `content`'s bytes, when the caller already hashed
   * these very bytes (a `ResultProcessorContext.contentDigest`). It is trusted, not checked
   * (checking is hashing again): it names the file and becomes the record's digest, so pass it
   * only for the bytes it was computed over. Not 64 lowercase hex: `InvalidArgumentError`.
   */
  store(
    opId: string,
    content: string | Uint8Array,
    options?: { signal?: AbortSignal; digest?: string },
  ): Promise<StoredArtifact>;
  /**
   * Copies a stream of any size to the store while hashing and counting it, keeping only a
   * window at each end, and returns the excerpt. A failed write (or `record`) does not fail the
   * call: the stream is still read to the end and the excerpt's marker says the result was not
   * stored.
   */
  storeStream(
    opId: string,
    source: AsyncIterable<string | Uint8Array>,
    options: StoreStreamOptions,
  ): Promise<StreamExcerptResult>;
  /** Absolute path of a stored file, after checking that `file` is a plain safe basename. */
  pathOf(file: string): string;
}

/** What a temp write measured, read after `commit`. */
interface Measured {
  lines: number;
  digest: string;
}

function storeFailed(opId: string, cause: unknown): ArtifactError {
  const reason = cause instanceof Error ? cause.message : String(cause);
  return new ArtifactError({
    code: 'artifact_store_failed',
    message: `Could not store the full result of ${JSON.stringify(String(opId).slice(0, 80))}: ${reason}`,
    subject: String(opId),
    cause,
  });
}

/** The session id of a store directory: its name without the `.artifacts` suffix. */
export function storeSessionId(dir: string): string {
  const name = basename(dir);
  return name.endsWith('.artifacts') && name.length > '.artifacts'.length
    ? name.slice(0, -'.artifacts'.length)
    : name;
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
  const index = createArtifactIndex({ dir, fileSystem: fs });

  async function place(tempPath: string, file: string, bytes: number): Promise<string> {
    const finalPath = join(dir!, file);
    if (fs.link) {
      try {
        await fs.link(tempPath, finalPath);
        await fs.unlink(tempPath).catch(() => {});
        return file;
      } catch (error) {
        const code = (error as NodeJS.ErrnoException).code;
        if (code === 'EEXIST') {
          // Same operation, same digest prefix: the same bytes, already stored.
          if ((await fs.size?.(finalPath)) === bytes) {
            await fs.unlink(tempPath).catch(() => {});
            return file;
          }
          throw error;
        }
        if (!['EPERM', 'ENOTSUP', 'EOPNOTSUPP', 'EXDEV', 'ENOSYS', 'EMLINK'].includes(code ?? ''))
          throw error;
      }
    }
    await fs.rename(tempPath, finalPath);
    return file;
  }

  async function beginWrite(
    opId: string,
    measured?: (m: Measured) => void,
    knownDigest?: string,
  ): Promise<TempWrite> {
    const tempPath = join(dir!, `.${operationSlug(opId)}.${randomBytes(6).toString('hex')}.tmp`);
    const hash = knownDigest === undefined ? createHash('sha256') : undefined;
    let bytes = 0;
    let newlines = 0;
    let lastByte = 0x0a;
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
        hash?.update(data);
        bytes += data.byteLength;
        for (let at = data.indexOf(0x0a); at >= 0; at = data.indexOf(0x0a, at + 1)) newlines++;
        if (data.byteLength) lastByte = data[data.byteLength - 1]!;
      },
      async commit() {
        try {
          await opened.sync();
          closed = true;
          await opened.close();
          // A device that reports a write whole but keeps less would give a name and a digest
          // to bytes that are not there.
          const onDisk = await fs.size?.(tempPath);
          if (onDisk !== undefined && onDisk !== bytes) {
            throw new Error(`short write, ${onDisk} of ${bytes} bytes written (is the disk full?)`);
          }
          const digest = hash ? hash.digest('hex') : knownDigest!;
          let file: string;
          try {
            file = await place(tempPath, artifactFileName(opId, digest), bytes);
          } catch (error) {
            if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
            // A different file under the short name (a 64-bit prefix collision, or a file put
            // there by hand): the full digest names this one.
            file = `${operationSlug(opId)}-${digest}.txt`;
            await fs.rename(tempPath, join(dir!, file));
          }
          measured?.({ lines: newlines + (lastByte === 0x0a ? 0 : 1), digest });
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
    sessionId: storeSessionId(dir),
    index,
    async store(opId, content, options = {}) {
      options.signal?.throwIfAborted();
      if (options.digest !== undefined && !isSha256Hex(options.digest)) {
        throw new InvalidArgumentError({
          argument: 'digest',
          message: `digest must be a SHA-256 in 64 lowercase hex digits, got ${JSON.stringify(String(options.digest).slice(0, 80))}`,
        });
      }
      const data = typeof content === 'string' ? Buffer.from(content, 'utf8') : content;
      const text =
        typeof content === 'string'
          ? content
          : new TextDecoder('utf-8', { ignoreBOM: true }).decode(content);
      let measured: Measured | undefined;
      const write = await beginWrite(
        opId,
        (m) => {
          measured = m;
        },
        options.digest,
      );
      try {
        await write.write(data);
        options.signal?.throwIfAborted();
      } catch (error) {
        await write.abandon();
        throw error;
      }
      const file = await write.commit();
      return {
        file,
        digest: measured!.digest,
        bytes: data.byteLength,
        chars: countGraphemes(text),
        lines: measured!.lines,
      };
    },
    async storeStream(opId, source, options) {
      let measured: Measured | undefined;
      const withLines = (stored: StoredArtifact) => {
        if (measured) stored.lines = measured.lines;
        return stored;
      };
      const { record } = options;
      const result = await storeStreamExcerpt(source, {
        ...options,
        opId: String(opId),
        beginWrite: () =>
          beginWrite(opId, (m) => {
            measured = m;
          }),
        ...(record ? { record: (stored, preview) => record(withLines(stored), preview) } : {}),
      });
      if (result.stored) withLines(result.stored);
      return result;
    },
    pathOf(file) {
      if (!isSafeId(file)) assertSafeId('artifact file', file);
      return join(dir!, file);
    },
  };
}

export type { Excerpt };
