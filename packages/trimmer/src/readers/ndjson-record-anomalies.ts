import { errorWordBoundary } from '../engine/relevance.js';
import type { StopCheck } from '../engine/stop-check.js';
import { ERROR_WORDS } from '../vocabulary.js';

/**
 * How far each record of an NDJSON text stands out from the others by its fields, as the JSON
 * path judges the records of a list (`analyzeRecords`), without its inventory: each line is
 * parsed on its own and its scalar leaves are counted by dotted path, then each record is scored
 * for what is rare there. Generic: no field name is known; what a field holds is learnt from the
 * records themselves.
 *
 * A record stands out for
 * - a value rare in a field where a few values cover nearly all records and one dominates
 *   (`statusCode: 503` among 200s), by how rare it is: ln(values / count);
 * - a key that few records have (an `err` object), by ln(records / holding), at a lower weight;
 *   not a key under an object whose keys are data (one per IP address), and not one that holds
 *   nothing but empty containers;
 * - a number far above the rest of its field (`responseTime: 7196` among 10–50): above its 99th
 *   percentile, at least 5× its median and far out on a log scale, by ln(value / median);
 * - a string that reads like an error in a field where few records have one.
 * Fields whose values are mostly distinct (ids, timestamps, URLs) have no dominant value, so none
 * of their values is rare; timestamps and counters are never far above their median.
 *
 * The score of a record is its most telling field's plus half the next and a quarter of the
 * third, capped at `RECORD_CAP`; below `RECORD_FLOOR` it is 0 (routine). See the constants for
 * the scale.
 */

/** Lines longer than this many UTF-16 units (newline included) are not parsed. */
const MAX_LINE_UNITS = 1 << 16;
/** Scalar leaves, containers and children looked at per record, and how deep. */
const MAX_LEAVES = 64;
const MAX_CONTAINERS = 64;
const MAX_VISITS = 256;
/** Containers below this depth (the record is depth 0) are counted but not looked into. */
const MAX_DEPTH = 4;
/** Paths told apart in all, and per parent: past that, a parent's keys are data. */
const MAX_PATHS = 4096;
const MAX_CHILDREN = 256;
/** Key units that tell paths apart. */
const KEY_UNITS = 64;
/** Values told apart per path, and in all; the rest count as distinct. */
const MAX_VALUES_PER_PATH = 256;
const MAX_ENTRIES = 1 << 16;
/** Strings up to this many units are told apart exactly; longer ones by their ends and length. */
const VALUE_UNITS = 64;
/** Numbers kept per path for its percentiles (every k-th, k doubling when full). */
const NUMBER_SAMPLE = 10_000;
/** Integers from this magnitude are ids, not quantities. */
const QUANTITY_MAX = 1e15;
/** Records (or values of a field) below which nothing is judged rare. */
const MIN_RECORDS = 20;
/** A value or key is rare at most at this share of its field's values or of the records. */
const RARE_SHARE = 0.05;
/** A field is categorical when its values that are not rare cover at least this share. */
const ROUTINE_COVERAGE = 0.9;
/** The commonest value's share from which a field's rare values count, and at which fully. */
const DOMINANT_FROM = 0.5;
const DOMINANT_FULL = 0.9;
/**
 * Weight of a rare key's rarity, and of a rare value in a field whose rare values are mostly
 * one-offs (ids set on a few records): their presence says about what a rare key does.
 */
const RARE_KEY_WEIGHT = 0.75;
/** A rare value's tail is one-offs past this many distinct values, half its count or more. */
const ONE_OFF_TAIL = 3;
/** A number stands out from this many times its field's median, and this far on a log scale. */
const OUTLIER_RATIO = 5;
const OUTLIER_Z = 3.5;
/** 1.4826 × MAD estimates a standard deviation. */
const MAD_SCALE = 1.4826;
/** Most a number far above the rest scores (ln of its ratio to the median). */
const OUTLIER_CAP = 6;
/** What an error-like string adds, where at most `ERROR_SHARE` of the records have one there. */
const ERROR_LIKE = 2.5;
const ERROR_SHARE = 0.25;
/** Units of a string looked at for an error-like word. */
const ERROR_SCAN_UNITS = 256;
/** Weights of a record's most telling fields, best first. */
const FIELD_WEIGHTS = [1, 0.5, 0.25] as const;
/** Most a record scores, and least it scores to stand out at all. */
export const RECORD_CAP = 12;
export const RECORD_FLOOR = 1;
/** Records between two reports to the stop check. */
const CHECK_RECORDS = 256;

