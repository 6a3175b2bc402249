import { isAscii } from 'node:buffer';
import { createHash } from 'node:crypto';
import type { PositionalReader } from '../storage/positional-reader.js';
import { readChunks } from '../storage/read-chunks.js';
import { createGraphemeCounter } from '../text/count-graphemes.js';
import type { TextDescription } from '../text/describe-text.js';
import { endsOnCodePoint } from '../text/ends-on-code-point.js';

/** `TextDescription` of a file, with the start of its text. */
export interface FileDescription extends TextDescription {
  /** The first `previewUnits` UTF-16 code units of the text (all of it when shorter). */
  preview: string;
}

/** Options of `describeFile`. */
export interface DescribeFileOptions {
  /** Code units of text kept for `preview`. Default 2000. */
  previewUnits?: number;
  /** Bytes read at once. Default 1 MiB. */
  chunkBytes?: number;
  /** Checked before every read; the promise rejects with its reason. */
  signal?: AbortSignal;
}

const CHUNK_BYTES = 1 << 20;
const PREVIEW_UNITS = 2000;
/** UTF-8 bytes that always decode to at least one UTF-16 unit each, plus a cut sequence. */
const PREVIEW_BYTES_PER_UNIT = 3;

/**
 * Bytes, grapheme clusters, SHA-256 and preview of the first `size` bytes behind `reader`, read
 * once in chunks: the digest is updated, the text decoded in stream mode (a code point split
 * between chunks is decoded whole) and counted by a `GraphemeCounter` (a cluster split between
 * chunks is counted once). Memory stays one chunk, the counter's last unfinished cluster and
 * the preview's bytes, whatever the size; the counts equal `describeText` of the whole text
 * (`Buffer#toString('utf8')` of the bytes, a byte-order mark kept).
 */
export async function describeFile(
  reader: PositionalReader,
  size: number,
  options: DescribeFileOptions = {},
): Promise<FileDescription> {
  const signal = options.signal;
  const previewUnits = options.previewUnits ?? PREVIEW_UNITS;
  const previewBytes = previewUnits * PREVIEW_BYTES_PER_UNIT + 4;
  const hash = createHash('sha256');
  const decoder = new TextDecoder('utf-8', { ignoreBOM: true });
  const counter = createGraphemeCounter();
  const head: Uint8Array[] = [];
  let headBytes = 0;
  // True while the decoder holds no part of a code point, so an ASCII chunk can skip it.
  let clean = true;
  let bytes = 0;
  for await (const data of readChunks(reader, 0, size, {
    chunkBytes: options.chunkBytes ?? CHUNK_BYTES,
    signal,
  })) {
    hash.update(data);
    // An ASCII chunk after a clean end stays a one-byte string, which the counter walks fastest.
    if (clean && isAscii(data)) counter.push(data.toString('latin1'));
    else {
      counter.push(decoder.decode(data, { stream: true }));
      clean = endsOnCodePoint(data);
    }
    if (headBytes < previewBytes) {
      const take = Uint8Array.from(data.subarray(0, previewBytes - headBytes));
      head.push(take);
      headBytes += take.byteLength;
    }
    bytes += data.byteLength;
  }
  signal?.throwIfAborted();
  counter.push(decoder.decode());
  // A prefix decoded in stream mode is a prefix of the whole text (a cut sequence held back).
  const preview = new TextDecoder('utf-8', { ignoreBOM: true })
    .decode(Buffer.concat(head), { stream: headBytes < bytes })
    .slice(0, previewUnits);
  return { bytes, chars: counter.finish(), digest: hash.digest('hex'), preview };
}
