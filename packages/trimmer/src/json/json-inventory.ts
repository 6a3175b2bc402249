import type { JsonTapeReader, JsonTapeWordSearch } from '@compaction/core';
import { textHash } from '@compaction/core/internal';
import type { StopCheck } from '../engine/stop-check.js';
import { escapeRegExp } from '../escape-reg-exp.js';
import { failedExitStatus, isExitPhrase } from '../readers/exit-status.js';
import { DEFAULT_VOCABULARY, type Vocabulary } from '../vocabulary.js';

/** Node kinds of a `JsonInventory`. */
export const NODE_OBJECT = 1;
export const NODE_ARRAY = 2;
export const NODE_STRING = 3;
export const NODE_SCALAR = 4;

/**
 * Every value of a JSON document as flat, pre-ordered arrays. Node 0 is the root; a node's
 * subtree is the index range `[i, next[i])`, so children are walked with
 * `c = i + 1; c < next[i]; c = next[c]`. Offsets index the source text (UTF-16 units); sizes are
 * UTF-8 bytes of the minified form, so slices keep numbers and strings verbatim.
 */
export interface JsonInventory {
  /** The source text. */
  text: string;
  /** Recorded nodes. */
  count: number;
  /** Values in the document other than the root, recorded or not. */
  totalValues: number;
  /** Nodes past `maxNodes` are counted but not recorded. */
  truncated: boolean;
  /** The source has no whitespace outside strings, so raw slices are already minified. */
  minified: boolean;
  /** UTF-8 bytes of `text`, when the inventory's builder measured them (the tape's does). */
  textBytes?: number;
  kind: Uint8Array;
  parent: Int32Array;
  next: Int32Array;
  /** Offset of a member's key string (quotes included), -1 for array items and the root. */
  keyStart: Int32Array;
  /** UTF-8 bytes of a member's key string, quotes included; 0 for items. */
  keyBytes: Int32Array;
  /** Offset just past a member's key string (its closing quote), -1 for items and the root. */
  keyEnd: Int32Array;
  /** Offset of the value. */
  start: Int32Array;
  /** Offset just past the value. */
  end: Int32Array;
  /** Minified UTF-8 bytes of the value. */
  valueBytes: Int32Array;
  /** Minified UTF-8 bytes of the unit: `"key":value` for a member, the value for an item. */
  unitBytes: Int32Array;
  /** Position among the parent's children. */
  childIndex: Int32Array;
  /** `textHash` of a member's key between its quotes; 0 for items and the root. */
  keyHash: Int32Array;
  /** `textHash` of a scalar's text (a string's between its quotes); 0 for containers. */
  valueHash: Int32Array;
  /** Offsets of error-like words inside strings, in text order. */
  errorAt: number[];
  /** Index into the vocabulary's error words of each. */
  errorWord: number[];
  /**
   * The reader of the lent tape whose memory holds these columns, when they are borrowed from
   * it (`inventoryFromTape` with `borrow`): `jsonSignatures` then asks it for the signatures,
   * computed where the columns are. Valid only while the reader is lent, as the columns are.
   */
  tapeReader?: JsonTapeReader;
}

function isEscaped(text: string, quote: number): boolean {
  let k = quote - 1;
  while (text.charCodeAt(k) === 0x5c) k--;
  return (quote - 1 - k) % 2 === 1;
}

/** Offset of the quote closing the string that opens at `open`. */
export function stringEnd(text: string, open: number): number {
  let close = text.indexOf('"', open + 1);
  while (close > 0 && isEscaped(text, close)) close = text.indexOf('"', close + 1);
  return close < 0 ? text.length - 1 : close;
}

/**
 * A copy of the first `used` entries of `array` (all of them by default) grown to `size` entries
 * (columns double as they fill, so this runs seldom).
 */
export function widen<
  T extends Uint8Array<ArrayBuffer> | Int32Array<ArrayBuffer> | Float64Array<ArrayBuffer>,
>(array: T, size: number, used = array.length): T {
  const wider = new (array.constructor as new (length: number) => T)(size);
  wider.set(used === array.length ? array : array.subarray(0, used));
  return wider;
}

