/** Reads bytes at a position: a `FileHandle`, or anything that reads like one (tests). */
export interface PositionalReader {
  read(
    buffer: Uint8Array,
    offset: number,
    length: number,
    position: number,
  ): Promise<{ bytesRead: number }>;
}
