import type { PositionalReader } from './positional-reader.js';

/**
 * The bytes `[from, to)` of `reader`, in order, as views of one reused buffer of at most
 * `chunkBytes` (each valid until the next is asked for); stops early if the file ends sooner.
 * `signal` is checked before each read.
 */
export async function* readChunks(
  reader: PositionalReader,
  from: number,
  to: number,
  options: { chunkBytes: number; signal?: AbortSignal },
): AsyncGenerator<Buffer, void, undefined> {
  const buffer = Buffer.allocUnsafe(Math.max(1, Math.min(options.chunkBytes, to - from)));
  for (let position = from; position < to; ) {
    options.signal?.throwIfAborted();
    const { bytesRead } = await reader.read(
      buffer,
      0,
      Math.min(buffer.length, to - position),
      position,
    );
    if (bytesRead === 0) return;
    yield buffer.subarray(0, bytesRead);
    position += bytesRead;
  }
}
