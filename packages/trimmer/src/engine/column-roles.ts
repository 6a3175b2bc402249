import {
  type JsonInventory,
  NODE_ARRAY,
  NODE_OBJECT,
  NODE_SCALAR,
  NODE_STRING,
} from '../json/json-inventory.js';
import { type JsonSignatures, signatureKey } from '../json/json-signatures.js';
import {
  type Columns,
  HASHED_VALUE,
  NUMBER_MAX_DIGITS,
  numberAt,
  type RecordGroup,
  recordField,
} from '../readers/json-records.js';
import { looksOpaque } from '../readers/looks-opaque.js';
import { DEFAULT_VOCABULARY, type Vocabulary } from '../vocabulary.js';
import { timeLikeKey } from './key-hints.js';

/**
 * What the values of a column look like, from a few of them: the statistics that decide which
 * column names the records, which tells their time, which their state. Never from key names.
 */
export const CLASS_NONE = 0;
/** Short readable strings with letters: `coredns-64fd4b4794-p72lf`, `v1.4.2`, `build`. */
export const CLASS_WORD = 1;
/** Strings of three words or more: a title, a message. */
export const CLASS_PROSE = 2;
/** Integers (as numbers, or strings of digits). */
export const CLASS_INTEGER = 3;
/** Other numbers, and strings with digits but no letters (`10.42.0.5`, `1.5`). */
export const CLASS_NUMERIC = 4;
/** Hashes, base64, tokens (`looksOpaque`). */
export const CLASS_OPAQUE = 5;
/** Locators: URLs, paths, qualified names with several `/`, `:` or `.` separators. */
export const CLASS_LOCATOR = 6;
/** Times: ISO 8601 dates and date-times, epoch seconds, milliseconds, micro- and nanoseconds. */
export const CLASS_TIME = 7;
/** `true`, `false`, `null`. */
export const CLASS_LITERAL = 8;
/** A number (or digit string) that reads as an epoch time, or as an id: its key decides. */
export const CLASS_EPOCH = 9;
/** Not classed yet (`classOfField` classes it on first asking). */
export const CLASS_UNKNOWN = 255;

/** Values sampled per column to tell its class. */
const CLASS_SAMPLES = 8;

/**
 * A date written out (`Sun Aug 31 00:29:15 +0000 2014`, `Tue, 01 Mar 2026 06:00:00 GMT`): a
 * time of day and a year of four digits, in a form `Date.parse` reads.
 */
const WRITTEN_DATE =
  /\b\d{1,2}:\d{2}(?::\d{2})?\b.*\b(?:19|20)\d{2}\b|\b(?:19|20)\d{2}\b.*\b\d{1,2}:\d{2}/;
const ISO_DATE =
  /^\d{4}-\d{2}-\d{2}(?:[T ]\d{2}:\d{2}(?::\d{2}(?:[.,]\d+)?)?(?:Z|[+-]\d{2}:?\d{2})?)?$/;

/**
 * Whether a run of digits (with an optional fraction) reads as an epoch time: seconds,
 * milliseconds, microseconds or nanoseconds since 1970 between the years 2001 and 2100.
 */
function epochDigits(text: string, from: number, to: number): boolean {
  let digits = 0;
  let i = from;
  while (i < to && text.charCodeAt(i) >= 0x30 && text.charCodeAt(i) <= 0x39) {
    i++;
    digits++;
  }
  if (i < to) {
    if (text.charCodeAt(i) !== 0x2e) return false;
    for (let j = i + 1; j < to; j++) {
      const c = text.charCodeAt(j);
      if (c < 0x30 || c > 0x39) return false;
    }
  }
  if (digits !== 10 && digits !== 13 && digits !== 16 && digits !== 19) return false;
  // 2001-09-09 (1.0e9 s) to 2039 (2.2e9 s), at any of the four scales: ids of ten digits and
  // more (3.1e9, 8.5e9) are not read as times.
  const lead = Number(text.slice(from, from + 2));
  return lead >= 10 && lead <= 21;
}

/** Hex digits from which a value of mostly hex digits reads as a token (a UUID, an etag, a sha). */
const HEX_TOKEN_DIGITS = 12;

/**
 * Capitals after at most two small letters, in a run of letters, from which it reads as a token
 * (`kwLOaBcdEfGh`), not words run together (`TestCreateUserProfileHandler`: each hump has more).
 */