// What the scanner accepts next.
const EXPECT_VALUE = 0;
const EXPECT_VALUE_OR_CLOSE = 1;
const EXPECT_KEY_OR_CLOSE = 2;
const EXPECT_KEY = 3;
const EXPECT_COLON = 4;
const EXPECT_COMMA_OR_CLOSE = 5;
const EXPECT_END = 6;

const HEX = new Uint8Array(128);
for (const c of '0123456789abcdefABCDEF') HEX[c.charCodeAt(0)] = 1;
const ESCAPES = new Uint8Array(128);
for (const c of '"\\/bfnrtu') ESCAPES[c.charCodeAt(0)] = 1;

/**
 * Where a scanned string ends and its UTF-8 size (reused across the strings of one scan), and
 * the error-like words met so far: looking for them here, in the loop that already visits every
 * character of every string, is far cheaper than a second pass with a regular expression.
 */
function createStringScan(matcher: ErrorMatcher, ascii: boolean) {
  return {
    end: 0,
    bytes: 0,
    /** Offsets of error-like words (all text of a JSON document is inside its strings). */
    errorAt: [] as number[],
    /** Index into the matcher's words of each. */
    errorWord: [] as number[],
    matcher,
    /** The text has no character beyond ASCII (so no string needs its UTF-8 size counted). */
    ascii,
    /** Offset of the next backslash at or after the last one looked for (text length if none). */
    nextBackslash: -1,
  };
}

type StringScan = ReturnType<typeof createStringScan>;

/** Error-like words worth at most this many recorded matches. */
const MAX_ERROR_HITS = 50_000;

// Per ASCII character, one lookup in the string loop: a plain character that is not a word
// character (0), a word character (letter, digit, underscore), one that can also start an error
// word (either case), or one the loop must handle itself (quote, backslash, control).
const CLASS_WORD = 1;
const CLASS_WORD_ERROR_START = 2;
const CLASS_SPECIAL = 3;
const LOWER_OR_DIGIT = new Uint8Array(128);
for (let c = 0; c < 128; c++) LOWER_OR_DIGIT[c] = /[a-z0-9]/.test(String.fromCharCode(c)) ? 1 : 0;

/**
 * A vocabulary's error words made ready for the scans: the words, the indices of those of each
 * lower-case first letter, each ASCII character's class in the string loop, and a search that
 * proposes where one may start.
 */
export interface ErrorMatcher {
  readonly words: readonly string[];
  readonly byFirst: readonly (readonly number[])[];
  readonly asciiClass: Uint8Array;
  readonly candidate: RegExp;
  /** Per word: 1 for an exit phrase (`exit code`), found only with a failed status after it. */
  readonly exitPhrase: Uint8Array;
  readonly exitFillers: ReadonlySet<string>;
}

/** What of a vocabulary the error scans read. */
export type ErrorVocabulary = Pick<Vocabulary, 'errorWords' | 'exitWords' | 'exitFillers'>;

const matchers = new WeakMap<ErrorVocabulary, ErrorMatcher>();

/**
 * The matcher of a vocabulary's error words (lower-case ASCII, a letter first), made once per
 * vocabulary.
 */
export function errorMatcher(vocabulary: ErrorVocabulary): ErrorMatcher {
  let matcher = matchers.get(vocabulary);
  if (matcher) return matcher;
  const words = vocabulary.errorWords;
  const byFirst: number[][] = Array.from({ length: 128 }, () => []);
  for (let index = 0; index < words.length; index++) {
    byFirst[words[index]!.charCodeAt(0)]!.push(index);
  }
  const asciiClass = new Uint8Array(128);
  for (let c = 0; c < 128; c++) {
    const ch = String.fromCharCode(c);
    let kind = /[A-Za-z0-9_]/.test(ch) ? CLASS_WORD : 0;
    if (/[A-Za-z]/.test(ch) && byFirst[c | 0x20]!.length > 0) kind = CLASS_WORD_ERROR_START;
    if (c < 0x20 || c === 0x22 || c === 0x5c) kind = CLASS_SPECIAL;
    asciiClass[c] = kind;
  }
  // No words: a search that never matches.
  const candidate = new RegExp(words.length > 0 ? prefixAlternation(words) : '(?!)', 'gi');
  const exitPhrase = Uint8Array.from(words, (word) =>
    isExitPhrase(word, vocabulary.exitWords) ? 1 : 0,
  );
  matcher = {
    words,
    byFirst,
    asciiClass,
    candidate,
    exitPhrase,
    exitFillers: vocabulary.exitFillers,
  };
  matchers.set(vocabulary, matcher);
  return matcher;
}

