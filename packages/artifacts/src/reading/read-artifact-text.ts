import type { FileHandle } from 'node:fs/promises';
import { ArtifactError } from '../artifact-error.js';
import { createCandidateScanner } from './candidate-scanner.js';
import type { LineIndex } from './line-index.js';
import type { SearchMatcher } from './search-pattern.js';
import { openTextCursor } from './text-cursor.js';

/** A place to start a page or a search: a 1-based line and a 1-based column in it. */
export interface TextPosition {
  /** 1-based line. */
  line: number;
  /** 1-based column in UTF-16 code units (the unit JavaScript and LSP count). */
  column: number;
}

/** A page of a stored text, as `readTextPage` cuts it. */
export interface TextPage {
  /** First line of the page, 1-based. */
  line: number;
  /** Column where the page starts in `line`, 1-based: 1 unless the page continues a long line. */
  column: number;
  /** Lines in the page (a window of a long line counts as one). */
  count: number;
  /** The page; whole lines keep their newlines. */
  text: string;
  /** Lines in the whole text. */
  totalLines: number;
  /** Where the next page starts, or `null` at the end. */
  next: TextPosition | null;
  /**
   * Set when the page is a window of one line: its columns (1-based, inclusive) and the line's
   * length, its ending (`\n` or `\r\n`) left out.
   */
  window?: { line: number; from: number; to: number; lineChars: number };
}

const invalid = (message: string) =>
  new ArtifactError({ code: 'artifact_invalid_argument', message });

/**
 * Reads up to `limit` whole lines from `start`, or, when the first line from `start` is longer
 * than `maxChars`, a window of `maxChars` code units of it (never splitting a code point).
 * Decodes at most 256 KiB before the page, thanks to the line index.
 */
export async function readTextPage(
  handle: FileHandle,
  index: LineIndex,
  start: TextPosition,
  options: { limit: number; maxChars: number; signal?: AbortSignal },
): Promise<TextPage> {
  const { totalLines } = index;
  if (totalLines === 0) {
    if (start.line > 1)
      throw invalid(`offset ${start.line} is past the end: the artifact is empty`);
    return { line: 1, column: 1, count: 0, text: '', totalLines, next: null };
  }
  if (start.line > totalLines) {
    throw invalid(
      `offset ${start.line} is past the last line (${totalLines}); lines count from 1, and a negative offset counts from the end`,
    );
  }
  const cursor = await openTextCursor(handle, index, start.line, start.column - 1, options.signal);
  // Short of the column by more than the half pair it may step back: the line ends before it.
  if (cursor.line === start.line && cursor.column < start.column - 2) {
    throw invalid(
      `column ${start.column} is past the end of line ${start.line} (${cursor.column} characters)`,
    );
  }
  const column = cursor.column + 1;
  const first = await cursor.readLine(options.maxChars);
  // A line's length leaves out its ending, `\r\n` as well as `\n`, as search counts it.
  const body = (text: string) =>
    text.endsWith('\r\n') ? text.length - 2 : text.endsWith('\n') ? text.length - 1 : text.length;
  if (column > 1 && first.complete && body(first.text) === 0) {
    // At the end of the line (its newline, or the `\r` of its CRLF): no column of it is there.
    throw invalid(
      `column ${start.column} is past the end of line ${start.line} (${column - 1} characters)`,
    );
  }
  const lineChars = async (read: number) => {
    const known = index.longLines.get(start.line);
    if (known !== undefined) return known;
    let rest = 0;
    for (;;) {
      const more = await cursor.readLine(1 << 16);
      rest += body(more.text);
      if (more.complete) return column - 1 + read + rest;
    }
  };
  if (!first.complete) {
    const read = first.text.length;
    return {
      line: start.line,
      column,
      count: 1,
      text: first.text,
      totalLines,
      next: { line: start.line, column: column + read },
      window: {
        line: start.line,
        from: column,
        to: column + read - 1,
        lineChars: await lineChars(read),
      },
    };
  }
  let text = first.text;
  let count = 1;
  const window =
    column > 1
      ? {
          line: start.line,
          from: column,
          to: column + body(first.text) - 1,
          lineChars: column - 1 + body(first.text),
        }
      : undefined;
  let next: TextPosition | null = null;
  while (!(await cursor.atEnd())) {
    const line = cursor.line;
    const room = options.maxChars - text.length;
    if (count >= options.limit || room <= 0) {
      next = { line, column: 1 };
      break;
    }
    const more = await cursor.readLine(room);
    if (!more.complete) {
      next = { line, column: 1 };
      break;
    }
    text += more.text;
    count++;
  }
  return { line: start.line, column, count, text, totalLines, next, ...(window ? { window } : {}) };
}

