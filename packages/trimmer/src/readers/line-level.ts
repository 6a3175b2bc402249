import { escapeRegExp } from '../escape-reg-exp.js';
import { DEFAULT_VOCABULARY, LEVEL_NAMES, type Vocabulary } from '../vocabulary.js';
import { isAsciiDigit, isAsciiWordCode } from './ascii-class.js';
import { failedExitStatus } from './exit-status.js';

/**
 * Known levels, least to most severe (`LEVEL_NAMES` of the vocabulary). A line's level is the
 * index into this list, `NO_LEVEL`, or a raw category (an id ≥ `LEVEL_NAMES.length`) for a
 * value of a level field that is not a known word (`"level":30`, `severity: C`).
 */
export { LEVEL_NAMES };
export const NO_LEVEL = -1;
export const LEVEL_INFO = 2;
export const LEVEL_WARN = 4;
export const LEVEL_ERROR = 5;

// How a line states its level. Lines that state the same level differently usually come from
// different writers, so the pair (level, form), its signature, is what is counted to tell rare
// from routine. An alert and a failed exit are forms of their own whatever their level.
const FORM_FIELD = 0;
const FORM_UPPER = 1;
const FORM_FENCED = 2;
const FORM_OPENING = 3;
const FORM_LETTER = 4;
const FORM_DATED_LETTER = 5;
const FORM_EXCEPTION = 6;
const FORM_EXIT = 7;
const FORM_ALERT = 8;
const FORM_MARK = 9;
const FORM_STATUS = 10;

/** A signature is `form * LEVEL_SLOTS + level`; `NO_LEVEL` stays itself. */
const LEVEL_SLOTS = 256;
/** Every signature is below this. */
export const LEVEL_SIGNATURES = (FORM_STATUS + 1) * LEVEL_SLOTS;

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

const ESC = 0x1b;
const BEL = 0x07;

const WORD_IS_LEVEL_KEY = 1;
const WORD_IS_EXIT = 2;
const WORD_IS_ALERT = 4;
const WORD_IS_PROTOCOL = 8;

/**
 * A vocabulary's level words, made ready for the line scan (`levelTable`): the words a line's
 * words are looked up among are listed by their first letter (folded to lower case) and length,
 * so a word of the line is compared unit by unit with the few listed under its own (`code |
 * 0x20` folds `[A-Za-z0-9_]` one to one) without making a string of it.
 */
export interface LevelTable {
  readonly words: readonly string[];
  /** Per word: the level it states, or -1. */
  readonly wordLevel: Int8Array;
  /** Per word: `WORD_IS_*` bits. */
  readonly wordFlags: Uint8Array;
  /** By first unit (folded) × `stride` + length: the first word listed there, or -1. */
  readonly first: Int16Array;
  /** The next word listed under the same first unit and length, or -1. */
  readonly next: Int16Array;
  /** One more than the longest word's length. */
  readonly stride: number;
  /** Level words (lower case) → level, for a level key's value. */
  readonly levelByWord: ReadonlyMap<string, number>;
  /** Upper-case letter's code → level. */
  readonly letters: ReadonlyMap<number, number>;
  /** Mark's code (outside ASCII) → level. */
  readonly marks: ReadonlyMap<number, number>;
  readonly exitFillers: ReadonlySet<string>;
  readonly exceptionSuffixes: readonly string[];
  readonly exceptionOpeners: readonly string[];
  /** Per ASCII unit: 1 where an exception opener starts with it. */
  readonly openerLeads: Uint8Array;
  readonly continuationOpeners: readonly string[];
  /**
   * Per ASCII unit: 1 where a continuation opener starts with it; at 0x80, 1 where one starts
   * outside ASCII. All 1 when one is empty (it opens every line).
   */
  readonly continuationLeads: Uint8Array;
  /** Finds where an exit or alert word may start (any case). */
  readonly tailCues: RegExp;
}

const levelIndex = (name: string): number => (LEVEL_NAMES as readonly string[]).indexOf(name);

