import type { RecordDistribution, RecordRange } from '@compaction/core';
import { type JsonInventory, NODE_SCALAR, NODE_STRING } from '../json/json-inventory.js';
import {
  type JsonSignatures,
  STEP_INDEX,
  STEP_KEY,
  signatureKey,
} from '../json/json-signatures.js';
import { fieldPath } from '../json/signature-path.js';
import {
  NUMBER_MAX_DIGITS,
  numberAt,
  type RecordGroup,
  scalarText,
  scalarValue,
} from '../readers/json-records.js';
import type { RecordAnalysis } from './analyze-records.js';
import {
  CLASS_INTEGER,
  CLASS_LOCATOR,
  CLASS_NONE,
  CLASS_NUMERIC,
  CLASS_OPAQUE,
  CLASS_PROSE,
  CLASS_TIME,
  CLASS_WORD,
} from './column-roles.js';
import { isIsoTime } from './is-iso-time.js';
import { keyHints } from './key-hints.js';
import { keyedItemCounts } from './keyed-items.js';
import { kthSmallest } from './kth-smallest.js';
import { orderEnds, orderTime } from './recency.js';
import { recordFieldDepth } from './record-field-depth.js';
import { holdsScalarList, nestedListCounts, scalarListCounts } from './scalar-list.js';
import { timeBefore, timeOrderKey } from './time-order-key.js';

/**
 * One thing the note can say of every record of the main list, whatever the view shows:
 * what they all hold alike, how they divide by a field's values, or a field's range.
 */
export type AggregateStatement = (
  | { kind: 'constant'; field: string; value: string }
  | { kind: 'distribution'; distribution: RecordDistribution }
  | { kind: 'range'; range: RecordRange }
) & {
  /** A question names its field (such statements come first). */
  asked?: boolean;
};

/** A field of a list's items inside each record is told where they hold this many on average, at most. */
const NESTED_ITEMS = 2;
/** What a field of a list's items adds to a state's rank: the record's own fields come first. */
const NESTED_RANK = 0.5;
/** And a field of the item of a list a key names: told after the record's own of like standing. */
const KEYED_RANK = 1;
/** Values told per distribution (the rest are summed as other values). */
const TOLD_VALUES = 20;
/** Values told of a distribution the question asks for. */
const TOLD_VALUES_ASKED = 40;
/** A field of more values than this (and of more than half its records) is no distribution. */
const MAX_CATEGORIES = 40;
/**
 * Values of a distribution longer than this (UTF-16 units) are not told: a module or file path
 * the records divide by (`gotest.tools/gotestsum/testjson/internal/withfails`) still is.
 */
const MAX_VALUE_UNITS = 96;
/** A value every record holds alike longer than this is not told (the note would cut it). */
const MAX_CONSTANT_UNITS = 48;
/** Constants told, and distributions and ranges beyond the asked ones. */
const MAX_CONSTANTS = 8;
const MAX_DISTRIBUTIONS = 8;
const MAX_RANGES = 6;
/** Fields told alike with one distribution (`by A, B: …`), at most. */
const MAX_ALIKE = 3;
/** Distributions checked for dividing the records as an earlier one does. */
const ECHO_CHECKS = 4 * MAX_DISTRIBUTIONS;
/** States every record shares told before the distributions, at most. */
const LEADING_CONSTANTS = 3;
/** Constants ranked below this read as a state (their key says so). */
const CONSTANT_STATE_RANK = 4;
/** What a key read as an identifier adds to a state's rank: a tie-break (`stateRank`). */
const ID_HINT_TIE = 0.01;
/**
 * What integer codes add to a state's rank: of two fields that divide the records alike, the
 * words (`localEndpoint.serviceName`) say what the codes (`localEndpoint.port`) stand for.
 * Larger than `ID_HINT_TIE`: a word under a key read as an identifier still comes first.
 */
