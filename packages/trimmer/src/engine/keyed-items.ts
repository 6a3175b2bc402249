import type { RecordRange } from '@compaction/core';
import {
  type JsonInventory,
  NODE_ARRAY,
  NODE_OBJECT,
  NODE_SCALAR,
  NODE_STRING,
} from '../json/json-inventory.js';
import { STEP_ITEM, STEP_KEY } from '../json/json-signatures.js';
import { signaturePath } from '../json/signature-path.js';
import { type RecordGroup, recordField, scalarValue } from '../readers/json-records.js';
import type { RecordAnalysis } from './analyze-records.js';
import { CLASS_INTEGER, CLASS_LITERAL, CLASS_WORD, valueClass } from './column-roles.js';
import { isIsoTime } from './is-iso-time.js';

/**
 * A field of the one item of each record's list that a key names: `status.conditions[type=
 * Ready].status`, `labels[key=subsystemname].value`, with how many records hold each value.
 */
export interface KeyedCounts {
  /** Its path from the record, the item picked by its key's value (`[type=Ready]`). */
  field: string;
  /** Values, commonest first (then first seen), with the records holding each. */
  counts: Array<{ value: string; count: number }>;
  /** Records that hold it. */
  present: number;
  /** Keys between the record and the value, the key that picks the item counted. */
  keys: number;
  /** Signature of the value (its key's hints are the field's). */
  sig: number;
  /** Fields of the same list that hold its value in every record (told with it: `by A, B:`). */
  alike: string[];
  /** The names that pick its item and its alike fields' items (`Ready`, `ContainersReady`). */
  names: string[];
  /** Signatures of the list and of the key that names its items. */
  list: number;
  nameSig: number;
}

/**
 * The fields of the item of one name that a question asks for in every record ("what is the
 * ready status of each pod?": the `status` of the condition whose `type` is `Ready`).
 */
export interface AskedItem {
  /** Signatures of the list and of the key that names its items. */
  list: number;
  nameSig: number;
  /** The name asked for, as the items hold it. */
  value: string;
  /** Signatures of the fields asked for (their statements' fields). */
  fields: number[];
}

/**
 * The named items a question's words name (a word that is an item's name, whole and
 * case-blind), with the fields the note tells of them: shown for every record.
 */
export function askedItems(
  inventory: JsonInventory,
  analysis: RecordAnalysis,
  group: RecordGroup,
  words: readonly string[],
  limit: number,
): AskedItem[] {
  if (words.length === 0) return [];
  const asked: AskedItem[] = [];
  for (const keyed of keyedItemCounts(inventory, analysis, group, limit).counts) {
    for (const value of keyed.names) {
      if (!words.includes(value.toLowerCase())) continue;
      const same = asked.find((item) => item.list === keyed.list && item.value === value);
      if (same) {
        if (!same.fields.includes(keyed.sig)) same.fields.push(keyed.sig);
      } else asked.push({ list: keyed.list, nameSig: keyed.nameSig, value, fields: [keyed.sig] });
    }
  }
  return asked;
}

/**
 * The nodes record `r` shows for `item`: the name of its item of that name and the fields
 * asked of it (a key or two below the item); none where it holds no such item.
 */
export function askedItemNodes(
  inventory: JsonInventory,
  analysis: RecordAnalysis,
  r: number,
  item: AskedItem,
): number[] {
  const { next } = inventory;
  const { of, parent } = analysis.signatures;
  const list = recordField(inventory, analysis, r, item.list);
  if (list < 0) return [];
  const childOf = (u: number, s: number) => {
    for (let c = u + 1; c < next[u]!; c = next[c]!) if (of[c] === s) return c;
    return -1;
  };
  for (let c = list + 1; c < next[list]!; c = next[c]!) {
    const name = childOf(c, item.nameSig);
    if (name < 0 || scalarValue(inventory, name) !== item.value) continue;
    const nodes = [name];
    for (const f of item.fields) {
      const holder = parent[f] === of[c] ? c : childOf(c, parent[f]!);
      const u = holder < 0 ? -1 : childOf(holder, f);
      if (u >= 0) nodes.push(u);
    }
    return nodes;
  }
  return [];
}

