import { type JsonInventory, NODE_SCALAR } from '../json/json-inventory.js';
import { type RecordGroup, scalarText } from '../readers/json-records.js';
import { recordFieldNodes } from '../readers/record-field-nodes.js';
import { DEFAULT_VOCABULARY, type Vocabulary } from '../vocabulary.js';
import type { RecordAnalysis } from './analyze-records.js';
import { CLASS_TIME } from './column-roles.js';
import { isIsoTime } from './is-iso-time.js';
import { recordFieldDepth } from './record-field-depth.js';
import { timeBefore, timeOrderKey } from './time-order-key.js';

/** Records after the newest shown with their time once every record is named. */
const NEXT_NEWEST = 4;
/** Times besides the order's whose newest and oldest records are shown too. */
const MAX_OTHER_TIMES = 2;

/** What a question asks of the records' time order. */
export interface RecencyAsk {
  /** The `count` newest records (`last 5`, `latest`). */
  newest?: number;
  /** The `count` oldest records (`first 3`, `earliest`). */
  oldest?: number;
  /** Records whose time is at or after `from` and at or before `to` (as written, compared as times). */
  from?: string;
  to?: string;
}

/** Whether field `s` holds times: written as times, or numbers that may be ones. */
function isTimeField(analysis: RecordAnalysis, s: number): boolean {
  return analysis.classOf[s] === CLASS_TIME || analysis.epochLike[s] === 1;
}

/**
 * The fields of `group`'s records (not of a list they hold) that hold times (`isTimeField`), at
 * most `maxDepth` keys down, with their depth, in signature order.
 */
function timeFields(
  analysis: RecordAnalysis,
  group: RecordGroup,
  maxDepth = 3,
): Array<{ s: number; depth: number }> {
  const fields: Array<{ s: number; depth: number }> = [];
  for (let s = group.sig + 1; s < analysis.signatures.count; s++) {
    if (!isTimeField(analysis, s)) continue;
    const { depth } = recordFieldDepth(analysis, group, s);
    if (depth >= 1 && depth <= maxDepth) fields.push({ s, depth });
  }
  return fields;
}

/** Whether field `s` gives nine records of ten or more one value each (a time of its own). */
function oneEachInMost(analysis: RecordAnalysis, group: RecordGroup, s: number): boolean {
  const { values, presence } = analysis;
  return values[s] === presence[s] && presence[s]! >= 0.9 * group.records.length;
}

/**
 * The field that gives `group`'s records their time: the shallowest field whose values are all
 * times, one per record, in at least nine records of ten; -1 when none.
 */
export function timeField(analysis: RecordAnalysis, group: RecordGroup): number {
  const { classOf, distinct } = analysis;
  let best = -1;
  let bestRank = -1;
  let bestDepth = 0;
  for (const { s, depth } of timeFields(analysis, group)) {
    if (!oneEachInMost(analysis, group, s)) continue;
    // A time, or else a number that may be one (seconds since 1970 under a key in another
    // language; ids handed out in order order the records as well).
    const rank = classOf[s] === CLASS_TIME ? 2 : 1;
    // Of several times (created, updated), the one that orders most records apart.
    // The record's own time before one of something it holds (a tweet's, not its author's).
    const better =
      best < 0 ||
      rank > bestRank ||
      (rank === bestRank &&
        (depth < bestDepth || (depth === bestDepth && distinct[s]! > distinct[best]!)));
    if (better) {
      best = s;
      bestRank = rank;
      bestDepth = depth;
    }
  }
  return best;
}

const ORDERS = new WeakMap<RecordGroup, { s: number } & TimeOrder>();

/**
 * The time `group`'s records are ordered by when no question names one, with the records in
 * that order: `timeField`'s, unless some records lack it (an event's `lastTimestamp`, null
 * where it carries an `eventTime`). A record with no time has no place in the order, so
 * another time of the records that more of them hold goes first (`metadata.creationTimestamp`).
 */