/** A line that matched a search. */
export interface TextMatch {
  /** 1-based line. */
  line: number;
  /** 1-based column of the match in the line (UTF-16 code units): read it with `offset: line, column`. */
  column: number;
  /** Length of the match in UTF-16 code units (for highlighting). */
  length: number;
  /** The line, or for a line over 300 chars a window around the match marked with `…`. */
  text: string;
}

/** What `searchText` found. */
export interface TextSearchResult {
  matches: TextMatch[];
  /** True when the search stopped before the end (match budget or time budget). */
  more: boolean;
  /** Where to continue when `more`: the next match (match budget) or the next unsearched place (time). */
  next: TextPosition | null;
  /** Why it stopped early, when it did. */
  stoppedBy?: 'matches' | 'time';
  /** Lines searched to the end in this call. */
  linesSearched: number;
  /** Lines over `SEARCH_WINDOW_UNITS` searched in overlapping windows (a regex anchor or a match longer than the overlap can be missed there). */
  windowedLines: number;
}

/** Lines up to this many code units are searched whole. */
export const SEARCH_WINDOW_UNITS = 2 * 1024 * 1024;
const REGEX_OVERLAP_UNITS = 64 * 1024;
const SHOWN_CHARS = 300;
const SNIPPET_BEFORE = 60;
const SNIPPET_CHARS = 240;
const YIELD_MS = 10;
/** A gap to the next candidate line up to this many bytes is decoded rather than sought. */
const SKIP_DECODE_BYTES = 1 << 20;

function snippet(
  text: string,
  start: number,
  lineStart: boolean,
  lineEnd: boolean,
): { text: string; end: number } {
  let from = Math.max(0, start - SNIPPET_BEFORE);
  let to = Math.min(text.length, from + SNIPPET_CHARS);
  const low = (at: number) => {
    const unit = text.charCodeAt(at);
    return unit >= 0xdc00 && unit <= 0xdfff;
  };
  if (from > 0 && low(from)) from--;
  if (to < text.length && low(to)) to++;
  const head = from > 0 || !lineStart ? '…' : '';
  const tail = to < text.length || !lineEnd ? '…' : '';
  return { text: `${head}${text.slice(from, to)}${tail}`, end: to };
}

/** Code units before a resumed search's column it reads for context (a surrogate pair). */
const CONTEXT_UNITS = 2;

/**
 * Searches lines from `from` on. A line up to 2 Mi code units is tested whole; a longer one in
 * windows of that size overlapping by the pattern's length (a literal) or 64 Ki units (a regex).
 * A line up to 300 chars matches once; in a longer one every match outside the previous match's
 * snippet is reported with its own column. Stops after `maxMatches` (then `next` is the next
 * match) or at `deadline` (then `next` is where it stopped, always past `from`: the first line
 * or window is searched whatever the clock says), and yields to the event loop every 10 ms so
 * other requests go on.
 */