const CODES_TIE = 0.02;
/** What reading as an address (`docker://19.3.13`, a profile's URL) adds to a state's rank. */
const LOCATOR_RANK = 1;
/** Records a word of many values is held by on average, at least, to divide the records. */
const SHARED_WORD_RECORDS = 3;
/** Free text divides the records where its distinct values are at most this share of them. */
const PROSE_DIVIDES = 0.1;
/** Integers of more values than this may be a count rather than codes (`measuredIntegers`). */
const CODE_VALUES = 5;
/** Integers whose largest is this many times their smallest (positive) span orders of magnitude. */
const MAGNITUDES = 100;

/**
 * Whether fields `a` and `b`, each held once by the same records, divide them alike: each value
 * of one goes with one value of the other (`State.Name: terminated` always with
 * `MetadataOptions.State: pending`). A second such distribution tells nothing the first does not.
 */
function samePartition(analysis: RecordAnalysis, a: number, b: number): boolean {
  if (
    analysis.presence[a] !== analysis.presence[b] ||
    analysis.distinct[a] !== analysis.distinct[b]
  ) {
    return false;
  }
  const { first, nextSame } = analysis.signatures;
  const { entryOf } = analysis.columns;
  const forward = new Map<number, number>();
  const backward = new Map<number, number>();
  let u = first[a]!;
  let v = first[b]!;
  for (; u >= 0 && v >= 0; u = nextSame[u]!, v = nextSame[v]!) {
    const x = entryOf[u]!;
    const y = entryOf[v]!;
    if (x < 0 || y < 0) return false;
    if ((forward.get(x) ?? y) !== y || (backward.get(y) ?? x) !== x) return false;
    forward.set(x, y);
    backward.set(y, x);
  }
  return u < 0 && v < 0;
}

/**
 * Whether `b` holds `a`'s value in every record that holds either (`status.capacity.cpu` beside
 * `status.allocatable.cpu`, a version beside another): one statement of the counts tells both.
 */
function sameValues(inventory: JsonInventory, analysis: RecordAnalysis, a: number, b: number) {
  if (!samePartition(analysis, a, b)) return false;
  const { first, nextSame } = analysis.signatures;
  const { recordAbove } = analysis;
  const { entryOf } = analysis.columns;
  // The values pair one to one (`samePartition`): one pair read per value.
  const read = new Set<number>();
  for (let u = first[a]!, v = first[b]!; u >= 0 && v >= 0; u = nextSame[u]!, v = nextSame[v]!) {
    if (recordAbove[u] !== recordAbove[v]) return false;
    if (read.has(entryOf[u]!)) continue;
    read.add(entryOf[u]!);
    if (scalarText(inventory, u) !== scalarText(inventory, v)) return false;
  }
  return true;
}

/**
 * Whether the integers of `s` fill at least half the run from their smallest to their largest
 * (`retryCount` 0…16, 15 of them), or span orders of magnitude (durations from 40000 to
 * 44000000): a count or a measure, told by its range, not codes (`200`, `404`, `503`) a reader
 * counts records by.
 */
function measuredIntegers(inventory: JsonInventory, analysis: RecordAnalysis, s: number): boolean {
  const { text, kind, start, end } = inventory;
  const { first, nextSame } = analysis.signatures;
  let low = Number.POSITIVE_INFINITY;
  let high = Number.NEGATIVE_INFINITY;
  const numbers = new Float64Array(analysis.signatures.nodes[s]!);
  let i = 0;
  for (let u = first[s]!; u >= 0; u = nextSame[u]!, i++) {
    const value = kind[u] === NODE_SCALAR ? numberAt(text, start[u]!, end[u]!) : Number.NaN;
    numbers[i] = value;
    if (!Number.isInteger(value)) continue;
    if (value < low) low = value;
    if (value > high) high = value;
  }
  numbersRead.set(analysis, { s, numbers });
  return (
    high >= low &&
    (2 * analysis.distinct[s]! >= high - low + 1 || high >= MAGNITUDES * Math.max(low, 1))
  );
}

/**
 * The numbers `measuredIntegers` read last per analysis, one per node of its field in chain
 * order (NaN where a node is not a number): `rangeOf` reads an integer measure's range next.
 */
const numbersRead = new WeakMap<RecordAnalysis, { s: number; numbers: Float64Array }>();