const DEFAULT_MATCHER = errorMatcher(DEFAULT_VOCABULARY);
/** Word classes alone (no word starts an error): what the boundary checks read. */
const ASCII_CLASS = errorMatcher({ ...DEFAULT_VOCABULARY, errorWords: [] }).asciiClass;

/** Index of the error word starting at `at` (any case), or -1. */
function errorWordAt(text: string, at: number, first: number, matcher: ErrorMatcher): number {
  const { words } = matcher;
  for (const index of matcher.byFirst[first]!) {
    const word = words[index]!;
    let k = 1;
    for (; k < word.length; k++) {
      const w = word.charCodeAt(k);
      const c = text.charCodeAt(at + k);
      if (w === 0x20 ? c !== 0x20 : (c | 0x20) !== w) break;
    }
    if (k < word.length) continue;
    // An exit phrase only with a failed status: `exit code 0` is not an error.
    if (
      matcher.exitPhrase[index] === 1 &&
      !failedExitStatus(text, at + word.length, text.length, matcher.exitFillers)
    ) {
      continue;
    }
    return index;
  }
  return -1;
}

/**
 * Scans the JSON string opening at `open` into `out` (end exclusive, UTF-8 bytes, quotes
 * included); false when it is invalid. Counting bytes and spotting error-like words here, in
 * the validating loop, costs less than visiting each string again. A key's words are not
 * error-like (`failureThreshold` names a setting, not a failure), so `key` skips the search.
 */
function scanString(text: string, open: number, out: StringScan, key: boolean): boolean {
  const length = text.length;
  let bytes = 2;
  // The character before: a word character, and a lower-case letter or digit (after which a
  // capital starts a word inside an identifier, as in `OutOfMemoryError`).
  let word = false;
  let lower = false;
  // A word found covers its letters: no other starts inside it (`BackOff` in `CrashLoopBackOff`).
  let notBefore = 0;
  let i = open + 1;
  const { matcher } = out;
  const asciiClass = matcher.asciiClass;
  // Short strings (most keys and values) are cheapest in this loop; the rest of a long one is
  // handed to native searches.
  const limit = Math.min(length, open + 1 + LONG_STRING_UNITS);
  while (i < limit) {
    const c = text.charCodeAt(i);
    if (c < 0x80) {
      const kind = asciiClass[c]!;
      if (kind < CLASS_SPECIAL) {
        if (
          kind === CLASS_WORD_ERROR_START &&
          !key &&
          (!word || (lower && c <= 0x5a)) &&
          i >= notBefore &&
          out.errorAt.length < MAX_ERROR_HITS
        ) {
          const index = errorWordAt(text, i, c | 0x20, matcher);
          if (index >= 0) {
            out.errorAt.push(i);
            out.errorWord.push(index);
            notBefore = i + matcher.words[index]!.length;
          }
        }
        word = kind !== 0;
        lower = LOWER_OR_DIGIT[c] === 1;
        i++;
        continue;
      }
    }
    if (c === 0x22) {
      out.end = i + 1;
      out.bytes = bytes + (i - open - 1);
      return true;
    }
    if (c < 0x20) return false;
    if (c === 0x5c) {
      const after = escapeEnd(text, i);
      if (after < 0) return false;
      // A `\uXXXX` escape's last hex digit is what a later word sees before it; `\n`, `\t`,
      // `\"`… are a separator, as the character they stand for.
      word = after - i === 6;
      lower = word && LOWER_OR_DIGIT[text.charCodeAt(after - 1)] === 1;
      i = after;
      continue;
    }
    // `bytes` holds the UTF-8 bytes beyond one per UTF-16 unit (plus the two quotes).
    word = true;
    lower = false;
    if (c < 0x800) bytes += 1;
    else {
      bytes += 2;
      // A surrogate pair: one character of four bytes.
      if (c >= 0xd800 && c <= 0xdbff) {
        const low = text.charCodeAt(i + 1);
        if (low >= 0xdc00 && low <= 0xdfff) i++;
      }
    }
    i++;
  }
  return i < length && scanLongString(text, open, i, word, lower, notBefore, bytes, out, key);
}

