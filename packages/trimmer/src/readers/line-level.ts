/**
 * Known levels, least to most severe. A line's level is the index into this list, `NO_LEVEL`,
 * or a raw category (an id ≥ `LEVEL_NAMES.length`) for a value of a level field that is not a
 * known word (`"level":30`, `severity: C`).
 */
export const LEVEL_NAMES = ['trace', 'debug', 'info', 'notice', 'warn', 'error', 'fatal'] as const;
export const NO_LEVEL = -1;
export const LEVEL_INFO = 2;
export const LEVEL_WARN = 4;
export const LEVEL_ERROR = 5;
export const LEVEL_FATAL = 6;

// How a line states its level. Lines that state the same level differently usually come from
// different writers, so the pair (level, form), its signature, is what is counted to tell rare
// from routine. A firing alert and a failed exit are forms of their own whatever their level.
const FORM_FIELD = 0;
const FORM_UPPER = 1;
const FORM_FENCED = 2;
const FORM_OPENING = 3;
const FORM_LETTER = 4;
const FORM_KLOG = 5;
const FORM_EXCEPTION = 6;
const FORM_EXIT = 7;
const FORM_FIRING = 8;
const FORM_GLYPH = 9;

/**
 * Marks that open a line to say it failed or warns, as test runners and linters print them
 * (`✖ Sort these imports.`, `× handles retries`, `⚠ deprecated`): followed by a space, at the
 * start of the line.
 */
const GLYPH_LEVELS = new Map<number, number>([
  [0x2716, 5], // ✖
  [0x2717, 5], // ✗
  [0x2718, 5], // ✘
  [0x2715, 5], // ✕
  [0x274c, 5], // ❌
  [0x00d7, 5], // ×
  [0x2a2f, 5], // ⨯
  [0x26a0, 4], // ⚠
]);
// A line's scan looks marks up only outside ASCII.
for (const mark of GLYPH_LEVELS.keys()) if (mark < 0x80) throw new Error(`ASCII mark ${mark}`);

/** A signature is `form * LEVEL_SLOTS + level`; `NO_LEVEL` stays itself. */
const LEVEL_SLOTS = 256;
/** Every signature is below this. */
export const LEVEL_SIGNATURES = (FORM_GLYPH + 1) * LEVEL_SLOTS;

/** The level of a signature from `detectLevel`. */
export function levelOf(signature: number): number {
  return signature === NO_LEVEL ? NO_LEVEL : signature % LEVEL_SLOTS;
}

/** Interned raw categories of one text: value → id (ids from `LEVEL_NAMES.length` up). */
export type RawLevels = Map<string, number>;

/** UTF-16 units of a line looked at: levels sit near the start, and work stays bounded. */
export const LEVEL_WINDOW = 1024;
const RAW_VALUE_LIMIT = 16;
/** Raw categories kept apart; a text with more distinct level values has no level field. */
const RAW_LEVEL_LIMIT = 64;

const WORD_LEVELS = new Map<string, number>([
  ['trace', 0],
  ['finest', 0],
  ['debug', 1],
  ['verbose', 1],
  ['fine', 1],
  ['info', 2],
  ['information', 2],
  ['informational', 2],
  ['notice', 3],
  ['warn', 4],
  ['warning', 4],
  ['error', 5],
  ['err', 5],
  ['severe', 5],
  ['fatal', 6],
  ['critical', 6],
  ['crit', 6],
  ['alert', 6],
  ['emerg', 6],
  ['emergency', 6],
  ['panic', 6],
]);

/** One-letter levels: `E:` at the start of a line or after `file:1:2:`, `severity: E`, klog `E0312`. */
const LETTER_LEVELS = new Map<number, number>([
  [0x54, 0], // T
  [0x44, 1], // D
  [0x49, 2], // I
  [0x57, 4], // W
  [0x45, 5], // E
  [0x46, 6], // F
]);

/** Names of a field whose value is the line's level (`level=warn`, `"severity":"E"`). */
const LEVEL_KEYS = new Set([
  'level',
  'lvl',
  'loglevel',
  'log_level',
  'levelname',
  'severity',
  'severitytext',
  'severity_text',
]);

