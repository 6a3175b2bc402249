import { type JsonInventory, NODE_ARRAY, NODE_OBJECT, NODE_STRING } from './json-inventory.js';

/** Not in the view. */
export const DROPPED = 0;
/** In the view whole. */
export const WHOLE = 1;
/** In the view with some of its children (its brackets paid for). */
export const PARTIAL = 2;
/** A string in the view cut inside, ending in an ellipsis. */
export const CUT = 3;

/** Marks a string cut inside (3 UTF-8 bytes). */
export const ELLIPSIS = '\u2026';
/** A string is only cut inside when this many content bytes fit. */
export const MIN_CUT_CONTENT = 16;

/**
 * What a selection has kept of a document and what that costs, in minified UTF-8 bytes,
 * exactly as `renderSelection` writes it: a kept unit pays its bytes, an opened container its
 * key and brackets, and each the comma before it unless it is the first in its container. Bytes
 * are also booked per node in a Fenwick tree over document order, so the bytes already spent
 * inside any subtree, and so the cost of completing a partly kept one, are known in O(log n).
 */
export type SelectionLedger = ReturnType<typeof createSelectionLedger>;

/** The ledger of a selection with nothing kept yet but the root's brackets, within `limit`. */
export function createSelectionLedger(inventory: JsonInventory, limit: number) {
  const state = new Uint8Array(inventory.count);
  if (inventory.count > 0) state[0] = PARTIAL;
  return {
    inventory,
    /** Budget for the minified body. */
    limit,
    /** Bytes booked so far (the body's size). */
    used: 2,
    /** `DROPPED`, `WHOLE`, `PARTIAL` or `CUT` per node. */
    state,
    /** Per node, whether it is inside a whole node (or whole itself). */
    covered: new Uint8Array(inventory.count),
    /** Per container: something inside it is in the view. */
    filled: new Uint8Array(inventory.count),
    /** Per node in the view: it paid for a comma before it. */
    comma: new Uint8Array(inventory.count),
    /** Content length (UTF-16 units) of each cut string. */
    cutLength: new Map<number, number>(),
    /** Fenwick tree of the bytes booked per node, 1-based. */
    tree: new Int32Array(inventory.count + 1),
    /** Containers walked over by path costs and openings (tests count work with it). */
    walked: 0,
  };
}

/** Books `bytes` on node `u` in the Fenwick tree `tree` (1-based, one entry per node). */
export function book(tree: Int32Array, u: number, bytes: number): void {
  for (let i = u + 1; i < tree.length; i += i & -i) tree[i]! += bytes;
}

function bookedBefore(tree: Int32Array, u: number): number {
  let sum = 0;
  for (let i = u; i > 0; i -= i & -i) sum += tree[i]!;
  return sum;
}

/** Bytes booked in `tree` inside the subtree of `u` (its own, comma included). */
export function bookedInside(tree: Int32Array, next: Int32Array, u: number): number {
  return bookedBefore(tree, next[u]!) - bookedBefore(tree, u);
}

/** Bytes an opened container writes for itself: its key and colon, and its brackets. */
export function skeletonCost(ledger: SelectionLedger, u: number): number {
  const key = ledger.inventory.keyBytes[u]!;
  return (key > 0 ? key + 1 : 0) + 2;
}

export function isContainer(inventory: JsonInventory, u: number): boolean {
  const kind = inventory.kind[u];
  return kind === NODE_OBJECT || kind === NODE_ARRAY;
}

/**
 * What putting `u` into the view costs besides its own bytes: opening the containers above it
 * that are not in the view yet, and the comma before the outermost of them (or before `u`
 * itself when its container is open already) unless it comes first there. Walks up until an
 * opened container; stops once past `room`. A container is walked over again only while it
 * stays closed, and a selection opens what it walks over or stops, so the walks add up to
 * linear.
 */
export function pathCost(
  ledger: SelectionLedger,
  u: number,
  room = Number.POSITIVE_INFINITY,
): number {
  const { state, filled } = ledger;
  const { parent } = ledger.inventory;
  let cost = 0;
  let a = parent[u]!;
  for (; a > 0 && state[a] === DROPPED; a = parent[a]!) {
    ledger.walked++;
    cost += skeletonCost(ledger, a);
    if (cost > room) return cost;
  }
  return cost + filled[a]!;
}