export function orderTime(
  inventory: JsonInventory,
  analysis: RecordAnalysis,
  group: RecordGroup,
): { s: number } & TimeOrder {
  let order = ORDERS.get(group);
  if (order) return order;
  let s = timeField(analysis, group);
  let found: TimeOrder =
    s < 0 ? { timed: TimedRecords.of([]), iso: false } : timeOrder(inventory, analysis, group, s);
  for (const { s: other } of s < 0 ? [] : timeFields(analysis, group)) {
    if (found.timed.length === group.records.length) break;
    if (other === s) continue;
    // Only a field most records hold is read: as many such fields as fit in the input, each
    // read once, keep the pass linear (a field on two records of 50 000 is not a candidate).
    const held = analysis.values[other]!;
    if (held <= found.timed.length || 2 * held < group.records.length) continue;
    const candidate = timeOrder(inventory, analysis, group, other);
    if (candidate.timed.length > found.timed.length) [s, found] = [other, candidate];
  }
  order = { s, ...found };
  ORDERS.set(group, order);
  return order;
}

/**
 * The oldest and newest time of field `s` as written, read off the order of `group`'s records
 * (`orderTime`) when they are ordered by `s`, every node of `s` has its place in that order and
 * every time is written as ISO 8601 (then text order is time order, as for the field's range);
 * undefined otherwise. Ties keep the text alike, so either end is the one a pass finds.
 */
export function orderEnds(
  inventory: JsonInventory,
  analysis: RecordAnalysis,
  group: RecordGroup,
  s: number,
): { from: string; to: string } | undefined {
  const { s: ordered, timed, iso } = orderTime(inventory, analysis, group);
  if (
    ordered !== s ||
    !iso ||
    timed.length === 0 ||
    timed.length !== analysis.signatures.nodes[s]
  ) {
    return undefined;
  }
  return { from: timed.at(0).time, to: timed.at(timed.length - 1).time };
}

/** Other fields than `s` that give every record of `group` a time of its own, at most `MAX_OTHER_TIMES`. */
function otherTimes(analysis: RecordAnalysis, group: RecordGroup, s: number): number[] {
  return timeFields(analysis, group, 2)
    .filter(({ s: t }) => t !== s && oneEachInMost(analysis, group, t))
    .slice(0, MAX_OTHER_TIMES)
    .map(({ s: t }) => t);
}

/** A record with its time field's node, its time as written and that time's `timeOrderKey`. */
interface TimedRecord {
  record: number;
  field: number;
  time: string;
  key: number;
}

/**
 * Compares two times as written: numbers (epochs) by value, dates written out by what they
 * stand for, ISO 8601 texts of one form as text (which is their order).
 */
function compareTimes(a: string, b: string): number {
  const x = timeOrderKey(a);
  const y = timeOrderKey(b);
  if (!Number.isNaN(x) && !Number.isNaN(y) && x !== y) return x - y;
  return a < b ? -1 : a > b ? 1 : 0;
}

/**
 * `group`'s records holding time field `s`, oldest first (ties in document order). Each time is
 * read once: by value where every one is a number or a date written out, else as text.
 */
export function recordsByTime(
  inventory: JsonInventory,
  analysis: RecordAnalysis,
  group: RecordGroup,
  s: number,
): TimedRecord[] {
  return timeOrder(inventory, analysis, group, s).timed.slice(0);
}

/**
 * Records in time order, each entry made when asked for: where the values were found in time
 * order already, a trim reads the ends and a few more of tens of thousands, and an entry (and
 * its time's text) per record was most of the pass.
 */
class TimedRecords {
  private constructor(
    readonly length: number,
    private readonly entries: readonly TimedRecord[] | undefined,
    private readonly inventory: JsonInventory | undefined,
    private readonly records: Int32Array,
    private readonly fields: Int32Array,
  ) {}

  /** Entries made already. */
  static of(entries: readonly TimedRecord[]): TimedRecords {
    return new TimedRecords(entries.length, entries, undefined, EMPTY, EMPTY);
  }

  /** The first `length` records and fields, their times read off `inventory` when asked for. */
  static inPlace(
    inventory: JsonInventory,
    records: Int32Array,
    fields: Int32Array,
    length: number,
  ): TimedRecords {
    return new TimedRecords(length, undefined, inventory, records, fields);
  }

  at(i: number): TimedRecord {
    if (this.entries) return this.entries[i]!;
    const field = this.fields[i]!;
    const time = scalarText(this.inventory!, field);
    return { record: this.records[i]!, field, time, key: Number.NaN };
  }

  /** As `Array.prototype.slice`. */
  slice(from: number, to = this.length): TimedRecord[] {
    const begin = from < 0 ? Math.max(0, this.length + from) : Math.min(from, this.length);
    const stop = to < 0 ? Math.max(0, this.length + to) : Math.min(to, this.length);
    const out: TimedRecord[] = [];
    for (let i = begin; i < stop; i++) out.push(this.at(i));
    return out;
  }
}

