import type { PositionalReader } from './positional-reader.js';

/** Fills `data` from `reader` at `position`, or throws when the file ends before it is full. */
export async function readFully(
  reader: PositionalReader,
  data: Uint8Array,
  position: number,
): Promise<void> {
  for (let filled = 0; filled < data.length; ) {
    const { bytesRead } = await reader.read(data, filled, data.length - filled, position + filled);
    if (bytesRead === 0) throw new Error(`the file ended before byte ${position + data.length}`);
    filled += bytesRead;
  }
}
