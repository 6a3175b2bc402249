import type { JsonTapeValueOptions } from '@compaction/core';
import { TEXT_HASH_UNITS, textHash } from '@compaction/core/internal';
import { isIsoTime } from '../engine/is-iso-time.js';
import type { StopCheck } from '../engine/stop-check.js';
import { compareText } from '../json/compare-text.js';
import {
  type JsonInventory,
  NODE_ARRAY,
  NODE_OBJECT,
  NODE_SCALAR,
  NODE_STRING,
  widen,
} from '../json/json-inventory.js';
import { type JsonSignatures, STEP_ITEM } from '../json/json-signatures.js';
import { sameText } from '../json/same-text.js';
import { ScratchArray } from '../json/scratch-array.js';

/** A list of records: the objects that share one signature under arrays or maps. */
export interface RecordGroup {
  /** The signature its records share. */
  sig: number;
  /** Its record nodes, in document order. */
  records: number[];
  /** Its records are the members of maps, each named by its key. */
  keyed: boolean;
  /**
   * Signature of the field that names each record (short, unique, present in almost all), or
   * for keyed records the short field shown beside the key; -1 when none.
   */
  identity: number;
  /**
   * A second short field that names each record another way (an `id` beside a `name`), shown
   * right after every record's identity; -1 when none.
   */
  alsoIdentity: number;
  /** `identity` names each record only together with `alsoIdentity` (a span's `id` and `kind`). */
  identityTogether: boolean;
  /**
   * The records have a name of their own: a field (or two together) that tells them apart and
   * reads as a name, not a number unique by chance (a list of four responses by `took`).
   */
  named: boolean;
  /** Signatures of the fields that tell each record's state (few values, varying), best first. */
  states: number[];
  /**
   * Signature of the field that says what each record is about: one that reads as prose (a
   * tweet's `text`, an event's `message`, a commit's `commit.message`), a key or two below the
   * record, the shallowest, then the one with the most information per byte; where none does
   * and no readable field names the records, one whose parts hold their texts (a message's
   * list of blocks: `recordSays` reads its first); -1 when none.
   */
  says: number;
  /**
   * Where `identity` reads as nothing (a journal entry's number, a UUID) and no word names the
   * records beside it: `says`, to name each record with its identity (a long text by its
   * start) where a view cannot name them all by the identity alone (`labelWhereFew`); -1
   * otherwise.
   */
  label: number;
  /** One of the document's lists, not a detail inside another list's records. */
  primary: boolean;
  /** Index of the group whose records hold this group's lists, -1 when none. */
  above: number;
  /**
   * Each record of the group above holds exactly one of these records, the only item of its
   * list (an EC2 reservation's one instance): their fields are that record's own.
   */
  oneEach: boolean;
  /** UTF-8 bytes of its records. */
  bytes: number;
}

/**
 * Values up to this many UTF-16 units, all of which their hash in the inventory reads, are told
 * apart by it (but for chance); longer ones by their length and text too.
 */
export const HASHED_VALUE = TEXT_HASH_UNITS;
/** The hashes of the three literals (`textHash`). */
const HASH_TRUE = textHash('true', 0, 4);
const HASH_FALSE = textHash('false', 0, 5);
const HASH_NULL = textHash('null', 0, 4);

/** Prefixes compared for redundancy with the previous value of the same field. */
const NOVELTY_PREFIX = 48;
/** Values of each field compared for redundancy. */
const NOVELTY_SAMPLES = 16;

/** Digits of the longest number read as a quantity: longer ones are ids. */
export const NUMBER_MAX_DIGITS = 15;
/** The longest number token read as a quantity, sign included. */
const NUMBER_MAX_UNITS = NUMBER_MAX_DIGITS + 1;

/**
 * Whether scalar `u` (its text from `from` to `to`) is a number read as a quantity: a literal is
 * told by its hash and a number too long to be a quantity by its length, without reading the
 * text (a cache miss for each).
 */
function isQuantity(inventory: JsonInventory, u: number, from: number, to: number): boolean {
  const hash = inventory.valueHash[u]!;
  if (to - from > NUMBER_MAX_UNITS || hash === HASH_TRUE || hash === HASH_FALSE) return false;
  return hash !== HASH_NULL && Number.isFinite(numberAt(inventory.text, from, to));
}