/** Names of a field or phrase whose number is an exit status (`exit code 2`, `exit_code=1`). */
const EXIT_WORDS = new Set([
  'exit',
  'exited',
  'exitcode',
  'exit_code',
  'exitstatus',
  'exit_status',
  'returncode',
  'return_code',
]);
const EXIT_FILLERS = new Set(['with', 'code', 'status', 'value']);
const EXIT_LOOKAHEAD = 32;

const ESC = 0x1b;
const BEL = 0x07;

// The words above, found in a line without making a string of each of its words: the words
// are listed by their first letter (folded to lower case) and length, and a word of the line is
// compared unit by unit with the few listed under its own (`code | 0x20` folds `[A-Za-z0-9_]` one
// to one).
const WORD_IS_LEVEL_KEY = 1;
const WORD_IS_EXIT = 2;
const WORD_IS_FIRING = 4;
const WORD_IS_TRACEBACK = 8;
const WORD_IS_EXCEPTION = 16;
/** Words looked up are this long at most (the longest known one), and at least. */
const MAX_WORD = 13;
const MIN_WORD = 3;

const vocabulary = [
  ...new Set([
    ...WORD_LEVELS.keys(),
    ...LEVEL_KEYS,
    ...EXIT_WORDS,
    'firing',
    'traceback',
    'exception',
  ]),
];
const vocabularyLevel = new Int8Array(vocabulary.length);
const vocabularyFlags = new Uint8Array(vocabulary.length);
/** By first unit (folded) × 16 + length: the first word listed there, or -1. */
const vocabularyFirst = new Int8Array(128 * 16).fill(-1);
/** The next word listed under the same first unit and length, or -1. */
const vocabularyNext = new Int8Array(vocabulary.length).fill(-1);

vocabulary.forEach((word, index) => {
  if (word.length > MAX_WORD || word.length < MIN_WORD) throw new Error(`level word ${word}`);
  vocabularyLevel[index] = WORD_LEVELS.get(word) ?? -1;
  vocabularyFlags[index] =
    (LEVEL_KEYS.has(word) ? WORD_IS_LEVEL_KEY : 0) |
    (EXIT_WORDS.has(word) ? WORD_IS_EXIT : 0) |
    (word === 'firing' ? WORD_IS_FIRING : 0) |
    (word === 'traceback' ? WORD_IS_TRACEBACK : 0) |
    (word === 'exception' ? WORD_IS_EXCEPTION : 0);
  const key = ((word.charCodeAt(0) | 0x20) & 0x7f) * 16 + word.length;
  vocabularyNext[index] = vocabularyFirst[key]!;
  vocabularyFirst[key] = index;
});

/** The index in `vocabulary` of the word at `units[start, start + length)`, or -1. */
function vocabularyWord(units: Uint16Array, start: number, length: number): number {
  if (length > MAX_WORD || length < MIN_WORD) return -1;
  const lead = units[start]! | 0x20;
  for (let index = vocabularyFirst[(lead & 0x7f) * 16 + length]!; index >= 0; ) {
    const word = vocabulary[index]!;
    let k = 1;
    while (k < length && (units[start + k]! | 0x20) === (word.charCodeAt(k) | 0x20)) k++;
    if (k === length && lead === word.charCodeAt(0)) return index;
    index = vocabularyNext[index]!;
  }
  return -1;
}

/** `[A-Za-z0-9_]`, by ASCII unit. */
const WORD_UNIT = new Uint8Array(128);
for (let code = 0; code < 128; code++) {
  WORD_UNIT[code] =
    (code >= 0x61 && code <= 0x7a) ||
    (code >= 0x41 && code <= 0x5a) ||
    (code >= 0x30 && code <= 0x39) ||
    code === 0x5f
      ? 1
      : 0;
}

function isWordCode(code: number): boolean {
  return code < 0x80 && WORD_UNIT[code] === 1;
}

function isDigit(code: number): boolean {
  return code >= 0x30 && code <= 0x39;
}

function isUpper(code: number): boolean {
  return code >= 0x41 && code <= 0x5a;
}

function isBlank(code: number): boolean {
  return code === 0x20 || code === 0x09;
}

/**
 * The index after the terminal escape sequence at `at` (an ESC) in a text's `units`: CSI
 * (`ESC [ … final`) and string sequences (`ESC _ … BEL` or `ESC \`, as Buildkite's timestamps
 * are), bounded by `end`.
 */
