import type { FileHandle } from 'node:fs/promises';
import type { FilePosition, LineIndex } from './line-index.js';

const READ_BYTES = 256 * 1024;

/** A forward reader over a file's text, tracking the 1-based line and 0-based column. */
export interface TextCursor {
  /** 1-based line of the next unit. */
  readonly line: number;
  /** 0-based column (UTF-16 code units) of the next unit. */
  readonly column: number;
  /** True once every byte has been read and consumed. */
  atEnd(): Promise<boolean>;
  /**
   * Moves forward to (`line`, `column`), or to the end of that line or file when it is shorter.
   * Never stops between the halves of a surrogate pair: it stops before the pair instead.
   */
  skipTo(line: number, column: number): Promise<void>;
  /**
   * The rest of the current line, at most `cap` code units of it (never ending inside a
   * surrogate pair), plus its newline (`\n` or `\r\n`) when that comes next. `complete` is true when the line
   * ended (newline or end of file) within the text returned.
   */
  readLine(cap: number): Promise<{ text: string; complete: boolean }>;
}

const isHigh = (unit: number) => unit >= 0xd800 && unit <= 0xdbff;
const isLow = (unit: number) => unit >= 0xdc00 && unit <= 0xdfff;

/** A cursor at (`line`, `column`, 0-based), started from the line index's nearest sample. */
export async function openTextCursor(
  handle: FileHandle,
  index: LineIndex,
  line: number,
  column: number,
  signal?: AbortSignal,
): Promise<TextCursor> {
  const cursor = createTextCursor(handle, index.bytes, index.seek(line, column), signal);
  await cursor.skipTo(line, column);
  return cursor;
}

/** A cursor starting at `start` (a sampled position of the file's line index). */
export function createTextCursor(
  handle: FileHandle,
  size: number,
  start: FilePosition,
  signal?: AbortSignal,
): TextCursor {
  const decoder = new TextDecoder('utf-8', { ignoreBOM: true });
  const buffer = Buffer.allocUnsafe(Math.max(1, Math.min(READ_BYTES, size - start.byte)));
  let position = start.byte;
  let flushed = false;
  let text = '';
  let at = 0;
  let line = start.line;
  let column = start.column;

  /** Reads more text; false when there is none. */
  async function fill(): Promise<boolean> {
    signal?.throwIfAborted();
    // Keep one consumed unit, so the unit before the cursor can still be looked at.
    if (at > 1) {
      text = text.slice(at - 1);
      at = 1;
    }
    while (!flushed) {
      if (position >= size) {
        flushed = true;
        const rest = decoder.decode();
        if (rest) {
          text += rest;
          return true;
        }
        return false;
      }
      const { bytesRead } = await handle.read(
        buffer,
        0,
        Math.min(buffer.length, size - position),
        position,
      );
      if (bytesRead === 0) {
        position = size;
        continue;
      }
      position += bytesRead;
      const decoded = decoder.decode(buffer.subarray(0, bytesRead), { stream: true });
      if (decoded) {
        text += decoded;
        return true;
      }
    }
    return false;
  }

  async function ensure(count: number): Promise<boolean> {
    while (text.length - at < count) if (!(await fill())) return false;
    return true;
  }

  return {
    get line() {
      return line;
    },
    get column() {
      return column;
    },
    async atEnd() {
      return !(await ensure(1));
    },
    async skipTo(wantLine, wantColumn) {
      while (line < wantLine) {
        if (!(await ensure(1))) return;
        const newline = text.indexOf('\n', at);
        if (newline < 0) {
          column += text.length - at;
          at = text.length;
          continue;
        }
        at = newline + 1;
        line++;
        column = 0;
      }
      while (column < wantColumn) {
        if (!(await ensure(1))) return;
        const newline = text.indexOf('\n', at);
        const lineEnd = newline < 0 ? text.length : newline;
        const step = Math.min(wantColumn - column, lineEnd - at);
        at += step;
        column += step;
        if (newline >= 0 && at === newline) break;
      }
      // Landed between the halves of a pair: start at the pair instead.
      if (
        column > 0 &&
        (await ensure(1)) &&
        isHigh(text.charCodeAt(at - 1)) &&
        isLow(text.charCodeAt(at))
      ) {
        at--;
        column--;
      }
    },
    async readLine(cap) {
      let out = '';
      for (;;) {
        if (!(await ensure(1))) return { text: out, complete: true };
        const newline = text.indexOf('\n', at);
        const lineEnd = newline < 0 ? text.length : newline;
        const room = cap - out.length;
        if (lineEnd - at > room || (newline < 0 && lineEnd - at === room)) {
          let take = room;
          if (take > 0 && isHigh(text.charCodeAt(at + take - 1))) {
            if (!(await ensure(take + 1))) {
              // The file ends right after: the pair is whole in what is left.
            } else if (isLow(text.charCodeAt(at + take))) {
              // Never half a pair; but a window of one unit that starts at a pair holds the
              // pair, or a reader following `next` would ask for the same place forever.
              take = take > 1 || out.length > 0 ? take - 1 : 2;
            }
          }
          out += text.slice(at, at + take);
          at += take;
          column += take;
          // The newline right after a full page belongs to this line's page, and so does a
          // CRLF (the `\r` is not a column of the line: a page of it alone would be empty).
          if ((await ensure(1)) && text.charCodeAt(at) === 0x0a) {
            at++;
            line++;
            column = 0;
            return { text: `${out}\n`, complete: true };
          }
          if (
            (await ensure(2)) &&
            text.charCodeAt(at) === 0x0d &&
            text.charCodeAt(at + 1) === 0x0a
          ) {
            at += 2;
            line++;
            column = 0;
            return { text: `${out}\r\n`, complete: true };
          }
          return { text: out, complete: !(await ensure(1)) };
        }
        if (newline >= 0) {
          out += text.slice(at, newline + 1);
          at = newline + 1;
          line++;
          column = 0;
          return { text: out, complete: true };
        }
        out += text.slice(at, lineEnd);
        column += lineEnd - at;
        at = lineEnd;
      }
    },
  };
}