/** `s`'s values with how many records hold each, commonest first (then first seen). */
function valueCounts(
  inventory: JsonInventory,
  analysis: RecordAnalysis,
  s: number,
): Array<{ value: string; count: number }> {
  // Values told apart by their entry in the column statistics (no text read per node), and
  // by their text where they have none (a list or an object among the field's values).
  const { entryOf, entryCount, entries } = analysis.columns;
  // Each entry's first node, in the order first seen: a mark per entry rather than a map
  // looked up per node.
  const seen = new Uint8Array(entries);
  const firstOfEntry: number[] = [];
  const long = new Map<string, number>();
  const { first, nextSame } = analysis.signatures;
  for (let u = first[s]!; u >= 0; u = nextSame[u]!) {
    const entry = entryOf[u]!;
    if (entry >= 0) {
      if (seen[entry] === 0) {
        seen[entry] = 1;
        firstOfEntry.push(u);
      }
    } else {
      const value = scalarValue(inventory, u);
      long.set(value, (long.get(value) ?? 0) + 1);
    }
  }
  // Told by what they say: two spellings of one string (`\u00e9`, `é`) are one value.
  const counts = new Map<string, number>();
  for (const u of firstOfEntry) {
    const value = scalarValue(inventory, u);
    counts.set(value, (counts.get(value) ?? 0) + entryCount[entryOf[u]!]!);
  }
  for (const [value, count] of long) counts.set(value, (counts.get(value) ?? 0) + count);
  return [...counts].map(([value, count]) => ({ value, count })).sort((a, b) => b.count - a.count);
}

/** The distribution of `s` with at most `limit` values told, the others summed. */
function distributionOf(
  inventory: JsonInventory,
  analysis: RecordAnalysis,
  group: RecordGroup,
  s: number,
  limit: number,
  listCounts?: ReadonlyArray<{ value: string; count: number }>,
  field = fieldPath(inventory, analysis, s, group.sig),
): RecordDistribution {
  const counts = listCounts ?? valueCounts(inventory, analysis, s);
  const values: Array<{ value: string; count: number }> = [];
  const distribution: RecordDistribution = { field, values };
  const present = listCounts
    ? listCounts.reduce((sum, entry) => sum + entry.count, 0)
    : analysis.presence[s]!;
  if (present < group.records.length) distribution.present = present;
  let otherValues = 0;
  let otherCount = 0;
  for (const entry of counts) {
    if (values.length < limit && entry.value.length <= MAX_VALUE_UNITS) {
      values.push(entry);
    } else {
      otherValues++;
      otherCount += entry.count;
    }
  }
  if (otherValues > 0) {
    distribution.otherValues = otherValues;
    distribution.otherCount = otherCount;
  }
  return distribution;
}

/**
 * The smallest and largest value of a numeric or time field (and the median of a number), as
 * written; `null`s and values of another kind are none of its values. Numbers and epochs by
 * value, ISO 8601 times as text, dates written out by the time they stand for. Linear: the
 * median is selected, not sorted for.
 */