/** The number a JSON number token stands for, or NaN past 15 digits (ids, not quantities). */
export function numberAt(text: string, from: number, to: number): number {
  let i = from;
  let negative = false;
  if (text.charCodeAt(i) === 0x2d) {
    negative = true;
    i++;
  }
  if (to - i > NUMBER_MAX_DIGITS) return Number.NaN;
  let value = 0;
  for (; i < to; i++) {
    const d = text.charCodeAt(i) - 0x30;
    if (d < 0 || d > 9) return Number(text.slice(from, to));
    value = value * 10 + d;
  }
  return negative ? -value : value;
}

// The working columns of `columns` that it does not return.
const spareBelow = new ScratchArray((length) => new Int32Array(length));
const spareTable = new ScratchArray((length) => new Int32Array(length));
const spareHashes = new ScratchArray((length) => new Int32Array(length));
const spareFirsts = new ScratchArray((length) => new Int32Array(length));

/** What one pass over the nodes inside records gathers, per signature. */
export interface Columns {
  groups: RecordGroup[];
  groupOfSig: Int32Array;
  recordAbove: Int32Array;
  presence: Int32Array;
  values: Int32Array;
  distinct: Int32Array;
  /** Values longer than `HASHED_VALUE` units (a message, a URL). */
  unhashed: Int32Array;
  top: Int32Array;
  topEmpty: Uint8Array;
  entropy: Float64Array;
  valueBytes: Float64Array;
  novelBytes: Float64Array;
  sampledBytes: Float64Array;
  /** Values that are numbers (of at most `NUMBER_MAX_DIGITS` digits). */
  numbers: Int32Array;
  /**
   * 1 where every node inside a record (a container too) is a string written as an ISO 8601
   * time (`isIsoTime`), each as text at or after the one before it (`compareText`): in time
   * order.
   */
  isoInOrder: Uint8Array;
  /** Per node: its value's entry (-1 for containers and nodes outside records). */
  entryOf: Int32Array;
  /** Per value entry: its signature. */
  entrySig: Int32Array;
  /** Per value entry: the nodes holding it. */
  entryCount: Int32Array;
  /** Value entries in all. */
  entries: number;
}

/**
 * The records of a document and the statistics of their fields, in one pass: the record above
 * each node (the nearest object that is an array item or map member), and per signature the
 * records holding it, its values (told apart by their hash, and past `HASHED_VALUE` units by their
 * text too: 98 events of 200 that say one long message say one value), the commonest
 * one, entropy, bytes, redundancy with the value before, how many are numbers, whether they are
 * ISO 8601 times in time order. Over an inventory borrowed
 * from a lent tape, the pass over the nodes runs in WebAssembly (`valuesFromTape`), to the same
 * columns (a test compares the two: the export is for it).
 */
