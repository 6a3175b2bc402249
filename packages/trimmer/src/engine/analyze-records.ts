import { type JsonTapeValueOptions, TEXT_HASH_UNITS, textHash } from '@compaction/core';
import {
  type JsonInventory,
  NODE_ARRAY,
  NODE_OBJECT,
  NODE_SCALAR,
  NODE_STRING,
} from '../json/json-inventory.js';
import {
  type JsonSignatures,
  jsonSignatures,
  STEP_ITEM,
  STEP_KEY,
  signatureKey,
} from '../json/json-signatures.js';
import { ScratchArray } from '../json/scratch-array.js';
import { looksOpaque } from '../readers/looks-opaque.js';
import { createProseScratch, proseShare } from '../readers/prose-share.js';
import { lowerBound } from './relevance.js';
import type { StopCheck } from './stop-check.js';

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
  /** Signatures of the fields that tell each record's state (few values, varying), best first. */
  states: number[];
  /**
   * Signature of the field that says what each record is about: one that reads as prose (a
   * tweet's `text`, an event's `message`, a commit's `commit.message`), a key or two below the
   * record, the shallowest, then the one with the most information per byte; -1 when none.
   */
  says: number;
  /** One of the document's lists, not a detail inside another list's records. */
  primary: boolean;
  /** Index of the group whose records hold this group's lists, -1 when none. */
  above: number;
  /** UTF-8 bytes of its records. */
  bytes: number;
}

/** A record that stands out from its list, and the fields that make it stand out. */
export interface Anomaly {
  record: number;
  score: number;
  /**
   * The nodes that stand out, most telling first: what says why (a rare reason, then a message;
   * see `explainFirst`), then the rest by how much each stands out.
   */
  fields: number[];
  /** How much each of `fields` stands out. */
  fieldScores: number[];
}

/** Column statistics and roles of the records of a document (see `analyzeRecords`). */
export interface RecordAnalysis {
  signatures: JsonSignatures;
  groups: RecordGroup[];
  /** Group of each signature whose nodes are records, else -1. */
  groupOfSig: Int32Array;
  /** Per node: the nearest object strictly above it that is an array item or map member, -1. */
  recordAbove: Int32Array;
  /** Per signature: an estimate of the information (bits) one of its nodes carries, subtree included. */
  nodeBits: Float32Array;
  /** Records that stand out, most anomalous first (capped at `MORE_ANOMALIES`). */
  anomalies: Anomaly[];
  /**
   * How many of `anomalies` are seen to before every record is named (the strongest few: many
   * small oddities must not crowd the names out); the rest get their field once all are named.
   */
  leadingAnomalies: number;
  /** Small nodes outside every record whose value reads like an error. */
  errorContext: number[];
  /** Per signature: leaf values seen, distinct ones, the commonest one's count. */
  values: Int32Array;
  distinct: Int32Array;
  top: Int32Array;
  /** Per signature: records (nearest above) holding it at least once. */
  presence: Int32Array;
  /** Per signature: the path of signatures from its group's record down to it (memo). */
  paths: Map<number, number[]>;
}

const STATES_PER_RECORD = 2;
/**
 * Share of distinct values from which a field named like an identifier (`title`, `name`) can
 * name the records though a few share a value; unique means 98%.
 */
const NEAR_UNIQUE = 0.9;
/** What a near-unique identity gives way by, against a unique one. */
const NEAR_UNIQUE_PENALTY = 2;
/**
 * Values up to this many UTF-16 units, all of which their hash in the inventory reads, are told
 * apart by it (but for chance); longer ones count as distinct.
 */
const HASHED_VALUE = TEXT_HASH_UNITS;
/** The hashes of the three literals (`textHash`). */
const HASH_TRUE = textHash('true', 0, 4);
const HASH_FALSE = textHash('false', 0, 5);
const HASH_NULL = textHash('null', 0, 4);
/** Prefixes compared for redundancy with the previous value of the same field. */
const NOVELTY_PREFIX = 48;
/** Values of each field compared for redundancy. */
const NOVELTY_SAMPLES = 16;
/** Information assumed for a value with nothing to compare it with. */
const UNIQUE_BITS = 4;
/** A record group is primary from this share of the document's bytes. */
const PRIMARY_SHARE = 0.05;
/** Or, nested in another group's records, from this share of that group's bytes. */
const PRIMARY_NESTED_SHARE = 0.4;
/** Anomaly score from which a record stands out. */
const ANOMALY_MIN_SCORE = 2;
/** Fields remembered per anomalous record. */
const ANOMALY_FIELDS = 4;
/** Anomalous records kept track of: past the leading few, each gets its field once all are named. */
const MORE_ANOMALIES = 200;
/** A string value up to this many UTF-16 units that explains an anomaly reads as a reason; longer, as a message. */
const REASON_UNITS = 32;
/** A container that makes a record stand out is looked into for what explains it up to this many nodes. */
const EXPLAINED_CONTAINER_NODES = 32;

const IDENTITY_WORDS: Readonly<Record<string, number>> = {
  name: 3,
  title: 2.5,
  login: 2.5,
  slug: 2.5,
  hostname: 2.5,
  key: 2.2,
  id: 2,
  uid: 1.6,
  uuid: 1.6,
  sha: 1.6,
  arn: 1.6,
  number: 1.8,
  email: 2,
  path: 1.5,
  host: 2,
};
const STATE_WORDS = new Set([
  'status',
  'state',
  'phase',
  'conclusion',
  'result',
  'outcome',
  'level',
  'severity',
  'code',
  'exit',
  'reason',
  'message',
  'error',
  'health',
  'type',
  'condition',
  'verdict',
  'ready',
]);

/** Words before `code` that make it a state besides the state words (`return_code`, `httpCode`). */
const CODE_OF = new Set(['return', 'response', 'http', 'rc']);