/** `map`'s entries, each key made by `key`, each level as its index. */
function levelMap<K>(
  map: Readonly<Record<string, string>>,
  key: (entry: string) => K,
): Map<K, number> {
  return new Map(Object.entries(map).map(([entry, level]) => [key(entry), levelIndex(level)]));
}

const lowered = (words: Iterable<string>): Set<string> =>
  new Set([...words].map((word) => word.toLowerCase()));

const tables = new WeakMap<Vocabulary, LevelTable>();

/** The level table of `vocabulary`, made once per vocabulary. */
export function levelTable(vocabulary: Vocabulary = DEFAULT_VOCABULARY): LevelTable {
  let table = tables.get(vocabulary);
  if (table !== undefined) return table;
  const levelByWord = levelMap(vocabulary.levelWords, (word) => word.toLowerCase());
  const keys = lowered(vocabulary.levelKeys);
  const exits = lowered(vocabulary.exitWords);
  const alerts = lowered(vocabulary.alertWords);
  const protocols = lowered(vocabulary.statusProtocols);
  const words = [...new Set([...levelByWord.keys(), ...keys, ...exits, ...alerts, ...protocols])];
  let maxWord = 0;
  for (const word of words) maxWord = Math.max(maxWord, word.length);
  const stride = maxWord + 1;
  const wordLevel = new Int8Array(words.length);
  const wordFlags = new Uint8Array(words.length);
  const first = new Int16Array(128 * stride).fill(-1);
  const next = new Int16Array(words.length).fill(-1);
  words.forEach((word, index) => {
    wordLevel[index] = levelByWord.get(word) ?? -1;
    wordFlags[index] =
      (keys.has(word) ? WORD_IS_LEVEL_KEY : 0) |
      (exits.has(word) ? WORD_IS_EXIT : 0) |
      (alerts.has(word) ? WORD_IS_ALERT : 0) |
      (protocols.has(word) ? WORD_IS_PROTOCOL : 0);
    const key = ((word.charCodeAt(0) | 0x20) & 0x7f) * stride + word.length;
    next[index] = first[key]!;
    first[key] = index;
  });
  const openerLeads = new Uint8Array(128);
  for (const opener of vocabulary.exceptionOpeners) {
    const lead = opener.charCodeAt(0);
    // A line's words are ASCII word characters: an opener that starts otherwise never opens one.
    if (lead < 0x80) openerLeads[lead] = 1;
  }
  const continuationLeads = new Uint8Array(0x81);
  for (const opener of vocabulary.continuationOpeners) {
    if (opener === '') continuationLeads.fill(1);
    else continuationLeads[Math.min(0x80, opener.charCodeAt(0))] = 1;
  }
  // An exit or alert word can start where one that is not a longer one's prefix starts. (A
  // response status counts only where the line states no level: access logs state none, and
  // a log's levelled lines full of URLs need not be read to their end for one.)
  const tails = [...exits, ...alerts].filter(
    (word, _, all) => !all.some((other) => other !== word && word.startsWith(other)),
  );
  table = {
    words,
    wordLevel,
    wordFlags,
    first,
    next,
    stride,
    levelByWord,
    letters: levelMap(vocabulary.levelLetters, (letter) => letter.toUpperCase().charCodeAt(0)),
    marks: levelMap(vocabulary.levelMarks, (mark) => mark.charCodeAt(0)),
    exitFillers: lowered(vocabulary.exitFillers),
    exceptionSuffixes: vocabulary.exceptionSuffixes,
    exceptionOpeners: vocabulary.exceptionOpeners,
    openerLeads,
    continuationOpeners: vocabulary.continuationOpeners,
    continuationLeads,
    tailCues: new RegExp(tails.length > 0 ? tails.map(escapeRegExp).join('|') : '(?!)', 'gi'),
  };
  tables.set(vocabulary, table);
  return table;
}

const DEFAULT_TABLE = levelTable(DEFAULT_VOCABULARY);

/**
 * The index in `words` (a `LevelTable`'s, with its `first`, `next` and `stride`) of the word at
 * `units[start, start + length)`, or -1. Called for each word a line opens with: the table's
 * columns come as arguments, read once per line.
 */