/** Opens the containers above `u` not in the view yet, and puts `u` in its container. */
function attach(ledger: SelectionLedger, u: number): void {
  const { state, filled, comma } = ledger;
  const { parent } = ledger.inventory;
  let child = u;
  let a = parent[u]!;
  for (; a > 0 && state[a] === DROPPED; a = parent[a]!) {
    ledger.walked++;
    state[a] = PARTIAL;
    filled[a] = 1;
    book(ledger.tree, a, skeletonCost(ledger, a));
    child = a;
  }
  // The outermost newly opened container (or `u`) follows a sibling, or comes first.
  if (filled[a] === 1) {
    comma[child] = 1;
    book(ledger.tree, child, 1);
  }
  filled[a] = 1;
}

/**
 * Bytes keeping `u` whole would add: 0 when it is covered already; its bytes less what is
 * booked inside it when it is partly kept; else its bytes and its path (`path` when the caller
 * knows it, as `pathCost` gives it, else walked).
 */
export function keepCost(ledger: SelectionLedger, u: number, path = -1): number {
  if (ledger.covered[u] === 1) return 0;
  const unit = ledger.inventory.unitBytes[u]!;
  if (ledger.state[u] !== DROPPED)
    return unit + ledger.comma[u]! - bookedInside(ledger.tree, ledger.inventory.next, u);
  return (path >= 0 ? path : pathCost(ledger, u)) + unit;
}

/** Marks `u` and every node inside it covered, skipping subtrees covered already. */
export function cover(covered: Uint8Array, next: Int32Array, u: number): void {
  const end = next[u]!;
  let v = u;
  while (v < end) {
    if (covered[v] === 1 && v !== u) {
      v = next[v]!;
      continue;
    }
    covered[v] = 1;
    v++;
  }
}

/**
 * Keeps `u` whole if it fits in the budget (true), else changes nothing (false). True also when
 * it is covered already.
 */
export function keepWhole(ledger: SelectionLedger, u: number, path = -1): boolean {
  if (ledger.covered[u] === 1) return true;
  const cost = keepCost(ledger, u, path);
  if (ledger.used + cost > ledger.limit) return false;
  if (ledger.state[u] === DROPPED) {
    attach(ledger, u);
    book(ledger.tree, u, ledger.inventory.unitBytes[u]!);
  } else {
    // Partly kept or cut: its cost is what it adds to what is booked inside it.
    book(ledger.tree, u, cost);
    if (ledger.state[u] === CUT) ledger.cutLength.delete(u);
  }
  ledger.used += cost;
  ledger.state[u] = WHOLE;
  cover(ledger.covered, ledger.inventory.next, u);
  return true;
}

/**
 * Keeps the string `u` cut inside to what fits the budget (true), and at most `most` bytes of
 * its content, when at least `MIN_CUT_CONTENT` bytes of its content do; `path` as for `keepCost`.
 */
export function keepCut(ledger: SelectionLedger, u: number, path = -1, most = Infinity): boolean {
  const { inventory } = ledger;
  if (ledger.covered[u] === 1 || ledger.state[u] !== DROPPED) return false;
  if (inventory.kind[u] !== NODE_STRING) return false;
  const toPath = path >= 0 ? path : pathCost(ledger, u, ledger.limit - ledger.used);
  const key = inventory.keyBytes[u]! > 0 ? inventory.keyBytes[u]! + 1 : 0;
  const room = Math.min(most, ledger.limit - ledger.used - toPath - key - 2 - 3);
  if (room < MIN_CUT_CONTENT) return false;
  const length = cutStringContent(
    inventory.text,
    inventory.start[u]! + 1,
    inventory.end[u]! - 1,
    room,
  );
  if (length.bytes < MIN_CUT_CONTENT) return false;
  attach(ledger, u);
  const bytes = key + 2 + length.bytes + 3;
  book(ledger.tree, u, bytes);
  ledger.used += toPath + bytes;
  ledger.state[u] = CUT;
  ledger.cutLength.set(u, length.units);
  return true;
}

/**
 * How much of the string content `text[from, to)` fits in `room` UTF-8 bytes without splitting
 * an escape sequence or a character.
 */
export function cutStringContent(
  text: string,
  from: number,
  to: number,
  room: number,
): { units: number; bytes: number } {
  let i = from;
  let bytes = 0;
  while (i < to) {
    const c = text.charCodeAt(i);
    let units = 1;
    let size = 1;
    if (c === 0x5c) {
      units = text.charCodeAt(i + 1) === 0x75 ? 6 : 2;
      size = units;
    } else if (c >= 0x800) {
      if (c >= 0xd800 && c <= 0xdbff && i + 1 < to) {
        const low = text.charCodeAt(i + 1);
        if (low >= 0xdc00 && low <= 0xdfff) units = 2;
      }
      size = units === 2 ? 4 : 3;
    } else if (c >= 0x80) size = 2;
    if (bytes + size > room || i + units > to) break;
    bytes += size;
    i += units;
  }
  return { units: i - from, bytes };
}