/** A string this many UTF-16 units long is finished by `scanLongString`. */
const LONG_STRING_UNITS = 48;

// Whole-content checks of a long string, run on a slice of it (no escapes need decoding: they
// are ASCII and never contain a control character or start an error word).
const CONTROL_CHARACTER = /[\x00-\x1f]/;
const NON_ASCII = /[^\x00-\x7f]/;

/**
 * `words` as one regular-expression alternation factored by common prefixes
 * (`e(?:rror|x(?:ception|it (?:code|status)))|…`): it matches at exactly the positions the plain
 * alternation does, but rejects each position after fewer comparisons, which makes searching a
 * whole document for error-like words up to 40% cheaper.
 */
function prefixAlternation(words: readonly string[]): string {
  const groups = new Map<string, string[]>();
  let empty = false;
  for (const word of words) {
    if (word.length === 0) {
      empty = true;
      continue;
    }
    const group = groups.get(word[0]!);
    if (group) group.push(word.slice(1));
    else groups.set(word[0]!, [word.slice(1)]);
  }
  const branches = [...groups].map(([first, rests]) => {
    if (rests.length === 1) return escapeRegExp(first + rests[0]!);
    const inner = prefixAlternation(rests);
    // One branch inside (the rests share their next character too) needs no group.
    const oneBranch = rests.every((rest) => rest.length > 0 && rest[0] === rests[0]![0]);
    return oneBranch ? escapeRegExp(first) + inner : `${escapeRegExp(first)}(?:${inner})`;
  });
  if (empty) branches.push('');
  return branches.join('|');
}

/** Escape letters that stand for a separator (`\\n`, `\\t`…). */
const SEPARATOR_ESCAPE = new Uint8Array(128);
for (const c of 'bfnrt') SEPARATOR_ESCAPE[c.charCodeAt(0)] = 1;

/** Whether `at` is one of the four hex digits of a `\\uXXXX` escape. */
function insideUnicodeEscape(text: string, at: number): boolean {
  for (let p = at - 5; p <= at - 2; p++) {
    if (p >= 0 && text.charCodeAt(p) === 0x5c && text.charCodeAt(p + 1) === 0x75) {
      if (!isEscaped(text, p)) return true;
    }
  }
  return false;
}

/**
 * Whether an error-like word may start at `at`, as the string loop decides it: not inside an
 * escape, and after a character that is not a word character (an escaped separator such as
 * `\\n` counts as one), or inside an identifier where a capital follows a lower-case letter or
 * a digit.
 */
function errorStartAllowed(text: string, at: number): boolean {
  const c = text.charCodeAt(at - 1);
  if (c >= 0x80) return false;
  const kind = ASCII_CLASS[c]!;
  // Cheapest tests first: most candidates follow a letter and fail on it.
  if (kind === 0) return true;
  if (kind === CLASS_SPECIAL) return c !== 0x5c || !isEscaped(text, at);
  if (SEPARATOR_ESCAPE[c] === 1 && isEscaped(text, at - 1)) return true;
  const first = text.charCodeAt(at);
  return (
    first >= 0x41 && first <= 0x5a && LOWER_OR_DIGIT[c] === 1 && !insideUnicodeEscape(text, at)
  );
}

/**
 * Appends to `errorAt`/`errorWord` (up to `MAX_ERROR_HITS` in all) the error-like words in
 * `content`, which is `text` from `from` on, by the string loop's own rules (see
 * `errorStartAllowed`; `word` and `lower` describe the character before `from`), and
 * `exit code`/`exit status` needs a non-zero status. Every letter of a JSON document is inside
 * a string or a literal that no error word matches, so a whole document can be searched at
 * once. A word found covers its letters (no other starts inside it), and none starts before
 * `notBefore`.
 */