export function skipTerminalEscape(units: Uint16Array, at: number, end: number): number {
  let i = at + 1;
  if (i >= end) return end;
  const kind = units[i]!;
  if (kind === 0x5b) {
    for (i++; i < end; i++) {
      const code = units[i]!;
      if (code >= 0x40 && code <= 0x7e) return i + 1;
    }
    return end;
  }
  if (kind === 0x5f || kind === 0x5d || kind === 0x50) {
    for (i++; i < end; i++) {
      const code = units[i]!;
      if (code === BEL) return i + 1;
      if (code === ESC) return Math.min(end, i + 2);
    }
    return end;
  }
  return i + 1;
}

/** The value of a `key = value` / `"key": "value"` pair whose key ends at `at`, else ''. */
function fieldValue(text: string, at: number, end: number): string {
  let i = at;
  for (let skipped = 0; i < end && skipped < 3; skipped++) {
    const code = text.charCodeAt(i);
    if (code !== 0x22 && code !== 0x27 && !isBlank(code)) break;
    i++;
  }
  const separator = text.charCodeAt(i);
  if (separator !== 0x3a && separator !== 0x3d) return '';
  i++;
  for (let skipped = 0; i < end && skipped < 3; skipped++) {
    const code = text.charCodeAt(i);
    if (code !== 0x22 && code !== 0x27 && !isBlank(code)) break;
    i++;
  }
  const from = i;
  while (i < end && i - from <= RAW_VALUE_LIMIT && isWordCode(text.charCodeAt(i))) i++;
  if (i - from > RAW_VALUE_LIMIT) return '';
  return text.slice(from, i);
}

function valueLevel(value: string, raw: RawLevels): number {
  if (value.length === 1 && LETTER_LEVELS.has(value.toUpperCase().charCodeAt(0))) {
    return LETTER_LEVELS.get(value.toUpperCase().charCodeAt(0))!;
  }
  const lower = value.toLowerCase();
  const known = WORD_LEVELS.get(lower);
  if (known !== undefined) return known;
  let id = raw.get(lower);
  if (id === undefined) {
    if (raw.size >= RAW_LEVEL_LIMIT || LEVEL_NAMES.length + raw.size >= LEVEL_SLOTS)
      return NO_LEVEL;
    id = LEVEL_NAMES.length + raw.size;
    raw.set(lower, id);
  }
  return id;
}

/** True when the number after an exit word (within a few filler words) is not zero. */
function exitFailed(text: string, at: number, end: number): boolean {
  const stop = Math.min(end, at + EXIT_LOOKAHEAD);
  let i = at;
  while (i < stop) {
    const code = text.charCodeAt(i);
    if (isDigit(code)) {
      while (i < stop && text.charCodeAt(i) === 0x30) i++;
      return i < stop && isDigit(text.charCodeAt(i));
    }
    if (isWordCode(code)) {
      const from = i;
      while (i < stop && isWordCode(text.charCodeAt(i))) i++;
      if (!EXIT_FILLERS.has(text.slice(from, i).toLowerCase())) return false;
      continue;
    }
    if (
      !isBlank(code) &&
      code !== 0x3a &&
      code !== 0x3d &&
      code !== 0x28 &&
      code !== 0x22 &&
      code !== 0x27 &&
      code !== 0x2d
    ) {
      return false;
    }
    i++;
  }
  return false;
}

// Every word that can change a line's verdict once its level is found (an exit status, a firing
// alert) starts with one of these.
const TAIL_WORD_STARTS = /exit|return|firing/gi;

/**
 * Where in a text a word may start that can still change a line's level once it is found: the
 * starts of `exit`, `return` and `firing` in any case, found by one native search. A line with
 * none needs no reading past its level.
 */
export class LevelTailCues {
  private readonly at: number[] = [];
  private next = 0;

  constructor(text: string) {
    TAIL_WORD_STARTS.lastIndex = 0;
    for (let match = TAIL_WORD_STARTS.exec(text); match; match = TAIL_WORD_STARTS.exec(text)) {
      this.at.push(match.index);
    }
  }

  /** Whether one starts in `[from, end)`; lines are asked about in text order. */
  within(from: number, end: number): boolean {
    const { at } = this;
    while (this.next < at.length && at[this.next]! < from) this.next++;
    return this.next < at.length && at[this.next]! < end;
  }
}

