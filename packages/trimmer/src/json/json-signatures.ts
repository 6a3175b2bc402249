import type { JsonTapeSignatures } from '@compaction/core';
import type { StopCheck } from '../engine/stop-check.js';
import {
  type JsonInventory,
  NODE_ARRAY,
  NODE_OBJECT,
  NODE_SCALAR,
  NODE_STRING,
  widen,
} from './json-inventory.js';
import { ScratchArray } from './scratch-array.js';

/** How a signature steps from its parent's: the root's, by key, any item, or one position. */
export const STEP_ROOT = 0;
/** A member of a plain object, by its key. */
export const STEP_KEY = 1;
/** Any item of an array, or any member of a map (whose keys are data, not field names). */
export const STEP_ITEM = 2;
/** The item at one position of a short array of scalars (a tuple, whose positions are fields). */
export const STEP_INDEX = 3;

/** An object with at least this many members, every one a non-empty object, is a map. */
const MAP_MIN_MEMBERS = 8;
/** An array of at most this many items, every one a scalar, is a tuple. */
const TUPLE_MAX_ITEMS = 16;

/**
 * The shape of a document: every node's signature, its path from the root with array positions
 * and map keys left out, so the same field of every record of a list shares one (`items[].
 * metadata.name`). Signatures are numbered in document order of their first node, so a
 * signature's parent has a smaller number. The columns are those the tape's pass in WebAssembly
 * gives (`JsonTapeSignatures`); `step` holds a `STEP_*`.
 */
export type JsonSignatures = JsonTapeSignatures;

function isScalarKind(kind: number): boolean {
  return kind === NODE_STRING || kind === NODE_SCALAR;
}

/** How the children of container `u` step from it. */
function childStepOf(inventory: JsonInventory, u: number): number {
  const { kind, next } = inventory;
  if (kind[u] === NODE_ARRAY) {
    let items = 0;
    for (let c = u + 1; c < next[u]!; c = next[c]!) {
      if (++items > TUPLE_MAX_ITEMS || !isScalarKind(kind[c]!)) return STEP_ITEM;
    }
    return items > 0 ? STEP_INDEX : STEP_ITEM;
  }
  let members = 0;
  for (let c = u + 1; c < next[u]!; c = next[c]!) {
    if (kind[c] !== NODE_OBJECT || next[c] === c + 1) return STEP_KEY;
    members++;
  }
  return members >= MAP_MIN_MEMBERS ? STEP_ITEM : STEP_KEY;
}

/**
 * The signatures found so far, as growing columns, and the hash table that finds them (slots
 * hold a signature + 1, 0 when empty). Plain functions work on it, not closures: closures made
 * per call get their own optimised code, compiled again on every call.
 */
function createTable(nodes: number) {
  // Room for the signatures of most documents at once (lists of records have one per dozens
  // of nodes), so that the columns seldom grow; others grow them from there, by doubling.
  let capacity = 256;
  while (capacity < 65_536 && capacity * 32 < nodes) capacity *= 2;
  return {
    capacity,
    count: 0,
    parents: new Int32Array(capacity),
    steps: new Uint8Array(capacity),
    firsts: new Int32Array(capacity),
    nodes: new Int32Array(capacity),
    objects: new Int32Array(capacity),
    depths: new Int32Array(capacity),
    hashes: new Int32Array(capacity),
    lastObject: new Int32Array(capacity),
    lastArray: new Int32Array(capacity),
    /** Per signature: its items' signature + 1 (0 until one is seen). */
    itemSig: new Int32Array(capacity),
    lastNode: new Int32Array(capacity),
    bytes: new Float64Array(capacity),
    maxBytes: new Int32Array(capacity),
    leaves: new Int32Array(capacity),
    table: new Int32Array(capacity * 4),
    mask: capacity * 4 - 1,
  };
}

type SignatureTable = ReturnType<typeof createTable>;

function insertSlot(t: SignatureTable, h: number, s: number): void {
  let slot = h & t.mask;
  while (t.table[slot] !== 0) slot = (slot + 1) & t.mask;
  t.table[slot] = s + 1;
}