/** The lower-case words of a key: `exitCode` → exit, code; `f:restartPolicy` → f, restart, policy. */
function keyWords(key: string): string[] {
  return key
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .replace(/([A-Z]+)([A-Z][a-z])/g, '$1 $2')
    .toLowerCase()
    .split(/[^a-z0-9]+/)
    .filter((word) => word.length > 0);
}

/** Whether a key reads as a state (`status`, `phase`, `exitCode`…). */
export function stateLikeKey(key: string): boolean {
  return keyHints(key).state;
}

/** What the words of a key suggest, cached per key text. */
interface KeyHints {
  identity: number;
  /** The identity word that gives `identity` (`name`, `id`…), '' when none. */
  identityWord: string;
  state: boolean;
}

/**
 * Hints by key text, kept across calls: the same documents' keys come back trim after trim, and
 * splitting a key into words costs more than the rest of its signature's analysis. Bounded, as
 * keys are data: emptied when full.
 */
const KEY_HINTS = new Map<string, KeyHints>();
const KEY_HINTS_MAX = 8192;

function keyHints(key: string): KeyHints {
  const cache = KEY_HINTS;
  let hints = cache.get(key);
  if (!hints) {
    const words = keyWords(key);
    // A key that is the word itself says more than one that merely ends in it.
    let identity = 0;
    let identityWord = '';
    words.forEach((word, i) => {
      const weight = IDENTITY_WORDS[word] ?? 0;
      const share = words.length === 1 ? 1 : i === words.length - 1 ? 0.6 : 0.4;
      if (weight * share > identity) {
        identity = weight * share;
        identityWord = word;
      }
    });
    // The last word says what a key holds: `exitCode` and `health_status` are states,
    // `in_reply_to_status_id` and `readyReplicas` are not. A code is one after a word that
    // says which (`exit`, `status`, `error`, `response`…) or alone, not a `language_code`.
    const last = words[words.length - 1];
    const before = words[words.length - 2];
    const state =
      last !== undefined &&
      STATE_WORDS.has(last) &&
      (last !== 'code' || before === undefined || STATE_WORDS.has(before) || CODE_OF.has(before));
    hints = { identity, identityWord, state };
    if (cache.size >= KEY_HINTS_MAX) cache.clear();
    cache.set(key, hints);
  }
  return hints;
}

/** Digits of the longest number read as a quantity: longer ones are ids. */
const NUMBER_MAX_DIGITS = 15;
/** The longest number token read as a quantity, sign included. */
const NUMBER_MAX_UNITS = NUMBER_MAX_DIGITS + 1;

