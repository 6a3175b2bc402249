import { isAscii } from 'node:buffer';
import { createHash } from 'node:crypto';
import { ArtifactError } from '../artifact-error.js';
import {
  assembleExcerpt,
  checkExcerptArguments,
  type Excerpt,
  type ExcerptOptions,
  excerpt,
} from '../projection/excerpt.js';
import type { ExcerptSource } from '../projection/excerpt-marker.js';
import { createGraphemeCounter } from '../text/count-graphemes.js';
import type { TextDescription } from '../text/describe-text.js';
import { endsOnCodePoint } from '../text/ends-on-code-point.js';
import { headGraphemeRun, tailGraphemeRun } from '../text/grapheme-window.js';
import type { ArtifactRecord } from './artifact-record.js';
import type { StoredArtifact } from './stored-artifact.js';
import type { TempWrite } from './temp-write.js';

/** What the streaming path returns. */
export interface StreamExcerptResult {
  /** The excerpt for the conversation (the whole text when it fits). */
  excerpt: Excerpt;
  /** Bytes, chars and SHA-256 of everything the stream produced. */
  description: TextDescription;
  /** The stored file, when there was a store and the write (and its `record`) succeeded. */
  stored?: StoredArtifact;
  /** The index record `record` resolved to, when one was asked for and written. */
  artifact?: ArtifactRecord;
  /** Why the result was not stored, when a store was given and the write or its record failed. */
  failure?: ArtifactError;
}

/** Options of `excerptStream`. */
export interface ExcerptStreamOptions extends ExcerptOptions {
  /** Excerpt budget in chars (grapheme clusters), marker included. */
  budgetChars: number;
  /** Cancels reading; the promise rejects with the reason. */
  signal?: AbortSignal;
  /** What the marker says when there is no store. Default `no session`. */
  notStoredReason?: string;
}

/** Bytes kept at each end per char of budget: room for clusters of several code points. */
const WINDOW_BYTES_PER_CHAR = 12;
const WINDOW_SLACK_BYTES = 4096;

const encoder = (chunk: string | Uint8Array): Uint8Array =>
  typeof chunk === 'string' ? Buffer.from(chunk, 'utf8') : chunk;

/** Skips UTF-8 continuation bytes at the start of a window cut mid-sequence. */
function firstLeadByte(data: Uint8Array): number {
  let i = 0;
  while (i < data.length && i < 4 && (data[i]! & 0xc0) === 0x80) i++;
  return i;
}

/**
 * Reads `source` to the end once: hashes it, counts its bytes and grapheme clusters, keeps a
 * bounded window of bytes at each end, and (when `beginWrite` is given) copies it to a temp file
 * that is renamed into place at the end. Peak memory is the two windows, one chunk and the
 * counter's last unfinished cluster, whatever the stream's size.
 */
