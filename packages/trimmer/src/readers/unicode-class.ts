import { isAsciiDigit, isAsciiLetter } from './ascii-class.js';

/**
 * Unicode character classes the relevance scan asks about (letter or digit, a script written
 * without spaces), answered from a table filled as characters are met.
 *
 * The answers come from regular expressions with `\p{…}` classes, so they follow the runtime's
 * Unicode version. But such a regular expression is expensive to compile (about a millisecond
 * for `[\p{L}\p{N}]`) and V8 drops its compiled code when it has not run across two major
 * collections: asked per trim, it was compiled again in every trim of a host that collects
 * between calls. Remembered per character, each is asked once per process.
 */

const LETTER_OR_DIGIT = /[\p{L}\p{N}]/u;
// Scripts written without spaces between words: a token boundary cannot be asked for there.
const UNSPACED =
  /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}\p{Script=Thai}]/u;

const KNOWN = 1;
const IS_LETTER_OR_DIGIT = 2;
const IS_UNSPACED = 4;

/** Per code point of the Basic Multilingual Plane: 0 until asked, else `KNOWN` and the classes. */
const BMP = new Uint8Array(0x10000);
/** The same for the other planes, bounded (emptied when full): they are rare in real text. */
const ASTRAL = new Map<number, number>();
const ASTRAL_MAX = 4096;

function classify(codePoint: number): number {
  const char = String.fromCodePoint(codePoint);
  return (
    KNOWN |
    (LETTER_OR_DIGIT.test(char) ? IS_LETTER_OR_DIGIT : 0) |
    (UNSPACED.test(char) ? IS_UNSPACED : 0)
  );
}

function classesOf(codePoint: number): number {
  if (codePoint < 0x10000) {
    let classes = BMP[codePoint]!;
    if (classes === 0) {
      classes = classify(codePoint);
      BMP[codePoint] = classes;
    }
    return classes;
  }
  let classes = ASTRAL.get(codePoint);
  if (classes === undefined) {
    classes = classify(codePoint);
    if (ASTRAL.size >= ASTRAL_MAX) ASTRAL.clear();
    ASTRAL.set(codePoint, classes);
  }
  return classes;
}

/** Whether `codePoint` is a letter or a digit (`\p{L}` or `\p{N}`); a lone surrogate is neither. */
export function isLetterOrDigit(codePoint: number): boolean {
  if (codePoint < 0x80) return isAsciiLetter(codePoint) || isAsciiDigit(codePoint);
  return (classesOf(codePoint) & IS_LETTER_OR_DIGIT) !== 0;
}

/** Whether `codePoint` belongs to a script written without spaces (Han, kana, Hangul, Thai). */
export function isUnspacedScript(codePoint: number): boolean {
  if (codePoint < 0x80) return false;
  return (classesOf(codePoint) & IS_UNSPACED) !== 0;
}