/** Keys a list of keyed items may sit below its record. */
const LIST_KEYS = 3;
/** A field of a keyed item is at most this many keys below it (`value.stringValue`). */
const VALUE_KEYS = 2;
/** A list of keyed items holds at least this many on average (one item is a detail, not pairs). */
const MIN_ITEMS = 2;
/** And at most this many: beyond, its keys are data, not names. */
const MAX_ITEMS = 64;
/** Values of the key that names the items, at most. */
const MAX_KEYS = 24;
/** What the values of a state look like: words, codes, flags. */
const STATE_CLASSES = new Set([CLASS_WORD, CLASS_INTEGER, CLASS_LITERAL]);
/** Keys tried as the one that names the items, at most. */
const NAME_TRIES = 3;
/** Fields of one item told apart, at most. */
const MAX_VALUES = 8;
/** A key value or key told in a path reads back as one step: no space, separator or bracket. */
const PLAIN_STEP = /^[^\s\u0000-\u001f\u007f=[\]";,]{1,48}$/;

/** Whether `s` is the signature of records each record above holds one of (`oneEach`). */
function oneEach(analysis: RecordAnalysis, s: number): boolean {
  const g = analysis.groupOfSig[s]!;
  return g >= 0 && analysis.groups[g]!.oneEach;
}

/**
 * For each list inside every record of `group` whose items each name themselves by one key (a
 * pod's conditions by `type`, a log record's labels by `key`, tags by `Key`): every scalar
 * field of those items, a key or two below each, told apart by that name, as if each name were
 * a field of the record (`conditions[type=Ready].status`). The naming key is found by what it
 * holds, not by what it is called: a string every item holds, different in each item of one
 * list, of a few values that recur over the records (of several such, the one of fewest values).
 * Only fields that a named item holds in at least half the records and that divide them into
 * at most `limit` values, each of several records, are told. Linear in the lists' nodes.
 */
export function keyedItemCounts(
  inventory: JsonInventory,
  analysis: RecordAnalysis,
  group: RecordGroup,
  limit: number,
): KeyedItems {
  // Read once per list and limit: a question's items and the note both ask for them.
  const read = READ.get(group);
  if (read?.limit === limit) return read.items;
  const items = readKeyedItems(inventory, analysis, group, limit);
  READ.set(group, { limit, items });
  return items;
}

/** What `keyedItemCounts` finds; shared by its callers, who must not change it. */
interface KeyedItems {
  readonly counts: readonly KeyedCounts[];
  readonly times: readonly RecordRange[];
  readonly keyed: ReadonlySet<number>;
}

const READ = new WeakMap<RecordGroup, { limit: number; items: KeyedItems }>();

function readKeyedItems(
  inventory: JsonInventory,
  analysis: RecordAnalysis,
  group: RecordGroup,
  limit: number,
): KeyedItems {
  const { signatures, distinct } = analysis;
  const { kind } = inventory;
  const { parent, step, first, nodes, objects, count } = signatures;
  const records = group.records.length;
  const found: KeyedCounts[] = [];
  const times: RecordRange[] = [];
  /** The fields of the items a key names (told by name, not joined over the items). */
  const keyed = new Set<number>();
  if (records < 2 * MIN_ITEMS) return { counts: found, times, keyed };
  // Items of a list held a few keys below each record, objects all.
  const items: number[] = [];
  const itemOf = new Int32Array(count).fill(-1);
  /** Keys from the item down to each of its fields (1, 2), 0 elsewhere. */
  const below = new Uint8Array(count);
  const fieldsOf: number[][] = [];
  for (let p = group.sig + 1; p < count; p++) {
    const up = parent[p]!;
    if (step[p] === STEP_KEY && itemOf[up]! >= 0 && below[up]! < VALUE_KEYS) {
      itemOf[p] = itemOf[up]!;
      below[p] = below[up]! + 1;
      const u = first[p]!;
      if (kind[u] === NODE_STRING || kind[u] === NODE_SCALAR) fieldsOf[itemOf[p]!]!.push(p);
      continue;
    }
    if (step[p] !== STEP_ITEM || objects[p] !== nodes[p] || kind[first[up]!] !== NODE_ARRAY) {
      continue;
    }
    if (nodes[p]! < MIN_ITEMS * nodes[up]! || nodes[p]! > MAX_ITEMS * records) continue;
    // Keys between the record and the list, through the only item of a list each record
    // holds (an EC2 reservation's one instance: `Instances[].Tags`).
    let keys = 0;
    let t = up;
    for (; t > group.sig; t = parent[t]!) {
      if (step[t] === STEP_KEY) keys++;
      else if (step[t] !== STEP_ITEM || !oneEach(analysis, t)) break;
    }
    if (t !== group.sig || keys > LIST_KEYS) continue;
    itemOf[p] = items.length;
    items.push(p);
    fieldsOf.push([]);
  }
  items.forEach((p, i) => {
    const fields = fieldsOf[i]!;
    // The key that names the items: held by each, a string, of a few values but at least as
    // many as a list holds items on average; of several, the first of fewest values that
    // names no two items of one list alike.
    const names = fields
      .filter(
        (f) =>
          below[f] === 1 &&
          nodes[f] === nodes[p] &&
          kind[first[f]!] === NODE_STRING &&
          distinct[f]! <= MAX_KEYS &&
          distinct[f]! * nodes[parent[p]!]! >= nodes[p]!,
      )
      .sort((a, b) => distinct[a]! - distinct[b]! || a - b)
      .slice(0, NAME_TRIES);
    let counted: Keyed[] | undefined;
    let name = -1;
    for (const f of names) {
      const told = fields.filter((g) => g !== f && distinct[g]! >= 2).slice(0, MAX_VALUES);
      if (told.length === 0 || !PLAIN_STEP.test(signaturePath(inventory, analysis, f, p))) continue;
      counted = countKeyed(inventory, analysis, group, p, f, told, limit);
      if (counted) {
        name = f;
        break;
      }
    }
    if (!counted) return;
    for (const f of fields) keyed.add(f);
    const nameKey = signaturePath(inventory, analysis, name, p);
    const listPath = signaturePath(inventory, analysis, parent[p]!, group.sig);
    let listKeys = 0;
    for (let t = parent[p]!; t > group.sig; t = parent[t]!) if (step[t] === STEP_KEY) listKeys++;
    const told = new Map<string, KeyedCounts>();
    for (const { key, f, present, time, counts, nodes: values, sequence } of counted) {
      if (!PLAIN_STEP.test(key) || 2 * present < records) continue;
      const field = `${listPath}[${nameKey}=${key}].${signaturePath(inventory, analysis, f, p)}`;
      if (time) {
        times.push({ field, ...time });
        continue;
      }
      if (!counts || !values || sequence === undefined) continue;
      const top = counts[0]!.count;
      if (counts.length < 2 || counts.length > limit || 2 * counts.length > present || top < 2) {
        continue;
      }
      // States: words, codes, flags; not times, addresses, ids or texts.
      if (!values.every((u) => STATE_CLASSES.has(valueClass(inventory, u)))) continue;
      // Two fields that hold the same value in every record (a pod's `Ready` and
      // `ContainersReady`) are one statement.
      const twin = told.get(sequence);
      if (twin) {
        twin.alike.push(field);
        twin.names.push(key);
        continue;
      }
      const keyed: KeyedCounts = {
        field,
        counts,
        present,
        keys: listKeys + below[f]!,
        sig: f,
        alike: [],
        names: [key],
        list: parent[p]!,
        nameSig: name,
      };
      told.set(sequence, keyed);
      found.push(keyed);
    }
  });
  return { counts: found, times, keyed };
}

/** A field of the items of one name, as `countKeyed` reads it. */
interface Keyed {
  /** The name (the naming key's value). */
  key: string;
  /** The field's signature. */
  f: number;
  /** Records holding it. */
  present: number;
  /** Where every value is an ISO 8601 time: the first and the last. */
  time?: { from: string; to: string };
  /** Otherwise, at most `limit` values: each with its records, commonest first. */
  counts?: Array<{ value: string; count: number }>;
  /** The first node of each value. */
  nodes?: number[];
  /** What tells two fields that hold the same value in every record alike. */
  sequence?: string;
}

/**
 * Per name of the items of `p` (the values of `name`) and field of `fields`: how many records
 * hold each value in their item of that name (for at most `limit` values), or the range of
 * its times; `undefined` where one list names two items alike (the key names nothing then) or
 * the items hold more names than `MAX_KEYS`.
 */
function countKeyed(
  inventory: JsonInventory,
  analysis: RecordAnalysis,
  group: RecordGroup,
  p: number,
  name: number,
  fields: readonly number[],
  limit: number,
): Keyed[] | undefined {
  const { next, kind } = inventory;
  const { of, nextSame, first } = analysis.signatures;
  const column = new Map<number, number>(fields.map((f, j) => [f, j]));
  const names = new Map<string, number>();
  const lastRecord: number[] = [];
  /** Per name and field: each value's records and first node. */
  const tallies: Array<Map<string, { count: number; first: number }>> = [];
  /** Per tally: two hashes of the records' values in order. */
  const hashes: number[] = [];
  const records = group.records;
  /** Counts node `c`'s value, where it is one of `fields`, for the item named `k` of record `r`. */
  const tally = (c: number, k: number, r: number) => {
    const j = column.get(of[c]!);
    if (j === undefined) return;
    const t = k * fields.length + j;
    const values = tallies[t]!;
    const value = scalarValue(inventory, c);
    const seen = values.get(value);
    if (seen) seen.count++;
    else values.set(value, { count: 1, first: c });
    let h1 = Math.imul(hashes[2 * t]! ^ r, 0x01000193);
    let h2 = Math.imul(hashes[2 * t + 1]! + r, 0x5bd1e995);
    for (let i = 0; i < value.length; i++) {
      h1 = Math.imul(h1 ^ value.charCodeAt(i), 0x01000193);
      h2 = Math.imul(h2 + value.charCodeAt(i), 0x5bd1e995) ^ (h2 >>> 13);
    }
    hashes[2 * t] = h1;
    hashes[2 * t + 1] = h2;
  };
  let r = 0;
  for (let u = first[p]!; u >= 0; u = nextSame[u]!) {
    while (r < records.length && next[records[r]!]! <= u) r++;
    if (r === records.length) break;
    if (records[r]! > u) continue;
    let k = -1;
    for (let c = u + 1; c < next[u]!; c = next[c]!) {
      if (of[c] !== name) continue;
      const key = scalarValue(inventory, c);
      k = names.get(key) ?? -1;
      if (k < 0) {
        if (names.size === MAX_KEYS) return undefined;
        k = names.size;
        names.set(key, k);
        lastRecord.push(-1);
        for (let j = 0; j < fields.length; j++) {
          tallies.push(new Map());
          hashes.push(0, 0);
        }
      }
      break;
    }
    if (k < 0) continue;
    if (lastRecord[k] === r) return undefined;
    lastRecord[k] = r;
    // The fields are a key or two below the item: its members, and theirs where objects.
    for (let c = u + 1; c < next[u]!; c = next[c]!) {
      tally(c, k, r);
      if (kind[c] !== NODE_OBJECT) continue;
      for (let d = c + 1; d < next[c]!; d = next[d]!) tally(d, k, r);
    }
  }
  const counted: Keyed[] = [];
  for (const [key, k] of names) {
    fields.forEach((f, j) => {
      const t = k * fields.length + j;
      const tally = tallies[t]!;
      if (tally.size === 0) return;
      let present = 0;
      let iso = true;
      for (const [value, { count }] of tally) {
        present += count;
        if (iso && !isIsoTime(value)) iso = false;
      }
      // ISO 8601 times (their text order is their time order): their range.
      if (iso) {
        let from = '';
        let to = '';
        for (const value of tally.keys()) {
          if (from === '' || value < from) from = value;
          if (value > to) to = value;
        }
        counted.push({ key, f, present, time: { from, to } });
        return;
      }
      if (tally.size > limit) return;
      const counts = [...tally].map(([value, { count }]) => ({ value, count }));
      counts.sort((a, b) => b.count - a.count);
      const nodes = [...tally.values()].map((entry) => entry.first);
      // The same values in the same records (but for a chance of 2^-64): the same sequence.
      const sequence = `${present} ${hashes[2 * t]} ${hashes[2 * t + 1]} ${JSON.stringify(counts)}`;
      counted.push({ key, f, present, counts, nodes, sequence });
    });
  }
  return counted;
}