export async function storeStreamExcerpt(
  source: AsyncIterable<string | Uint8Array>,
  options: ExcerptStreamOptions & {
    opId?: string;
    beginWrite?: () => Promise<TempWrite>;
    record?: (stored: StoredArtifact, preview: string) => Promise<ArtifactRecord>;
  },
): Promise<StreamExcerptResult> {
  const budget = checkExcerptArguments(options.budgetChars, options);
  const windowBytes = budget * WINDOW_BYTES_PER_CHAR + WINDOW_SLACK_BYTES;
  const hash = createHash('sha256');
  const decoder = new TextDecoder('utf-8', { ignoreBOM: true });
  const counter = createGraphemeCounter();
  const head: Uint8Array[] = [];
  let headBytes = 0;
  const tail: Uint8Array[] = [];
  let tailBytes = 0;
  let bytes = 0;
  let write: TempWrite | undefined;
  let failure: ArtifactError | undefined;
  let clean = true;

  const fail = async (error: unknown) => {
    failure = ArtifactError.isInstance(error)
      ? error
      : new ArtifactError({ code: 'artifact_store_failed', message: String(error), cause: error });
    const abandoned = write;
    write = undefined;
    await abandoned?.abandon();
  };

  if (options.beginWrite) {
    try {
      write = await options.beginWrite();
    } catch (error) {
      await fail(error);
    }
  }
  try {
    for await (const chunk of source) {
      options.signal?.throwIfAborted();
      const data = encoder(chunk);
      if (data.byteLength === 0) continue;
      if (write) {
        try {
          await write.write(data);
        } catch (error) {
          await fail(error);
        }
      }
      hash.update(data);
      // An ASCII chunk after a clean end needs no decoder, and stays a one-byte string.
      if (clean && isAscii(data))
        counter.push(Buffer.from(data.buffer, data.byteOffset, data.byteLength).toString('latin1'));
      else {
        counter.push(decoder.decode(data, { stream: true }));
        clean = endsOnCodePoint(data);
      }
      bytes += data.byteLength;
      if (headBytes < windowBytes) {
        const take = data.subarray(0, windowBytes - headBytes);
        head.push(Uint8Array.from(take));
        headBytes += take.byteLength;
      }
      // Copy the end of a large chunk rather than keep the whole chunk alive.
      const kept =
        data.byteLength > windowBytes ? Uint8Array.from(data.subarray(-windowBytes)) : data;
      tail.push(kept);
      tailBytes += kept.byteLength;
      while (tail.length > 1 && tailBytes - tail[0]!.byteLength >= windowBytes) {
        tailBytes -= tail.shift()!.byteLength;
      }
    }
    options.signal?.throwIfAborted();
  } catch (error) {
    await write?.abandon();
    throw error;
  }
  counter.push(decoder.decode());
  const description: TextDescription = {
    bytes,
    chars: counter.finish(),
    digest: hash.digest('hex'),
  };

  let stored: StoredArtifact | undefined;
  if (write) {
    try {
      const file = await write.commit();
      stored = { file, ...description };
    } catch (error) {
      await fail(error);
    }
  }

  // The whole text when the two windows meet; otherwise the two ends, decoded.
  let whole: string | undefined;
  let headText = '';
  let tailText = '';
  if (headBytes + tailBytes >= bytes) {
    whole = Buffer.concat([...head, Buffer.concat(tail).subarray(headBytes + tailBytes - bytes)])
      .subarray(0, bytes)
      .toString('utf8');
  } else {
    headText = new TextDecoder('utf-8', { ignoreBOM: true }).decode(Buffer.concat(head), {
      stream: true,
    });
    const tailData = Buffer.concat(tail);
    tailText = tailData.subarray(firstLeadByte(tailData)).toString('utf8');
  }

  let artifact: ArtifactRecord | undefined;
  if (stored && options.record) {
    try {
      artifact = await options.record(stored, whole ?? headText);
    } catch (error) {
      // Written but not indexed: nothing names the file, so the excerpt says not stored, as for
      // a failed write, and the file is an orphan until pruned.
      const reason = error instanceof Error ? error.message : String(error);
      failure = new ArtifactError({
        code: 'artifact_store_failed',
        message: `Could not index the full result${options.opId === undefined ? '' : ` of ${JSON.stringify(options.opId.slice(0, 80))}`}, so it has no artifact id (${stored.file} stays unnamed until pruned): ${reason}`,
        subject: stored.file,
        cause: error,
      });
      stored = undefined;
    }
  }
  const marker: ExcerptSource = stored
    ? {
        totalChars: description.chars,
        totalBytes: bytes,
        digest: description.digest,
        file: stored.file,
      }
    : {
        totalChars: description.chars,
        totalBytes: bytes,
        digest: description.digest,
        notStoredReason: failure ? 'write failed' : (options.notStoredReason ?? 'no session'),
      };

  let result: Excerpt;
  if (whole !== undefined) {
    // The two windows meet: the whole text is at hand, and its cuts need no trusted anchor.
    result = excerpt(whole, budget, marker, options);
  } else {
    result = assembleExcerpt(
      budget,
      marker,
      options,
      (n) => headGraphemeRun(headText, n, true),
      (n) => tailGraphemeRun(tailText, n, { openStart: true }),
    );
  }
  return {
    excerpt: result,
    description,
    ...(stored ? { stored } : {}),
    ...(artifact ? { artifact } : {}),
    ...(failure ? { failure } : {}),
  };
}

/**
 * The streaming excerpt without a store: hashes and counts a stream of any size and returns
 * the excerpt whose marker says the full result was not stored.
 */
export function excerptStream(
  source: AsyncIterable<string | Uint8Array>,
  options: ExcerptStreamOptions,
): Promise<StreamExcerptResult> {
  return storeStreamExcerpt(source, options);
}
