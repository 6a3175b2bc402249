import type { PositionalReader } from './positional-reader.js';
import { readFully } from './read-fully.js';

const CHUNK_BYTES = 1 << 20;

/**
 * The lines of the first `size` bytes behind `reader`, last first, each without its `\n` (the
 * bytes after the last newline come first: empty, or a line torn by a crash). The file is read
 * backwards in chunks of 1 MiB, so a caller that wants the newest lines stops early and never
 * reads, nor holds, more than a chunk and the line being assembled. Each line is its own copy.
 */
export async function* linesFromEnd(
  reader: PositionalReader,
  size: number,
  options: { chunkBytes?: number; signal?: AbortSignal } = {},
): AsyncGenerator<Buffer, void, undefined> {
  const chunkBytes = options.chunkBytes ?? CHUNK_BYTES;
  // The end of the line being assembled, read so far: its pieces, first piece first.
  let pieces: Buffer[] = [];
  for (let position = size; position > 0; ) {
    options.signal?.throwIfAborted();
    const start = Math.max(0, position - chunkBytes);
    const data = Buffer.allocUnsafe(position - start);
    await readFully(reader, data, start);
    let lineEnd = data.length;
    for (let newline = data.lastIndexOf(0x0a, lineEnd - 1); newline >= 0; ) {
      yield Buffer.concat([data.subarray(newline + 1, lineEnd), ...pieces]);
      pieces = [];
      lineEnd = newline;
      newline = newline === 0 ? -1 : data.lastIndexOf(0x0a, newline - 1);
    }
    if (lineEnd > 0) pieces.unshift(data.subarray(0, lineEnd));
    position = start;
  }
  yield Buffer.concat(pieces);
}