const TOKEN_CASE_CHANGES = 4;
/** Small letters from which a stretch of them ended by a capital is part of a word. */
const WORD_HUMP = 3;

/**
 * Whether `text[from, to)` reads as a generated token though `looksOpaque` passes it: mostly hex
 * digits, in a run of at least `HEX_TOKEN_DIGITS` (a UUID, an etag; not a pod's `web-a08ff49b6f-
 * 77263`), or a run of 16 letters and digits or more
 * whose case changes back and forth in stretches shorter than a word's (base64 without digits:
 * `WFR_kwLOaBcdEfGhIjKl`).
 */
function readsAsToken(text: string, from: number, to: number): boolean {
  let hex = 0;
  let other = 0;
  let hexRun = 0;
  let longestHexRun = 0;
  let run = 0;
  let changes = 0;
  // Small letters since the last capital (-1 before any letter of the run).
  let small = -1;
  for (let i = from; i < to; i++) {
    const c = text.charCodeAt(i);
    const lower = c | 0x20;
    const letter = lower >= 0x61 && lower <= 0x7a;
    const digit = c >= 0x30 && c <= 0x39;
    if (digit || (lower >= 0x61 && lower <= 0x66)) {
      hex++;
      hexRun++;
      if (hexRun > longestHexRun) longestHexRun = hexRun;
    } else {
      hexRun = 0;
      if (letter) other++;
    }
    if (letter || digit) {
      run++;
      if (letter) {
        if (c > 0x5a) small = Math.max(0, small) + 1;
        else {
          if (small > 0 && small < WORD_HUMP) changes++;
          small = 0;
        }
      }
      if (run >= 16 && changes >= TOKEN_CASE_CHANGES) return true;
    } else {
      run = 0;
      changes = 0;
      small = -1;
    }
  }
  // One run of hex digits that long (a UUID's last group, an etag, a sha), most of the value.
  if (longestHexRun >= HEX_TOKEN_DIGITS && hex >= 4 * other) return true;
  // All hex, letters and digits both (`a1b2c3d4`): a short hash.
  if (other > 0 || to - from < 8 || hex !== to - from) return false;
  let letters = false;
  let digits = false;
  for (let i = from; i < to; i++) {
    if (text.charCodeAt(i) <= 0x39) digits = true;
    else letters = true;
  }
  return letters && digits;
}

/** Whether an identity of class `c` reads as nothing to a person: a token, a hash, a number. */
export function unreadableId(c: number): boolean {
  return c === CLASS_OPAQUE || c === CLASS_INTEGER;
}

/** Whether values of class `c` read as words to a person: a word, a title, a path. */
function readableClass(c: number): boolean {
  return c === CLASS_WORD || c === CLASS_PROSE || c === CLASS_LOCATOR;
}

/** The class of the scalar value `u`. */
export function valueClass(inventory: JsonInventory, u: number): number {
  const { text, kind, start, end } = inventory;
  const k = kind[u];
  if (k === NODE_OBJECT || k === NODE_ARRAY) return CLASS_NONE;
  let from = start[u]!;
  let to = end[u]!;
  if (k === NODE_SCALAR) {
    const c = text.charCodeAt(from);
    if (c === 0x74 || c === 0x66 || c === 0x6e) return CLASS_LITERAL;
    if (epochDigits(text, from, to)) return CLASS_EPOCH;
    for (let i = from; i < to; i++) {
      const d = text.charCodeAt(i);
      if (d === 0x2e || d === 0x65 || d === 0x45) return CLASS_NUMERIC;
    }
    return CLASS_INTEGER;
  }
  from++;
  to--;
  if (to <= from) return CLASS_NONE;
  const length = to - from;
  // A time has a date's dash at its fifth place (ISO 8601) or a time of day's colon.
  if (length <= 40 && length >= 8) {
    const iso = text.charCodeAt(from + 4) === 0x2d;
    const colon = !iso && text.indexOf(':', from) < to && text.indexOf(':', from) >= 0;
    if (iso || colon) {
      const value = text.slice(from, to);
      if (
        iso ? ISO_DATE.test(value) : WRITTEN_DATE.test(value) && !Number.isNaN(Date.parse(value))
      ) {
        return CLASS_TIME;
      }
    }
  }
  let letters = 0;
  let digits = 0;
  let spaces = 0;
  let separators = 0;
  let points = 0;
  const stop = Math.min(to, from + 64);
  for (let i = from; i < stop; i++) {
    const c = text.charCodeAt(i);
    if (c >= 0x30 && c <= 0x39) digits++;
    else if (c === 0x2e) points++;
    else if (c === 0x20) spaces++;
    else if (c === 0x2f || c === 0x3a) separators++;
    else if (((c | 0x20) >= 0x61 && (c | 0x20) <= 0x7a) || c >= 0x80) letters++;
  }
  if (letters === 0) {
    if (digits > 0 && epochDigits(text, from, to)) return CLASS_EPOCH;
    if (digits > 0 && digits === length) return CLASS_INTEGER;
    // No number has two points: digits joined by them are a name (a version `8.0.8`, an
    // address `10.0.0.1`).
    return points >= 2 ? CLASS_WORD : CLASS_NUMERIC;
  }
  if (spaces >= 2) return CLASS_PROSE;
  if (separators >= 3) return CLASS_LOCATOR;
  if (looksOpaque(text, from, to) || readsAsToken(text, from, stop)) return CLASS_OPAQUE;
  return CLASS_WORD;
}