const EMPTY = new Int32Array(0);

/**
 * A `TimedRecords` that lives as long as this module. Records in time order live only during a
 * trim, and V8 drops a hidden class no live object has at a major collection, throwing away the
 * optimised code that made or read it: `timeOrder` then ran unoptimised in the next trim after
 * each (see `HITS_SHAPE` in relevance.ts).
 */
export const TIMED_RECORDS_SHAPE = TimedRecords.of([]);

/** Records in the order of their times (`recordsByTime`), and how the times are written. */
interface TimeOrder {
  timed: TimedRecords;
  /** Every time is written as ISO 8601 (none is a number or a date written out). */
  iso: boolean;
}

function timeOrder(
  inventory: JsonInventory,
  analysis: RecordAnalysis,
  group: RecordGroup,
  s: number,
): TimeOrder {
  // Times all written as ISO 8601 (which order as text) that the pass over the values found in
  // text order are not read again: they are in time order already, ties in document order.
  if (analysis.columns.isoInOrder[s] === 1) {
    const records = new Int32Array(group.records.length);
    const fields = new Int32Array(group.records.length);
    const nodes = recordFieldNodes(inventory, analysis, group, s);
    let length = 0;
    for (let i = 0; i < nodes.length; i++) {
      const field = nodes[i]!;
      if (field < 0) continue;
      records[length] = group.records[i]!;
      fields[length++] = field;
    }
    return { timed: TimedRecords.inPlace(inventory, records, fields, length), iso: true };
  }
  const timed: TimedRecord[] = [];
  let byValue = true;
  let iso = true;
  const nodes = recordFieldNodes(inventory, analysis, group, s);
  for (let i = 0; i < nodes.length; i++) {
    const field = nodes[i]!;
    if (field < 0) continue;
    const record = group.records[i]!;
    const time = scalarText(inventory, field);
    // A record with no time there (`"lastTimestamp": null`, `""`) has no place in the order:
    // read as text, `null` sorted after every date and was taken for the newest.
    if (time === '' || (inventory.kind[field] === NODE_SCALAR && !isNumberText(time))) continue;
    // An ISO 8601 time orders as text (its key is NaN): told as one once.
    const isoTime = isIsoTime(time);
    const key = isoTime ? Number.NaN : timeOrderKey(time);
    if (!isoTime) iso = false;
    if (Number.isNaN(key)) byValue = false;
    timed.push({ record, field, time, key });
  }
  const compare = byValue ? byKey : byText;
  // Records are mostly written in time order: then one pass finds them in order, for a
  // fraction of what sorting them costs.
  for (let i = 1; i < timed.length; i++) {
    if (compare(timed[i - 1]!, timed[i]!) > 0) {
      return { timed: TimedRecords.of(timed.sort(compare)), iso };
    }
  }
  return { timed: TimedRecords.of(timed), iso };
}

function byKey(a: TimedRecord, b: TimedRecord): number {
  if (timeBefore(a.time, a.key, b.time, b.key)) return -1;
  if (timeBefore(b.time, b.key, a.time, a.key)) return 1;
  return a.record - b.record;
}

function byText(a: TimedRecord, b: TimedRecord): number {
  return a.time < b.time ? -1 : a.time > b.time ? 1 : a.record - b.record;
}

/** Whether a scalar's text is a number (not `null`, `true` or `false`). */
function isNumberText(text: string): boolean {
  const c = text.charCodeAt(0);
  return c === 0x2d || (c >= 0x30 && c <= 0x39);
}

/**
 * A question's token that reads as a time: an ISO date (or date-time), or an epoch (s to ns;
 * seconds with a fraction too, as a logger writes them).
 */
function timeToken(token: string): boolean {
  return (
    /^\d{4}-\d{2}-\d{2}/.test(token) || /^(?:1\d|2[01])\d{8}(?:(?:\d{3}){1,3}|\.\d+)?$/.test(token)
  );
}

/**
 * What a question asks of the records' order, from its tokens: `newest`/`last`/`latest`
 * (`oldestWords` for the other end) with a count next to them (`last 5`, `3 newest`, one when
 * none), or a window between two times, after one (`since`) or before one (`until`).
 */
