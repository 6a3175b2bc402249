import { isAsciiDigit, isAsciiWordCode } from './ascii-class.js';
import { skipTerminalEscape } from './line-level.js';

/** UTF-16 units of a line that shape its template, and words counted. */
const TEMPLATE_WINDOW = 200;
export const TEMPLATE_WORDS = 12;
/** A word this long (a hash, an id, base64) is a variable, like one holding a digit. */
const LONG_WORD = 20;
const ESC = 0x1b;
const FNV_OFFSET = 0x811c9dc5;
const FNV_PRIME = 0x01000193;
const VARIABLE = 0x23;

/**
 * Per UTF-16 unit: a word unit (`[A-Za-z0-9_]`, and every unit from 0x80), a digit. A table of
 * every unit (64 KB): one load per unit, no branch on ASCII first; the template loop reads each
 * unit of a line's opening through it.
 */
const WORD = 1;
const DIGIT = 2;
const CLASS_OF_UNIT = new Uint8Array(0x10000).fill(WORD);
for (let code = 0; code < 128; code++) {
  CLASS_OF_UNIT[code] = (isAsciiWordCode(code) ? WORD : 0) | (isAsciiDigit(code) ? DIGIT : 0);
}

/**
 * Whether the unit at `i`, in a word, makes the word variable: a digit, or a `-` before one
 * (`blk_-6952`).
 */
function joinsVariable(units: Uint16Array, i: number, end: number): boolean {
  const c = units[i]!;
  const kind = CLASS_OF_UNIT[c]!;
  if (kind !== 0) return kind !== WORD;
  return c === 0x2d && i + 1 < end && isAsciiDigit(units[i + 1]!);
}

/**
 * A hash of the shape of the line at `units[from, to)` (a text's UTF-16 units): its first words
 * with every word that holds a digit (a `-` before a digit joins the word: `blk_-6952`) or is
 * very long (timestamps, ids, counts, hashes) folded into one placeholder, and punctuation,
 * spacing and terminal escapes ignored. Lines printed by the same statement share it, so how
 * often a template occurs says how routine its lines are. Looks at no more than
 * `TEMPLATE_WINDOW` units. `filled` is where the line's first unit other than a space or tab
 * is, or any place between `from` and there. Where `spans` is given (of `2 * TEMPLATE_WORDS`
 * entries), it is told where each word of the shape is, `[start, end)`, or `~start` and `~end`
 * (both negative) for a placeholder and the run of variable words it stands for; entries past
 * the last word are left as they were.
 */
export function lineTemplate(
  units: Uint16Array,
  from: number,
  to: number,
  filled = from,
  spans?: Int32Array,
): number {
  const end = Math.min(to, from + TEMPLATE_WINDOW);
  let hash = FNV_OFFSET;
  let words = 0;
  let lastVariable = false;
  // Spacing is no part of the shape: the line is read from `filled`.
  let i = filled;
  while (i < end && words < TEMPLATE_WORDS) {
    const code = units[i]!;
    if (code === ESC) {
      i = skipTerminalEscape(units, i, end);
      continue;
    }
    if (CLASS_OF_UNIT[code] === 0) {
      // Punctuation and spacing are not part of the shape: stepped over in one run.
      for (i++; i < end; i++) {
        const next = units[i]!;
        if (next === ESC || CLASS_OF_UNIT[next] !== 0) break;
      }
      continue;
    }
    const start = i;
    let variable = false;
    // The word's units go into the hash as they are read; a word that turns out variable (a
    // digit, or a `-` before one) leaves the hash as it was, so the rest of it is only stepped
    // over (a timestamp or an id costs no multiplications).
    let wordHash = hash;
    for (; i < end; i++) {
      const c = units[i]!;
      if (CLASS_OF_UNIT[c] !== WORD) break;
      wordHash = Math.imul(wordHash ^ c, FNV_PRIME);
    }
    if (i < end && joinsVariable(units, i, end)) {
      variable = true;
      for (i++; i < end && (CLASS_OF_UNIT[units[i]!] !== 0 || joinsVariable(units, i, end)); i++);
    }
    if (variable || i - start >= LONG_WORD) {
      if (lastVariable) {
        // The placeholder stands for the run up to here.
        if (spans) spans[2 * words - 1] = ~i;
        continue;
      }
      lastVariable = true;
      hash = Math.imul(hash ^ VARIABLE, FNV_PRIME);
      if (spans) {
        spans[2 * words] = ~start;
        spans[2 * words + 1] = ~i;
      }
    } else {
      lastVariable = false;
      hash = wordHash;
      if (spans) {
        spans[2 * words] = start;
        spans[2 * words + 1] = i;
      }
    }
    hash = Math.imul(hash ^ 0x20, FNV_PRIME);
    words++;
  }
  return hash | 0;
}

/** What `lineTemplate` leaves in `spans` past the last word: no place a word can be. */
export const NO_WORD = -0x80000000;

/**
 * The shape of the line at `text[from, to)` (its units `units`, filled from `filled`) as a
 * reader can match it to its lines: the words its template reads, as written, `#` for each run
 * of variable words (numbers, ids), `*` for each word place set in `varied` (bit k for the k-th
 * word: a place its lines vary in, a user name), the punctuation between them as in this line,
 * spacing as one space, and `…` where the line goes on past the words read.
 */
export function lineShape(
  units: Uint16Array,
  text: string,
  from: number,
  to: number,
  filled: number,
  varied: number,
): string {
  const spans = new Int32Array(2 * TEMPLATE_WORDS).fill(NO_WORD);
  lineTemplate(units, from, to, filled, spans);
  let shape = '';
  let at = filled;
  for (let k = 0; k < TEMPLATE_WORDS && spans[2 * k] !== NO_WORD; k++) {
    const placeholder = spans[2 * k]! < 0;
    const start = placeholder ? ~spans[2 * k]! : spans[2 * k]!;
    const end = placeholder ? ~spans[2 * k + 1]! : spans[2 * k + 1]!;
    shape += between(text.slice(at, start));
    shape += placeholder ? '#' : (varied >>> k) & 1 ? '*' : text.slice(start, end);
    at = end;
  }
  let rest = at;
  while (rest < to && (CLASS_OF_UNIT[units[rest]!]! & WORD) === 0) {
    rest = units[rest] === ESC ? skipTerminalEscape(units, rest, to) : rest + 1;
  }
  return rest < to
    ? `${shape}${between(text.slice(at, rest)).trimEnd()}…`
    : `${shape}${between(text.slice(at, to))}`.trimEnd();
}

/** Text between a shape's words: no control characters or escapes, spacing as one space. */
function between(text: string): string {
  return text
    .replace(/\u001b\[[0-?]*[ -/]*[@-~]/g, '')
    .replace(/[\u0000-\u001f\u007f]/g, ' ')
    .replace(/\s+/g, ' ');
}