/**
 * The class most of a column's first values have (ties to the earlier class), `CLASS_NONE`
 * for containers. A column of times must be times in every value sampled.
 */
export function columnClass(
  inventory: JsonInventory,
  signatures: JsonSignatures,
  s: number,
  vocabulary: Vocabulary = DEFAULT_VOCABULARY,
): number {
  const { first, nextSame } = signatures;
  const counts = new Int32Array(10);
  let sampled = 0;
  for (let u = first[s]!; u >= 0 && sampled < CLASS_SAMPLES; u = nextSame[u]!) {
    counts[valueClass(inventory, u)]!++;
    sampled++;
  }
  if (sampled === 0) return CLASS_NONE;
  // A time not set yet (`null`) does not make a time field something else.
  const set = sampled - counts[CLASS_LITERAL]!;
  if (set > 0 && counts[CLASS_TIME] === set) return CLASS_TIME;
  if (counts[CLASS_EPOCH]! > 0 && counts[CLASS_TIME]! + counts[CLASS_EPOCH]! === set) {
    // Ten digits may be seconds since 1970 or an id handed out in order: the key says which.
    if (timeLikeKey(signatureKey(inventory, signatures, s), vocabulary)) return CLASS_TIME;
    const u = first[s]!;
    return inventory.text.slice(inventory.start[u]!, inventory.end[u]!).includes('.')
      ? CLASS_NUMERIC
      : CLASS_INTEGER;
  }
  let best = CLASS_NONE;
  for (let c = 1; c < CLASS_EPOCH; c++) {
    if (c !== CLASS_TIME && counts[c]! > counts[best]!) best = c;
  }
  // Some times among other values (a date or an empty string): not a time column.
  return counts[best] === 0 && counts[CLASS_TIME]! > 0 ? CLASS_WORD : best;
}

/** Values from which an order says something. */
const MONOTONE_MIN = 8;

/**
 * Whether the numbers of column `s` rise (or fall) strictly from each record to the next, as
 * ids handed out in order do and measurements do not. Values over 15 digits compare by length,
 * then text.
 */
function strictlyMonotone(
  inventory: JsonInventory,
  signatures: JsonSignatures,
  s: number,
): boolean {
  // A few values fall in order by chance (four do one time in twelve).
  if (signatures.nodes[s]! < MONOTONE_MIN) return false;
  const { text, start, end, kind } = inventory;
  let direction = 0;
  // Each value is read once, the one before kept: its length, and its number or longer, where
  // its text starts (compared in place: a list's links rise as text, each sliced cost more).
  let previousLength = -1;
  let previousNumber = Number.NaN;
  let previousFrom = 0;
  for (let u = signatures.first[s]!; u >= 0; u = signatures.nextSame[u]!) {
    const quote = kind[u] === NODE_STRING ? 1 : 0;
    const from = start[u]! + quote;
    const to = end[u]! - quote;
    const length = to - from;
    const short = length <= NUMBER_MAX_DIGITS;
    const number = short ? numberAt(text, from, to) : Number.NaN;
    if (previousLength >= 0) {
      // 1 up, -1 down: by value where both are short enough to be read, else by length, then
      // by text.
      const order =
        short && previousLength <= NUMBER_MAX_DIGITS
          ? Math.sign(number - previousNumber)
          : length !== previousLength
            ? Math.sign(length - previousLength)
            : compareInPlace(text, from, previousFrom, length);
      if (order === 0 || Number.isNaN(order)) return false;
      if (direction === 0) direction = order;
      else if (order !== direction) return false;
    }
    previousLength = length;
    previousNumber = number;
    previousFrom = from;
  }
  return direction !== 0;
}

