import { isAscii } from 'node:buffer';
import type { FileHandle } from 'node:fs/promises';
import { readChunks } from '../storage/read-chunks.js';

/** A place in a file: a byte offset on a code point boundary and the line/column it starts. */
export interface FilePosition {
  /** Byte offset. */
  byte: number;
  /** 1-based line. */
  line: number;
  /** 0-based column in UTF-16 code units within the line. */
  column: number;
}

/** Where lines start in one file, sampled every 256 KiB, and its totals. */
export interface LineIndex {
  /** Bytes of the file when it was indexed. */
  readonly bytes: number;
  /** Lines: newlines, plus one for a last line without its newline. */
  readonly totalLines: number;
  /** UTF-16 length (its `\n` or `\r\n` left out) of each line of at least `LONG_LINE_UNITS`. */
  readonly longLines: ReadonlyMap<number, number>;
  /** The last sampled position at or before (`line`, `column`). */
  seek(line: number, column: number): FilePosition;
  /** The last sampled position at or before byte `byte`. */
  atByte(byte: number): FilePosition;
}

/** Lines at least this long have their length recorded (and are paged in windows). */
export const LONG_LINE_UNITS = 100_000;
const SAMPLE_BYTES = 256 * 1024;
const CHUNK_BYTES = 1 << 20;

/** UTF-16 code units that the UTF-8 bytes `data[from, to)` decode to (cut on code point boundaries). */
export function utf16Units(data: Uint8Array, from: number, to: number): number {
  if (isAscii(data.subarray(from, to))) return to - from;
  let units = 0;
  for (let i = from; i < to; i++) {
    const byte = data[i]!;
    if ((byte & 0xc0) !== 0x80) units += byte >= 0xf0 ? 2 : 1;
  }
  return units;
}

/**
 * Reads the file behind `handle` once, in 1 MiB chunks (yielding between them), and records a
 * position every 256 KiB: at the first line start past each mark or, inside a longer line, at
 * the first code point boundary past it. Reading any page afterwards decodes at most 256 KiB
 * before the page.
 */
export async function buildLineIndex(
  handle: FileHandle,
  size: number,
  signal?: AbortSignal,
): Promise<LineIndex> {
  const samples: FilePosition[] = [{ byte: 0, line: 1, column: 0 }];
  const longLines = new Map<number, number>();
  let line = 1;
  let column = 0;
  let nextSample = SAMPLE_BYTES;
  let lastByte = 0x0a;
  let position = 0;
  for await (const data of readChunks(handle, 0, size, { chunkBytes: CHUNK_BYTES, signal })) {
    const bytesRead = data.byteLength;
    // Most chunks are ASCII: a column is then a byte count, without looking at each line.
    const units = isAscii(data)
      ? (from: number, to: number) => to - from
      : (from: number, to: number) => utf16Units(data, from, to);
    let from = 0;
    while (from < bytesRead) {
      const newline = data.indexOf(0x0a, from);
      const end = newline < 0 ? bytesRead : newline;
      // Samples inside this run of one line, each on a code point boundary.
      while (position + end > nextSample) {
        let cut = Math.max(nextSample - position, from);
        while (cut < end && (data[cut]! & 0xc0) === 0x80) cut++;
        if (cut >= end) break;
        column += units(from, cut);
        from = cut;
        samples.push({ byte: position + cut, line, column });
        nextSample = position + cut + SAMPLE_BYTES;
      }
      column += units(from, end);
      if (newline < 0) break;
      if (column >= LONG_LINE_UNITS) {
        // The line's length leaves out its ending: a `\r` before the newline is part of it.
        const carriageReturn = newline > 0 ? data[newline - 1] === 0x0d : lastByte === 0x0d;
        longLines.set(line, carriageReturn ? column - 1 : column);
      }
      line++;
      column = 0;
      from = newline + 1;
      if (position + from >= nextSample) {
        samples.push({ byte: position + from, line, column: 0 });
        nextSample = position + from + SAMPLE_BYTES;
      }
    }
    lastByte = data[bytesRead - 1]!;
    position += bytesRead;
  }
  const unterminated = size > 0 && lastByte !== 0x0a;
  if (unterminated && column >= LONG_LINE_UNITS) longLines.set(line, column);
  const totalLines = unterminated ? line : line - 1;
  return {
    bytes: size,
    totalLines,
    longLines,
    seek(wantLine, wantColumn) {
      let low = 0;
      let high = samples.length - 1;
      while (low < high) {
        const middle = Math.ceil((low + high) / 2);
        const sample = samples[middle]!;
        if (sample.line < wantLine || (sample.line === wantLine && sample.column <= wantColumn))
          low = middle;
        else high = middle - 1;
      }
      return samples[low]!;
    },
    atByte(byte) {
      let low = 0;
      let high = samples.length - 1;
      while (low < high) {
        const middle = Math.ceil((low + high) / 2);
        if (samples[middle]!.byte <= byte) low = middle;
        else high = middle - 1;
      }
      return samples[low]!;
    },
  };
}