export function recordColumns(
  inventory: JsonInventory,
  signatures: JsonSignatures,
  check: StopCheck | undefined,
): Columns {
  const {
    text,
    count,
    kind,
    parent,
    next,
    start,
    end,
    valueHash,
    unitBytes: nodeBytes,
  } = inventory;
  const sigOf = signatures.of;
  const sigCount = signatures.count;
  const { step, nodes: sigNodes, objects: sigObjects } = signatures;
  // Record signatures: array items or map members, mostly objects, at least two of them.
  const groupOfSig = new Int32Array(sigCount).fill(-1);
  const groups: RecordGroup[] = [];
  for (let s = 1; s < sigCount; s++) {
    if (step[s] !== STEP_ITEM || sigObjects[s]! < 2 || sigObjects[s]! < 0.8 * sigNodes[s]!)
      continue;
    groupOfSig[s] = groups.length;
    groups.push({
      sig: s,
      records: [],
      keyed: kind[parent[signatures.first[s]!]!] === NODE_OBJECT,
      identity: -1,
      alsoIdentity: -1,
      identityTogether: false,
      named: false,
      states: [],
      says: -1,
      label: -1,
      primary: false,
      above: -1,
      oneEach: false,
      bytes: 0,
    });
  }
  const fromTape = inventory.tapeReader
    ? valuesFromTape(inventory, signatures, groups, groupOfSig, check)
    : undefined;
  if (fromTape) return fromTape;
  // Every node's is written below, but the root's.
  const recordAbove = new Int32Array(count);
  const presence = new Int32Array(sigCount);
  const lastRecord = new Int32Array(sigCount).fill(-1);
  const lastValue = new Int32Array(sigCount).fill(-1);
  const values = new Int32Array(sigCount);
  const distinct = new Int32Array(sigCount);
  const unhashed = new Int32Array(sigCount);
  const valueBytes = new Float64Array(sigCount);
  const novelBytes = new Float64Array(sigCount);
  const sampledBytes = new Float64Array(sigCount);
  const numbers = new Int32Array(sigCount);
  const isoInOrder = new Uint8Array(sigCount).fill(1);
  const lastCompared = new Int32Array(sigCount).fill(-1);
  const entryOf = new Int32Array(count).fill(-1);
  // Values seen, told apart by an open-addressing table of (entry + 1, hash) pairs, so a probe
  // reads one place; sized for a value per four nodes, so most documents never rehash.
  let capacity = 1024;
  while (capacity < 1 << 20 && capacity * 4 < count) capacity *= 2;
  let table = spareTable.take(capacity * 4).fill(0, 0, capacity * 4);
  let mask = capacity * 2 - 1;
  let entrySig = new Int32Array(capacity);
  // Written for each entry as it is made, read only for those.
  let entryHash = spareHashes.take(capacity);
  let entryCount = new Int32Array(capacity);
  let entryFirst = spareFirsts.take(capacity);
  let entries = 0;
  // Per container: the record its children are in (itself, for a record), so that a node
  // finds its own with one read.
  const recordBelow = spareBelow.take(count);
  if (count > 0) {
    recordAbove[0] = -1;
    recordBelow[0] = -1;
  }
  for (let u = 1; u < count; u++) {
    if ((u & 8191) === 0 && check) check(8192);
    const record = recordBelow[parent[u]!]!;
    recordAbove[u] = record;
    const s = sigOf[u]!;
    const k = kind[u]!;
    if (k === NODE_OBJECT) {
      const g = groupOfSig[s]!;
      if (g >= 0) {
        const group = groups[g]!;
        group.records.push(u);
        group.bytes += nodeBytes[u]!;
        recordBelow[u] = u;
      } else recordBelow[u] = record;
    } else if (k === NODE_ARRAY) recordBelow[u] = record;
    if (record < 0) continue;
    if (lastRecord[s] !== record) {
      lastRecord[s] = record;
      presence[s]!++;
    }
    if (next[u] !== u + 1) {
      // A container is no leaf: nor an ISO 8601 time.
      isoInOrder[s] = 0;
      continue;
    }
    let from = start[u]!;
    let to = end[u]!;
    if (k === NODE_STRING) {
      from++;
      to--;
    }
    const length = to - from;
    const seen = ++values[s]!;
    valueBytes[s]! += length;
    {
      // A value too long for its hash to read all of it (a link with an id in its middle): its
      // entry's hash is of all its text (FNV-1a) and its length, and its text is compared with
      // that of the entry's first value, a few times at most (past them, a value is new).
      let vh = valueHash[u]!;
      if (length > HASHED_VALUE) {
        unhashed[s]!++;
        vh = 0x811c9dc5;
        for (let i = from; i < to; i++) vh = Math.imul(vh ^ text.charCodeAt(i), 0x01000193);
        vh ^= Math.imul(length, 0x27d4eb2f);
      }
      let h = Math.imul(vh ^ Math.imul(s + 1, 0x9e3779b1), 0x85ebca6b);
      h = (h ^ (h >>> 15) ^ k) | 0;
      let slot = h & mask;
      let entry = -1;
      let tries = 0;
      for (let e = table[slot << 1]!; e !== 0; e = table[slot << 1]!) {
        if (table[(slot << 1) + 1] === h && entrySig[e - 1] === s && tries < LONG_COMPARES) {
          if (length > HASHED_VALUE) tries++;
          if (length <= HASHED_VALUE || sameValueText(inventory, from, to, entryFirst[e - 1]!)) {
            entry = e - 1;
            break;
          }
        }
        slot = (slot + 1) & mask;
      }
      if (entry < 0) {
        if (entries >= capacity) {
          capacity *= 2;
          entrySig = widen(entrySig, capacity, entries);
          entryHash = widen(entryHash, capacity, entries);
          entryCount = widen(entryCount, capacity, entries);
          entryFirst = widen(entryFirst, capacity, entries);
          table = new Int32Array(capacity * 4);
          mask = capacity * 2 - 1;
          for (let e = 0; e < entries; e++) {
            let at = entryHash[e]! & mask;
            while (table[at << 1] !== 0) at = (at + 1) & mask;
            table[at << 1] = e + 1;
            table[(at << 1) + 1] = entryHash[e]!;
          }
          slot = h & mask;
          while (table[slot << 1] !== 0) slot = (slot + 1) & mask;
        }
        entry = entries++;
        entrySig[entry] = s;
        entryHash[entry] = h;
        entryFirst[entry] = u;
        table[slot << 1] = entry + 1;
        table[(slot << 1) + 1] = h;
        distinct[s]!++;
      }
      entryCount[entry]!++;
      entryOf[u] = entry;
    }
    if (seen <= NOVELTY_SAMPLES) {
      // How much of each value is new next to the previous one (a URL that repeats the
      // record's id is mostly not), on the first few values of each field.
      const previous = lastValue[s]!;
      let common = 0;
      if (previous >= 0) {
        const pFrom = kind[previous] === NODE_STRING ? start[previous]! + 1 : start[previous]!;
        const stop = Math.min(length, NOVELTY_PREFIX, end[previous]! - pFrom);
        // The same value again (a hash that reads all of both, and one length) is all repeated.
        if (
          length <= HASHED_VALUE &&
          valueHash[u] === valueHash[previous] &&
          end[previous]! - (kind[previous] === NODE_STRING ? 1 : 0) - pFrom === length
        ) {
          common = stop;
        }
        while (
          common < stop &&
          text.charCodeAt(from + common) === text.charCodeAt(pFrom + common)
        ) {
          common++;
        }
      }
      novelBytes[s]! += Math.max(1, length - common);
      sampledBytes[s]! += length;
      lastValue[s] = u;
    }
    if (isoInOrder[s] === 1) {
      const previous = lastCompared[s]!;
      if (
        k !== NODE_STRING ||
        !isIsoTime(text, from, to) ||
        (previous >= 0 && compareText(text, from, to, start[previous]! + 1, end[previous]! - 1) < 0)
      ) {
        isoInOrder[s] = 0;
      }
      lastCompared[s] = u;
    }
    if (k === NODE_SCALAR && isQuantity(inventory, u, from, to)) numbers[s]!++;
  }
  spareBelow.give(recordBelow);
  spareTable.give(table);
  spareHashes.give(entryHash);
  const gathered = {
    groups,
    groupOfSig,
    recordAbove,
    presence,
    values,
    distinct,
    unhashed,
    valueBytes,
    novelBytes,
    sampledBytes,
    numbers,
    isoInOrder,
    entryOf,
    entrySig,
    entryCount,
    entries,
  };
  const found = withCommonest(inventory, gathered, entryFirst);
  spareFirsts.give(entryFirst);
  return found;
}