export function recencyAsk(
  tokens: readonly string[],
  vocabulary: Vocabulary = DEFAULT_VOCABULARY,
): RecencyAsk | undefined {
  const { afterWords, beforeWords, newestWords, oldestWords } = vocabulary;
  const times: Array<{ at: number; token: string }> = [];
  tokens.forEach((token, at) => {
    // Question tokens come lower-cased; an ISO time's `T` and `Z` are upper case in data.
    if (timeToken(token)) times.push({ at, token: token.toUpperCase() });
  });
  if (times.length >= 2) {
    const [a, b] = [times[0]!.token, times[1]!.token].sort(compareTimes);
    return { from: a, to: b };
  }
  if (times.length === 1) {
    const before = tokens[times[0]!.at - 1] ?? '';
    if (afterWords.has(before)) return { from: times[0]!.token };
    if (beforeWords.has(before)) return { to: times[0]!.token };
  }
  for (let i = 0; i < tokens.length; i++) {
    const token = tokens[i]!;
    const newest = newestWords.has(token);
    if (!newest && !oldestWords.has(token)) continue;
    const count = [tokens[i + 1], tokens[i - 1]]
      .map((near) => (near !== undefined && /^\d{1,3}$/.test(near) ? Number(near) : 0))
      .find((n) => n > 0);
    const n = count ?? 1;
    return newest ? { newest: n } : { oldest: n };
  }
  return undefined;
}

/**
 * The records a question about order selects, and always the newest and the oldest one, each
 * with its time field's node, the asked ones first (`leading`, the first `askedFor` of them);
 * and the newest after the newest (`afterNames`, shown right after the two ends).
 */
export function recordOrder(
  inventory: JsonInventory,
  analysis: RecordAnalysis,
  group: RecordGroup,
  ask: RecencyAsk | undefined,
  asked: readonly number[] = [],
): {
  leading: Array<{ record: number; field: number }>;
  askedFor: number;
  afterNames: Array<{ record: number; field: number }>;
} {
  // Asked about order by a time field the question names, by that one.
  const named = ask ? asked.find((s) => isTimeField(analysis, s)) : undefined;
  let { s, timed } =
    named === undefined
      ? orderTime(inventory, analysis, group)
      : { s: named, timed: timeOrder(inventory, analysis, group, named).timed };
  const leading: Array<{ record: number; field: number }> = [];
  if (ask?.newest) leading.push(...timed.slice(-ask.newest).reverse());
  else if (ask?.oldest) leading.push(...timed.slice(0, ask.oldest));
  else if (ask?.from !== undefined || ask?.to !== undefined) {
    const within = (entries: TimedRecords) =>
      entries
        .slice(0)
        .filter(
          ({ time }) =>
            (ask.from === undefined || compareTimes(time, ask.from) >= 0) &&
            (ask.to === undefined || compareTimes(time, ask.to) <= 0 || time.startsWith(ask.to)),
        );
    let inside = within(timed);
    // Bounds none of its times fall between are of another time field (microseconds of a
    // span's `timestamp`, not the ISO `created_at`): the first whose times they bound.
    for (const { s: other } of timeFields(analysis, group)) {
      if (inside.length > 0) break;
      if (other === s) continue;
      const candidate = timeOrder(inventory, analysis, group, other).timed;
      const found = within(candidate);
      if (found.length > 0) {
        s = other;
        timed = candidate;
        inside = found;
      }
    }
    // Every record the window holds, as far as the budget names them (the plan stops there).
    for (const entry of inside) leading.push(entry);
  }
  if (timed.length === 0) return { leading: [], askedFor: 0, afterNames: [] };
  const askedFor = leading.length;
  const newest = timed.at(timed.length - 1);
  const oldest = timed.at(0);
  for (const end of [newest, oldest]) {
    if (!leading.some((entry) => entry.record === end.record)) leading.push(end);
  }
  // The ends by the records' other times (`created_at` beside `published_at`), each shown with
  // that time: which of them orders is a reader's call.
  for (const other of otherTimes(analysis, group, s)) {
    const by = timeOrder(inventory, analysis, group, other).timed;
    const ends = by.length > 0 ? [by.at(by.length - 1), by.at(0)] : [];
    for (const end of ends) {
      if (end && !leading.some((e) => e.record === end.record && e.field === end.field)) {
        leading.push(end);
      }
    }
  }
  // The four newest after the newest, shown with the two ends (the last five, unasked).
  const afterNames = timed.slice(-1 - NEXT_NEWEST, -1).reverse();
  return { leading, askedFor, afterNames };
}