/** How `text[a, a + length)` orders against `text[b, b + length)` as strings do: 1, -1 or 0. */
function compareInPlace(text: string, a: number, b: number, length: number): number {
  for (let i = 0; i < length; i++) {
    const x = text.charCodeAt(a + i);
    const y = text.charCodeAt(b + i);
    if (x !== y) return x > y ? 1 : -1;
  }
  return 0;
}

/**
 * `strictlyMonotone` of a field the pass over the values found to hold ISO 8601 times in text
 * order (`isoInOrder`), all distinct and as long, past a number's digits (so compared as text)
 * and within what their hash reads: true, told without comparing them again; false where that
 * is not known.
 */
function risesAsIsoTimes(
  inventory: JsonInventory,
  signatures: JsonSignatures,
  gathered: Columns,
  s: number,
): boolean {
  const u = signatures.first[s]!;
  const length = inventory.end[u]! - inventory.start[u]! - 2;
  // Values their hash reads whole: two alike always share their entry, so all are distinct.
  return (
    gathered.isoInOrder[s] === 1 &&
    signatures.nodes[s]! >= MONOTONE_MIN &&
    gathered.distinct[s] === gathered.values[s] &&
    gathered.values[s] === signatures.nodes[s] &&
    length > NUMBER_MAX_DIGITS &&
    length <= HASHED_VALUE &&
    oneLength(inventory, signatures, s)
  );
}

/** Whether string `u` holds more letters than digits. */
function mostlyLetters(inventory: JsonInventory, u: number): boolean {
  const { text, start, end } = inventory;
  let balance = 0;
  for (let i = start[u]!; i < end[u]!; i++) {
    const c = text.charCodeAt(i);
    if (c >= 0x30 && c <= 0x39) balance--;
    else if ((c | 0x20) >= 0x61 && (c | 0x20) <= 0x7a) balance++;
  }
  return balance > 0;
}

/** Whether every value of field `s` is written in as many characters. */
function oneLength(inventory: JsonInventory, signatures: JsonSignatures, s: number): boolean {
  const { start, end } = inventory;
  const u = signatures.first[s]!;
  const length = end[u]! - start[u]!;
  for (let v = signatures.nextSame[u]!; v >= 0; v = signatures.nextSame[v]!) {
    if (end[v]! - start[v]! !== length) return false;
  }
  return true;
}

/**
 * How well a column of each class names records, before depth and length: a short readable
 * string best, then an integer handed out in order (or too long to be a quantity), a token, a
 * title; last a locator, and a number that may be a measurement (a port, a size, a duration:
 * unique by chance, not a name).
 */
function nameScore(
  inventory: JsonInventory,
  signatures: JsonSignatures,
  gathered: Columns,
  s: number,
  valueClassOf: number,
  idKey: boolean,
): number {
  switch (valueClassOf) {
    case CLASS_WORD:
      return 3;
    case CLASS_INTEGER: {
      const u = signatures.first[s]!;
      const digits =
        inventory.end[u]! - inventory.start[u]! - (inventory.kind[u] === NODE_STRING ? 2 : 0);
      // Ten or thirteen digits in the range of times since 2001 may be a time under a key in
      // another language: a name, but not a sure one. A key that reads as an identifier (`id`)
      // says which it is. Nineteen digits are past what a double holds exactly: a time that
      // fine comes as a string under a key that says so, a number that long is an id (a
      // snowflake).
      if (digits < IEEE_EXACT_DIGITS && valueClass(inventory, u) === CLASS_EPOCH && !idKey)
        return 1;
      // Too long for a quantity: an id as sure as a readable name (a snowflake, a database id),
      // where every value is as long. Quantities spread over orders of magnitude (a span's
      // `durationInNanos`, 9 658 000 to 870 879 000).
      if (digits >= 9 && oneLength(inventory, signatures, s)) return 3;
      // Handed out in order: an id. Six digits and more in no order: an id under a key that
      // says so, else as likely a measurement (bytes, microseconds); fewer (a port, a count)
      // rarely name anything.
      if (strictlyMonotone(inventory, signatures, s)) return digits >= 6 ? 1.5 : 1.25;
      if (digits >= 6) return idKey ? 1.5 : 0.75;
      return 0.5;
    }
    case CLASS_OPAQUE:
      return 1.5;
    case CLASS_PROSE:
      // A title names a record; a message unique by its numbers hardly does.
      return 1;
    case CLASS_LOCATOR:
      return 1.25;
    case CLASS_TIME:
      // A time names a record only where nothing else does (and the records are in its order).
      return risesAsIsoTimes(inventory, signatures, gathered, s) ||
        strictlyMonotone(inventory, signatures, s)
        ? 0.45
        : 0.2;
    default:
      return 0;
  }
}