/** Long values of one entry hash compared at most, per value (json-tape.wat compares as many). */
const LONG_COMPARES = 8;

/** Whether the text from `from` to `to` is that of value `v` (a string's between its quotes). */
function sameValueText(inventory: JsonInventory, from: number, to: number, v: number): boolean {
  const quoted = inventory.kind[v] === NODE_STRING ? 1 : 0;
  return sameText(
    inventory.text,
    from,
    to,
    inventory.start[v]! + quoted,
    inventory.end[v]! - quoted,
  );
}

/**
 * The columns of `gathered` with, per signature, its commonest value's count (`top`), whether
 * that value is empty, and the entropy of its values, from the value entries (`entryFirst`: the
 * first node of each).
 */
function withCommonest(
  inventory: JsonInventory,
  gathered: Omit<Columns, 'top' | 'topEmpty' | 'entropy'>,
  entryFirst: Int32Array,
): Columns {
  const { text, kind, start, end } = inventory;
  const { values, entrySig, entryCount, entries } = gathered;
  const sigCount = values.length;
  const top = new Int32Array(sigCount);
  const topEmpty = new Uint8Array(sigCount);
  const entropy = new Float64Array(sigCount);
  for (let e = 0; e < entries; e++) {
    const s = entrySig[e]!;
    const c = entryCount[e]!;
    if (c > top[s]!) {
      top[s] = c;
      const u = entryFirst[e]!;
      topEmpty[s] =
        end[u]! - start[u]! <= 2 || (kind[u] === NODE_SCALAR && text.charCodeAt(start[u]!) === 0x6e)
          ? 1
          : 0;
    }
    // Summed as c·log2 c for now, 0 for a value seen once (most of them): see below.
    if (c > 1) entropy[s]! += c * Math.log2(c);
  }
  // -Σ p·log2 p over the values, p = c / n, is (Σc·log2 n - Σc·log2 c) / n.
  for (let s = 1; s < sigCount; s++) {
    const n = values[s]!;
    if (n === 0) continue;
    entropy[s] = Math.max(0, Math.log2(n) - entropy[s]! / n);
  }
  // Written out, not spread: one literal gives both paths' columns one shape, made from the
  // literal's own map rather than through transitions V8 holds only weakly.
  return {
    groups: gathered.groups,
    groupOfSig: gathered.groupOfSig,
    recordAbove: gathered.recordAbove,
    presence: gathered.presence,
    values,
    distinct: gathered.distinct,
    unhashed: gathered.unhashed,
    top,
    topEmpty,
    entropy,
    valueBytes: gathered.valueBytes,
    novelBytes: gathered.novelBytes,
    sampledBytes: gathered.sampledBytes,
    numbers: gathered.numbers,
    isoInOrder: gathered.isoInOrder,
    entryOf: gathered.entryOf,
    entrySig,
    entryCount,
    entries,
  };
}