export function collectErrorWords(
  text: string,
  content: string,
  from: number,
  word: boolean,
  lower: boolean,
  errorAt: number[],
  errorWord: number[],
  notBefore = 0,
  matcher: ErrorMatcher = DEFAULT_MATCHER,
): void {
  if (errorAt.length >= MAX_ERROR_HITS) return;
  // The regular expression only proposes positions; the loop's own rules decide.
  const { candidate } = matcher;
  candidate.lastIndex = Math.max(0, notBefore - from);
  for (
    let match = candidate.exec(content);
    match !== null && errorAt.length < MAX_ERROR_HITS;
    match = candidate.exec(content)
  ) {
    const at = from + match.index;
    candidate.lastIndex = match.index + 1;
    const first = text.charCodeAt(at);
    if (at === from ? word && !(lower && first <= 0x5a) : !errorStartAllowed(text, at)) continue;
    const index = errorWordAt(text, at, first | 0x20, matcher);
    if (index >= 0) {
      errorAt.push(at);
      errorWord.push(index);
      candidate.lastIndex = match.index + matcher.words[index]!.length;
    }
  }
}

/**
 * Appends to `errorAt`/`errorWord` what `collectErrorWords` appends for the string values of a
 * whole JSON text (keys left out: they name settings, not failures), with the places to check found by a JSON
 * tape's word search (`withJsonTape`) of its string values, over the units already in
 * WebAssembly memory, instead of a regular-expression search of the whole text. (Every letter of
 * a JSON text outside keys and string values is in a literal, which no error word matches.)
 */
export function collectErrorWordsWith(
  search: JsonTapeWordSearch,
  text: string,
  errorAt: number[],
  errorWord: number[],
  matcher: ErrorMatcher = DEFAULT_MATCHER,
): void {
  if (matcher.words.length === 0) return;
  let from = 0;
  let notBefore = 0;
  while (errorAt.length < MAX_ERROR_HITS) {
    const batch = search.stringCandidates(matcher.words, from);
    if (batch.length === 0) return;
    for (let i = 0; i < batch.length && errorAt.length < MAX_ERROR_HITS; i++) {
      const at = batch[i]!;
      if (at < notBefore) continue;
      const c = text.charCodeAt(at);
      if (c >= 0x80 || (at > 0 && !errorStartAllowed(text, at))) continue;
      const index = errorWordAt(text, at, c | 0x20, matcher);
      if (index >= 0) {
        errorAt.push(at);
        errorWord.push(index);
        notBefore = at + matcher.words[index]!.length;
      }
    }
    from = batch[batch.length - 1]! + 1;
  }
}

/**
 * Finishes the string opened at `open` from `from` (a character boundary, `word` and `bytes` as
 * the string loop left them), with the same result as that loop: its end is found with
 * `indexOf`, each escape is validated where a backslash search lands, and the content is checked
 * for control characters, measured and searched for error-like words by regular expressions.
 */
function scanLongString(
  text: string,
  open: number,
  from: number,
  word: boolean,
  lower: boolean,
  notBefore: number,
  bytes: number,
  out: StringScan,
  key: boolean,
): boolean {
  const length = text.length;
  let close = text.indexOf('"', from);
  if (close < 0) return false;
  let backslash = out.nextBackslash;
  if (backslash < from) {
    backslash = text.indexOf('\\', from);
    if (backslash < 0) backslash = length;
  }
  while (backslash < close) {
    const after = escapeEnd(text, backslash);
    if (after < 0) return false;
    if (after > close) {
      close = text.indexOf('"', after);
      if (close < 0) return false;
    }
    backslash = text.indexOf('\\', after);
    if (backslash < 0) backslash = length;
  }
  out.nextBackslash = backslash;
  const content = text.slice(from, close);
  if (CONTROL_CHARACTER.test(content)) return false;
  let total = bytes + (close - open - 1);
  if (!out.ascii) {
    const first = content.search(NON_ASCII);
    if (first >= 0) {
      for (let i = from + first; i < close; i++) {
        const c = text.charCodeAt(i);
        if (c < 0x80) continue;
        if (c < 0x800) total += 1;
        else if (c >= 0xd800 && c <= 0xdbff) {
          const low = text.charCodeAt(i + 1);
          total += 2;
          if (low >= 0xdc00 && low <= 0xdfff) i++;
        } else total += 2;
      }
    }
  }
  if (!key) {
    collectErrorWords(
      text,
      content,
      from,
      word,
      lower,
      out.errorAt,
      out.errorWord,
      notBefore,
      out.matcher,
    );
  }
  out.end = close + 1;
  out.bytes = total;
  return true;
}

