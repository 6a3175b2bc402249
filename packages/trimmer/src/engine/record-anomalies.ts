import { type JsonInventory, NODE_SCALAR, NODE_STRING } from '../json/json-inventory.js';
import { type JsonSignatures, STEP_ITEM, signatureKey } from '../json/json-signatures.js';
import { type Columns, nodeAt, numberAt } from '../readers/json-records.js';
import { lineTemplate } from '../readers/line-template.js';
import { looksOpaque } from '../readers/looks-opaque.js';
import type { Vocabulary } from '../vocabulary.js';
import { keyHints } from './key-hints.js';
import { lowerBound } from './lower-bound.js';
import {
  OUTLIER_MIN_VALUES,
  outlierScore,
  type RobustSpread,
  robustSpread,
  SPREAD_BOTH_WAYS,
} from './robust-spread.js';
import type { StopCheck } from './stop-check.js';

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

function byScoreThenNode(a: { u: number; score: number }, b: { u: number; score: number }) {
  return b.score - a.score || a.u - b.u;
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

/** Where anomaly credits go, and what they add up to per record. */
interface Credits {
  recordAbove: Int32Array;
  groupOfSig: Int32Array;
  sigOf: Int32Array;
  primaryGroup: Uint8Array;
  scores: Map<number, Array<{ u: number; score: number }>>;
  /** The record credited last and its list: the nodes of a record come one after another. */
  lastRecord: number;
  lastFields: Array<{ u: number; score: number }> | undefined;
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
  let fields = record === c.lastRecord ? c.lastFields : c.scores.get(record);
  if (!fields) {
    fields = [];
    c.scores.set(record, fields);
  }
  c.lastRecord = record;
  c.lastFields = fields;
  if (fields.length < 256) fields.push({ u, score });
}

/** What a value holding an error-like word scores, where few values of its field hold it. */
const ERROR_SCORE = 3;
/**
 * What a rare value of a few-valued field scores at most: half a bit per bit of rarity, so a
 * value one record in a hundred holds scores above one three in a hundred hold.
 */
const RARE_VALUE_CAP = 4;
/** A value of a few-valued field is rare up to this share of the field's values, common past it. */
const RARE_SHARE = 0.15;
/** A value only one record holds, all others one other, stands out from this many values. */
const LONE_MIN_VALUES = 8;
/**
 * How rare a value `c` of `n` values hold is, half a bit per bit, at most `RARE_VALUE_CAP`;
 * where more than `LONE_MIN_VALUES` values are rare (`rare` of them), as rare as its share of
 * them: a port of its own on a third of the requests is what a third of them show.
 */
function rarity(n: number, c: number, rare: number): number {
  const crowd = Math.max(1, rare / LONE_MIN_VALUES);
  return Math.min(RARE_VALUE_CAP, Math.max(0, 0.5 * Math.log2(n / (c * crowd))));
}
/** What an oddity weighs per list between it and its record. */
const NESTED_WEIGHT = 0.75;
/** Values of a field read for its median and spread at most (evenly spread over them). */
const OUTLIER_SAMPLE = 1024;

/**
 * The robust spread of field `s`'s numbers (at most `OUTLIER_SAMPLE` of them, evenly spread):
 * see `robustSpread`.
 */
function fieldSpread(
  inventory: JsonInventory,
  signatures: JsonSignatures,
  s: number,
): RobustSpread | undefined {
  const { text, kind, start, end } = inventory;
  const stride = Math.max(1, Math.floor(signatures.nodes[s]! / OUTLIER_SAMPLE));
  const scaled = new Float64Array(Math.min(signatures.nodes[s]!, OUTLIER_SAMPLE + 1));
  let taken = 0;
  let i = 0;
  for (let u = signatures.first[s]!; u >= 0 && taken < scaled.length; u = signatures.nextSame[u]!) {
    if (i++ % stride !== 0 || kind[u] !== NODE_SCALAR) continue;
    const x = numberAt(text, start[u]!, end[u]!);
    if (Number.isFinite(x)) scaled[taken++] = x;
  }
  return robustSpread(scaled, taken);
}

/** Records whose values stand out (see `analyzeRecords`), most anomalous first. */
export function findAnomalies(
  inventory: JsonInventory,
  signatures: JsonSignatures,
  gathered: Columns,
  ownerOfSig: Int32Array,
  check: StopCheck | undefined,
  vocabulary: Vocabulary,
  textFields: readonly number[] = [],
): { anomalies: Anomaly[]; leadingAnomalies: number; errorContext: number[] } {
  const { text, count, kind, start, end, unitBytes } = inventory;
  const { of: sigOf, count: sigCount, parent: sigParent } = signatures;
  const { groups, groupOfSig, recordAbove, values, distinct, top, presence, entryOf } = gathered;
  const { entryCount, entrySig, numbers } = gathered;

  // Per signature, what can make one of its nodes stand out.
  const groupSize = new Int32Array(sigCount);
  const rareKey = new Float32Array(sigCount);
  const categorical = new Uint8Array(sigCount);
  // Numbers: the median and the median absolute deviation of each field, on a log scale where
  // its values are all positive (a latency, a size: one robust statistic for every field).
  const spreads = new Array<RobustSpread | undefined>(sigCount);
  // What a field's oddities weigh: less for each list between it and its record (a rare value
  // deep in a record's nested lists says less about the record than one of its own).
  const weight = new Float32Array(sigCount).fill(1);
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
  const primarySig = new Uint8Array(sigCount);
  for (const group of groups) if (group.primary) primarySig[group.sig] = 1;
  const lists = new Uint8Array(sigCount);
  for (let s = 1; s < sigCount; s++) {
    const owner = ownerOfSig[s]!;
    groupSize[s] = owner >= 0 ? groups[owner]!.records.length : 0;
    const p = sigParent[s]!;
    children[p]!++;
    if (groupSize[s]! >= 5 && presence[s]! <= 0.2 * groupSize[s]!) rareChildren[p]!++;
    lists[s] =
      primarySig[p] === 1 ? 0 : Math.min(8, lists[p]! + (signatures.step[s] === STEP_ITEM ? 1 : 0));
    weight[s] = NESTED_WEIGHT ** lists[s]!;
  }
  for (let s = 1; s < sigCount; s++) {
    const records = groupSize[s]!;
    if (records === 0) continue;
    const p = sigParent[s]!;
    if (records >= 5 && presence[s]! <= 0.2 * records) {
      const parentRare = p > 0 && groupOfSig[p]! < 0 && presence[p]! <= 0.2 * records;
      const keysAreData = rareChildren[p]! > Math.max(2, 0.25 * children[p]!);
      if (!parentRare && !keysAreData && holdsValue[s] === 1) {
        rareKey[s] = Math.min(
          presence[s] === 1 && records >= 32 ? 2 : 1.5,
          0.5 * Math.log2(records / Math.max(1, presence[s]!)),
        );
      }
    }
    const n = values[s]!;
    if (n >= 3 && distinct[s]! >= 2 && distinct[s]! <= Math.max(2, n / 2) && top[s]! >= 0.5 * n) {
      // Mostly empty, with a few one-off values (an id set on some records): that a value is
      // there says about as much as a rare key does.
      categorical[s] =
        gathered.topEmpty[s] === 1 && n - top[s]! <= 1.5 * (distinct[s]! - 1) ? 2 : 1;
    }
    if (numbers[s]! >= OUTLIER_MIN_VALUES) {
      const found = fieldSpread(inventory, signatures, s);
      if (found && distinct[s]! <= n / 2) found.flags |= SPREAD_BOTH_WAYS;
      spreads[s] = found;
    }
    if (rareKey[s]! > 0 || categorical[s]! > 0 || spreads[s]) interesting[s] = 1;
  }

  // What a value of a categorical field scores, once per value rather than per node: a rare
  // one among few, more where the commonest value is common, and more where the common values
  // hold nearly all records (two messages in 99 events of 100 each, and one other: that one
  // stands out, if less than one among a field of one value).
  const commonShare = new Float64Array(sigCount);
  // And less where many values are each rare: a port of its own on a third of the requests
  // (every other request on one kept-alive connection) is what a third of them show, not an
  // oddity. Past `LONE_MIN_VALUES` rare values, a value's rarity is read as that of its share
  // of them (its count times how many there are over that many).
  const rareValues = new Int32Array(sigCount);
  for (let e = 0; e < gathered.entries; e++) {
    const s = entrySig[e]!;
    if (categorical[s] !== 1) continue;
    const c = entryCount[e]!;
    if (c > RARE_SHARE * values[s]!) commonShare[s]! += c / values[s]!;
    else if (c < top[s]!) rareValues[s]!++;
  }
  const entryScore = new Float64Array(gathered.entries);
  for (let e = 0; e < gathered.entries; e++) {
    const s = entrySig[e]!;
    if (categorical[s] === 0) continue;
    const n = values[s]!;
    const c = entryCount[e]!;
    if (categorical[s] === 1 && c <= Math.max(1, RARE_SHARE * n) && c < top[s]!) {
      const common = 0.5 * (top[s]! / n + commonShare[s]!);
      entryScore[e] = common * rarity(n, c, rareValues[s]!) * weight[s]!;
      // The one record that differs from all the others in a field of its own stands out in a
      // short list too (one series of twelve with `code` 500), where its rarity alone scores
      // too little. (Not an item of a list it holds: one commit of many marked otherwise.)
      if (c === 1 && top[s] === n - 1 && n >= LONE_MIN_VALUES && lists[s] === 0) {
        entryScore[e] = Math.max(entryScore[e]!, ANOMALY_MIN_SCORE);
      }
    } else if (categorical[s] === 2 && c < top[s]!) {
      entryScore[e] = Math.min(1.5, 0.5 * Math.log2(n / c)) * weight[s]!;
    }
  }

  const scores = new Map<number, Array<{ u: number; score: number }>>();
  const primaryGroup = new Uint8Array(groups.length);
  for (let g = 0; g < groups.length; g++) primaryGroup[g] = groups[g]!.primary ? 1 : 0;
  const credits: Credits = {
    recordAbove,
    groupOfSig,
    sigOf,
    primaryGroup,
    scores,
    lastRecord: -1,
    lastFields: undefined,
  };
  for (let u = 1; u < count; u++) {
    if ((u & 8191) === 0 && check) check(8192);
    const s = sigOf[u]!;
    if (interesting[s] === 0 || recordAbove[u]! < 0) continue;
    // A value stands out by its rarity or by its distance from the rest, counted once: a rare
    // number is not two oddities.
    let score = 0;
    const entry = entryOf[u]!;
    if (entry >= 0) score = entryScore[entry]!;
    const numbered = spreads[s];
    if (numbered && kind[u] === NODE_SCALAR) {
      const x = numberAt(text, start[u]!, end[u]!);
      const far = outlierScore(x, numbered);
      score = Math.max(score, far * weight[s]!);
    }
    score += rareKey[s]! * weight[s]!;
    if (score > 0) credit(credits, u, score);
  }
  // What records say, by its shape: a message of a shape said once among messages of a few.
  for (const s of textFields) {
    rareTextShapes(inventory, signatures, s, (u, score) => {
      if (recordAbove[u]! >= 0) credit(credits, u, score * weight[s]!);
    });
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
    if (n < 3 || c <= 0.25 * n) credit(credits, u, ERROR_SCORE);
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
  anomalies.sort((a, b) => b.score - a.score || a.record - b.record);
  anomalies.length = Math.min(anomalies.length, MORE_ANOMALIES);
  oneOfEachFirst(anomalies, sigOf, entryOf, distinct);
  for (const anomaly of anomalies) explainFirst(inventory, signatures, anomaly, vocabulary);
  return { anomalies, leadingAnomalies: Math.min(anomalies.length, leading), errorContext };
}

/** Texts of a field from which a shape said in few of them stands out. */
const SHAPE_MIN_VALUES = 20;
/** Share of a field's texts a shape is rare up to. */
const SHAPE_RARE_SHARE = 0.02;

/**
 * The texts of field `s` whose shape (`lineTemplate`: their first words, numbers and ids
 * folded) few of the field's texts share, each with what it scores: as a rare value of a
 * few-valued field (up to `RARE_VALUE_CAP`, times the share of texts the common shapes hold, and
 * read as rare as its share of the rare shapes where there are many), so a
 * `received fast shutdown request` among a thousand connections received, authorized and
 * closed stands out, their ports, times and process ids aside.
 */
function rareTextShapes(
  inventory: JsonInventory,
  signatures: JsonSignatures,
  s: number,
  found: (u: number, score: number) => void,
): void {
  const { text, kind, start, end } = inventory;
  const nodes: number[] = [];
  for (let u = signatures.first[s]!; u >= 0; u = signatures.nextSame[u]!) {
    if (kind[u] === NODE_STRING) nodes.push(u);
  }
  const n = nodes.length;
  if (n < SHAPE_MIN_VALUES) return;
  const units = new Uint16Array(SHAPE_UNITS);
  const shapes = new Int32Array(n);
  const counts = new Map<number, number>();
  for (let k = 0; k < n; k++) {
    const u = nodes[k]!;
    const from = start[u]! + 1;
    const length = Math.min(SHAPE_UNITS, end[u]! - 1 - from);
    for (let i = 0; i < length; i++) units[i] = text.charCodeAt(from + i);
    const shape = lineTemplate(units, 0, length);
    shapes[k] = shape;
    counts.set(shape, (counts.get(shape) ?? 0) + 1);
  }
  // A log says a few things often and many things once in a while: a shape is rare where at
  // most `SHAPE_RARE_SHARE` of the texts have it (as a rare code among a template's lines).
  let common = 0;
  let rare = 0;
  for (const c of counts.values()) {
    if (c > SHAPE_RARE_SHARE * n) common += c / n;
    else rare++;
  }
  for (let k = 0; k < n; k++) {
    const c = counts.get(shapes[k]!)!;
    if (c > Math.max(1, SHAPE_RARE_SHARE * n)) continue;
    const score = common * rarity(n, c, rare);
    if (score > 0) found(nodes[k]!, score);
  }
}

/** Units of a text read for its shape (as many as a line's template reads). */
const SHAPE_UNITS = 200;

/** A field of at most this many values has kinds of oddity per value. */
const FEW_VALUES = 40;

/**
 * Reorders `anomalies` (strongest first) so that the strongest record of each kind of oddity
 * comes before the second of any: a kind is the field that stands out most with its value
 * (nine records in a rare state and one latency fifty times the median show one of the state,
 * the note counting the others, and the latency). Within each pass, strongest first.
 */
function oneOfEachFirst(
  anomalies: Anomaly[],
  sigOf: Int32Array,
  entryOf: Int32Array,
  distinct: Int32Array,
): void {
  const seen = new Set<string>();
  const first: Anomaly[] = [];
  const rest: Anomaly[] = [];
  for (const anomaly of anomalies) {
    const u = anomaly.fields[0]!;
    const s = sigOf[u]!;
    // A value of a few-valued field is a kind of its own (a rare state); in a field of many
    // values, the field is the kind (a key most records lack, a far number, an error message).
    const entry = distinct[s]! <= FEW_VALUES ? entryOf[u]! : -1;
    const kind = `${s}:${entry}`;
    if (seen.has(kind)) rest.push(anomaly);
    else {
      seen.add(kind);
      first.push(anomaly);
    }
  }
  anomalies.length = 0;
  anomalies.push(...first, ...rest);
}

/**
 * How a node of an anomalous record explains it: 0 for a short string that reads as a state or
 * a reason (`Evicted`, `Timeout`), 1 for a longer one (a message), -1 for a value that does not
 * explain (a boolean, a number, an opaque token, a string neither keyed as a state nor
 * error-like). A string reads as a state where its key's last word is a state word (`reason`,
 * `phase`, `message`, `error`…) or where it holds an error-like word.
 */
function explains(
  inventory: JsonInventory,
  signatures: JsonSignatures,
  u: number,
  vocabulary: Vocabulary,
): number {
  const { text, kind, start, end } = inventory;
  if (kind[u] !== NODE_STRING) return -1;
  const from = start[u]! + 1;
  const to = end[u]! - 1;
  if (
    !keyHints(signatureKey(inventory, signatures, signatures.of[u]!), vocabulary).state &&
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
  vocabulary: Vocabulary,
): void {
  const { next } = inventory;
  const explaining: Array<{ u: number; score: number; rank: number }> = [];
  for (let i = 0; i < anomaly.fields.length; i++) {
    const u = anomaly.fields[i]!;
    const score = anomaly.fieldScores[i]!;
    const rank = explains(inventory, signatures, u, vocabulary);
    if (rank >= 0) {
      explaining.push({ u, score, rank });
    } else if (next[u]! - u <= EXPLAINED_CONTAINER_NODES) {
      // A value's subtree is itself: only a container has nodes to look into.
      for (let c = u + 1; c < next[u]!; c++) {
        const inner = explains(inventory, signatures, c, vocabulary);
        if (inner >= 0) explaining.push({ u: c, score, rank: inner });
      }
    }
  }
  if (explaining.length === 0) return;
  explaining.sort((a, b) => a.rank - b.rank || b.score - a.score || a.u - b.u);
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