function addSignature(t: SignatureTable, p: number, step: number, h: number, u: number): number {
  if (t.count >= t.capacity) {
    const capacity = t.capacity * 2;
    t.capacity = capacity;
    t.parents = widen(t.parents, capacity);
    t.steps = widen(t.steps, capacity);
    t.firsts = widen(t.firsts, capacity);
    t.nodes = widen(t.nodes, capacity);
    t.objects = widen(t.objects, capacity);
    t.depths = widen(t.depths, capacity);
    t.hashes = widen(t.hashes, capacity);
    t.lastObject = widen(t.lastObject, capacity);
    t.lastArray = widen(t.lastArray, capacity);
    t.itemSig = widen(t.itemSig, capacity);
    t.lastNode = widen(t.lastNode, capacity);
    t.bytes = widen(t.bytes, capacity);
    t.maxBytes = widen(t.maxBytes, capacity);
    t.leaves = widen(t.leaves, capacity);
  }
  const s = t.count++;
  t.parents[s] = p;
  t.steps[s] = step;
  t.firsts[s] = u;
  t.depths[s] = p >= 0 ? t.depths[p]! + 1 : 0;
  t.hashes[s] = h;
  t.lastObject[s] = -1;
  t.lastArray[s] = -1;
  t.lastNode[s] = u;
  if (t.count * 2 > t.table.length) {
    t.table = new Int32Array(t.table.length * 2);
    t.mask = t.table.length - 1;
    for (let known = 0; known < t.count; known++) insertSlot(t, t.hashes[known]!, known);
  } else insertSlot(t, h, s);
  return s;
}

const spareSteps = new ScratchArray((length) => new Uint8Array(length));
const sparePrevious = new ScratchArray((length) => new Int32Array(length));
const spareAligned = new ScratchArray((length) => new Int32Array(length));

/**
 * The signatures of `inventory` in one linear pass. A member's key is first compared with the
 * key at the same place in the previous object of the same signature (the records of a list
 * mostly repeat their keys in order), failing that looked up, both by the key's hash from the
 * inventory (`textHash`: every character of a key up to 48 long). Keys whose hashes agree by
 * chance, or longer keys that differ only between the characters hashed, share a signature:
 * that costs the statistics a little, never the output, which never depends on signatures for
 * its validity. `check` is called every few thousand nodes and may throw to stop the pass.
 *
 * An inventory borrowed from a lent tape (`tapeReader`) has the same pass run in WebAssembly,
 * where its columns are (`JsonTapeReader.signatures`, json-tape.wat), in 0.4 of the time on a
 * list of records and 0.6 on a provider schema: the same signatures, column for column (a test compares the two on generated documents
 * and every fixture). That pass cannot poll, so `check` is called once for all of it; it gives
 * nothing when memory lacks room for it, and the pass here runs instead.
 */
export function jsonSignatures(inventory: JsonInventory, check?: StopCheck): JsonSignatures {
  if (inventory.tapeReader) {
    check?.(inventory.count);
    const found = inventory.tapeReader.signatures(true);
    if (found) return found;
  }
  return signaturesInJavaScript(inventory, check);
}