/** Offset just past the escape whose backslash is at `at`, or -1 when it is not a valid one. */
function escapeEnd(text: string, at: number): number {
  const e = text.charCodeAt(at + 1);
  if (e >= 128 || ESCAPES[e] !== 1) return -1;
  if (e !== 0x75) return at + 2;
  for (let h = at + 2; h < at + 6; h++) {
    const d = text.charCodeAt(h);
    if (!(d < 128 && HEX[d] === 1)) return -1;
  }
  return at + 6;
}

function isWhitespace(c: number): boolean {
  return c === 0x20 || c === 0x0a || c === 0x0d || c === 0x09;
}

/** Offset of the first non-whitespace character at or after `from` (a tight loop of its own). */
function skipWhitespace(text: string, from: number): number {
  let i = from;
  while (i < text.length && isWhitespace(text.charCodeAt(i))) i++;
  return i;
}

const isDigit = (c: number) => c >= 0x30 && c <= 0x39;

/** End (exclusive) of the valid JSON number starting at `at`, or -1. */
function scanNumber(text: string, at: number): number {
  let i = at;
  if (text.charCodeAt(i) === 0x2d) i++;
  const first = text.charCodeAt(i);
  if (first === 0x30) i++;
  else if (first >= 0x31 && first <= 0x39) {
    i++;
    while (isDigit(text.charCodeAt(i))) i++;
  } else return -1;
  if (text.charCodeAt(i) === 0x2e) {
    i++;
    if (!isDigit(text.charCodeAt(i))) return -1;
    while (isDigit(text.charCodeAt(i))) i++;
  }
  const e = text.charCodeAt(i);
  if (e === 0x65 || e === 0x45) {
    i++;
    const sign = text.charCodeAt(i);
    if (sign === 0x2b || sign === 0x2d) i++;
    if (!isDigit(text.charCodeAt(i))) return -1;
    while (isDigit(text.charCodeAt(i))) i++;
  }
  return i;
}

/**
 * Validates `text` as JSON (RFC 8259, as `JSON.parse` accepts it) and inventories it in the
 * same single pass; `undefined` when it is not JSON. Iterative, so nesting depth is bounded by
 * memory only; no intermediate values are built, which keeps it near native parse speed.
 * `ascii` promises the text is all ASCII (its UTF-8 size equals its length), which spares the
 * search for characters to measure in long strings; leave it false when unsure.
 */