const ROOT = 0;
/** `itemEntry` of a container, and of a value not told apart. */
const CONTAINER = -2;
const UNTRACKED = -1;

const ERROR_PATTERN = new RegExp(
  ERROR_WORDS.map((word) => word.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&')).join('|'),
  'gi',
);
const NON_ZERO_STATUS = /[ :=]*[1-9]/y;

/** Whether `value`'s first `ERROR_SCAN_UNITS` hold an error-like word (as `relevance` reads one). */
function errorLike(value: string): boolean {
  const text = value.length > ERROR_SCAN_UNITS ? value.slice(0, ERROR_SCAN_UNITS) : value;
  ERROR_PATTERN.lastIndex = 0;
  for (let match = ERROR_PATTERN.exec(text); match; match = ERROR_PATTERN.exec(text)) {
    if (!errorWordBoundary(text, match.index)) {
      ERROR_PATTERN.lastIndex = match.index + 1;
      continue;
    }
    if (match[0].length > 5 && match[0].charCodeAt(4) === 0x20) {
      // `exit code` / `exit status` only with a non-zero status after it.
      NON_ZERO_STATUS.lastIndex = match.index + match[0].length;
      if (!NON_ZERO_STATUS.test(text)) continue;
    }
    return true;
  }
  return false;
}

/**
 * The key a scalar value is told apart by: the value itself (a map keeps `200` and `"200"`, `true`
 * and `"true"` apart), except a string longer than `VALUE_UNITS`, told by its length and ends (a
 * key longer than any short string, so the two never meet).
 */
function valueKey(value: string | number | boolean | null): string | number | boolean | null {
  if (typeof value !== 'string' || value.length <= VALUE_UNITS) return value;
  return `S${value.length}\u0000${value.slice(0, VALUE_UNITS - 16)}\u0000${value.slice(-16)}`;
}

/** An Int32Array `array` of at least `size` entries, its first `used` kept. */
function growInts(array: Int32Array, size: number, used: number): Int32Array {
  if (size <= array.length) return array;
  const wider = new Int32Array(Math.max(size, array.length * 2));
  wider.set(array.subarray(0, used));
  return wider;
}

function growFloats(array: Float64Array, size: number, used: number): Float64Array {
  if (size <= array.length) return array;
  const wider = new Float64Array(Math.max(size, array.length * 2));
  wider.set(array.subarray(0, used));
  return wider;
}

/** Per path, what the first pass counts. */
interface Paths {
  /** Child paths by key (the first `KEY_UNITS` of it), per parent. */
  keyed: Array<Map<string, number> | undefined>;
  /** The path of an array's items, and of the keys past `MAX_CHILDREN`, per parent (or -1). */
  items: number[];
  rest: number[];
  parent: number[];
  /** Records holding it at least once, and the last one counted. */
  presence: number[];
  lastRecord: number[];
  /** Scalar values seen, those not told apart, and those reading like an error. */
  values: number[];
  untracked: number[];
  errorValues: number[];
  /** Child paths, and whether more were seen than `MAX_CHILDREN` (its keys are data). */
  children: number[];
  overflow: number[];
  /** It or a path below it held a scalar value. */
  holdsValue: number[];
  /** Its values told apart: value key → entry. */
  valueIds: Array<Map<string | number | boolean | null, number> | undefined>;
  /** A sample of its numbers, every `stride`-th of `numbersSeen`. */
  samples: Array<number[] | undefined>;
  numbersSeen: number[];
  stride: number[];
}

function newPaths(): Paths {
  return {
    keyed: [undefined],
    items: [-1],
    rest: [-1],
    parent: [-1],
    presence: [0],
    lastRecord: [-1],
    values: [0],
    untracked: [0],
    errorValues: [0],
    children: [0],
    overflow: [0],
    holdsValue: [0],
    valueIds: [undefined],
    samples: [undefined],
    numbersSeen: [0],
    stride: [1],
  };
}

/** The path of `key` under `parent` (`undefined` for an array's items), -1 past `MAX_PATHS`. */
function childPath(paths: Paths, parent: number, key: string | undefined): number {
  let keyed: Map<string, number> | undefined;
  let name = '';
  if (key === undefined) {
    const known = paths.items[parent]!;
    if (known >= 0) return known;
  } else {
    name = key.length > KEY_UNITS ? key.slice(0, KEY_UNITS) : key;
    keyed = paths.keyed[parent];
    const known = keyed?.get(name);
    if (known !== undefined) return known;
  }
  if (paths.children[parent]! < MAX_CHILDREN) {
    const id = newPath(paths, parent);
    if (id >= 0) {
      if (key === undefined) paths.items[parent] = id;
      else {
        if (!keyed) {
          keyed = new Map();
          paths.keyed[parent] = keyed;
        }
        keyed.set(name, id);
      }
    }
    return id;
  }
  // Keys that are data (one per IP address): the rest share one path, never a rare key.
  paths.overflow[parent] = 1;
  const rest = paths.rest[parent]!;
  if (rest >= 0) return rest;
  const id = newPath(paths, parent);
  if (id >= 0) paths.rest[parent] = id;
  return id;
}

function newPath(paths: Paths, parent: number): number {
  if (paths.parent.length >= MAX_PATHS) return -1;
  const id = paths.parent.length;
  paths.keyed.push(undefined);
  paths.items.push(-1);
  paths.rest.push(-1);
  paths.parent.push(parent);
  paths.presence.push(0);
  paths.lastRecord.push(-1);
  paths.values.push(0);
  paths.untracked.push(0);
  paths.errorValues.push(0);
  paths.children.push(0);
  paths.overflow.push(0);
  paths.holdsValue.push(0);
  paths.valueIds.push(undefined);
  paths.samples.push(undefined);
  paths.numbersSeen.push(0);
  paths.stride.push(1);
  paths.children[parent]!++;
  return id;
}

/** The items of every record: a path each, with its value's entry, number and error flag. */
interface Items {
  count: number;
  path: Int32Array;
  entry: Int32Array;
  number: Float64Array;
  error: Uint8Array;
}

/** What the first pass gathers. */
interface Gathered {
  paths: Paths;
  items: Items;
  /** Per record, its first item (`records + 1` entries). */
  itemFrom: Int32Array;
  /** Records that parsed to an object or an array. */
  parsed: number;
  entryCount: Int32Array;
  entryPath: Int32Array;
  entries: number;
}

// The first pass's queue of containers to look into, and what it has counted of the record
// being flattened: kept between records (one record is flattened at a time), and a function of
// the module rather than a closure per record, whose optimised code would not outlive it.
const queueValue: unknown[] = [];
const queuePath: number[] = [];
const queueDepth: number[] = [];
let queued = 0;
let leaves = 0;
let containers = 0;
let visits = 0;

/** Counts `value`, found at path `p` of record `r`, and queues it when it is a container. */
function visit(g: Gathered, p: number, r: number, value: unknown, depth: number): void {
  visits++;
  if (value !== null && typeof value === 'object') {
    if (containers >= MAX_CONTAINERS) return;
    containers++;
    addItem(g, p, r, CONTAINER, Number.NaN, 0);
    if (depth < MAX_DEPTH) {
      queueValue[queued] = value;
      queuePath[queued] = p;
      queueDepth[queued] = depth;
      queued++;
    }
    return;
  }
  if (leaves >= MAX_LEAVES) return;
  leaves++;
  leaf(g, p, r, value as string | number | boolean | null);
}

/** Adds the items of record `r` (parsed to `root`) to `g`, breadth first, within the bounds. */
function flatten(g: Gathered, root: object, r: number): void {
  const { paths } = g;
  queueValue[0] = root;
  queuePath[0] = ROOT;
  queueDepth[0] = 0;
  queued = 1;
  leaves = 0;
  containers = 0;
  visits = 0;
  for (let q = 0; q < queued && visits < MAX_VISITS; q++) {
    const container = queueValue[q]!;
    const p = queuePath[q]!;
    const depth = queueDepth[q]! + 1;
    if (Array.isArray(container)) {
      if (container.length === 0) continue;
      const items = childPath(paths, p, undefined);
      if (items < 0) continue;
      for (let i = 0; i < container.length && visits < MAX_VISITS; i++) {
        visit(g, items, r, container[i], depth);
      }
    } else {
      const record = container as Record<string, unknown>;
      for (const key of Object.keys(record)) {
        if (visits >= MAX_VISITS) break;
        const child = childPath(paths, p, key);
        if (child < 0) {
          visits++;
          continue;
        }
        visit(g, child, r, record[key], depth);
      }
    }
  }
  // The record's values are let go.
  for (let q = 0; q < queued; q++) queueValue[q] = undefined;
}

function addItem(
  g: Gathered,
  p: number,
  r: number,
  entry: number,
  number: number,
  error: number,
): void {
  const { paths } = g;
  if (paths.lastRecord[p] !== r) {
    paths.lastRecord[p] = r;
    paths.presence[p]!++;
  }
  const items = g.items;
  const k = items.count;
  if (k === items.path.length) {
    items.path = growInts(items.path, k + 1, k);
    items.entry = growInts(items.entry, k + 1, k);
    items.number = growFloats(items.number, k + 1, k);
    const error = new Uint8Array(items.path.length);
    error.set(items.error.subarray(0, k));
    items.error = error;
  }
  items.path[k] = p;
  items.entry[k] = entry;
  items.number[k] = number;
  items.error[k] = error;
  items.count = k + 1;
}

function leaf(g: Gathered, p: number, r: number, value: string | number | boolean | null): void {
  const { paths } = g;
  paths.values[p]!++;
  paths.holdsValue[p] = 1;
  const key = valueKey(value);
  let ids = paths.valueIds[p];
  if (!ids) {
    ids = new Map();
    paths.valueIds[p] = ids;
  }
  let entry = ids.get(key);
  if (entry === undefined) {
    if (ids.size < MAX_VALUES_PER_PATH && g.entries < MAX_ENTRIES) {
      entry = g.entries++;
      ids.set(key, entry);
      g.entryCount = growInts(g.entryCount, entry + 1, entry);
      g.entryPath = growInts(g.entryPath, entry + 1, entry);
      g.entryCount[entry] = 0;
      g.entryPath[entry] = p;
    } else {
      entry = UNTRACKED;
      paths.untracked[p]!++;
    }
  }
  if (entry >= 0) g.entryCount[entry]!++;
  let number = Number.NaN;
  if (typeof value === 'number' && Number.isFinite(value) && Math.abs(value) < QUANTITY_MAX) {
    number = value;
    const seen = paths.numbersSeen[p]!++;
    if (seen % paths.stride[p]! === 0) {
      let sample = paths.samples[p];
      if (!sample) {
        sample = [];
        paths.samples[p] = sample;
      }
      sample.push(value);
      if (sample.length >= NUMBER_SAMPLE) {
        // Keep every other one: what is left was taken every 2 × stride values.
        paths.samples[p] = sample.filter((_, i) => (i & 1) === 0);
        paths.stride[p]! *= 2;
      }
    }
  }
  let error = 0;
  if (typeof value === 'string' && errorLike(value)) {
    error = 1;
    paths.errorValues[p]!++;
  }
  addItem(g, p, r, entry, number, error);
}

/**
 * Where the JSON of `text[from, to)` starts (past spaces and a BOM), or -1 when it is not a
 * container closed at the end of the line: a cut line is told without parsing it (a failed parse
 * costs about as much as a hundred good ones).
 */
function jsonStart(text: string, from: number, to: number): number {
  let at = -1;
  for (let i = from; i < to && at < 0; i++) {
    const c = text.charCodeAt(i);
    if (c === 0x7b || c === 0x5b) at = i;
    else if (c !== 0x20 && c !== 0x09 && c !== 0x0d && c !== 0x0a && c !== 0xfeff) return -1;
  }
  if (at < 0) return -1;
  for (let i = to - 1; i > at; i--) {
    const c = text.charCodeAt(i);
    if (c === 0x20 || c === 0x09 || c === 0x0d || c === 0x0a) continue;
    return c === text.charCodeAt(at) + 2 ? at : -1;
  }
  return -1;
}

function gather(text: string, starts: readonly number[], check: StopCheck): Gathered {
  const units = starts.length;
  const g: Gathered = {
    paths: newPaths(),
    items: {
      count: 0,
      path: new Int32Array(1024),
      entry: new Int32Array(1024),
      number: new Float64Array(1024),
      error: new Uint8Array(1024),
    },
    itemFrom: new Int32Array(units + 1),
    parsed: 0,
    entryCount: new Int32Array(256),
    entryPath: new Int32Array(256),
    entries: 0,
  };
  let work = 0;
  for (let r = 0; r < units; r++) {
    g.itemFrom[r] = g.items.count;
    const from = starts[r]!;
    const to = r + 1 < units ? starts[r + 1]! : text.length;
    work += Math.max(0, to - from) + 16;
    if ((r + 1) % CHECK_RECORDS === 0) {
      check(work);
      work = 0;
    }
    if (to - from > MAX_LINE_UNITS) continue;
    const at = jsonStart(text, from, to);
    if (at < 0) continue;
    let root: unknown;
    try {
      root = JSON.parse(text.slice(at, to));
    } catch {
      continue;
    }
    if (root === null || typeof root !== 'object') continue;
    g.parsed++;
    flatten(g, root, r);
  }
  g.itemFrom[units] = g.items.count;
  check(work);
  return g;
}

/** Per path and per value entry, what makes an item stand out. */
interface Judged {
  rareKey: Float64Array;
  entryScore: Float64Array;
  untrackedScore: Float64Array;
  median: Float64Array;
  p99: Float64Array;
  logMedian: Float64Array;
  /** 0 when the log deviation is 0 (all but outliers alike): any outlier is far out. */
  logSigma: Float64Array;
  errorAllowed: Uint8Array;
}

function judge(g: Gathered, check: StopCheck): Judged {
  const { paths, parsed } = g;
  const count = paths.parent.length;
  const rareKey = new Float64Array(count);
  const untrackedScore = new Float64Array(count);
  const median = new Float64Array(count);
  const p99 = new Float64Array(count);
  const logMedian = new Float64Array(count);
  const logSigma = new Float64Array(count);
  const errorAllowed = new Uint8Array(count);
  const entryScore = new Float64Array(g.entries);

  // Children were made after their parents: one backward sweep carries `holdsValue` up.
  const holdsValue = Uint8Array.from(paths.holdsValue);
  for (let p = count - 1; p > ROOT; p--) {
    if (holdsValue[p] === 1) holdsValue[paths.parent[p]!] = 1;
  }
  const judgeRecords = parsed >= MIN_RECORDS;
  const rare = new Uint8Array(count);
  const rareChildren = new Int32Array(count);
  for (let p = ROOT + 1; p < count && judgeRecords; p++) {
    if (paths.presence[p]! <= RARE_SHARE * parsed) {
      rare[p] = 1;
      rareChildren[paths.parent[p]!]!++;
    }
  }
  for (let p = ROOT + 1; p < count && judgeRecords; p++) {
    if (rare[p] === 0 || holdsValue[p] === 0) continue;
    const q = paths.parent[p]!;
    if (q !== ROOT && rare[q] === 1) continue;
    const keysAreData =
      paths.overflow[q] === 1 || rareChildren[q]! > Math.max(8, 0.25 * paths.children[q]!);
    if (keysAreData) continue;
    rareKey[p] = RARE_KEY_WEIGHT * Math.log(parsed / Math.max(1, paths.presence[p]!));
  }

  // Rare values of categorical fields, once per value.
  const entriesOf: number[][] = Array.from({ length: count }, () => []);
  for (let e = 0; e < g.entries; e++) entriesOf[g.entryPath[e]!]!.push(e);
  for (let p = ROOT + 1; p < count; p++) {
    const n = paths.values[p]!;
    errorAllowed[p] = paths.errorValues[p]! <= ERROR_SHARE * Math.max(parsed, 1) ? 1 : 0;
    if (n < MIN_RECORDS) continue;
    const rareLimit = RARE_SHARE * n;
    let routine = 0;
    let top = 0;
    let tailMass = paths.untracked[p]!;
    let tailDistinct = paths.untracked[p]!;
    for (const e of entriesOf[p]!) {
      const c = g.entryCount[e]!;
      if (c > rareLimit) {
        routine += c;
        top = Math.max(top, c);
      } else {
        tailMass += c;
        tailDistinct++;
      }
    }
    if (tailMass === 0 || routine < ROUTINE_COVERAGE * n) continue;
    const dominance = Math.min(
      1,
      Math.max(0, (top / n - DOMINANT_FROM) / (DOMINANT_FULL - DOMINANT_FROM)),
    );
    if (dominance === 0) continue;
    const oneOffs = tailDistinct > ONE_OFF_TAIL && tailDistinct >= 0.5 * tailMass;
    const oneOffScore = dominance * RARE_KEY_WEIGHT * Math.log(n / tailMass);
    for (const e of entriesOf[p]!) {
      const c = g.entryCount[e]!;
      if (c > rareLimit) continue;
      entryScore[e] = oneOffs ? oneOffScore : dominance * Math.log(n / c);
    }
    untrackedScore[p] = oneOffs ? oneOffScore : dominance * Math.log(n);
  }
  check(count + g.entries);

  // Numbers far above the rest: the sample's median, 99th percentile and spread of logs.
  let sorted = 0;
  for (let p = ROOT + 1; p < count; p++) {
    const sample = paths.samples[p];
    if (!sample || sample.length < MIN_RECORDS) continue;
    const values = Float64Array.from(sample).sort();
    const m = values.length;
    sorted += m;
    const mid = values[(m - 1) >> 1]!;
    if (!(mid > 0)) continue;
    median[p] = mid;
    p99[p] = values[Math.floor(0.99 * (m - 1))]!;
    const lnMid = Math.log(mid);
    logMedian[p] = lnMid;
    let positives = 0;
    for (let i = 0; i < m; i++) {
      if (values[i]! > 0) values[positives++] = Math.abs(Math.log(values[i]!) - lnMid);
    }
    const deviations = values.subarray(0, positives).sort();
    logSigma[p] = MAD_SCALE * deviations[(positives - 1) >> 1]!;
  }
  check(sorted);
  return {
    rareKey,
    entryScore,
    untrackedScore,
    median,
    p99,
    logMedian,
    logSigma,
    errorAllowed,
  };
}

/** What number `x` of path `p` scores for standing far above the rest of its field. */
function outlierScore(j: Judged, p: number, x: number): number {
  const mid = j.median[p]!;
  if (!(mid > 0) || !(x > j.p99[p]!) || x < OUTLIER_RATIO * mid) return 0;
  const lift = Math.log(x) - j.logMedian[p]!;
  const sigma = j.logSigma[p]!;
  if (sigma > 0 && lift / sigma < OUTLIER_Z) return 0;
  return Math.min(OUTLIER_CAP, lift);
}

/**
 * Per record of the NDJSON `text` cut at `starts` (each unit from its start to the next, its
 * newline included), how far its fields stand out from the other records': 0 for a routine
 * record (or a blank line, or one that does not parse), else from `RECORD_FLOOR` to
 * `RECORD_CAP`. A rare value in a dominated field scores about ln(values / its count) (8 for one
 * in 3000), a rare key 0.75 × ln(records / holding), a number far above the rest ln(value /
 * median) up to 6, an error-like string 2.5. Two passes over the records, the first parsing each
 * line once; `check` hears the work done (UTF-16 units) every few hundred records.
 */
export function ndjsonRecordAnomalies(
  text: string,
  starts: readonly number[],
  check: StopCheck,
): Float64Array {
  const units = starts.length;
  const scores = new Float64Array(units);
  if (units === 0) return scores;
  const g = gather(text, starts, check);
  if (g.parsed < 2) return scores;
  const j = judge(g, check);
  const { items, paths } = g;
  const scoredRecord = new Int32Array(paths.parent.length).fill(-1);
  let work = 0;
  for (let r = 0; r < units; r++) {
    const from = g.itemFrom[r]!;
    const to = g.itemFrom[r + 1]!;
    work += to - from + 16;
    if ((r + 1) % CHECK_RECORDS === 0) {
      check(work);
      work = 0;
    }
    let best0 = 0;
    let best1 = 0;
    let best2 = 0;
    for (let k = from; k < to; k++) {
      const p = items.path[k]!;
      let field = 0;
      if (scoredRecord[p] !== r) {
        scoredRecord[p] = r;
        field = j.rareKey[p]!;
      }
      const entry = items.entry[k]!;
      if (entry !== CONTAINER) {
        let value = entry >= 0 ? j.entryScore[entry]! : j.untrackedScore[p]!;
        const x = items.number[k]!;
        if (!Number.isNaN(x)) value = Math.max(value, outlierScore(j, p, x));
        if (items.error[k] === 1 && j.errorAllowed[p] === 1) value += ERROR_LIKE;
        // A rare key's own value adds to its rarity as one field.
        field += value;
      }
      if (field > best2) {
        if (field > best0) {
          best2 = best1;
          best1 = best0;
          best0 = field;
        } else if (field > best1) {
          best2 = best1;
          best1 = field;
        } else best2 = field;
      }
    }
    const total = Math.min(
      RECORD_CAP,
      FIELD_WEIGHTS[0] * best0 + FIELD_WEIGHTS[1] * best1 + FIELD_WEIGHTS[2] * best2,
    );
    scores[r] = total >= RECORD_FLOOR ? total : 0;
  }
  check(work);
  return scores;
}
