import type { JsonInventory } from '../json/json-inventory.js';
import { NODE_ARRAY, NODE_OBJECT, NODE_STRING } from '../json/json-inventory.js';
import { jsonSignatures, STEP_KEY, signatureKey } from '../json/json-signatures.js';
import {
  HASHED_VALUE,
  type RecordGroup,
  type RecordPaths,
  recordColumns,
} from '../readers/json-records.js';
import { looksOpaque } from '../readers/looks-opaque.js';
import { createProseScratch, proseShare } from '../readers/prose-share.js';
import { keyHints } from './key-hints.js';
import { type Anomaly, findAnomalies } from './record-anomalies.js';
import type { StopCheck } from './stop-check.js';

export type { RecordGroup } from '../readers/json-records.js';
export { nodeAt, recordField } from '../readers/json-records.js';
export { stateLikeKey } from './key-hints.js';
export type { Anomaly } from './record-anomalies.js';

/** Column statistics and roles of the records of a document (see `analyzeRecords`). */
export interface RecordAnalysis extends RecordPaths {
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
}

const STATES_PER_RECORD = 2;
/**
 * Share of distinct values from which a field named like an identifier (`title`, `name`) can
 * name the records though a few share a value; unique means 98%.
 */
const NEAR_UNIQUE = 0.9;
/** What a near-unique identity gives way by, against a unique one. */
const NEAR_UNIQUE_PENALTY = 2;

/** Information assumed for a value with nothing to compare it with. */
const UNIQUE_BITS = 4;
/** A record group is primary from this share of the document's bytes. */
const PRIMARY_SHARE = 0.05;
/** Or, nested in another group's records, from this share of that group's bytes. */
const PRIMARY_NESTED_SHARE = 0.4;

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

function byScoreThenSignature(a: { s: number; score: number }, b: { s: number; score: number }) {
  return b.score - a.score || a.s - b.s;
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