/** Keeps the cues' hidden class alive between trims, and the optimised code using it. */
export const LEVEL_TAIL_CUES_SHAPE = new LevelTailCues('');

/** True when `level` is none, a raw category, or a known level below `floor`. */
function isBelow(level: number, floor: number): boolean {
  return level === NO_LEVEL || level >= LEVEL_NAMES.length || level < floor;
}

function endsWithWord(text: string, from: number, to: number, word: string): boolean {
  return to - from > word.length && text.startsWith(word, to - word.length);
}

/**
 * The level signature of the line `text[from, to)` (its level with `levelOf`, and how it was
 * stated), judged from its first `LEVEL_WINDOW` units, with no
 * vocabulary of any one tool: a level field (`level=warn`, `"severity":"error"`, `severity: E`),
 * a level word in upper case (`ERROR`, `WARN`, `FATAL`) or set off as a field (`[error]`,
 * `<warn>`, `error:` or `warning[E0133]:` opening the line), a one-letter level (`E: …`,
 * `src/a.rb:3:1: W: …`, klog's `E0312 10:00:00.1 …`), an exception or traceback opening the
 * line (`java.lang.IllegalStateException: …`, `Traceback (most recent call last):`), a non-zero
 * exit status (`exit code 137`, `exit_code=1`: at least error), a firing alert (at least
 * warn) and a mark opening the line (`✖ `, `× `: error; `⚠ `: warn). The first level found
 * wins. Terminal escapes (colours) are skipped. `raw` interns
 * level-field values that are not known words, so rare ones can be told from common ones.
 * `units` are the text's UTF-16 units (`textUnits`), read in the hot loop; `tail`, the text's
 * cues (lines asked about in order), lets a line stop at its level.
 */