function rangeOf(
  inventory: JsonInventory,
  analysis: RecordAnalysis,
  group: RecordGroup,
  s: number,
  time: boolean,
): RecordRange | undefined {
  if (time) {
    // The time the records are ordered by has its ends found already.
    const ends = orderEnds(inventory, analysis, group, s);
    if (ends) return { field: fieldPath(inventory, analysis, s, group.sig), ...ends };
  }
  const { text, kind, start, end } = inventory;
  const { first, nextSame } = analysis.signatures;
  let low = -1;
  let high = -1;
  let lowKey = 0;
  let highKey = 0;
  let lowText = '';
  let highText = '';
  let byText = false;
  // A number's value and node each, at most one per node of the field.
  const most = time ? 0 : analysis.signatures.nodes[s]!;
  const keys = new Float64Array(most);
  const nodes = new Int32Array(most);
  let taken = 0;
  const read = time ? undefined : numbersRead.get(analysis);
  const numbers = read?.s === s ? read.numbers : undefined;
  let i = -1;
  for (let u = first[s]!; u >= 0; u = nextSame[u]!) {
    i++;
    const k = kind[u];
    // A number read already is no literal (`true`, `false`, `null`: NaN).
    if (k === NODE_SCALAR && !(numbers && !Number.isNaN(numbers[i]!))) {
      const c = text.charCodeAt(start[u]!);
      if (c === 0x74 || c === 0x66 || c === 0x6e) continue;
    } else if (k !== NODE_SCALAR && (k !== NODE_STRING || !time)) continue;
    if (!time) {
      // A number is read where it is written, not from a copy of its text (nor again).
      const from = start[u]!;
      const to = end[u]!;
      const x = numbers
        ? numbers[i]!
        : to - from <= NUMBER_MAX_DIGITS + 1
          ? numberAt(text, from, to)
          : Number.NaN;
      if (!Number.isFinite(x)) return undefined;
      if (low < 0 || x < lowKey) {
        low = u;
        lowKey = x;
      }
      if (high < 0 || x > highKey) {
        high = u;
        highKey = x;
      }
      keys[taken] = x;
      nodes[taken++] = u;
      continue;
    }
    const value = scalarText(inventory, u);
    const key = timeOrderKey(value);
    if (Number.isNaN(key)) {
      if (!isIsoTime(value)) continue;
      byText = true;
    }
    if (low < 0 || (byText ? value < lowText : timeBefore(value, key, lowText, lowKey))) {
      low = u;
      lowKey = key;
      lowText = value;
    }
    if (high < 0 || (byText ? value > highText : timeBefore(highText, highKey, value, key))) {
      high = u;
      highKey = key;
      highText = value;
    }
  }
  if (low < 0) return undefined;
  const range: RecordRange = {
    field: fieldPath(inventory, analysis, s, group.sig),
    from: scalarValue(inventory, low),
    to: scalarValue(inventory, high),
  };
  if (!time) {
    // The first node of the median's value: the copy is reordered, the values stay in order.
    const middle = kthSmallest(keys.slice(0, taken), taken, (taken - 1) >> 1);
    range.median = scalarValue(inventory, nodes[keys.indexOf(middle)]!);
  }
  return range;
}

/**
 * Whether field `s` lies under a key of digits only, a position as an array's is (`s.4`,
 * `branchMap.0.type`, below the records of list signature `top`): the fifth counter of a map
 * keyed by position is no field of the records, as `items[4]` is none. `under` holds the answer
 * of every signature from `top` on read so far (parents come first): 1 no, 2 yes.
 */
function underPosition(
  inventory: JsonInventory,
  signatures: JsonSignatures,
  top: number,
  s: number,
  under: Uint8Array,
): boolean {
  const parent = signatures.parent[s]!;
  let position = parent > top && under[parent] === 2;
  if (!position && signatures.step[s] === STEP_KEY) {
    const u = signatures.first[s]!;
    const { text } = inventory;
    const from = inventory.keyStart[u]! + 1;
    const to = inventory.keyEnd[u]! - 1;
    position = to > from;
    for (let i = from; i < to && position; i++) {
      const c = text.charCodeAt(i);
      position = c >= 0x30 && c <= 0x39;
    }
  }
  under[s] = position ? 2 : 1;
  return position;
}

/**
 * What the note can say of every record of `group`, most telling first: how the records divide
 * by their states (the fields of few values, a rare value first), their time range, what every
 * record holds alike, the other few-valued fields, the ranges of their numbers. `asked` (the
 * signatures a question names) come before all, with more of their values. Each statement is
 * true over all records (only fields each record holds once are told); the note takes them in
 * this order while they fit, so a larger note says everything a smaller one does.
 */
