import type { PositionalReader } from './positional-reader.js';
import { readFully } from './read-fully.js';

/** Bytes read at a time: a whole last line of a transcript or index, as a rule, in one read. */
const CHUNK_BYTES = 64 << 10;

/**
 * The offset just past the last `\n` among the first `size` bytes behind `reader`, or 0 when
 * there is none: where the complete lines end and a line torn by a crash mid-append (if any)
 * begins. The bytes are read backwards in chunks of 64 KiB, from the end to that newline only,
 * so a file of any size costs one chunk when it ends on a newline and never holds more than one
 * chunk, however long its last line is.
 */
export async function endOfLastLine(
  reader: PositionalReader,
  size: number,
  options: { chunkBytes?: number; signal?: AbortSignal } = {},
): Promise<number> {
  const chunkBytes = options.chunkBytes ?? CHUNK_BYTES;
  const buffer = Buffer.allocUnsafe(Math.max(1, Math.min(chunkBytes, size)));
  for (let position = size; position > 0; ) {
    options.signal?.throwIfAborted();
    const start = Math.max(0, position - buffer.length);
    const data = buffer.subarray(0, position - start);
    await readFully(reader, data, start);
    const newline = data.lastIndexOf(0x0a);
    if (newline >= 0) return start + newline + 1;
    position = start;
  }
  return 0;
}