function tableWord(
  words: readonly string[],
  first: Int16Array,
  next: Int16Array,
  stride: number,
  units: Uint16Array,
  start: number,
  length: number,
): number {
  if (length >= stride) return -1;
  const lead = units[start]! | 0x20;
  for (let index = first[(lead & 0x7f) * stride + length]!; index >= 0; index = next[index]!) {
    const word = words[index]!;
    let k = 1;
    while (k < length && (units[start + k]! | 0x20) === (word.charCodeAt(k) | 0x20)) k++;
    if (k === length && lead === (word.charCodeAt(0) | 0x20)) return index;
  }
  return -1;
}

/**
 * `[A-Za-z0-9_]`, by UTF-16 unit (64 KB): one load per unit, no test for ASCII first, in the
 * loops that step over a line's words.
 */
const WORD_UNIT = new Uint8Array(0x10000);
for (let code = 0; code < 128; code++) WORD_UNIT[code] = isAsciiWordCode(code) ? 1 : 0;

function isWordCode(code: number): boolean {
  return WORD_UNIT[code] === 1;
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

/** Where up to three quotes, spaces or tabs from `at` end. */
function quotesAndBlanksEnd(text: string, at: number, end: number): number {
  let i = at;
  for (let skipped = 0; i < end && skipped < 3; skipped++) {
    const code = text.charCodeAt(i);
    if (code !== 0x22 && code !== 0x27 && !isBlank(code)) break;
    i++;
  }
  return i;
}

/** The value of a `key = value` / `"key": "value"` pair whose key ends at `at`, else ''. */
function fieldValue(text: string, at: number, end: number): string {
  let i = quotesAndBlanksEnd(text, at, end);
  const separator = text.charCodeAt(i);
  if (separator !== 0x3a && separator !== 0x3d) return '';
  i = quotesAndBlanksEnd(text, i + 1, end);
  const from = i;
  while (i < end && i - from <= RAW_VALUE_LIMIT && isWordCode(text.charCodeAt(i))) i++;
  if (i - from > RAW_VALUE_LIMIT) return '';
  return text.slice(from, i);
}

function valueLevel(value: string, raw: RawLevels, table: LevelTable): number {
  if (value.length === 1) {
    const letter = table.letters.get(value.toUpperCase().charCodeAt(0));
    if (letter !== undefined) return letter;
  }
  const lower = value.toLowerCase();
  const known = table.levelByWord.get(lower);
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

/**
 * Where in a text a word may start that can still change a line's level once it is found: the
 * starts of the exit and alert words in any case, found by one native search when first asked
 * about (a text none of whose lines has a level never is). A line with none needs no reading
 * past its level.
 */
export class LevelTailCues {
  private at: number[] = [];
  private searched = false;
  private next = 0;

  constructor(
    private readonly text: string,
    private readonly table: LevelTable = DEFAULT_TABLE,
  ) {}

  /** Whether one starts in `[from, end)`; lines are asked about in text order. */
  within(from: number, end: number): boolean {
    if (!this.searched) this.search();
    const { at } = this;
    while (this.next < at.length && at[this.next]! < from) this.next++;
    return this.next < at.length && at[this.next]! < end;
  }

  private search(): void {
    const { text, at } = this;
    const cues = this.table.tailCues;
    cues.lastIndex = 0;
    for (let match = cues.exec(text); match; match = cues.exec(text)) at.push(match.index);
    this.searched = true;
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
 * Whether a tag follows `units[i]` (spaces, then a word up to a colon: `ActivityManager: …`),
 * within `end`.
 */
function tagFollows(units: Uint16Array, i: number, end: number): boolean {
  while (i < end && isBlank(units[i]!)) i++;
  const start = i;
  while (i < end && !isBlank(units[i]!) && units[i] !== 0x3a) i++;
  return i > start && i < end && units[i] === 0x3a;
}

/**
 * The level signature of the line `text[from, to)` (its level with `levelOf`, and how it was
 * stated), judged from its first `LEVEL_WINDOW` units by the words of `table` (the
 * vocabulary's): a level field (`level=warn`, `"severity":"error"`, `severity: E`), a level word
 * in upper case (`ERROR`, `WARN`, `FATAL`) or set off as a field (`[error]`, `<warn>`, `error:`
 * or `warning[E0133]:` opening the line, or the message after a syslog tag or a bracket that
 * opens the line: `sshd[24324]: error: …`, `[05:04:04] Warning: …`), a one-letter level (`E: …`, `src/a.rb:3:1: W: …`,
 * `E0312 10:00:00.1 …`, a lone one after the line's numbers and before a tag:
 * `03-17 16:13:47.150  1702 17633 E ActivityManager: …`), an exception's report opening the line
 * (`java.lang.IllegalStateException: …`, `Traceback (most recent call last):`), a non-zero exit
 * status (`exit code 137`, `exit_code=1`: at least error), an alert word (at least warn) and a
 * mark opening the line (`✖ `, `× `: error; `⚠ `: warn). The first level found wins. Terminal
 * escapes (colours) are skipped. `raw` interns level-field values that are not known words, so
 * rare ones can be told from common ones. `units` are the text's UTF-16 units (`textUnits`),
 * read in the hot loop; `tail`, the text's cues (lines asked about in order), lets a line stop
 * at its level. `filled` is where its first unit other than a space or tab is, or any place
 * between `from` and there (a caller that read its indentation already), at most the window's
 * end.
 */
export function detectLevel(
  units: Uint16Array,
  text: string,
  from: number,
  to: number,
  raw: RawLevels,
  tail?: LevelTailCues,
  table: LevelTable = DEFAULT_TABLE,
  filled = from,
): number {
  const end = Math.min(to, from + LEVEL_WINDOW);
  // Once the level is found only an exit status or an alert can change the verdict; a line
  // where none can start is done then. Asked only once a level is found (0 not yet, 1 done, 2
  // read on), so a text with no level never has its cues searched for.
  let settles = 0;
  const { letters, wordFlags, wordLevel, words, stride, first: firstWord, next: nextWord } = table;
  let level = NO_LEVEL;
  let form = FORM_FIELD;
  let failedExit = false;
  let alert = false;
  let status = NO_LEVEL;
  let first = true;
  let previous = 0;
  // Spaces and tabs that open the line change nothing: the line is read from `filled`.
  let i = filled;
  // A bracket opening the line (`[05:04:04] Warning: …`, a time, a job's name) is a prefix, as
  // a syslog tag is: where it closes before a space, the message starts and opens the line.
  let prefixed = i < end && units[i] === 0x5b;
  // Whether a word with a letter came yet: a lone level letter after a line's numbers only, and
  // before a tag (`03-17 16:13:47.150  1702 17633 E ActivityManager: …`), states a level.
  let lettered = false;
  while (i < end) {
    if (level !== NO_LEVEL) {
      if (settles === 0) settles = tail !== undefined && !tail.within(from, end) ? 1 : 2;
      if (settles === 1) break;
    }
    if (!first) {
      // Past the line's opening most of a line changes nothing: words that are not the
      // table's, letters not between colons (only `:W:` may be a level), spacing, punctuation
      // and escapes are stepped over here, in a loop that keeps only `previous`. A word of the
      // table, a letter that may count, a syslog tag's end (it opens the line again) or a line
      // break goes to the steps below, which read that word again.
      while (i < end) {
        const unit = units[i]!;
        if (WORD_UNIT[unit] === 1) {
          const start = i;
          while (++i < end && isWordCode(units[i]!));
          const length = i - start;
          const listed =
            length < stride && firstWord[((units[start]! | 0x20) & 0x7f) * stride + length]! >= 0;
          if (
            length === 1
              ? listed ||
                (previous === 0x3a && i < to && units[i] === 0x3a) ||
                (!lettered && i < to && isBlank(units[i]!))
              : listed && tableWord(words, firstWord, nextWord, stride, units, start, length) >= 0
          ) {
            i = start;
            break;
          }
          if (!isAsciiDigit(units[start]!)) lettered = true;
          previous = units[i - 1]!;
        } else if (isBlank(unit)) i++;
        else if (unit === ESC) i = skipTerminalEscape(units, i, end);
        else if (unit === 0x0d || unit === 0x0a) break;
        else if (unit === 0x3a && previous === 0x5d && isBlank(units[i + 1]!)) break;
        else if (unit === 0x5d && prefixed && isBlank(units[i + 1]!)) break;
        else {
          previous = unit;
          i++;
        }
      }
      if (i >= end) break;
    }
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
      const mark = first && level === NO_LEVEL && code >= 0x80 ? table.marks.get(code) : undefined;
      if (mark !== undefined) {
        let after = i + 1;
        // ⚠ and ❌ may carry an emoji presentation selector, and any mark a colour's end.
        if (units[after]! === 0xfe0f) after++;
        while (after < end && units[after]! === ESC) after = skipTerminalEscape(units, after, end);
        if (after < to && isBlank(units[after]!)) {
          level = mark;
          form = FORM_MARK;
        }
      }
      // Punctuation before the first word (a diff marker, a bullet) still opens the line.
      if (code !== 0x2b && code !== 0x2d && code !== 0x2a && code !== 0x3e) first = false;
      // A syslog tag (`sshd[24324]: `) ends where the message starts: its first word opens it.
      if (code === 0x3a && previous === 0x5d && isBlank(units[i + 1]!)) first = true;
      if (code === 0x5d && prefixed && isBlank(units[i + 1]!)) {
        first = true;
        prefixed = false;
      }
      previous = code;
      i++;
      continue;
    }
    const start = i;
    while (++i < end && isWordCode(units[i]!));
    const length = i - start;
    const afterNumbers = !lettered;
    if (!isAsciiDigit(code)) lettered = true;
    const known = tableWord(words, firstWord, nextWord, stride, units, start, length);
    // Past the line's opening, only a known word or a letter (`W:`) can change the verdict.
    if (!first && known < 0 && length !== 1) {
      previous = units[i - 1]!;
      continue;
    }
    const next = i < to ? units[i]! : 0;
    const before = start > from ? units[start - 1]! : 0;
    const flags = known >= 0 ? wordFlags[known]! : 0;
    if (level === NO_LEVEL && known >= 0) {
      if ((flags & WORD_IS_LEVEL_KEY) !== 0) {
        const value = fieldValue(text, i, end);
        if (value !== '') level = valueLevel(value, raw, table);
        form = FORM_FIELD;
      }
      const word = level === NO_LEVEL ? wordLevel[known]! : -1;
      if (word >= 0) {
        let upper = true;
        for (let k = start; k < i && upper; k++) upper = units[k]! >= 0x41 && units[k]! <= 0x5a;
        const fenced =
          (before === 0x5b || before === 0x3c || before === 0x28 || before === 0x7c) &&
          (next === 0x5d || next === 0x3e || next === 0x29 || next === 0x7c);
        const opening = first && (next === 0x3a || next === 0x5b || next === 0x21);
        if (upper || fenced || opening) {
          level = word;
          form = upper ? FORM_UPPER : fenced ? FORM_FENCED : FORM_OPENING;
        }
      }
    }
    if (level === NO_LEVEL && length === 1 && next === 0x3a && (first || previous === 0x3a)) {
      const after = i + 1 < to ? units[i + 1]! : 0x20;
      const letter = letters.get(code);
      if (letter !== undefined && (isBlank(after) || after === 0x0d)) {
        level = letter;
        form = FORM_LETTER;
      }
    }
    if (
      level === NO_LEVEL &&
      length === 1 &&
      afterNumbers &&
      isBlank(next) &&
      tagFollows(units, i, end)
    ) {
      const letter = letters.get(code);
      if (letter !== undefined) {
        level = letter;
        form = FORM_LETTER;
      }
    }
    if (
      level === NO_LEVEL &&
      first &&
      length === 5 &&
      isAsciiDigit(units[start + 1]!) &&
      isAsciiDigit(units[start + 2]!) &&
      isAsciiDigit(units[start + 3]!) &&
      isAsciiDigit(units[start + 4]!) &&
      next === 0x20 &&
      isAsciiDigit(i + 1 < to ? units[i + 1]! : 0)
    ) {
      // A letter with a date's four digits (`E0312 10:00:00.1 …`): a level from info up only,
      // since `D1234 …` or `T0001 …` is as likely an id.
      const letter = letters.get(code);
      if (letter !== undefined && letter >= LEVEL_INFO) {
        level = letter;
        form = FORM_DATED_LETTER;
      }
    }
    if ((flags & WORD_IS_EXIT) !== 0 && failedExitStatus(text, i, end, table.exitFillers)) {
      failedExit = true;
    } else if ((flags & WORD_IS_ALERT) !== 0) alert = true;
    else if ((flags & WORD_IS_PROTOCOL) !== 0 && status === NO_LEVEL) {
      status = responseStatusLevel(units, i, end);
    }
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
          table.exceptionSuffixes.some((suffix) => endsWithWord(text, start, name, suffix))) ||
        (code < 0x80 &&
          table.openerLeads[code] === 1 &&
          table.exceptionOpeners.some((opener) => text.startsWith(opener, start)))
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
  } else if (status !== NO_LEVEL && level === NO_LEVEL) {
    level = status;
    form = FORM_STATUS;
  } else if (alert) {
    if (isBelow(level, LEVEL_WARN)) level = LEVEL_WARN;
    form = FORM_ALERT;
  }
  return level === NO_LEVEL ? NO_LEVEL : form * LEVEL_SLOTS + level;
}

/**
 * The level a response status gives where one follows the protocol word ending at `at`: its
 * version (`/1.1`), a closing quote, spacing, then three digits standing alone (`" 404 `):
 * `LEVEL_ERROR` from 500, `LEVEL_WARN` from 400, else `NO_LEVEL`.
 */
function responseStatusLevel(units: Uint16Array, at: number, end: number): number {
  let i = at;
  if (units[i] !== 0x2f) return NO_LEVEL;
  for (i++; i < end && (isAsciiDigit(units[i]!) || units[i] === 0x2e); i++);
  if (units[i] !== 0x22) return NO_LEVEL;
  const quote = ++i;
  while (i < end && isBlank(units[i]!)) i++;
  if (i === quote || i + 3 > end) return NO_LEVEL;
  if (!isAsciiDigit(units[i]!) || !isAsciiDigit(units[i + 1]!) || !isAsciiDigit(units[i + 2]!)) {
    return NO_LEVEL;
  }
  if (i + 3 < end && !isBlank(units[i + 3]!) && units[i + 3] !== 0x0d) return NO_LEVEL;
  const hundreds = units[i]! - 0x30;
  return hundreds === 5 ? LEVEL_ERROR : hundreds === 4 ? LEVEL_WARN : NO_LEVEL;
}

/**
 * True when the line `text[from, to)` (its UTF-16 `units` beside it) continues the event above
 * it: it is indented (a stack frame, a wrapped message, a diagnostic's source excerpt) or opens
 * with one of the vocabulary's continuation openers (`Caused by:`). `filled` is as for
 * `detectLevel`.
 */
export function isContinuationLine(
  units: Uint16Array,
  text: string,
  from: number,
  to: number,
  table: LevelTable = DEFAULT_TABLE,
  filled = from,
): boolean {
  if (from >= to) return false;
  const code = units[from]!;
  if (isBlank(code)) {
    const end = Math.min(to, from + LEVEL_WINDOW);
    let i = Math.max(filled, from + 1);
    while (i < end && isBlank(units[i]!)) i++;
    return i < end && units[i] !== 0x0d && units[i] !== 0x0a;
  }
  if (table.continuationLeads[Math.min(0x80, code)] === 0) return false;
  for (const opener of table.continuationOpeners) if (text.startsWith(opener, from)) return true;
  return false;
}