export function scanJson(
  text: string,
  maxNodes: number,
  ascii = false,
  check?: StopCheck,
  matcher: ErrorMatcher = DEFAULT_MATCHER,
): JsonInventory | undefined {
  // The node columns are locals, not fields of an object: optimised code that assumed a field
  // constant (or a class map that a full GC collected) would be thrown away on every call.
  let capacity = Math.max(64, Math.min(maxNodes, text.length >>> 4));
  let count = 0;
  let kinds = new Uint8Array(capacity);
  let parents = new Int32Array(capacity);
  let nexts = new Int32Array(capacity);
  let keyStarts = new Int32Array(capacity);
  let keyBytes = new Int32Array(capacity);
  let keyEnds = new Int32Array(capacity);
  let starts = new Int32Array(capacity);
  let ends = new Int32Array(capacity);
  let valueBytes = new Int32Array(capacity);
  let unitBytes = new Int32Array(capacity);
  let childIndexes = new Int32Array(capacity);
  const scanned = createStringScan(matcher, ascii);
  // Open containers: node id (-1 when not recorded), whether an object, children so far, and
  // the minified byte offset where each opened.
  const stackIds: number[] = [];
  const stackObject: boolean[] = [];
  const stackChildren: number[] = [];
  const stackOffset: number[] = [];
  let totalValues = 0;
  let truncated = false;
  let sawWhitespace = false;
  let expect = EXPECT_VALUE;
  let pendingKey = -1;
  let pendingKeyEnd = -1;
  let pendingKeyBytes = 0;
  // Minified offset in UTF-8 bytes.
  let minified = 0;

  const length = text.length;
  let i = 0;
  while (i < length) {
    const c = text.charCodeAt(i);
    if (isWhitespace(c)) {
      // Pretty-printed input is mostly indentation: skip the whole run in a tight loop.
      sawWhitespace = true;
      i = skipWhitespace(text, i + 1);
      continue;
    }
    if (c === 0x2c) {
      if (expect !== EXPECT_COMMA_OR_CLOSE) return undefined;
      expect = stackObject[stackObject.length - 1] ? EXPECT_KEY : EXPECT_VALUE;
      i++;
      minified++;
      continue;
    }
    if (c === 0x3a) {
      if (expect !== EXPECT_COLON) return undefined;
      expect = EXPECT_VALUE;
      i++;
      minified++;
      continue;
    }
    if (c === 0x7d || c === 0x5d) {
      const object = c === 0x7d;
      if (stackIds.length === 0 || stackObject[stackObject.length - 1] !== object) return undefined;
      if (
        expect !== EXPECT_COMMA_OR_CLOSE &&
        expect !== (object ? EXPECT_KEY_OR_CLOSE : EXPECT_VALUE_OR_CLOSE)
      ) {
        return undefined;
      }
      const id = stackIds.pop()!;
      stackObject.pop();
      stackChildren.pop();
      const opened = stackOffset.pop()!;
      i++;
      minified++;
      if (id >= 0) {
        const size = minified - opened;
        ends[id] = i;
        valueBytes[id] = size;
        unitBytes[id] = keyBytes[id]! > 0 ? size + keyBytes[id]! + 1 : size;
        nexts[id] = count;
      }
      expect = stackIds.length === 0 ? EXPECT_END : EXPECT_COMMA_OR_CLOSE;
      continue;
    }
    if (c === 0x22 && (expect === EXPECT_KEY || expect === EXPECT_KEY_OR_CLOSE)) {
      if (!scanString(text, i, scanned, true)) return undefined;
      pendingKey = i;
      pendingKeyEnd = scanned.end;
      pendingKeyBytes = scanned.bytes;
      minified += pendingKeyBytes;
      expect = EXPECT_COLON;
      i = scanned.end;
      continue;
    }
    if (expect !== EXPECT_VALUE && expect !== EXPECT_VALUE_OR_CLOSE) return undefined;
    let stop: number;
    let kind: number;
    if (c === 0x22) {
      stop = scanString(text, i, scanned, false) ? scanned.end : -1;
      kind = NODE_STRING;
    } else if (c === 0x7b || c === 0x5b) {
      stop = 0;
      kind = c === 0x7b ? NODE_OBJECT : NODE_ARRAY;
    } else if (c === 0x74 || c === 0x66 || c === 0x6e) {
      const literal = c === 0x74 ? 'true' : c === 0x66 ? 'false' : 'null';
      stop = text.startsWith(literal, i) ? i + literal.length : -1;
      kind = NODE_SCALAR;
    } else {
      stop = scanNumber(text, i);
      kind = NODE_SCALAR;
    }
    if (stop < 0) return undefined;
    // A value starts at `i`.
    const level = stackIds.length;
    const parentId = level > 0 ? stackIds[level - 1]! : -1;
    let position = 0;
    if ((totalValues & 16383) === 0 && check) check(16384);
    if (level > 0) {
      totalValues++;
      position = stackChildren[level - 1]!;
      stackChildren[level - 1] = position + 1;
    }
    let id = -1;
    if ((level === 0 || parentId >= 0) && count < maxNodes) {
      if (count >= capacity) {
        capacity = Math.min(maxNodes, capacity * 2);
        kinds = widen(kinds, capacity);
        parents = widen(parents, capacity);
        nexts = widen(nexts, capacity);
        keyStarts = widen(keyStarts, capacity);
        keyBytes = widen(keyBytes, capacity);
        keyEnds = widen(keyEnds, capacity);
        starts = widen(starts, capacity);
        ends = widen(ends, capacity);
        valueBytes = widen(valueBytes, capacity);
        unitBytes = widen(unitBytes, capacity);
        childIndexes = widen(childIndexes, capacity);
      }
      id = count++;
      kinds[id] = kind;
      parents[id] = parentId;
      keyStarts[id] = pendingKey;
      keyBytes[id] = pendingKey >= 0 ? pendingKeyBytes : 0;
      keyEnds[id] = pendingKey >= 0 ? pendingKeyEnd : -1;
      starts[id] = i;
      childIndexes[id] = position;
    } else {
      truncated = true;
    }
    pendingKey = -1;
    if (stop === 0) {
      stackIds.push(id);
      stackObject.push(c === 0x7b);
      stackChildren.push(0);
      stackOffset.push(minified);
      expect = c === 0x7b ? EXPECT_KEY_OR_CLOSE : EXPECT_VALUE_OR_CLOSE;
      i++;
      minified++;
      continue;
    }
    const bytes = kind === NODE_STRING ? scanned.bytes : stop - i;
    if (id >= 0) {
      ends[id] = stop;
      valueBytes[id] = bytes;
      unitBytes[id] = keyBytes[id]! > 0 ? bytes + keyBytes[id]! + 1 : bytes;
      nexts[id] = count;
    }
    minified += bytes;
    expect = level === 0 ? EXPECT_END : EXPECT_COMMA_OR_CLOSE;
    i = stop;
  }
  if (expect !== EXPECT_END) return undefined;
  // The hash columns as the tape's inventory computes them in WebAssembly (`JsonTapeInventory`):
  // per member its key's `textHash` between the quotes, per scalar its text's (a string's
  // between its quotes), else 0.
  const keyHash = new Int32Array(count);
  const valueHash = new Int32Array(count);
  for (let u = 0; u < count; u++) {
    const key = keyStarts[u]!;
    if (key >= 0) keyHash[u] = textHash(text, key + 1, keyEnds[u]! - 1);
    const k = kinds[u]!;
    if (k === NODE_STRING) valueHash[u] = textHash(text, starts[u]! + 1, ends[u]! - 1);
    else if (k === NODE_SCALAR) valueHash[u] = textHash(text, starts[u]!, ends[u]!);
  }
  return {
    text,
    count,
    totalValues,
    truncated,
    minified: !sawWhitespace,
    kind: kinds,
    parent: parents,
    next: nexts,
    keyStart: keyStarts,
    keyBytes,
    keyEnd: keyEnds,
    start: starts,
    end: ends,
    valueBytes,
    unitBytes,
    childIndex: childIndexes,
    keyHash,
    valueHash,
    errorAt: scanned.errorAt,
    errorWord: scanned.errorWord,
  };
}

/** Offset where node `i` starts as a unit (its key for a member). */
export function unitStart(inventory: JsonInventory, i: number): number {
  const key = inventory.keyStart[i]!;
  return key >= 0 ? key : inventory.start[i]!;
}

/** `text[from, to)` without the whitespace outside strings. */
export function minifyRange(bytes: string, from: number, to: number): string {
  const parts: string[] = [];
  let run = from;
  let i = from;
  while (i < to) {
    const c = bytes.charCodeAt(i);
    if (c === 0x22) {
      i = stringEnd(bytes, i) + 1;
      continue;
    }
    if (isWhitespace(c)) {
      if (run < i) parts.push(bytes.slice(run, i));
      i = skipWhitespace(bytes, i + 1);
      run = i;
      continue;
    }
    i++;
  }
  if (run < to) parts.push(bytes.slice(run, to));
  return parts.length === 1 ? parts[0]! : parts.join('');
}