/** Records of a group `valuesFromTape` makes room for at once, at most. */
const PLACED_RECORDS_MAX = 1 << 22;

/** How `valuesFromTape` asks the tape's pass to count new units and numbers, as `recordColumns` does. */
const TAPE_VALUE_OPTIONS: JsonTapeValueOptions = {
  prefix: NOVELTY_PREFIX,
  samples: NOVELTY_SAMPLES,
  digits: NUMBER_MAX_DIGITS,
  literals: [HASH_TRUE, HASH_FALSE, HASH_NULL],
};

/**
 * The columns `recordColumns` gathers, gathered by the lent tape's pass in WebAssembly where the
 * borrowed inventory's columns and its signatures are (`JsonTapeReader.valueStatistics`), or
 * undefined when that pass cannot run. The records of each group are read off its signature's
 * chain of nodes; the numbers of a signature with a fraction or an exponent in one of them,
 * which that pass leaves unread, are counted here.
 */
function valuesFromTape(
  inventory: JsonInventory,
  signatures: JsonSignatures,
  groups: RecordGroup[],
  groupOfSig: Int32Array,
  check: StopCheck | undefined,
): Columns | undefined {
  const reader = inventory.tapeReader;
  if (!reader) return undefined;
  const sigCount = signatures.count;
  const records = new Uint8Array(sigCount);
  for (let s = 0; s < sigCount; s++) records[s] = groupOfSig[s]! >= 0 ? 1 : 0;
  // The pass cannot poll: polled once for all of it.
  check?.(inventory.count);
  const found = reader.valueStatistics(records, TAPE_VALUE_OPTIONS, true);
  if (!found) return undefined;
  const { kind, next, start, end, unitBytes } = inventory;
  const { nextSame, first } = signatures;
  for (const group of groups) {
    // As many records as the signature has objects, written in place: a list of tens of
    // thousands pushed to grew through large-object space, most of this loop's time. (Not past
    // a length V8 keeps such a list in a dictionary for.)
    const records = group.records;
    let n = records.length;
    if (n + signatures.objects[group.sig]! <= PLACED_RECORDS_MAX) {
      records.length = n + signatures.objects[group.sig]!;
    }
    for (let u = first[group.sig]!; u >= 0; u = nextSame[u]!) {
      if (kind[u] !== NODE_OBJECT) continue;
      records[n++] = u;
      group.bytes += unitBytes[u]!;
    }
    records.length = n;
  }
  const { recordAbove, numbers, unreadNumbers } = found;
  for (let s = 1; s < sigCount; s++) {
    if (unreadNumbers[s] === 0) continue;
    let count = 0;
    for (let u = first[s]!; u >= 0; u = nextSame[u]!) {
      const scalar = kind[u] === NODE_SCALAR && next[u] === u + 1;
      if (scalar && recordAbove[u]! >= 0 && isQuantity(inventory, u, start[u]!, end[u]!)) count++;
    }
    numbers[s] = count;
  }
  return withCommonest(
    inventory,
    {
      groups,
      groupOfSig,
      recordAbove,
      presence: found.presence,
      values: found.values,
      distinct: found.distinct,
      unhashed: found.unhashed,
      valueBytes: found.valueUnits,
      novelBytes: found.novelUnits,
      sampledBytes: found.sampledUnits,
      numbers,
      isoInOrder: found.isoInOrder,
      entryOf: found.entryOf,
      entrySig: found.entrySignature,
      entryCount: found.entryCount,
      entries: found.entries,
    },
    found.entryFirst,
  );
}