/** What choosing the roles of a list's fields reads, shared across its lists. */
export interface RoleContext {
  inventory: JsonInventory;
  signatures: JsonSignatures;
  gathered: Columns;
  /** Per signature: keys below its record (1 for a field of the record itself), -1 if not a field. */
  fieldDepth: Int32Array;
  /** Per signature: how much its key reads as an identifier (0 when not at all). */
  identityWeight: Float32Array;
  /** Per signature: `columnClass` of its values. */
  classOf: Uint8Array;
  /** Memo: whether a signature's values are unique within each list of records. */
  inEachList: Map<number, boolean>;
}

/** Share of distinct values that makes a field unique. */
const UNIQUE = 0.98;
/** Share of distinct values from which a field names the records though a few share a value. */
const NEAR_UNIQUE = 0.9;
/** What a near-unique name gives way by, against a unique one. */
const NEAR_UNIQUE_PENALTY = 1.5;
/**
 * A label shown beside an opaque id: a readable field of at most this many bytes on average,
 * with more values than a state has (`LABEL_VALUES` of its values, and more than 3).
 */
const LABEL_BYTES = 48;
const LABEL_VALUES = 0.34;
/** Words longer than this on average are a message, not a title. */
const TITLE_BYTES = 64;
/** What a name gives way by for each key it lies below its record's own fields. */
const DEPTH_COST = 0.35;
/** Digits past which an integer is no longer exact as a double (2^53 has sixteen). */
const IEEE_EXACT_DIGITS = 17;
/** What a field unique only because each list holds one item gives way by… */
const ALONE_IN_LIST_PENALTY = 3;
/** …where it holds at most this many values in all. */
const ALONE_IN_LIST_VALUES = 2;
/** A name scoring below this is no sure name: two fields that name the records together come first. */
const WEAK_NAME = 1;
/** A name scoring below this is no name at all (a port, a duration unique by chance). */
const NO_NAME = 0.5;
/** Share of distinct values from which a field with a few-valued field beside it may name records together. */
const HALF_UNIQUE = 0.25;
/** Pairs tried for a name of two fields: the most telling halves, the fewest-valued completions. */
const PAIR_HALVES = 3;
const PAIR_COMPLETING = 6;
/** Records from which two fields unique together are a name, not a chance. */
const PAIR_MIN_RECORDS = 12;
/** A field that completes a name has at most this many values. */
const COMPLETING_VALUES = 12;
/** A position completing a name is an integer of at most this many bytes; so many are tried. */
const POSITION_BYTES = 10;
const PAIR_POSITIONS = 2;
/** A record's names longer than this on average are not names. */
const NAME_BYTES = 160;

/** The key telling a value apart: its hash where that reads all of it, else its text. */
function valueKey(inventory: JsonInventory, u: number): number | string {
  return inventory.end[u]! - inventory.start[u]! <= HASHED_VALUE
    ? inventory.valueHash[u]!
    : inventory.text.slice(inventory.start[u]!, inventory.end[u]!);
}

/**
 * Whether no two items of one list share the field's value (a pod's containers by `name`, its
 * conditions by `type`): a nested list's items are told apart within their own list. Items of
 * one list come together in document order.
 */