export function recordAggregates(
  inventory: JsonInventory,
  analysis: RecordAnalysis,
  group: RecordGroup,
  askedFields: ReadonlySet<number> = new Set(),
  words: readonly string[] = [],
): AggregateStatement[] {
  if (inventory.truncated) return [];
  // The fields a question names; a field of the items a key names, by that name too
  // ("which pods are not ready?": `conditions[type=Ready].status`).
  const asked = new Set(askedFields);
  const { signatures, values, distinct, presence, fieldDepth, classOf } = analysis;

  const records = group.records.length;
  // Few values first, each shared by several records, in the record itself rather than deeper;
  // a rare value among them tells most; a field most records lack, least.
  // A key that reads as an identifier (`AvailabilityZoneId` beside `AvailabilityZone`) breaks
  // a tie, nothing more: of two fields that divide the records alike, the other comes first.
  const stateRank = (
    kinds: number,
    depth: number,
    present: number,
    top: number,
    hint: boolean,
    idHint: boolean,
  ) =>
    0.5 * Math.log2(kinds) +
    0.5 * (depth - 1) +
    (present - top <= 0.05 * present ? 0 : 1) +
    3 * (1 - present / records) -
    (hint ? 0.75 : 0) +
    (idHint ? ID_HINT_TIE : 0);
  const lists = new Map<number, Array<{ value: string; count: number }>>();
  const constants: Array<{ s: number; rank: number }> = [];
  const nearlyConstant: Array<{ s: number; rank: number }> = [];
  const categorical: Array<{ s: number; rank: number }> = [];
  const numeric: number[] = [];
  const times: number[] = [];
  const keyedItems = keyedItemCounts(inventory, analysis, group, MAX_CATEGORIES);
  const underKey = new Uint8Array(signatures.count);
  for (let s = group.sig + 1; s < signatures.count; s++) {
    // A field of this list's records, not of a list inside them (but for a list of one item
    // in each record, whose fields are the record's own).
    const { depth, throughOne } = recordFieldDepth(analysis, group, s);
    if (underPosition(inventory, signatures, group.sig, s, underKey) || depth > 3) continue;
    const c = classOf[s]!;
    if (depth < 1) {
      // A field of the items of a list inside each record, a few items each at most (a pod's
      // containers' images, a component's licences): its values in each record together are
      // the record's value of it, told where they divide the records as a state's do.
      if (c !== CLASS_WORD && c !== CLASS_INTEGER && c !== CLASS_LOCATOR) continue;
      // Items a key names are told by name (`conditions[type=Ready].status`).
      if (keyedItems.keyed.has(s)) continue;
      // One value in every item says only how many items each record holds.
      if (distinct[s]! < 2 || distinct[s]! > 2 * MAX_CATEGORIES) continue;
      if (values[s]! > NESTED_ITEMS * records) continue;
      const nested = nestedListCounts(
        inventory,
        signatures,
        group.sig,
        group.records,
        s,
        MAX_CATEGORIES,
      );
      if (!nested || nested.counts.length < 2) continue;
      const present = nested.counts.reduce((sum, entry) => sum + entry.count, 0);
      const top = nested.counts[0]!.count;
      if (present < 0.5 * records || nested.counts.length > 0.5 * present || top < 2) continue;
      const keyHint = keyHints(signatureKey(inventory, signatures, s), analysis.vocabulary);
      lists.set(s, nested.counts);
      categorical.push({
        s,
        rank:
          stateRank(nested.counts.length, nested.keys, present, top, keyHint.state, false) +
          NESTED_RANK,
      });
      continue;
    }
    const hints = keyHints(signatureKey(inventory, signatures, s), analysis.vocabulary);
    const hint = hints.state;
    const idHint = hints.identity > 0;
    // A short list of values in each record (`change.actions: ["delete", "create"]`), asked
    // how many records hold each: its values together are the record's value of it. (Unasked,
    // the note divides the records by fields of one value.)
    if (
      c === CLASS_NONE &&
      asked.has(s) &&
      !throughOne &&
      holdsScalarList(inventory, signatures, s)
    ) {
      const counts = scalarListCounts(inventory, signatures, s, MAX_CATEGORIES);
      if (counts && counts.length > 1) {
        const present = counts.reduce((sum, entry) => sum + entry.count, 0);
        lists.set(s, counts);
        categorical.push({
          s,
          rank: stateRank(counts.length, depth, present, counts[0]!.count, hint, idHint),
        });
      }
      continue;
    }
    if (c === CLASS_NONE || values[s] !== presence[s] || values[s] === 0) continue;
    // A value in a list of one is its field's value only where every record that holds the
    // key holds one (not where some hold `null` or `[]`: those records would go untold).
    if (signatures.step[s] === STEP_INDEX && presence[signatures.parent[s]!] !== presence[s]) {
      continue;
    }
    // The field that names the records (not one shown beside a map's keys, which name them,
    // nor one of few values that is no name, only the best there is: a finding's `rule`
    // divides the findings).
    if (s === group.identity && !group.keyed && (group.named || distinct[s]! > MAX_CATEGORIES)) {
      continue;
    }
    if (distinct[s] === 1) {
      const u = signatures.first[s]!;
      // Not one of something each record happens to hold one of (its one managed-fields
      // entry): what every record holds alike is said of the record's own fields.
      // One value in most records but not all (131 zones of 132 warn of no results): told as
      // a distribution of one value, which says how many records lack it.
      if (!throughOne && scalarText(inventory, u).length <= MAX_CONSTANT_UNITS) {
        const rank = (hint ? 0 : CONSTANT_STATE_RANK) + depth;
        if (presence[s] === records) constants.push({ s, rank });
        else if (2 * presence[s]! >= records) nearlyConstant.push({ s, rank });
      }
      continue;
    }
    if (c === CLASS_TIME) {
      times.push(s);
      continue;
    }
    // Few values, each shared by several records: not a column of ids set on a few records
    // (`in_reply_to_status_id`: null, and six values once each). Words are no ids: a few of
    // them divide the records however few share some (`span.type`: db 5, request 3,
    // messaging 1, external 1).
    const repeated =
      distinct[s]! <= 3 ||
      values[s]! - analysis.top[s]! >= 2 * (distinct[s]! - 1) ||
      c === CLASS_WORD;
    const few =
      distinct[s]! <= MAX_CATEGORIES &&
      distinct[s]! <= 0.5 * values[s]! &&
      repeated &&
      !(
        c === CLASS_INTEGER &&
        distinct[s]! > CODE_VALUES &&
        measuredIntegers(inventory, analysis, s)
      );
    // Free text divides the records only where few texts repeat in most of them (an event
    // list's two messages, 98 and 100 times).
    const fewTexts = distinct[s]! <= PROSE_DIVIDES * values[s]!;
    // Asked how many records hold each value, the answer is the distribution, however few
    // records share a value (the domains of 19 posts, 13 of them).
    const counted = asked.has(s) && distinct[s]! <= MAX_CATEGORIES;
    // Words of more values than a state's that each several records share (a project's
    // category, 130 of them over 511 projects) divide the records too: by their commonest.
    const manyWords =
      c === CLASS_WORD &&
      distinct[s]! > MAX_CATEGORIES &&
      values[s]! >= SHARED_WORD_RECORDS * distinct[s]!;
    if (counted || manyWords || (few && c !== CLASS_OPAQUE && (c !== CLASS_PROSE || fewTexts))) {
      categorical.push({
        s,
        rank:
          stateRank(distinct[s]!, depth, presence[s]!, analysis.top[s]!, hint, idHint) +
          (c === CLASS_LOCATOR ? LOCATOR_RANK : c === CLASS_INTEGER ? CODES_TIE : 0),
      });
    } else if (
      (c === CLASS_INTEGER || c === CLASS_NUMERIC) &&
      inventory.kind[signatures.first[s]!] !== NODE_STRING &&
      !(c === CLASS_INTEGER && hints.identity > 0)
    ) {
      // Numbers written as numbers (not a colour `080808` or an address), and not ids: the
      // range of `id` says nothing.
      // Numbers: a string of digits and dots (an address, a version) has no range.
      numeric.push(s);
    }
  }
  // Fields of the items of a list each record holds, told apart by the key that names each
  // item (`conditions[type=Ready].status`): numbered past the document's signatures.
  const keyedFields = new Map<number, { field: string; present: number; alike: string[] }>();
  for (const keyed of keyedItems.counts) {
    const s = signatures.count + keyedFields.size;
    lists.set(s, keyed.counts);
    const named = keyed.names.findIndex((name) => words.includes(name.toLowerCase()));
    // The field the question names leads the ones told with it.
    const fields = [keyed.field, ...keyed.alike];
    if (named >= 0) asked.add(s);
    const [lead] = fields.splice(Math.max(0, named), 1);
    keyedFields.set(s, { field: lead!, present: keyed.present, alike: fields });
    const hint = keyHints(signatureKey(inventory, signatures, keyed.sig), analysis.vocabulary);
    categorical.push({
      s,
      rank:
        stateRank(
          keyed.counts.length,
          keyed.keys,
          keyed.present,
          keyed.counts[0]!.count,
          hint.state,
          false,
        ) + KEYED_RANK,
    });
  }
  const presentIn = (s: number) => keyedFields.get(s)?.present ?? presence[s]!;
  categorical.sort((a, b) => a.rank - b.rank || a.s - b.s);
  // A field that divides the records as one ranked before it does comes after the others
  // (looked for among the first few only: those are the ones the note has room for); one that
  // holds the same value in every record is told with it (`by A, B: …`), unless asked.
  const distinctive: typeof categorical = [];
  const echoes: typeof categorical = [];
  const alike = new Map<number, number[]>();
  categorical.forEach((field, i) => {
    const checked = i < ECHO_CHECKS && distinctive.length < MAX_DISTRIBUTIONS;
    const twin =
      checked && !asked.has(field.s) && !lists.has(field.s)
        ? [...distinctive, ...echoes].find(
            (told) =>
              !asked.has(told.s) &&
              !lists.has(told.s) &&
              (alike.get(told.s)?.length ?? 0) < MAX_ALIKE &&
              sameValues(inventory, analysis, told.s, field.s),
          )
        : undefined;
    if (twin) {
      const twins = alike.get(twin.s);
      if (twins) twins.push(field.s);
      else alike.set(twin.s, [field.s]);
    } else {
      const echo =
        checked &&
        !keyedFields.has(field.s) &&
        distinctive.some(
          (told) => !keyedFields.has(told.s) && samePartition(analysis, told.s, field.s),
        );
      (echo ? echoes : distinctive).push(field);
    }
  });
  categorical.splice(0, categorical.length, ...distinctive, ...echoes);
  constants.sort((a, b) => a.rank - b.rank || a.s - b.s);
  // A field every record holds alike that copies another under a longer key (a search engine's
  // `cloud.account.name.text` beside `cloud.account.name`) is told after every other field (two
  // fields that merely agree, `lastStatus` and `desiredStatus`, are not copies).
  // (Looked for among the first few: those are the ones the note has room for.)
  const firstFew = constants.slice(0, ECHO_CHECKS).map((constant) => ({
    constant,
    key: signatureKey(inventory, signatures, constant.s),
    value: scalarValue(inventory, signatures.first[constant.s]!),
  }));
  const copies = firstFew
    .filter((field) =>
      firstFew.some(
        (other) =>
          other !== field && field.key.startsWith(`${other.key}.`) && field.value === other.value,
      ),
    )
    .map((field) => field.constant);
  if (copies.length > 0) {
    const firsts = constants.filter((constant) => !copies.includes(constant));
    constants.splice(0, constants.length, ...firsts, ...copies);
  }
  nearlyConstant.sort((a, b) => a.rank - b.rank || a.s - b.s);
  times.sort((a, b) => fieldDepth[a]! - fieldDepth[b]! || a - b);
  // The time the records are ordered by (`recordOrder`) is the one whose range is told first.
  const order = orderTime(inventory, analysis, group).s;
  if (times.includes(order))
    times.splice(0, times.length, order, ...times.filter((t) => t !== order));
  numeric.sort((a, b) => fieldDepth[a]! - fieldDepth[b]! || a - b);

  const statements: AggregateStatement[] = [];
  const said = new Set<number>();
  // A field is told once, marked where the question asks for it.
  const say = (s: number, statement: AggregateStatement | undefined) => {
    said.add(s);
    if (statement) statements.push({ ...statement, ...(asked.has(s) && { asked: true }) });
  };
  const distribution = (s: number, limit: number) => {
    const told = distributionOf(
      inventory,
      analysis,
      group,
      s,
      limit,
      lists.get(s),
      keyedFields.get(s)?.field,
    );
    // One that can tell none of its values (all too long: region URLs) tells only how many.
    if (told.values.length === 0 && !asked.has(s)) return;
    const twins = alike.get(s);
    if (twins) told.alike = twins.map((t) => fieldPath(inventory, analysis, t, group.sig));
    const keyedTwins = keyedFields.get(s)?.alike ?? [];
    if (keyedTwins.length > 0) told.alike = keyedTwins.slice(0, MAX_ALIKE);
    say(s, { kind: 'distribution', distribution: told });
  };
  const range = (s: number, time: boolean) => {
    const found = rangeOf(inventory, analysis, group, s, time);
    say(s, found && { kind: 'range', range: found });
  };
  for (const { s } of categorical) if (asked.has(s)) distribution(s, TOLD_VALUES_ASKED);
  const constant = (s: number) => {
    const field = fieldPath(inventory, analysis, s, group.sig);
    say(s, { kind: 'constant', field, value: scalarValue(inventory, signatures.first[s]!) });
  };
  // Asked how many records hold each value of a field every record holds alike: all of them.
  for (const { s } of constants) if (asked.has(s)) constant(s);
  for (const s of times) if (asked.has(s)) range(s, true);
  for (const s of numeric) if (asked.has(s)) range(s, false);
  // The states every record shares first (`status.phase=Running`, `lastStatus=RUNNING`: cheap,
  // and what a reader asks first), then how the records divide by their states (at most two
  // before anything else), then the time they span, the other divisions, and what else every
  // record holds alike (how records differ tells more than one more thing they share).
  for (const { s, rank } of constants.slice(0, LEADING_CONSTANTS)) {
    if (rank < CONSTANT_STATE_RANK && !said.has(s)) constant(s);
  }
  // A field most records lack divides a few of them (a setting of one resource type among
  // many): what every record holds alike comes first.
  const told = categorical.slice(0, MAX_DISTRIBUTIONS);
  const common = told.filter(({ s }) => 2 * presentIn(s) >= records);
  let leading = 0;
  for (const { s } of common) {
    if (leading === 2) break;
    if (!said.has(s)) distribution(s, TOLD_VALUES);
    leading++;
  }
  if (times.length > 0 && !said.has(times[0]!)) range(times[0]!, true);
  // Records with no time of their own may hold one in a keyed item (`metadata[key=timestamp]`).
  const keyedTime = keyedItems.times[0];
  if (times.length === 0 && keyedTime) statements.push({ kind: 'range', range: keyedTime });
  for (const { s } of common) if (!said.has(s)) distribution(s, TOLD_VALUES);
  // An address every record holds alike (the one author's three profile URLs) is told last.
  const shared = constants.slice(0, MAX_CONSTANTS);
  for (const { s } of shared) if (!said.has(s) && classOf[s] !== CLASS_LOCATOR) constant(s);
  for (const { s } of told) if (!said.has(s)) distribution(s, TOLD_VALUES);
  let ranges = 0;
  for (const s of [...numeric, ...times]) {
    if (ranges === MAX_RANGES) break;
    if (said.has(s)) continue;
    range(s, classOf[s] === CLASS_TIME);
    ranges++;
  }
  // A value most records hold alike, last: one per object (the 73 retweets' fields say one
  // thing, that 73 records are retweets), never a null.
  const parents = new Set<number>();
  for (const { s } of nearlyConstant) {
    const parent = signatures.parent[s]!;
    if (parents.size === MAX_CONSTANTS || parents.has(parent) || classOf[s] === CLASS_LOCATOR) {
      continue;
    }
    if (scalarText(inventory, signatures.first[s]!) === 'null') continue;
    parents.add(parent);
    distribution(s, 1);
  }
  for (const { s } of shared) if (!said.has(s)) constant(s);
  return statements;
}
