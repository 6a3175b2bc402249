import { sha256Hex } from './sha256-hex.js';

/** How a stored file differs from the result it holds: `json-lines`, see `layOutJson`. */
export type StoredLayout = 'json-lines';

/** A result as it is stored: laid out when that gives its lines a meaning, else as it is. */
export interface StoredForm {
  /** The text to store. */
  text: string;
  /** Set when `text` is not the result: how it was laid out, and the result's SHA-256 and bytes. */
  original?: { layout: StoredLayout; digest: string; bytes: number };
}

/**
 * `result` as a store keeps it: a one-line JSON object or array laid out (`layOutJson`).
 * `digest` is `result`'s SHA-256 when the caller has it (`contentDigest`), so it is not hashed again.
 */
export function storedFormOf(result: string, digest?: string): StoredForm {
  const laidOut = layOutJson(result);
  if (laidOut === undefined) return { text: result };
  return {
    text: laidOut,
    original: {
      layout: 'json-lines',
      digest: digest ?? sha256Hex(result),
      bytes: Buffer.byteLength(result),
    },
  };
}

/** Longest text laid out, in UTF-16 code units; a longer one is stored as it is. */
export const MAX_JSON_LAYOUT_CHARS = 64 * 2 ** 20;
/** Indentation stops growing past this depth (its width is removed on restore whatever it is). */
const MAX_INDENT_DEPTH = 16;
const NUMBER = /-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?/y;
const LITERAL = /true|false|null/y;
const ESCAPE = /\\(?:["\\/bfnrt]|u[0-9a-fA-F]{4})/y;

const isBlank = (code: number) => code === 0x20 || code === 0x09 || code === 0x0a || code === 0x0d;

/**
 * A JSON object or array written on one line, laid out one value per line: a newline and two
 * spaces per level of nesting are inserted after `{`, `[` and `,` and before `}` and `]`, and
 * nothing else changes (keys, strings and numbers keep their exact text, a 64-bit id or an
 * escape included, and whitespace between tokens stays where it was, before the inserted
 * newline). So a search answers the line of a value, and `restoreJsonLayout` gives the original
 * back byte for byte. `undefined` when `text` is not one whole JSON object or array (with
 * whitespace around it), when it already has a line break between its tokens, or when it holds
 * nothing to lay out (`{}`), or when it is over `MAX_JSON_LAYOUT_CHARS`.
 */
export function layOutJson(text: string): string | undefined {
  if (text.length > MAX_JSON_LAYOUT_CHARS) return undefined;
  let at = 0;
  while (at < text.length && isBlank(text.charCodeAt(at))) at++;
  const first = text.charCodeAt(at);
  if (first !== 0x7b && first !== 0x5b) return undefined;
  const parts: string[] = [text.slice(0, at)];
  /** Open containers: true for an object. */
  const open: boolean[] = [];
  /** What comes next: a value, an object key, a colon, or a comma or the end of a container. */
  let want: 'value' | 'key' | 'colon' | 'more' = 'value';
  /** A newline is owed before the next token (after an opening bracket or a comma). */
  let breakOwed = false;
  let laidOut = false;
  const newline = (depth: number) => `\n${'  '.repeat(Math.min(depth, MAX_INDENT_DEPTH))}`;
  while (at < text.length) {
    const blankStart = at;
    while (at < text.length && isBlank(text.charCodeAt(at))) at++;
    const blank = text.slice(blankStart, at);
    if (open.length === 0 && want === 'more') {
      // The value has ended: only whitespace may follow, kept as it is.
      if (at < text.length) return undefined;
      parts.push(blank);
      break;
    }
    // A line break between tokens: the text has lines already (and restoring would drop it).
    if (blank.includes('\n')) return undefined;
    if (at >= text.length) return undefined;
    const code = text.charCodeAt(at);
    const close = code === 0x7d || code === 0x5d;
    if (close) {
      if (open.length === 0 || open.at(-1) !== (code === 0x7d)) return undefined;
      const empty = breakOwed && (want === 'value' || want === 'key');
      if (!empty && want !== 'more') return undefined;
      if (empty && parts.at(-1) !== (code === 0x7d ? '{' : '[')) return undefined;
      open.pop();
      parts.push(empty ? blank : blank + newline(open.length), text[at]!);
      breakOwed = false;
      want = 'more';
      at++;
      continue;
    }
    const lead = breakOwed ? blank + newline(open.length) : blank;
    if (breakOwed) laidOut = true;
    breakOwed = false;
    if (code === 0x2c) {
      if (want !== 'more' || open.length === 0) return undefined;
      parts.push(blank, ',');
      breakOwed = true;
      want = open.at(-1) ? 'key' : 'value';
      at++;
      continue;
    }
    if (code === 0x3a) {
      if (want !== 'colon') return undefined;
      parts.push(blank, ':');
      want = 'value';
      at++;
      continue;
    }
    if (want === 'colon' || want === 'more') return undefined;
    if (code === 0x7b || code === 0x5b) {
      if (want !== 'value') return undefined;
      parts.push(lead, text[at]!);
      open.push(code === 0x7b);
      breakOwed = true;
      want = code === 0x7b ? 'key' : 'value';
      at++;
      continue;
    }
    let end: number;
    if (code === 0x22) {
      end = stringEnd(text, at);
    } else {
      if (want !== 'value') return undefined;
      const pattern = code === 0x2d || (code >= 0x30 && code <= 0x39) ? NUMBER : LITERAL;
      pattern.lastIndex = at;
      end = pattern.test(text) ? pattern.lastIndex : -1;
    }
    if (end < 0) return undefined;
    parts.push(lead, text.slice(at, end));
    want = want === 'key' ? 'colon' : 'more';
    at = end;
  }
  if (open.length > 0 || want !== 'more' || !laidOut) return undefined;
  return parts.join('');
}

/** The offset after the JSON string starting at `at`, or -1 when it is not one. */
function stringEnd(text: string, at: number): number {
  for (let i = at + 1; i < text.length; ) {
    const code = text.charCodeAt(i);
    if (code === 0x22) return i + 1;
    if (code < 0x20) return -1;
    if (code === 0x5c) {
      ESCAPE.lastIndex = i;
      if (!ESCAPE.test(text)) return -1;
      i = ESCAPE.lastIndex;
    } else i++;
  }
  return -1;
}

/**
 * The result a `layOutJson` file holds, byte for byte: every newline between the first and the
 * last non-blank character is removed with the spaces after it (the original had none there,
 * and whitespace it had sits before each newline).
 */
export function restoreJsonLayout(text: string): string {
  let start = 0;
  while (start < text.length && isBlank(text.charCodeAt(start))) start++;
  let end = text.length;
  while (end > start && isBlank(text.charCodeAt(end - 1))) end--;
  return text.slice(0, start) + text.slice(start, end).replace(/\n {0,}/g, '') + text.slice(end);
}