/** What finding a record's field needs: the signatures, and a memo of paths down to each. */
export interface RecordPaths {
  signatures: JsonSignatures;
  /** Per signature: the path of signatures from its group's record down to it (memo). */
  paths: Map<number, number[]>;
}

/**
 * The node of signature `s` inside record `r` (the first, when a key repeats), found by walking
 * down from `r` along the signatures between them (reached through keys); -1 when `r` lacks it.
 */
export function recordField(
  inventory: JsonInventory,
  analysis: RecordPaths,
  r: number,
  s: number,
): number {
  if (s < 0) return -1;
  const { signatures } = analysis;
  let path = analysis.paths.get(s);
  if (!path) {
    path = [];
    const recordSig = signatures.of[r]!;
    for (let t = s; t > 0 && t !== recordSig; t = signatures.parent[t]!) path.push(t);
    path.reverse();
    analysis.paths.set(s, path);
  }
  const { next } = inventory;
  const sigOf = signatures.of;
  let u = r;
  for (const t of path) {
    let found = -1;
    for (let c = u + 1; c < next[u]!; c = next[c]!) {
      if (sigOf[c] === t) {
        found = c;
        break;
      }
    }
    if (found < 0) return -1;
    u = found;
  }
  return u;
}

/**
 * The smallest node whose unit (key included) contains `position`, searched for onward from
 * `from` (whose unit starts at or before it: the answer for an earlier position).
 */
export function nodeAt(inventory: JsonInventory, position: number, from = 0): number {
  const { keyStart, start, end, parent } = inventory;
  let low = from;
  let high = inventory.count - 1;
  // From `from`, steps that double until one passes `position`; then (or from 0) halving ones.
  for (let step = 1, bounded = from === 0; low < high; ) {
    const mid = bounded ? (low + high + 1) >>> 1 : Math.min(low + step, high);
    const at = keyStart[mid]! >= 0 ? keyStart[mid]! : start[mid]!;
    if (at <= position) {
      low = mid;
      step *= 2;
    } else {
      high = mid - 1;
      bounded = true;
    }
  }
  let u = low;
  while (u > 0 && end[u]! <= position) u = parent[u]!;
  return u;
}

/** The text of scalar `u` as written: a string's content (escapes and all), a number or literal. */
export function scalarText(inventory: JsonInventory, u: number): string {
  const { text, kind, start, end } = inventory;
  return kind[u] === NODE_STRING
    ? text.slice(start[u]! + 1, end[u]! - 1)
    : text.slice(start[u]!, end[u]!);
}

/** A lone surrogate: a string that holds one cannot be written as text. */
const LONE_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;

/**
 * What scalar `u` says, as a note tells it: a string's value (`\ud83d\udc04 Moo` is `🐄 Moo`,
 * as `JSON.parse` reads it) where that is text, else its content as written (a lone surrogate
 * stays escaped); a number or literal as written.
 */
export function scalarValue(inventory: JsonInventory, u: number): string {
  const written = scalarText(inventory, u);
  return inventory.kind[u] === NODE_STRING ? stringValue(written) : written;
}

/** What a string's content as written (valid JSON, without its quotes) says (`scalarValue`). */
export function stringValue(written: string): string {
  if (!written.includes('\\')) return written;
  const value = JSON.parse(`"${written}"`) as string;
  return LONE_SURROGATE.test(value) ? written : value;
}