function uniqueInEachList(ctx: RoleContext, s: number): boolean {
  let unique = ctx.inEachList.get(s);
  if (unique !== undefined) return unique;
  const { inventory, signatures, gathered } = ctx;
  unique = true;
  let list = -1;
  const seen = new Set<number | string>();
  for (let u = signatures.first[s]!; u >= 0 && unique; u = signatures.nextSame[u]!) {
    const record = gathered.recordAbove[u]!;
    const owner = record >= 0 ? inventory.parent[record]! : -1;
    if (owner !== list) {
      list = owner;
      seen.clear();
    }
    const value = valueKey(inventory, u);
    if (seen.has(value)) unique = false;
    seen.add(value);
  }
  ctx.inEachList.set(s, unique);
  return unique;
}

/**
 * Whether fields `a` and `b` together tell the records of `group` apart: no two records hold
 * the same pair (a span's `id`, shared by its client and server halves, with its `kind`).
 */
function uniqueTogether(ctx: RoleContext, group: RecordGroup, a: number, b: number): boolean {
  const { inventory, signatures } = ctx;
  const paths = { signatures, paths: new Map<number, number[]>() };
  const seen = new Set<string>();
  for (const r of group.records) {
    const x = recordField(inventory, paths, r, a);
    const y = recordField(inventory, paths, r, b);
    const key = `${x < 0 ? '' : valueKey(inventory, x)}\u0000${y < 0 ? '' : valueKey(inventory, y)}`;
    if (seen.has(key)) return false;
    seen.add(key);
  }
  return true;
}

/**
 * Chooses the field that names each record of `group` (`identity`) and one shown right after it
 * (`alsoIdentity`: a second name by another identifier word, or the few-valued field that makes
 * a name unique), from the statistics of the fields: present in most records, one value each,
 * unique (or nearly), then by what its values look like (a short readable string names a
 * record better than a number that may be a measurement), shallow before deep, short before
 * long. Key words break ties only. Records that are members of a map are named by their key:
 * the field shown beside it is the shortest, most present one.
 */