export async function searchText(
  handle: FileHandle,
  index: LineIndex,
  matcher: SearchMatcher,
  from: TextPosition,
  options: { maxMatches: number; deadline: number; now: () => number; signal?: AbortSignal },
): Promise<TextSearchResult> {
  const matches: TextMatch[] = [];
  let linesSearched = 0;
  let windowedLines = 0;
  if (index.totalLines === 0 || from.line > index.totalLines) {
    return { matches, more: false, next: null, linesSearched, windowedLines };
  }
  const overlap =
    matcher.literalLength !== undefined
      ? Math.max(0, matcher.literalLength - 1)
      : REGEX_OVERLAP_UNITS;
  // A search resumed inside a line sees the code point before it too, as `\b`, `\B` and `^`
  // need (`\Bing` resumed at the `i` of `running`), and reports nothing that starts before; in
  // a line short enough to be shown whole, it reads from the line's start, so it is.
  const resume = from.column - 1;
  let cursor = await openTextCursor(
    handle,
    index,
    from.line,
    resume <= SHOWN_CHARS ? 0 : resume - CONTEXT_UNITS,
    options.signal,
  );
  let carry = '';
  if (cursor.line === from.line && cursor.column < resume) {
    const context = await cursor.readLine(resume - cursor.column);
    if (!context.complete) carry = context.text;
  }
  let lastYield = options.now();
  let minColumn = cursor.column;
  // The first segment is searched whatever the clock says (opening and indexing a large file
  // may take the whole budget): each call moves on, so following `next` always ends.
  let progressed = false;
  const breathe = async () => {
    const now = options.now();
    if (progressed && now >= options.deadline) return true;
    if (now - lastYield >= YIELD_MS) {
      await new Promise((resolve) => setImmediate(resolve));
      lastYield = options.now();
    }
    return false;
  };
  // A literal's bytes are looked for in the raw file first: lines without them are skipped
  // undecoded, so a literal search runs at the speed of a byte search.
  const scanner = matcher.prefilter
    ? createCandidateScanner(handle, index, matcher.prefilter, options.signal)
    : undefined;
  /** The start of a line whose byte offset is known (the line after the last candidate's). */
  let known: { line: number; byte: number } | undefined;
  while (!(await cursor.atEnd())) {
    if (await breathe()) {
      return {
        matches,
        more: true,
        next: { line: cursor.line, column: (carry ? minColumn : cursor.column) + 1 },
        stoppedBy: 'time',
        linesSearched,
        windowedLines,
      };
    }
    if (scanner && !carry && cursor.column === 0) {
      const start = cursor.line;
      const byte = known?.line === start ? known.byte : await scanner.lineStart(start);
      // The scanner asks only after a chunk: each call moves on.
      const found = await scanner.next(byte, () => {
        progressed = true;
        return breathe();
      });
      if (found === -1) {
        linesSearched += index.totalLines - start + 1;
        return { matches, more: false, next: null, linesSearched, windowedLines };
      }
      if (typeof found !== 'number') {
        const at = await scanner.positionOf(found.stoppedAt, { byte, line: start, column: 0 });
        linesSearched += at.line - start;
        return {
          matches,
          more: true,
          next: { line: at.line, column: at.column + 1 },
          stoppedBy: 'time',
          linesSearched,
          windowedLines,
        };
      }
      const { line } = await scanner.positionOf(found, { byte, line: start, column: 0 });
      if (line > start) {
        linesSearched += line - start;
        // Decoding a short gap costs less than seeking from the line index.
        if (found - byte < SKIP_DECODE_BYTES) await cursor.skipTo(line, 0);
        else cursor = await openTextCursor(handle, index, line, 0, options.signal);
      }
      known = { line: line + 1, byte: await scanner.nextLineStart(found) };
      progressed = true;
      if (await cursor.atEnd()) break;
    }
    const line = cursor.line;
    const segmentColumn = cursor.column;
    const read = await cursor.readLine(SEARCH_WINDOW_UNITS);
    progressed = true;
    let body = read.text;
    if (read.complete)
      body = body.endsWith('\r\n')
        ? body.slice(0, -2)
        : body.endsWith('\n')
          ? body.slice(0, -1)
          : body;
    const windowText = carry + body;
    const windowColumn = segmentColumn - carry.length;
    const lineStart = windowColumn === 0;
    const whole = lineStart && read.complete;
    if (!whole && lineStart) windowedLines++;
    let at = Math.max(carry ? 1 : 0, minColumn - windowColumn);
    const acceptBefore = read.complete ? Number.POSITIVE_INFINITY : windowText.length - overlap;
    while (at <= windowText.length) {
      const found = matcher.find(windowText, at);
      if (!found || found.start >= acceptBefore) break;
      const column = windowColumn + found.start + 1;
      if (matches.length === options.maxMatches) {
        return {
          matches,
          more: true,
          next: { line, column },
          stoppedBy: 'matches',
          linesSearched,
          windowedLines,
        };
      }
      if (whole && windowText.length <= SHOWN_CHARS) {
        matches.push({ line, column, length: found.end - found.start, text: windowText });
        break;
      }
      const shown = snippet(windowText, found.start, lineStart, read.complete);
      matches.push({ line, column, length: found.end - found.start, text: shown.text });
      at = Math.max(shown.end, found.end, found.start + 1);
      if (options.now() >= options.deadline && at < windowText.length) {
        return {
          matches,
          more: true,
          next: { line, column: windowColumn + at + 1 },
          stoppedBy: 'time',
          linesSearched,
          windowedLines,
        };
      }
    }
    if (read.complete) {
      linesSearched++;
      carry = '';
      minColumn = 0;
    } else {
      carry = windowText.slice(Math.max(0, windowText.length - overlap - 1));
      minColumn = Math.max(windowColumn + at, windowColumn + acceptBefore);
    }
  }
  return { matches, more: false, next: null, linesSearched, windowedLines };
}
