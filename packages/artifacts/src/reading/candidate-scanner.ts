import type { FileHandle } from 'node:fs/promises';
import { type FilePosition, type LineIndex, utf16Units } from './line-index.js';
import type { BytePrefilter } from './search-pattern.js';

const CHUNK_BYTES = 1 << 20;

/**
 * Walks a file's raw bytes for a search: finds the next candidate of a byte prefilter, and the
 * line a byte is on, without decoding the text in between. Reads go through one cached chunk,
 * so finding a candidate and then its line and line end reads the bytes once.
 */
export interface CandidateScanner {
  /**
   * The first candidate at or after byte `from`, or -1 when there is none. Between chunks (after
   * the first) it asks `stop`; when that says so it resolves to `{ stoppedAt }`, a place past
   * `from` up to which there is none: the start of a line when one was passed, else a code
   * point boundary.
   */
  next(from: number, stop: () => Promise<boolean>): Promise<number | { stoppedAt: number }>;
  /** The byte offset of the start of `line`. */
  lineStart(line: number): Promise<number>;
  /** The 1-based line and 0-based column of byte `at`, a code point boundary; `anchor` is a known place at or before it. */
  positionOf(at: number, anchor?: FilePosition): Promise<FilePosition>;
  /** The offset just after the first newline at or after `from`, or the file's size. */
  nextLineStart(from: number): Promise<number>;
}

/** A scanner of the file behind `handle`, indexed by `index`. */
export function createCandidateScanner(
  handle: FileHandle,
  index: LineIndex,
  prefilter: BytePrefilter,
  signal?: AbortSignal,
): CandidateScanner {
  const size = index.bytes;
  const buffer = Buffer.allocUnsafe(Math.max(1, Math.min(CHUNK_BYTES, size)));
  let cached = { start: 0, length: 0 };

  /**
   * The bytes from `from` on, as much as one chunk holds: from the cached chunk when it holds
   * `from` and at least half a chunk after it (or the rest of the file), else read afresh.
   */
  async function chunkAt(from: number): Promise<Buffer> {
    const cachedEnd = cached.start + cached.length;
    if (
      from >= cached.start &&
      from < cachedEnd &&
      (cachedEnd === size || cachedEnd - from >= buffer.length / 2)
    ) {
      return buffer.subarray(from - cached.start, cached.length);
    }
    signal?.throwIfAborted();
    let length = 0;
    const want = Math.min(buffer.length, size - from);
    while (length < want) {
      const { bytesRead } = await handle.read(buffer, length, want - length, from + length);
      if (bytesRead === 0) break;
      length += bytesRead;
    }
    cached = { start: from, length };
    return buffer.subarray(0, length);
  }

  /** Where a scan stopped at `position` resumes: the last line start passed, else a code point boundary. */
  async function stopPlace(from: number, position: number): Promise<number> {
    if (position > cached.start && position <= cached.start + cached.length) {
      const newline = buffer.lastIndexOf(0x0a, position - cached.start - 1);
      if (newline >= 0 && cached.start + newline + 1 > from) return cached.start + newline + 1;
    }
    const start = Math.max(from, position - 8);
    const piece = await chunkAt(start);
    let at = position - start;
    while (at > 0 && start + at > from + 1 && (piece[at]! & 0xc0) === 0x80) at--;
    return start + at;
  }

  /** Calls `use` with each piece of `[from, to)`, in order. */
  async function eachPiece(from: number, to: number, use: (piece: Buffer, at: number) => boolean) {
    for (let at = from; at < to; ) {
      const piece = await chunkAt(at);
      if (piece.length === 0) return;
      const part = piece.subarray(0, Math.min(piece.length, to - at));
      if (use(part, at)) return;
      at += part.length;
    }
  }

  /** Newlines in `[from, to)`, and the offset just after the last one (or -1). */
  async function newlines(from: number, to: number) {
    let count = 0;
    let last = -1;
    await eachPiece(from, to, (piece, at) => {
      for (let found = piece.indexOf(0x0a); found >= 0; found = piece.indexOf(0x0a, found + 1)) {
        count++;
        last = at + found + 1;
      }
      return false;
    });
    return { count, last };
  }

  async function positionOf(at: number, anchor?: FilePosition): Promise<FilePosition> {
    const sample = index.atByte(at);
    const start = anchor && anchor.byte >= sample.byte && anchor.byte <= at ? anchor : sample;
    const { count, last } = await newlines(start.byte, at);
    let column = 0;
    const from = count > 0 ? last : start.byte;
    await eachPiece(from, at, (piece) => {
      column += utf16Units(piece, 0, piece.length);
      return false;
    });
    return {
      byte: at,
      line: start.line + count,
      column: count > 0 ? column : start.column + column,
    };
  }

  return {
    async next(from, stop) {
      let position = from;
      let scanned = false;
      while (position < size) {
        if (scanned && (await stop())) return { stoppedAt: await stopPlace(from, position) };
        const chunk = await chunkAt(position);
        if (chunk.length === 0) break;
        const end = position + chunk.length;
        const usable = end >= size ? chunk.length : Math.max(1, chunk.length - prefilter.overlap);
        const hit = prefilter.start(chunk)(0);
        if (hit >= 0 && hit < usable) return position + hit;
        position += usable;
        scanned = true;
      }
      return -1;
    },
    async lineStart(line) {
      const sample = index.seek(line, 0);
      if (sample.line === line) return sample.byte;
      let need = line - sample.line;
      let start = size;
      await eachPiece(sample.byte, size, (piece, at) => {
        for (let found = piece.indexOf(0x0a); found >= 0; found = piece.indexOf(0x0a, found + 1)) {
          if (--need === 0) {
            start = at + found + 1;
            return true;
          }
        }
        return false;
      });
      return start;
    },
    positionOf,
    async nextLineStart(from) {
      let start = size;
      await eachPiece(from, size, (piece, at) => {
        const found = piece.indexOf(0x0a);
        if (found < 0) return false;
        start = at + found + 1;
        return true;
      });
      return start;
    },
  };
}