export function chooseIdentity(
  ctx: RoleContext,
  group: RecordGroup,
  fields: readonly number[],
  identityWord: readonly string[],
): void {
  const { inventory, signatures, gathered, fieldDepth, identityWeight, classOf } = ctx;
  const { values, presence } = gathered;
  const { kind, parent } = inventory;
  const records = group.records.length;
  group.identity = -1;
  group.alsoIdentity = -1;
  group.identityTogether = false;
  group.named = false;
  // Whether some list holds more than one item (else being unique within each says nothing).
  let sharedLists = false;
  for (let i = 1; i < records && !sharedLists; i++) {
    sharedLists = parent[group.records[i]!] === parent[group.records[i - 1]!];
  }
  let best = -1;
  let bestScore = Number.NEGATIVE_INFINITY;
  let text = -1;
  let textScore = Number.NEGATIVE_INFINITY;
  const names: Array<{
    s: number;
    score: number;
    bytes: number;
    unique: boolean;
    readable: boolean;
  }> = [];
  const halves: number[] = [];
  /** Readable fields of many values, none unique (a span's operation): one may label an opaque id. */
  const labels: Array<{ s: number; distinct: number; bytes: number }> = [];
  /** Per half a name: how well its values name (`nameScore`), then its mean value bytes. */
  const halfName = new Map<number, { score: number; bytes: number }>();
  const completing: number[] = [];
  /**
   * Words of more values than a state, telling fewer apart than a half name (an edge's `parent`
   * and `child`, a thousand services over four thousand calls): two name records together.
   */
  const words: number[] = [];
  /** Short integers of many values (a finding's line): with a file, a position names. */
  const positions: number[] = [];
  for (const s of fields) {
    if (values[s] === 0 || values[s]! < signatures.nodes[s]!) continue;
    const sample = signatures.first[s]!;
    if (kind[sample] === NODE_OBJECT || kind[sample] === NODE_ARRAY) continue;
    const avgBytes = gathered.valueBytes[s]! / values[s]!;
    const present = presence[s]! / records;
    const valueClassOf = classOf[s]!;
    if (group.keyed) {
      // Shown beside the key that names the record: short and nearly always there.
      const score = present - avgBytes / 64 - fieldDepth[s]!;
      if (present >= 0.5 && avgBytes <= 48 && score > bestScore) {
        best = s;
        bestScore = score;
      }
      continue;
    }
    if (present < 0.8 || values[s]! > 1.05 * presence[s]! || avgBytes > NAME_BYTES) continue;
    if (valueClassOf === CLASS_LITERAL) continue;
    const distinct = gathered.distinct[s]!;
    if (
      valueClassOf === CLASS_INTEGER &&
      avgBytes <= POSITION_BYTES &&
      distinct > COMPLETING_VALUES
    ) {
      positions.push(s);
    }
    if (
      distinct >= 2 &&
      distinct <= COMPLETING_VALUES &&
      distinct <= 0.5 * values[s]! &&
      avgBytes <= 32
    ) {
      completing.push(s);
    }
    const inEachList =
      !group.primary &&
      avgBytes <= 48 &&
      (sharedLists || identityWeight[s]! > 0) &&
      uniqueInEachList(ctx, s);
    if (distinct < NEAR_UNIQUE * values[s]! && !inEachList) {
      if (
        avgBytes <= LABEL_BYTES &&
        distinct > Math.max(3, LABEL_VALUES * values[s]!) &&
        readableClass(valueClassOf)
      ) {
        labels.push({ s, distinct, bytes: avgBytes });
      }
      // Half a name: a field that could name records were it unique, not free text nor a
      // measure (a pressure or a wind direction unique beside the hour by chance).
      const score = nameScore(
        inventory,
        signatures,
        gathered,
        s,
        valueClassOf,
        identityWeight[s]! > 0,
      );
      if (
        distinct >= HALF_UNIQUE * values[s]! &&
        valueClassOf !== CLASS_PROSE &&
        score >= WEAK_NAME
      ) {
        halves.push(s);
        halfName.set(s, { score, bytes: avgBytes });
      }
      if (distinct > COMPLETING_VALUES && valueClassOf === CLASS_WORD && score >= WEAK_NAME) {
        words.push(s);
      }
      continue;
    }
    let score =
      nameScore(inventory, signatures, gathered, s, valueClassOf, identityWeight[s]! > 0) -
      DEPTH_COST * (fieldDepth[s]! - 1) -
      Math.min(1, avgBytes / 128) +
      0.4 * Math.min(1, identityWeight[s]! / 3);
    // A field of long values (a message) is a name only where it scores above every field
    // found so far: of two that tell records apart, the short one names them.
    if (gathered.unhashed[s]! > 0 && score <= bestScore) continue;
    const unique = distinct >= UNIQUE * values[s]! || inEachList;
    if (!unique) score -= NEAR_UNIQUE_PENALTY;
    // Where every list holds one item, any field is unique within its list: one value (or two)
    // for all of them names nothing (a reservation's one instance by its `RootDeviceName`),
    // though a few-valued one still does (a pod's one container by its `name`).
    else if (!sharedLists && distinct <= ALONE_IN_LIST_VALUES) score -= ALONE_IN_LIST_PENALTY;
    if (valueClassOf === CLASS_PROSE && avgBytes > TITLE_BYTES) {
      // Free text says what a record is (a message, a description); it names one only where
      // no other field does. A title (short) names its record like any other field.
      if (score > textScore) {
        text = s;
        textScore = score;
      }
      continue;
    }
    names.push({ s, score, bytes: avgBytes, unique, readable: readableClass(valueClassOf) });
    if (score > bestScore || (score === bestScore && s < best)) {
      best = s;
      bestScore = score;
    }
  }
  if (group.keyed) {
    group.identity = best;
    group.named = true;
    return;
  }
  group.named = bestScore >= NO_NAME;
  if (bestScore < WEAK_NAME) {
    // No field names the records alone: a field that tells most of them apart, with the
    // few-valued field that tells the rest (a span's `id` and its `kind`). Over a handful of
    // records, two fields are unique together by chance (a task's minute and its memory): a
    // pair names records only in a list long enough to tell.
    const { distinct } = gathered;
    // Of two that tell as many apart (a finding's template path and its template id), the one
    // whose values read more as names, then the shorter.
    halves.sort(
      (a, b) =>
        distinct[b]! - distinct[a]! ||
        halfName.get(b)!.score - halfName.get(a)!.score ||
        halfName.get(a)!.bytes - halfName.get(b)!.bytes ||
        a - b,
    );
    completing.sort((a, b) => distinct[a]! - distinct[b]! || a - b);
    const pairs = records >= PAIR_MIN_RECORDS ? halves.slice(0, PAIR_HALVES) : [];
    // A few-valued field first; failing that, two words of many values (an edge by its two
    // ends); failing both, a position (a scanner's finding by its file and line, where no field
    // alone tells the findings apart).
    positions.sort((a, b) => distinct[b]! - distinct[a]! || a - b);
    words.sort((a, b) => distinct[b]! - distinct[a]! || a - b);
    // Only where no field tells half the records apart: one that does names them better alone
    // (a CVE, shared by the packages it is found in, over the CVE and the package).
    const halfTold = halves.length > 0 && distinct[halves[0]!]! >= 0.5 * values[halves[0]!]!;
    const wordPairs = records >= PAIR_MIN_RECORDS && !halfTold ? words.slice(0, PAIR_HALVES) : [];
    for (const [firsts, others] of [
      [pairs, completing.slice(0, PAIR_COMPLETING)],
      [wordPairs, wordPairs],
      [pairs, positions.slice(0, PAIR_POSITIONS)],
    ] as const) {
      for (const half of firsts) {
        for (const other of others) {
          if (other !== half && uniqueTogether(ctx, group, half, other)) {
            group.identity = half;
            group.alsoIdentity = other;
            group.identityTogether = true;
            group.named = true;
            return;
          }
        }
      }
    }
    if (text >= 0 && bestScore < NO_NAME) {
      group.identity = text;
      group.named = textScore >= NO_NAME;
      return;
    }
    // With none, the field that tells most records apart, however few it tells apart (rows of a
    // vulnerability report, a third as many CVEs as rows: a row is still read by its CVE), where
    // it tells half apart, or reads as more than a hash (a commit's, 20 of 64 secrets) and has
    // more values than a state (an instrumentation scope's few names over 15 spans); but
    // a field that would name the records were it not for a value two of them share (a span's
    // `id` that two spans carry) tells more than one that names nothing (a duration).
    const half = halves[0];
    const nameButForShared =
      best >= 0 &&
      !names.find((name) => name.s === best)!.unique &&
      bestScore + NEAR_UNIQUE_PENALTY >= NO_NAME;
    if (
      half !== undefined &&
      bestScore < NO_NAME &&
      !nameButForShared &&
      (distinct[half]! >= 0.5 * values[half]! ||
        (classOf[half] !== CLASS_OPAQUE && distinct[half]! > COMPLETING_VALUES))
    ) {
      group.identity = half;
      return;
    }
    // Failing a half name too, a number that names nothing (a thread id of sixteen values over
    // 2 600 trace events) gives way to the word of most values (each event's name); so does a
    // time, to a word of more letters than digits (a test's name over its events' times, not
    // a session's hex id).
    if (
      words.length > 0 &&
      bestScore < NO_NAME &&
      !nameButForShared &&
      (best < 0 ||
        classOf[best] === CLASS_INTEGER ||
        (classOf[best] === CLASS_TIME && mostlyLetters(inventory, signatures.first[words[0]!]!)))
    ) {
      group.identity = words[0]!;
      return;
    }
  }
  // An opaque id (a role's GUID) names no record a reader knows where a readable field names
  // every record alone, however deep or wordy (its `properties.roleName`).
  if (best >= 0 && classOf[best] === CLASS_OPAQUE) {
    let readable: (typeof names)[number] | undefined;
    for (const name of names) {
      if (name.unique && name.readable && (!readable || name.score > readable.score)) {
        readable = name;
      }
    }
    if (readable) best = readable.s;
  }
  group.identity = best;
  // An id that says nothing to a reader (a span's hex `spanID`, a job's number) is shown with
  // the short word field of most values beside it (its `operationName`): a name is read.
  // (Failing one, what the record says labels it: `analyzeRecords`.)
  if (best >= 0 && unreadableId(classOf[best]!) && labels.length > 0) {
    labels.sort((a, b) => b.distinct - a.distinct || a.bytes - b.bytes || a.s - b.s);
    group.alsoIdentity = labels[0]!.s;
    group.identityTogether = true;
    return;
  }
  // Another name for each record, short, unique, by another identity word (an `id` beside a
  // `name`, not an `id_str` beside an `id`).
  names.sort((a, b) => b.score - a.score || a.s - b.s);
  const word = best >= 0 ? identityWord[best]! : '';
  for (const candidate of names) {
    if (
      candidate.s !== best &&
      candidate.unique &&
      candidate.bytes <= 24 &&
      identityWord[candidate.s] !== '' &&
      identityWord[candidate.s] !== word
    ) {
      group.alsoIdentity = candidate.s;
      break;
    }
  }
}