/** The number a JSON number token stands for, or NaN past 15 digits (ids, not quantities). */
function numberAt(text: string, from: number, to: number): number {
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

/**
 * Information assumed per UTF-8 byte of a field that reads as prose (in any script: a byte of
 * Japanese says about what a byte of English does), over at most its first `PROSE_BYTES`: a long
 * text says more than a short one, but not in proportion (its first sentences say most), so
 * long ones come later per byte. Above the bits per byte of most short fields, which only tell
 * records apart: what a message or a post says is what a reader reads the list for.
 */
const PROSE_BITS_PER_BYTE = 1;
const PROSE_BYTES = 320;
/** A field whose values are shorter than this on average is not read as prose. */
const PROSE_MIN_UNITS = 16;
/** The field that says what a record is about is at most this many keys below it. */
const MESSAGE_DEPTH = 2;

/** Bits kept per list a field is nested below its record's, and per key it sits deeper. */
const NESTED_SHARE = 0.35;
const DEEPER_SHARE = 0.9;

/** `base ** k` for k < 64 (the depths of real documents), computed once: a power costs a pass. */
function powers(base: number): Float64Array {
  return Float64Array.from({ length: 64 }, (_, k) => base ** k);
}
const NESTED_POWERS = powers(NESTED_SHARE);
const DEEPER_POWERS = powers(DEEPER_SHARE);

function power(table: Float64Array, base: number, k: number): number {
  return k < 64 ? table[k]! : base ** k;
}

/** A fresh array of `size` entries starting with the first `used` of `array`. */
function widenInts(array: Int32Array, size: number, used: number): Int32Array<ArrayBuffer> {
  const wider = new Int32Array(size);
  wider.set(array.subarray(0, used));
  return wider;
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
  /** Values too long to tell apart: each counted as distinct, once. */
  unhashed: Int32Array;
  top: Int32Array;
  topEmpty: Uint8Array;
  entropy: Float64Array;
  valueBytes: Float64Array;
  novelBytes: Float64Array;
  sampledBytes: Float64Array;
  numbers: Int32Array;
  numberSum: Float64Array;
  numberSquares: Float64Array;
  /** Per node: its value's entry (-1 for containers, long values and nodes outside records). */
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
 * records holding it, its values (told apart exactly up to `HASHED_VALUE` units), the commonest
 * one, entropy, bytes, redundancy with the value before, numeric sums. Over an inventory borrowed
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
      states: [],
      says: -1,
      primary: false,
      above: -1,
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
  const numberSum = new Float64Array(sigCount);
  const numberSquares = new Float64Array(sigCount);
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
    if (next[u] !== u + 1) continue;
    let from = start[u]!;
    let to = end[u]!;
    if (k === NODE_STRING) {
      from++;
      to--;
    }
    const length = to - from;
    const seen = ++values[s]!;
    valueBytes[s]! += length;
    if (length > HASHED_VALUE) {
      distinct[s]!++;
      unhashed[s]!++;
    } else {
      let h = Math.imul(valueHash[u]! ^ Math.imul(s + 1, 0x9e3779b1), 0x85ebca6b);
      h = (h ^ (h >>> 15) ^ k) | 0;
      let slot = h & mask;
      let entry = -1;
      for (let e = table[slot << 1]!; e !== 0; e = table[slot << 1]!) {
        if (table[(slot << 1) + 1] === h && entrySig[e - 1] === s) {
          entry = e - 1;
          break;
        }
        slot = (slot + 1) & mask;
      }
      if (entry < 0) {
        if (entries >= capacity) {
          capacity *= 2;
          entrySig = widenInts(entrySig, capacity, entries);
          entryHash = widenInts(entryHash, capacity, entries);
          entryCount = widenInts(entryCount, capacity, entries);
          entryFirst = widenInts(entryFirst, capacity, entries);
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
    // A scalar is a literal or a number; a literal is told by its hash, and a number too long
    // to be a quantity by its length, both without reading the text (a cache miss for each).
    const vh = valueHash[u]!;
    if (
      k === NODE_SCALAR &&
      length <= NUMBER_MAX_UNITS &&
      vh !== HASH_TRUE &&
      vh !== HASH_FALSE &&
      vh !== HASH_NULL
    ) {
      const x = numberAt(text, from, to);
      if (Number.isFinite(x)) {
        numbers[s]!++;
        numberSum[s]! += x;
        numberSquares[s]! += x * x;
      }
    }
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
    numberSum,
    numberSquares,
    entryOf,
    entrySig,
    entryCount,
    entries,
  };
  const found = withCommonest(inventory, gathered, entryFirst);
  spareFirsts.give(entryFirst);
  return found;
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
  const { values, unhashed, entrySig, entryCount, entries } = gathered;
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
  // -Σ p·log2 p over the values, p = c / n, is (Σc·log2 n - Σc·log2 c) / n; each long value
  // counts as distinct, once (c = 1).
  for (let s = 1; s < sigCount; s++) {
    const n = values[s]!;
    if (n === 0) continue;
    if (top[s] === 0 && unhashed[s]! > 0) top[s] = 1;
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
    unhashed,
    top,
    topEmpty,
    entropy,
    valueBytes: gathered.valueBytes,
    novelBytes: gathered.novelBytes,
    sampledBytes: gathered.sampledBytes,
    numbers: gathered.numbers,
    numberSum: gathered.numberSum,
    numberSquares: gathered.numberSquares,
    entryOf: gathered.entryOf,
    entrySig,
    entryCount,
    entries,
  };
}

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
 * chain of nodes; the numbers of a signature with a fraction or an exponent in one of them are
 * read here, all of them in node order, so that their sums are the same to the last bit.
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
  const { kind, next, start, end, valueHash, unitBytes, text } = inventory;
  const { nextSame, first } = signatures;
  for (const group of groups) {
    for (let u = first[group.sig]!; u >= 0; u = nextSame[u]!) {
      if (kind[u] !== NODE_OBJECT) continue;
      group.records.push(u);
      group.bytes += unitBytes[u]!;
    }
  }
  const { recordAbove, numbers, numberSum, numberSquares, unreadNumbers } = found;
  for (let s = 1; s < sigCount; s++) {
    if (unreadNumbers[s] === 0) continue;
    let count = 0;
    let sum = 0;
    let squares = 0;
    for (let u = first[s]!; u >= 0; u = nextSame[u]!) {
      const vh = valueHash[u]!;
      if (
        kind[u] !== NODE_SCALAR ||
        recordAbove[u]! < 0 ||
        next[u] !== u + 1 ||
        end[u]! - start[u]! > NUMBER_MAX_UNITS ||
        vh === HASH_TRUE ||
        vh === HASH_FALSE ||
        vh === HASH_NULL
      ) {
        continue;
      }
      const x = numberAt(text, start[u]!, end[u]!);
      if (Number.isFinite(x)) {
        count++;
        sum += x;
        squares += x * x;
      }
    }
    numbers[s] = count;
    numberSum[s] = sum;
    numberSquares[s] = squares;
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
      numberSum,
      numberSquares,
      entryOf: found.entryOf,
      entrySig: found.entrySignature,
      entryCount: found.entryCount,
      entries: found.entries,
    },
    found.entryFirst,
  );
}

function byScoreThenSignature(a: { s: number; score: number }, b: { s: number; score: number }) {
  return b.score - a.score || a.s - b.s;
}

function byScoreThenNode(a: { u: number; score: number }, b: { u: number; score: number }) {
  return b.score - a.score || a.u - b.u;
}

function byScoreThenRecord(a: Anomaly, b: Anomaly) {
  return b.score - a.score || a.record - b.record;
}

/** The `k` first of `items` in `order`, in order (k small: no full sort). */
function topFields<T>(items: readonly T[], k: number, order: (a: T, b: T) => number): T[] {
  const best: T[] = [];
  for (const item of items) {
    if (best.length === k && order(item, best[k - 1]!) >= 0) continue;
    let at = best.length < k ? best.length : k - 1;
    best[at] = item;
    while (at > 0 && order(best[at]!, best[at - 1]!) < 0) {
      [best[at], best[at - 1]] = [best[at - 1]!, best[at]!];
      at--;
    }
  }
  return best;
}

/**
 * Finds the lists of records in a document and what their fields say, in a few linear passes:
 * the records (the innermost repeated objects: array items and map members sharing one
 * signature), per field the values seen, how many are distinct and how often the commonest
 * occurs, entropy and redundancy (a URL that repeats the record's id says little), numeric
 * spread; then per list the field that names each record (its identity) and those that tell
 * its state, and the records that stand out: a state rare in its list, a key most records lack,
 * a number far from the rest, an error-like value. Nothing here knows any API's field names;
 * the few words it weighs (`name`, `id`, `status`, `phase`…) are the generic ones of any list.
 * `check` is called every few thousand nodes and may throw to stop.
 */
export function analyzeRecords(inventory: JsonInventory, check?: StopCheck): RecordAnalysis {
  const { text, kind, start, end, valueBytes: nodeValueBytes } = inventory;
  const signatures = jsonSignatures(inventory, check);
  const sigCount = signatures.count;
  const { step, nodes: sigNodes, parent: sigParent, depth: sigDepth } = signatures;
  const gathered = recordColumns(inventory, signatures, check);
  const { groups, groupOfSig, values, distinct, top, presence, entropy } = gathered;

  // The group whose records hold each signature's nodes (the nearest record signature above).
  const ownerOfSig = new Int32Array(sigCount).fill(-1);
  for (let s = 1; s < sigCount; s++) {
    const p = sigParent[s]!;
    ownerOfSig[s] = groupOfSig[p]! >= 0 ? groupOfSig[p]! : ownerOfSig[p]!;
  }
  // Which lists are the document's own: big enough, and not a small detail of another list.
  const documentBytes = Math.max(1, nodeValueBytes[0]!);
  for (const group of groups) {
    const above = ownerOfSig[group.sig]!;
    group.above = above;
    group.primary =
      group.bytes >= PRIMARY_SHARE * documentBytes &&
      (above < 0 || group.bytes >= PRIMARY_NESTED_SHARE * groups[above]!.bytes);
  }

  // Where each signature sits: keys below the nearest record (a field of it when reached through
  // keys only), lists nested below the nearest primary list, and that list's size (no field
  // tells its records apart by more than log2 of their count); what its key suggests.
  const fieldDepth = new Int32Array(sigCount).fill(-1);
  const keyDepth = new Int32Array(sigCount);
  const nesting = new Int32Array(sigCount);
  const primaryRecords = new Int32Array(sigCount);
  const identityWeight = new Float32Array(sigCount);
  const identityWord: string[] = new Array(sigCount).fill('');
  const hinted = new Uint8Array(sigCount);
  for (let s = 1; s < sigCount; s++) {
    const p = sigParent[s]!;
    const g = groupOfSig[p]!;
    if (g >= 0) {
      keyDepth[s] = 1;
      nesting[s] = groups[g]!.primary ? 0 : nesting[p]! + 1;
      primaryRecords[s] = groups[g]!.primary ? groups[g]!.records.length : primaryRecords[p]!;
    } else {
      keyDepth[s] = keyDepth[p]! + 1;
      nesting[s] = nesting[p]!;
      primaryRecords[s] = primaryRecords[p]!;
    }
    if (step[s] !== STEP_KEY) continue;
    if (g >= 0) fieldDepth[s] = 1;
    else if (fieldDepth[p]! > 0) fieldDepth[s] = fieldDepth[p]! + 1;
    if (fieldDepth[s]! < 1 || fieldDepth[s]! > 3) continue;
    const hints = keyHints(signatureKey(inventory, signatures, s));
    identityWeight[s] = hints.identity;
    identityWord[s] = hints.identityWord;
    hinted[s] = hints.state ? 1 : 0;
  }

  // Information per value of each signature inside records: entropy, less what repeats the
  // value before, capped at what tells the records apart, less for opaque tokens and deep or
  // nested fields. Outside records, a flat guess that fades with depth.
  const bits = new Float32Array(sigCount);
  const prose = createProseScratch();
  const readsAsProse = new Uint8Array(sigCount);
  for (let s = 1; s < sigCount; s++) {
    if (ownerOfSig[s]! < 0) {
      bits[s] = UNIQUE_BITS / (1 + sigDepth[s]! / 3);
      continue;
    }
    if (values[s] === 0) continue;
    let b: number;
    const sample = signatures.first[s]!;
    if (values[s]! <= 1) {
      // A field only one record has: what it says is that it is there (see the anomalies);
      // an empty object or array under it says nothing more.
      b = kind[sample] === NODE_OBJECT || kind[sample] === NODE_ARRAY ? 0 : 1;
    } else {
      b = entropy[s]!;
      const novelty = Math.min(
        1,
        Math.max(0.05, gathered.novelBytes[s]! / Math.max(1, gathered.sampledBytes[s]!)),
      );
      b *= novelty;
      if (kind[sample] === NODE_STRING && looksOpaque(text, start[sample]! + 1, end[sample]! - 1)) {
        b *= 0.3;
      }
      // What tells records apart is capped at log2 of their count; what a message or a post
      // says is not: its words, new next to the value before, and distinct across records.
      if (primaryRecords[s]! > 1) b = Math.min(b, Math.log2(primaryRecords[s]!));
      // Only where a text could say more than the field's values tell (long enough, new
      // enough) is it read to see whether it is one.
      const proseBits =
        PROSE_BITS_PER_BYTE * Math.min(PROSE_BYTES, signatures.bytes[s]! / sigNodes[s]!) * novelty;
      if (
        kind[sample] === NODE_STRING &&
        proseBits > b &&
        gathered.valueBytes[s]! >= PROSE_MIN_UNITS * values[s]!
      ) {
        const textBits = proseBits * proseShare(inventory, signatures, s, prose);
        if (textBits > b) {
          b = textBits;
          readsAsProse[s] = 1;
        }
      }
    }
    // A record's own fields before those of the lists inside it, shallow before deep.
    b *=
      power(NESTED_POWERS, NESTED_SHARE, nesting[s]!) *
      power(DEEPER_POWERS, DEEPER_SHARE, Math.max(0, keyDepth[s]! - 1));
    if (hinted[s] === 1) b *= 1.5;
    bits[s] = b;
  }
  // Per node of a signature, its subtree's bits: leaf values' bits summed up the signatures.
  const nodeBits = new Float32Array(sigCount);
  for (let s = sigCount - 1; s >= 1; s--) {
    nodeBits[s]! += bits[s]! * (ownerOfSig[s]! >= 0 ? values[s]! : signatures.leaves[s]!);
    nodeBits[sigParent[s]!]! += nodeBits[s]!;
  }
  for (let s = 1; s < sigCount; s++) nodeBits[s] = nodeBits[s]! / Math.max(1, sigNodes[s]!);

  // Identity and state fields of each group, among the fields of its records.
  const fieldsOfGroup: number[][] = [];
  for (let g = 0; g < groups.length; g++) fieldsOfGroup.push([]);
  for (let s = 1; s < sigCount; s++) {
    if (fieldDepth[s]! >= 1 && fieldDepth[s]! <= 3 && ownerOfSig[s]! >= 0) {
      fieldsOfGroup[ownerOfSig[s]!]!.push(s);
    }
  }
  // Loops, not callbacks, here and below: a closure made per call keeps its optimised code only
  // while it lives, so each trim after a major collection compiled the callbacks again.
  // Values longer than the hash reads count as distinct in the columns; a field that would name
  // the records has them compared in full (fifty deliveries all named one long name are not
  // told apart by it).
  const exact = new Map<number, number>();
  const identityCount = (s: number): number => {
    if (gathered.unhashed[s] === 0) return distinct[s]!;
    let count = exact.get(s);
    if (count === undefined) {
      const seen = new Set<string>();
      for (let u = signatures.first[s]!; u >= 0; u = signatures.nextSame[u]!) {
        seen.add(text.slice(start[u]!, end[u]!));
      }
      count = seen.size;
      exact.set(s, count);
    }
    return count;
  };
  // A nested list's items are told apart within their own list (a pod's containers by `name`,
  // its conditions by `type`), not across every list of the document: whether no two items of
  // one list share the field's value. Items of one list come together in document order.
  const { parent, valueHash } = inventory;
  const { recordAbove } = gathered;
  const inEachList = new Map<number, boolean>();
  const uniqueInEachList = (s: number): boolean => {
    let unique = inEachList.get(s);
    if (unique !== undefined) return unique;
    unique = true;
    let list = -1;
    // Values are told apart by their hash where it reads all of them, else by their text.
    const seen = new Set<number | string>();
    for (let u = signatures.first[s]!; u >= 0 && unique; u = signatures.nextSame[u]!) {
      const record = recordAbove[u]!;
      const owner = record >= 0 ? parent[record]! : -1;
      if (owner !== list) {
        list = owner;
        seen.clear();
      }
      const value =
        end[u]! - start[u]! <= HASHED_VALUE ? valueHash[u]! : text.slice(start[u]!, end[u]!);
      if (seen.has(value)) unique = false;
      seen.add(value);
    }
    inEachList.set(s, unique);
    return unique;
  };
  for (let g = 0; g < groups.length; g++) {
    const group = groups[g]!;
    const records = group.records.length;
    // Whether some list holds more than one item (else being unique within each says nothing).
    let sharedLists = false;
    for (let i = 1; i < records && !sharedLists; i++) {
      sharedLists = parent[group.records[i]!] === parent[group.records[i - 1]!];
    }
    let bestIdentity = -1;
    let bestIdentityScore = Number.NEGATIVE_INFINITY;
    const stateCandidates: Array<{ s: number; score: number }> = [];
    const identities: Array<{ s: number; score: number; bytes: number; unique: boolean }> = [];
    for (const s of fieldsOfGroup[g]!) {
      if (values[s] === 0 || values[s]! < sigNodes[s]!) continue;
      const sample = signatures.first[s]!;
      if (kind[sample] === NODE_OBJECT || kind[sample] === NODE_ARRAY) continue;
      const avgBytes = gathered.valueBytes[s]! / values[s]!;
      const present = presence[s]! / records;
      const stateLike = hinted[s] === 1;
      if (group.keyed) {
        // Shown beside the key that names the record: short and nearly always there.
        const score = present - avgBytes / 64 + (stateLike ? 0.5 : 0) - fieldDepth[s]!;
        if (present >= 0.5 && avgBytes <= 48 && score > bestIdentityScore) {
          bestIdentity = s;
          bestIdentityScore = score;
        }
      } else if (
        present >= 0.8 &&
        values[s]! <= 1.05 * presence[s]! &&
        avgBytes <= 100 &&
        (((distinct[s]! >= 0.98 * values[s]! ||
          (identityWeight[s]! > 0 && distinct[s]! >= NEAR_UNIQUE * values[s]!)) &&
          identityCount(s) >= NEAR_UNIQUE * values[s]!) ||
          (!group.primary &&
            avgBytes <= 48 &&
            (sharedLists || identityWeight[s]! > 0) &&
            uniqueInEachList(s)))
      ) {
        // A field of the record itself named like an identifier says best what the record is;
        // one level down names it too (`metadata.name`), or names something it refers to
        // (`user.name`), so it gives way to one up.
        let score = 1 + identityWeight[s]! - (fieldDepth[s]! - 1) - avgBytes / 48;
        if (fieldDepth[s] === 1 && identityWeight[s]! > 0) score += 1.5;
        // A name a few records share (two poems titled alike) still tells the records apart
        // better than none, but gives way to one that is unique.
        const unique =
          identityCount(s) >= 0.98 * values[s]! || (!group.primary && uniqueInEachList(s));
        if (!unique) score -= NEAR_UNIQUE_PENALTY;
        if (
          kind[sample] === NODE_STRING &&
          looksOpaque(text, start[sample]! + 1, end[sample]! - 1)
        ) {
          score -= 1;
        }
        identities.push({ s, score, bytes: avgBytes, unique });
        if (score > bestIdentityScore) {
          bestIdentity = s;
          bestIdentityScore = score;
        }
      }
      // A state takes few values, each shared by several records (a column that is mostly
      // null with a few one-off values is not one), and, unless its key says it is one, not
      // the same one in nine records of ten: shown for every record, that would say nothing
      // (the records that differ stand out as anomalies).
      const few = distinct[s]! <= Math.max(3, 0.34 * values[s]!);
      const repeated =
        values[s]! - top[s]! >= 2 * (distinct[s]! - 1) &&
        (stateLike || top[s]! <= 0.9 * values[s]!);
      if (
        present >= 0.3 &&
        distinct[s]! >= 2 &&
        avgBytes <= (stateLike ? 160 : 64) &&
        ((few && repeated) || (stateLike && distinct[s]! <= 0.9 * values[s]!))
      ) {
        // A key that reads as a state outranks any that does not; free text ranks last.
        const score =
          (stateLike ? 10 : 0) +
          (Math.min(2, entropy[s]!) * present * (few ? 1 : 0.3)) / (1 + avgBytes / 24);
        if (score >= 0.25) stateCandidates.push({ s, score });
      }
    }
    group.identity = bestIdentity;
    // Another name for each record, short, unique, by another identity word (an `id` beside a
    // `name`, not an `id_str` beside an `id`).
    identities.sort(byScoreThenSignature);
    const word = bestIdentity >= 0 ? identityWord[bestIdentity]! : '';
    group.alsoIdentity = -1;
    for (const candidate of identities) {
      if (
        candidate.s !== bestIdentity &&
        candidate.unique &&
        candidate.bytes <= 24 &&
        identityWord[candidate.s] !== '' &&
        identityWord[candidate.s] !== word
      ) {
        group.alsoIdentity = candidate.s;
        break;
      }
    }
    stateCandidates.sort(byScoreThenSignature);
    const states: number[] = [];
    for (const candidate of stateCandidates) {
      if (states.length === STATES_PER_RECORD) break;
      if (candidate.s !== bestIdentity && candidate.s !== group.alsoIdentity) {
        states.push(candidate.s);
      }
    }
    group.states = states;
    group.says = -1;
    if (!group.primary) continue;
    // The record's own field before one of something it holds (a tweet's `text`, not its
    // author's `user.description`), then the most information per byte.
    let saysDepth = MESSAGE_DEPTH + 1;
    let saysPerByte = 0;
    for (const s of fieldsOfGroup[g]!) {
      if (readsAsProse[s] === 0 || fieldDepth[s]! > MESSAGE_DEPTH || s === bestIdentity) continue;
      // Present in most records, and not one text for all (what every record says the same
      // is said once, in the note, or is a state).
      if (presence[s]! < 0.5 * records || distinct[s]! < Math.max(2, 0.1 * values[s]!)) continue;
      const perByte = nodeBits[s]! / (signatures.bytes[s]! / sigNodes[s]! + 1);
      if (fieldDepth[s]! < saysDepth || (fieldDepth[s] === saysDepth && perByte > saysPerByte)) {
        saysDepth = fieldDepth[s]!;
        saysPerByte = perByte;
        group.says = s;
      }
    }
  }

  const { anomalies, leadingAnomalies, errorContext } = findAnomalies(
    inventory,
    signatures,
    gathered,
    ownerOfSig,
    hinted,
    check,
  );
  return {
    signatures,
    groups,
    groupOfSig,
    recordAbove: gathered.recordAbove,
    nodeBits,
    anomalies,
    leadingAnomalies,
    errorContext,
    values,
    distinct,
    top,
    presence,
    paths: new Map(),
  };
}

/** Where anomaly credits go, and what they add up to per record. */
interface Credits {
  recordAbove: Int32Array;
  groupOfSig: Int32Array;
  sigOf: Int32Array;
  primaryGroup: Uint8Array;
  scores: Map<number, Array<{ u: number; score: number }>>;
}

/** Credits node `u`'s oddity to the innermost primary record around it, else the outermost. */
function credit(c: Credits, u: number, score: number): void {
  const { recordAbove, groupOfSig, sigOf } = c;
  let record = recordAbove[u]!;
  let outermost = -1;
  for (let hops = 0; record >= 0 && hops < 64; hops++) {
    const g = groupOfSig[sigOf[record]!]!;
    if (g >= 0 && c.primaryGroup[g] === 1) break;
    if (g >= 0) outermost = record;
    record = recordAbove[record]!;
  }
  if (record < 0) record = outermost;
  if (record < 0) return;
  let fields = c.scores.get(record);
  if (!fields) {
    fields = [];
    c.scores.set(record, fields);
  }
  if (fields.length < 256) fields.push({ u, score });
}

/** Records whose values stand out (see `analyzeRecords`), most anomalous first. */
function findAnomalies(
  inventory: JsonInventory,
  signatures: JsonSignatures,
  gathered: Columns,
  ownerOfSig: Int32Array,
  hinted: Uint8Array,
  check: StopCheck | undefined,
): { anomalies: Anomaly[]; leadingAnomalies: number; errorContext: number[] } {
  const { text, count, kind, start, end, unitBytes } = inventory;
  const sigOf = signatures.of;
  const sigCount = signatures.count;
  const sigParent = signatures.parent;
  const { groups, groupOfSig, recordAbove, values, distinct, top, presence, entryOf } = gathered;
  const { entryCount, entrySig, numbers } = gathered;

  // Per signature, what can make one of its nodes stand out.
  const groupSize = new Int32Array(sigCount);
  const rareKey = new Float32Array(sigCount);
  const categorical = new Uint8Array(sigCount);
  const mean = new Float64Array(sigCount);
  const deviation = new Float64Array(sigCount);
  const threshold = new Float64Array(sigCount);
  const interesting = new Uint8Array(sigCount);
  // A key most records lack counts only where its siblings mostly do not (keys that are data,
  // such as one per IP address, are all rare and say nothing).
  const rareChildren = new Int32Array(sigCount);
  const children = new Int32Array(sigCount);
  // Whether a signature's subtree holds any value at all (bookkeeping such as
  // `"f:affinity": {".": {}}` holds only empty objects: a rare key there says nothing).
  const holdsValue = new Uint8Array(sigCount);
  for (let s = sigCount - 1; s >= 1; s--) {
    const sample = signatures.first[s]!;
    if (kind[sample] === NODE_STRING || kind[sample] === NODE_SCALAR) holdsValue[s] = 1;
    if (holdsValue[s] === 1) holdsValue[sigParent[s]!] = 1;
  }
  for (let s = 1; s < sigCount; s++) {
    const owner = ownerOfSig[s]!;
    groupSize[s] = owner >= 0 ? groups[owner]!.records.length : 0;
    const p = sigParent[s]!;
    children[p]!++;
    if (groupSize[s]! >= 5 && presence[s]! <= 0.2 * groupSize[s]!) rareChildren[p]!++;
  }
  for (let s = 1; s < sigCount; s++) {
    const records = groupSize[s]!;
    if (records === 0) continue;
    const p = sigParent[s]!;
    if (records >= 5 && presence[s]! <= 0.2 * records) {
      const parentRare = p > 0 && groupOfSig[p]! < 0 && presence[p]! <= 0.2 * records;
      const keysAreData = rareChildren[p]! > Math.max(2, 0.25 * children[p]!);
      if (!parentRare && !keysAreData && holdsValue[s] === 1) {
        rareKey[s] = Math.min(1.5, 0.5 * Math.log2(records / Math.max(1, presence[s]!)));
      }
    }
    const n = values[s]!;
    if (n >= 3 && distinct[s]! >= 2 && distinct[s]! <= Math.max(2, n / 2) && top[s]! >= 0.5 * n) {
      // Mostly empty, with a few one-off values (an id set on some records): that a value is
      // there says about as much as a rare key does.
      categorical[s] =
        gathered.topEmpty[s] === 1 && n - top[s]! <= 1.5 * (distinct[s]! - 1) ? 2 : 1;
    }
    const m = numbers[s]!;
    if (categorical[s] === 0 && m >= 5) {
      const average = gathered.numberSum[s]! / m;
      const variance = gathered.numberSquares[s]! / m - average * average;
      if (variance > 1e-12 * Math.max(1, average * average)) {
        mean[s] = average;
        deviation[s] = Math.sqrt(variance);
        threshold[s] = Math.min(3, 0.9 * Math.sqrt(m - 1));
      }
    }
    if (rareKey[s]! > 0 || categorical[s]! > 0 || deviation[s]! > 0) interesting[s] = 1;
  }

  // What a value of a categorical field scores, once per value rather than per node: a rare
  // one among few, more where the commonest is common.
  const entryScore = new Float64Array(gathered.entries);
  for (let e = 0; e < gathered.entries; e++) {
    const s = entrySig[e]!;
    if (categorical[s] === 0) continue;
    const n = values[s]!;
    const c = entryCount[e]!;
    if (categorical[s] === 1 && c <= Math.max(1, 0.15 * n) && c < top[s]!) {
      entryScore[e] = (top[s]! / n) * Math.log2(n / c) * (hinted[s] === 1 ? 1.5 : 1);
    } else if (categorical[s] === 2 && c < top[s]!) {
      entryScore[e] = Math.min(1.5, 0.5 * Math.log2(n / c));
    }
  }

  const scores = new Map<number, Array<{ u: number; score: number }>>();
  const primaryGroup = new Uint8Array(groups.length);
  for (let g = 0; g < groups.length; g++) primaryGroup[g] = groups[g]!.primary ? 1 : 0;
  const credits: Credits = { recordAbove, groupOfSig, sigOf, primaryGroup, scores };
  for (let u = 1; u < count; u++) {
    if ((u & 8191) === 0 && check) check(8192);
    const s = sigOf[u]!;
    if (interesting[s] === 0 || recordAbove[u]! < 0) continue;
    let score = rareKey[s]!;
    const entry = entryOf[u]!;
    if (entry >= 0) score += entryScore[entry]!;
    if (deviation[s]! > 0 && kind[u] === NODE_SCALAR) {
      const x = numberAt(text, start[u]!, end[u]!);
      const z = Math.abs(x - mean[s]!) / deviation[s]!;
      if (z >= threshold[s]!) score += Math.min(3, 1 + z - threshold[s]!);
    }
    if (score > 0) credit(credits, u, score);
  }
  // Error-like values: anomalous where they are rare in their field.
  const errorContext: number[] = [];
  let lastError = -1;
  for (const at of inventory.errorAt) {
    const u = nodeAt(inventory, at);
    if (u <= 0 || u === lastError) continue;
    lastError = u;
    if (recordAbove[u]! < 0) {
      if (unitBytes[u]! <= 512 && errorContext.length < 16) errorContext.push(u);
      continue;
    }
    const s = sigOf[u]!;
    const entry = entryOf[u]!;
    const n = values[s]!;
    const c = entry >= 0 ? entryCount[entry]! : 1;
    if (n < 3 || c <= 0.25 * n) credit(credits, u, 2.5);
  }

  let primaryTotal = 0;
  for (const group of groups) if (group.primary) primaryTotal += group.records.length;
  const leading = Math.max(3, Math.min(25, Math.ceil(0.03 * primaryTotal)));
  const anomalies: Anomaly[] = [];
  for (const [record, credited] of scores) {
    // One entry per node (a value can be rare and read like an error both). Credits come in
    // node order but for the error-like ones, which come after: nodes in strictly ascending
    // order are each there once already.
    let ascending = true;
    for (let i = 1; i < credited.length && ascending; i++) {
      ascending = credited[i]!.u > credited[i - 1]!.u;
    }
    let fields = credited;
    if (!ascending) {
      const byNode = new Map<number, number>();
      for (const { u, score } of credited) byNode.set(u, (byNode.get(u) ?? 0) + score);
      fields = [];
      for (const [u, score] of byNode) fields.push({ u, score });
    }
    // What stands out most decides, the next two add a little: a big record's many small
    // oddities do not add up to one real one.
    const best = topFields(fields, ANOMALY_FIELDS, byScoreThenNode);
    const score = (best[0]?.score ?? 0) + 0.3 * (best[1]?.score ?? 0) + 0.1 * (best[2]?.score ?? 0);
    if (score < ANOMALY_MIN_SCORE) continue;
    const anomaly: Anomaly = { record, score, fields: [], fieldScores: [] };
    for (const field of best) {
      anomaly.fields.push(field.u);
      anomaly.fieldScores.push(field.score);
    }
    anomalies.push(anomaly);
  }
  anomalies.sort(byScoreThenRecord);
  anomalies.length = Math.min(anomalies.length, MORE_ANOMALIES);
  for (const anomaly of anomalies) explainFirst(inventory, signatures, anomaly);
  return { anomalies, leadingAnomalies: Math.min(anomalies.length, leading), errorContext };
}

/**
 * How a node of an anomalous record explains it: 0 for a short string that reads as a state or
 * a reason (`Evicted`, `Timeout`), 1 for a longer one (a message), -1 for a value that does not
 * explain (a boolean, a number, an opaque token, a string neither keyed as a state nor
 * error-like). A string reads as a state where its key's last word is a state word (`reason`,
 * `phase`, `message`, `error`…) or where it holds an error-like word.
 */
function explains(inventory: JsonInventory, signatures: JsonSignatures, u: number): number {
  const { text, kind, start, end } = inventory;
  if (kind[u] !== NODE_STRING) return -1;
  const from = start[u]! + 1;
  const to = end[u]! - 1;
  if (
    !keyHints(signatureKey(inventory, signatures, signatures.of[u]!)).state &&
    !holdsErrorWord(inventory.errorAt, from, to)
  ) {
    return -1;
  }
  let letters = false;
  for (let i = from; i < Math.min(to, from + REASON_UNITS) && !letters; i++) {
    const c = text.charCodeAt(i) | 0x20;
    letters = (c >= 0x61 && c <= 0x7a) || c >= 0x80;
  }
  if (!letters || looksOpaque(text, from, to)) return -1;
  return to - from <= REASON_UNITS ? 0 : 1;
}

/** Whether one of `errorAt` (ascending positions) is in [from, to). */
function holdsErrorWord(errorAt: readonly number[], from: number, to: number): boolean {
  const at = lowerBound(errorAt, from);
  return at < errorAt.length && errorAt[at]! < to;
}

/**
 * Puts first among an anomaly's fields the values that say why its record stands out: a rare
 * string that reads as a state or a reason, then a message (looked for inside a small container
 * that stands out too: `failure: {reason: "Timeout"}`), before rare booleans and counters that
 * only flag it (`ready: false`, `restartCount: 42`), which follow by how much they stand out. A
 * reason says more per byte than a flag it implies: a view that has room for one field should
 * say why. Reasons by how much they stand out, then in document order; the record's score does
 * not change.
 */
function explainFirst(
  inventory: JsonInventory,
  signatures: JsonSignatures,
  anomaly: Anomaly,
): void {
  const { kind, next } = inventory;
  const explaining: Array<{ u: number; score: number; rank: number }> = [];
  for (let i = 0; i < anomaly.fields.length; i++) {
    const u = anomaly.fields[i]!;
    const score = anomaly.fieldScores[i]!;
    const rank = explains(inventory, signatures, u);
    if (rank >= 0) {
      explaining.push({ u, score, rank });
    } else if (
      (kind[u] === NODE_OBJECT || kind[u] === NODE_ARRAY) &&
      next[u]! - u <= EXPLAINED_CONTAINER_NODES
    ) {
      for (let c = u + 1; c < next[u]!; c++) {
        const inner = explains(inventory, signatures, c);
        if (inner >= 0) explaining.push({ u: c, score, rank: inner });
      }
    }
  }
  if (explaining.length === 0) return;
  explaining.sort(byRankScoreThenNode);
  const fields: number[] = [];
  const fieldScores: number[] = [];
  for (const { u, score } of explaining) {
    if (fields.length === ANOMALY_FIELDS) break;
    if (fields.includes(u)) continue;
    fields.push(u);
    fieldScores.push(score);
  }
  for (let i = 0; i < anomaly.fields.length; i++) {
    if (fields.includes(anomaly.fields[i]!)) continue;
    fields.push(anomaly.fields[i]!);
    fieldScores.push(anomaly.fieldScores[i]!);
  }
  anomaly.fields = fields;
  anomaly.fieldScores = fieldScores;
}

function byRankScoreThenNode(
  a: { u: number; score: number; rank: number },
  b: { u: number; score: number; rank: number },
) {
  return a.rank - b.rank || b.score - a.score || a.u - b.u;
}

/**
 * The node of signature `s` inside record `r` (the first, when a key repeats), found by walking
 * down from `r` along the signatures between them (reached through keys); -1 when `r` lacks it.
 */
export function recordField(
  inventory: JsonInventory,
  analysis: RecordAnalysis,
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

/** The smallest node whose unit (key included) contains `position`. */
export function nodeAt(inventory: JsonInventory, position: number): number {
  const { keyStart, start, end, parent } = inventory;
  let low = 0;
  let high = inventory.count - 1;
  while (low < high) {
    const mid = (low + high + 1) >>> 1;
    const at = keyStart[mid]! >= 0 ? keyStart[mid]! : start[mid]!;
    if (at <= position) low = mid;
    else high = mid - 1;
  }
  let u = low;
  while (u > 0 && end[u]! <= position) u = parent[u]!;
  return u;
}