export function detectLevel(
  units: Uint16Array,
  text: string,
  from: number,
  to: number,
  raw: RawLevels,
  tail?: LevelTailCues,
): number {
  const end = Math.min(to, from + LEVEL_WINDOW);
  // Once the level is found only an exit status or a firing alert can change the verdict; a
  // line where none can start is done then.
  const settles = tail !== undefined && !tail.within(from, end);
  let level = NO_LEVEL;
  let form = FORM_FIELD;
  let failedExit = false;
  let firing = false;
  let first = true;
  let previous = 0;
  let i = from;
  while (i < end) {
    if (settles && level !== NO_LEVEL) break;
    const code = units[i]!;
    if (code === ESC) {
      i = skipTerminalEscape(units, i, end);
      continue;
    }
    if (!isWordCode(code)) {
      if (isBlank(code)) {
        // Spaces and tabs change nothing (a padded CI line is mostly spaces).
        while (++i < end && isBlank(units[i]!));
        continue;
      }
      if (code === 0x0d || code === 0x0a) break;
      // Every mark is outside ASCII.
      const glyph =
        first && level === NO_LEVEL && code >= 0x80 ? GLYPH_LEVELS.get(code) : undefined;
      if (glyph !== undefined) {
        let after = i + 1;
        // ⚠ and ❌ may carry an emoji presentation selector, and any mark a colour's end.
        if (units[after]! === 0xfe0f) after++;
        while (after < end && units[after]! === ESC) after = skipTerminalEscape(units, after, end);
        if (after < to && isBlank(units[after]!)) {
          level = glyph;
          form = FORM_GLYPH;
        }
      }
      // Punctuation before the first word (a diff marker, a bullet) still opens the line.
      if (code !== 0x2b && code !== 0x2d && code !== 0x2a && code !== 0x3e) first = false;
      // A syslog tag (`sshd[24324]: `) ends where the message starts: its first word opens it.
      if (code === 0x3a && previous === 0x5d && isBlank(units[i + 1]!)) first = true;
      previous = code;
      i++;
      continue;
    }
    const start = i;
    while (++i < end && isWordCode(units[i]!));
    const length = i - start;
    const known = vocabularyWord(units, start, length);
    // Past the line's opening, only a known word or a letter (`W:`) can change the verdict.
    if (!first && known < 0 && length !== 1) {
      previous = units[i - 1]!;
      continue;
    }
    const next = i < to ? units[i]! : 0;
    const before = start > from ? units[start - 1]! : 0;
    const short = length <= MAX_WORD;
    const flags = known >= 0 ? vocabularyFlags[known]! : 0;
    if (level === NO_LEVEL && short) {
      if ((flags & WORD_IS_LEVEL_KEY) !== 0) {
        const value = fieldValue(text, i, end);
        if (value !== '') level = valueLevel(value, raw);
        form = FORM_FIELD;
      }
      const word = level === NO_LEVEL && known >= 0 ? vocabularyLevel[known]! : -1;
      if (word >= 0) {
        let upper = true;
        for (let k = start; k < i && upper; k++) upper = isUpper(units[k]!);
        const fenced =
          (before === 0x5b || before === 0x3c || before === 0x28 || before === 0x7c) &&
          (next === 0x5d || next === 0x3e || next === 0x29 || next === 0x7c);
        const opening = first && (next === 0x3a || next === 0x5b || next === 0x21);
        if (upper || fenced || opening) {
          level = word;
          form = upper ? FORM_UPPER : fenced ? FORM_FENCED : FORM_OPENING;
        }
      }
      if (level === NO_LEVEL && length === 1 && next === 0x3a && (first || previous === 0x3a)) {
        const after = i + 1 < to ? units[i + 1]! : 0x20;
        const letter = LETTER_LEVELS.get(code);
        if (letter !== undefined && (isBlank(after) || after === 0x0d)) {
          level = letter;
          form = FORM_LETTER;
        }
      }
      if (
        level === NO_LEVEL &&
        first &&
        length === 5 &&
        LETTER_LEVELS.has(code) &&
        code !== 0x54 &&
        code !== 0x44 &&
        isDigit(units[start + 1]!) &&
        isDigit(units[start + 2]!) &&
        isDigit(units[start + 3]!) &&
        isDigit(units[start + 4]!) &&
        next === 0x20 &&
        isDigit(i + 1 < to ? units[i + 1]! : 0)
      ) {
        level = LETTER_LEVELS.get(code)!;
        form = FORM_KLOG;
      }
    }
    if ((flags & WORD_IS_EXIT) !== 0 && exitFailed(text, i, end)) failedExit = true;
    else if ((flags & WORD_IS_FIRING) !== 0) firing = true;
    if (level === NO_LEVEL && first) {
      // A dotted name opening the line: `java.lang.NullPointerException: …`, `ValueError: …`.
      let name = i;
      while (name < end) {
        const c = units[name]!;
        if (!isWordCode(c) && c !== 0x2e && c !== 0x24) break;
        name++;
      }
      const after = name < to ? units[name]! : 0;
      const closes = after === 0x3a || after === 0 || after === 0x0d || after === 0x0a;
      if (
        (closes &&
          (endsWithWord(text, start, name, 'Error') ||
            endsWithWord(text, start, name, 'Exception'))) ||
        ((flags & WORD_IS_TRACEBACK) !== 0 &&
          next === 0x20 &&
          text.startsWith('(most recent call', i + 1)) ||
        ((flags & WORD_IS_EXCEPTION) !== 0 && text.startsWith(' in thread', i))
      ) {
        level = LEVEL_ERROR;
        form = FORM_EXCEPTION;
      }
      i = Math.max(i, name);
    }
    first = false;
    previous = units[i - 1]!;
  }
  if (failedExit) {
    if (isBelow(level, LEVEL_ERROR)) level = LEVEL_ERROR;
    form = FORM_EXIT;
  } else if (firing) {
    if (isBelow(level, LEVEL_WARN)) level = LEVEL_WARN;
    form = FORM_FIRING;
  }
  return level === NO_LEVEL ? NO_LEVEL : form * LEVEL_SLOTS + level;
}

/**
 * True when the line `text[from, to)` (its UTF-16 `units` beside it) continues the event above
 * it: it is indented (a stack frame, a wrapped message, a diagnostic's source excerpt) or opens
 * with `Caused by:`.
 */
export function isContinuationLine(
  units: Uint16Array,
  text: string,
  from: number,
  to: number,
): boolean {
  if (from >= to) return false;
  const code = units[from]!;
  if (isBlank(code)) {
    for (let i = from + 1; i < to && i < from + LEVEL_WINDOW; i++) {
      const c = units[i]!;
      if (c === 0x0d || c === 0x0a) return false;
      if (!isBlank(c)) return true;
    }
    return false;
  }
  return text.startsWith('Caused by:', from);
}