/** `jsonSignatures` computed in JavaScript, from any inventory. */
export function signaturesInJavaScript(
  inventory: JsonInventory,
  check?: StopCheck,
): JsonSignatures {
  const { count, kind, parent, next, keyHash, childIndex, unitBytes } = inventory;
  const of = new Int32Array(count);
  // Every node's is written below: by the next node of its signature, else at the end (-1).
  const nextSame = new Int32Array(count);
  // Per container (each written when the container is reached, before its children read it):
  // how its children step, the previous container of its signature and kind, and the child of
  // that one that lines up with the next child of this one.
  const childStep = spareSteps.take(count);
  const previous = sparePrevious.take(count);
  const aligned = spareAligned.take(count);
  const t = createTable(count);
  if (count > 0) {
    aligned[0] = -1;
    of[0] = addSignature(t, -1, STEP_ROOT, 0, 0);
    t.nodes[0] = 1;
    if (kind[0] === NODE_OBJECT || kind[0] === NODE_ARRAY) childStep[0] = childStepOf(inventory, 0);
  }
  for (let u = 1; u < count; u++) {
    if ((u & 4095) === 0 && check) check(4096);
    const p = parent[u]!;
    const ps = of[p]!;
    const step = childStep[p]!;
    let s = -1;
    // The records of a list mostly repeat their keys in order, and the tuples of a list their
    // positions: the child at the same place in the previous container of the same signature
    // is checked first (its step too: that container may have been a map, or a longer array;
    // a node's signature always has the step of its parent's children).
    if (step === STEP_KEY || step === STEP_INDEX) {
      const candidate = aligned[p]!;
      const before = previous[p]!;
      if (
        candidate >= 0 &&
        parent[candidate] === before &&
        childStep[before] === step &&
        (step === STEP_KEY
          ? keyHash[candidate] === keyHash[u]
          : childIndex[candidate] === childIndex[u])
      ) {
        s = of[candidate]!;
        aligned[p] = next[candidate]!;
      }
    } else if (step === STEP_ITEM) {
      // Every item under one signature shares one signature.
      s = t.itemSig[ps]! - 1;
    }
    if (s < 0) {
      let tag: number;
      if (step === STEP_KEY) tag = keyHash[u]!;
      else if (step === STEP_INDEX) tag = childIndex[u]! + 1;
      else tag = 0x5bd1e995;
      let h = Math.imul(tag ^ Math.imul(ps + 1, 0x9e3779b1), 0x85ebca6b);
      h = (h ^ (h >>> 15)) | 0;
      const { table, mask, hashes, parents, steps, firsts } = t;
      let slot = h & mask;
      for (let entry = table[slot]!; entry !== 0; entry = table[slot]!) {
        const known = entry - 1;
        if (
          hashes[known] === h &&
          parents[known] === ps &&
          steps[known] === step &&
          (step !== STEP_INDEX || childIndex[firsts[known]!] === childIndex[u])
        ) {
          s = known;
          break;
        }
        slot = (slot + 1) & mask;
      }
      if (s < 0) s = addSignature(t, ps, step, h, u);
      if (step === STEP_ITEM) t.itemSig[ps] = s + 1;
    }
    // A new signature's chain starts at `u` already.
    if (t.lastNode[s] !== u) {
      nextSame[t.lastNode[s]!] = u;
      t.lastNode[s] = u;
    }
    of[u] = s;
    t.nodes[s]!++;
    const size = unitBytes[u]!;
    t.bytes[s]! += size;
    if (size > t.maxBytes[s]!) t.maxBytes[s] = size;
    if (next[u] === u + 1) t.leaves[s]!++;
    const k = kind[u];
    if (k === NODE_OBJECT || k === NODE_ARRAY) {
      if (k === NODE_OBJECT) t.objects[s]!++;
      childStep[u] = childStepOf(inventory, u);
      const lastOfKind = k === NODE_OBJECT ? t.lastObject : t.lastArray;
      const before = lastOfKind[s]!;
      previous[u] = before;
      aligned[u] = before >= 0 && next[before]! > before + 1 ? before + 1 : -1;
      lastOfKind[s] = u;
    }
  }
  for (let s = 0; s < t.count; s++) nextSame[t.lastNode[s]!] = -1;
  spareSteps.give(childStep);
  sparePrevious.give(previous);
  spareAligned.give(aligned);
  // In the order of the tape's result, so that readers see one shape.
  return {
    count: t.count,
    of,
    nextSame,
    parent: t.parents,
    step: t.steps,
    first: t.firsts,
    last: t.lastNode,
    nodes: t.nodes,
    objects: t.objects,
    leaves: t.leaves,
    depth: t.depths,
    bytes: t.bytes,
    maxBytes: t.maxBytes,
  };
}

/**
 * The text of signature `s`'s key (as written, escapes and all), or '' when it has none. A
 * position in a list reads by the list's key (`"timestamp.us": [1532976822281000]`, as a search
 * engine's fields API writes every field as a list of one).
 */
export function signatureKey(
  inventory: JsonInventory,
  signatures: JsonSignatures,
  s: number,
): string {
  const keyed = signatures.step[s] === STEP_INDEX ? signatures.parent[s]! : s;
  if (signatures.step[keyed] !== STEP_KEY) return '';
  const u = signatures.first[keyed]!;
  return inventory.text.slice(inventory.keyStart[u]! + 1, inventory.keyEnd[u]! - 1);
}
