import { type RelevanceHits, rangeScore } from '../engine/relevance.js';
import type { StopCheck } from '../engine/stop-check.js';
import { nodeAt } from '../readers/json-records.js';
import { type JsonInventory, NODE_ARRAY, NODE_STRING, unitStart } from './json-inventory.js';
import { type JsonSelection, renderSelection } from './render-selection.js';
import {
  book,
  bookedInside,
  CUT,
  cover,
  cutStringContent,
  DROPPED,
  isContainer,
  MIN_CUT_CONTENT,
  PARTIAL,
  WHOLE,
} from './selection-ledger.js';

/** Descended into, nothing inside kept yet: its brackets are not paid for. */
const OPEN = 4;

/** Hit nodes kept per matching record that is too big to keep whole. */
const MAX_HIT_NODES_PER_RECORD = 8;
/** Room (bytes) under which the whole-unit pass stops. */
const MIN_FILL_ROOM = 8;
/** Matches of each other term kept, nearest to the rarest match first. */
const MATCHES_PER_TERM = 3;
/** Matches remembered per record. */
const MAX_HITS_PER_RECORD = 256;
/** Matching records the backfill pass looks at. */
const MAX_BACKFILL_RECORDS = 4_000;

/** Options of `selectJsonBreadthFirst`. */
export interface BreadthFirstOptions {
  /** Items of a nested array the whole-unit pass considers. */
  nestedArrayCap: number;
  /** Share of the budget held back from the whole-unit pass for relevant units (0–0.9). */
  relevanceShare: number;
  /**
   * Descend into every container, even one that cannot hold anything affordable: slower, and
   * the reference the tests hold the pruned walk to. Default false.
   */
  visitAll?: boolean;
}

// Selection state. An object literal with plain functions, not closures: closures created per
// call get their own optimised code (context specialisation), re-compiled on every call.
function createSelection(
  inventory: JsonInventory,
  hits: RelevanceHits | undefined,
  options: BreadthFirstOptions,
  check: StopCheck | undefined,
) {
  return {
    check,
    steps: 0,
    inventory,
    hits,
    nestedArrayCap: options.nestedArrayCap,
    visitAll: options.visitAll === true,
    state: new Uint8Array(inventory.count),
    cutCandidate: new Uint8Array(inventory.count),
    cutCandidates: [] as number[],
    cutLength: new Map<number, number>(),
    used: 2,
    /** Containers the first pass did not descend into (see `wholeUnitPass`). */
    skipped: new Uint8Array(0),
    /** Containers under a skipped one that the first pass would have marked OPEN. */
    skippedOpen: new Uint8Array(0),
    /** Levels the first pass went through. */
    firstPassLevels: 0,
    /** For each node, the brackets and keys of the path from the root down to it (root excluded). */
    depthCost: pathPrefix(inventory),
    /** Nearest opened ancestor, as `depthCost` of it: a max-tag segment tree over the nodes. */
    opened: new Int32Array(2 * segmentSize(inventory.count)),
    /** For each node, whether it is kept whole, or inside a node kept whole (or cut). */
    covered: new Uint8Array(inventory.count),
    /** Fenwick tree of the bytes booked per node, 1-based, to complete a partly kept one. */
    booked: new Int32Array(inventory.count + 1),
    /** Path costs asked and containers opened (tests count work with it). */
    work: 0,
  };
}

function segmentSize(count: number): number {
  let size = 1;
  while (size < count) size *= 2;
  return size;
}

/** Bytes an opened container writes for itself: its key and colon, brackets and comma. */
function skeletonCost(inventory: JsonInventory, u: number): number {
  const key = inventory.keyBytes[u]!;
  return (key > 0 ? key + 1 : 0) + 3;
}

/** Per node, the bytes opening every container from the root down to it would cost. */
function pathPrefix(inventory: JsonInventory): Int32Array {
  const { count, parent } = inventory;
  const prefix = new Int32Array(count);
  for (let u = 1; u < count; u++) prefix[u] = prefix[parent[u]!]! + skeletonCost(inventory, u);
  return prefix;
}

type Selection = ReturnType<typeof createSelection>;

/** `depthCost` of the nearest opened ancestor-or-self of `u` (the root is always opened). */
function nearestOpened(s: Selection, u: number): number {
  const tree = s.opened;
  let best = 0;
  for (let i = u + tree.length / 2; i >= 1; i >>= 1) if (tree[i]! > best) best = tree[i]!;
  return best;
}

/** Marks `a` opened: every node of its subtree has it as an opened ancestor. */
function markOpened(s: Selection, a: number): void {
  const tree = s.opened;
  const size = tree.length / 2;
  const value = s.depthCost[a]!;
  let low = a + size;
  let high = s.inventory.next[a]! + size;
  while (low < high) {
    if (low & 1) {
      if (tree[low]! < value) tree[low] = value;
      low++;
    }
    if (high & 1) {
      high--;
      if (tree[high]! < value) tree[high] = value;
    }
    low >>= 1;
    high >>= 1;
  }
}

// Cost of making `u` visible: the brackets of its ancestors not yet paid for, or -1 when `u`
// is kept already (whole, cut, or inside a node kept whole). A descended (OPEN) container pays
// for its brackets only when something inside it is kept, so a descent that keeps nothing is
// free. The unpaid ancestors are those below the nearest opened one: their costs are the
// difference of two path prefixes, found in O(log n) however deep the document.
function pathCost(s: Selection, u: number): number {
  s.work++;
  if (s.covered[u] === 1) return -1;
  if (s.state[u] === PARTIAL) return 0;
  const p = s.inventory.parent[u]!;
  if (p <= 0) return 0;
  return s.depthCost[p]! - nearestOpened(s, p);
}

function openPath(s: Selection, u: number): void {
  const { state } = s;
  const parent = s.inventory.parent;
  for (let a = parent[u]!; a > 0 && state[a] !== PARTIAL; a = parent[a]!) {
    s.work++;
    state[a] = PARTIAL;
    markOpened(s, a);
    book(s.booked, a, skeletonCost(s.inventory, a));
  }
}

function keepWithPath(s: Selection, u: number, limit: number): boolean {
  const path = pathCost(s, u);
  if (path < 0) return true;
  // A partly kept unit has paid for its brackets and what it keeps already.
  const inside = s.state[u] === PARTIAL ? bookedInside(s.booked, s.inventory.next, u) : 0;
  const cost = path + s.inventory.unitBytes[u]! + 1 - inside;
  if (s.used + cost > limit) return false;
  openPath(s, u);
  book(s.booked, u, s.inventory.unitBytes[u]! + 1 - inside);
  s.state[u] = WHOLE;
  cover(s.covered, s.inventory.next, u);
  s.used += cost;
  return true;
}

function childrenOf(s: Selection, u: number, into: number[]): void {
  const { kind, next, childIndex } = s.inventory;
  const cap = u === 0 || kind[u] !== NODE_ARRAY ? Number.POSITIVE_INFINITY : s.nestedArrayCap;
  for (let c = u + 1; c < next[u]!; c = next[c]!) {
    if (childIndex[c]! >= cap) break;
    into.push(c);
  }
}

// Whether a unit could still be kept inside `u`: the cheapest one costs the brackets of `u` and
// of its unpaid ancestors, one byte of value and a comma. Keeping another unit never makes this
// cheaper (it pays at least as much as it saves on a shared path), so a container that fails it
// now fails it for the rest of the pass and the cut pass (whose cuts cost more still).
function worthDescending(s: Selection, u: number, room: number): boolean {
  if (s.visitAll || s.state[u] === PARTIAL) return room >= 2 || s.visitAll;
  const path = pathCost(s, u);
  return path >= 0 && path + skeletonCost(s.inventory, u) + 2 <= room;
}

/**
 * One breadth-first whole-unit pass; containers that cannot hold anything affordable are not
 * descended into. A later pass only descends into a container an earlier one marked OPEN (it
 * never reconsiders keeping it whole), so with `first` the skipped containers are remembered,
 * and the next pass treats a dropped container under one as OPEN when the first pass would have
 * reached it (no deeper than it went): the same selection as visiting everything.
 */
function wholeUnitPass(s: Selection, limit: number, first: boolean): void {
  const { state, cutCandidate } = s;
  const { kind, parent, unitBytes } = s.inventory;
  const headFill = kind[0] === NODE_ARRAY;
  if (first) {
    s.skipped = new Uint8Array(state.length);
    s.skippedOpen = new Uint8Array(state.length);
  }
  const { skipped, skippedOpen } = s;
  const ghosts = !first && skipped.length > 0;
  let depth = 0;
  let level = [0];
  // Below a few bytes of room nothing worth its comma fits; stop rather than walk the rest.
  while (level.length > 0 && limit - s.used >= MIN_FILL_ROOM) {
    depth++;
    let candidates: number[] = [];
    for (const u of level) childrenOf(s, u, candidates);
    const inHeadOrder = headFill && level.length === 1 && level[0] === 0;
    if (!inHeadOrder) {
      // Only units that could still fit need the largest-first order; the rest are descended
      // into (or dropped) whatever their order, since the room only shrinks.
      const room = limit - s.used;
      const fitting: number[] = [];
      const rest: number[] = [];
      for (const u of candidates) (unitBytes[u]! < room ? fitting : rest).push(u);
      fitting.sort((a, b) => unitBytes[b]! - unitBytes[a]! || a - b);
      candidates = fitting.concat(rest);
    }
    const nextLevel: number[] = [];
    let headStopped = false;
    for (const u of candidates) {
      if ((++s.steps & 4095) === 0 && s.check) s.check(4096);
      let current = state[u]!;
      if (current === WHOLE || current === CUT) continue;
      if (
        ghosts &&
        depth <= s.firstPassLevels &&
        (skipped[parent[u]!] === 1 || skippedOpen[parent[u]!] === 1) &&
        isContainer(s.inventory, u)
      ) {
        // The first pass would have reached it (and kept nothing there): its descendants too,
        // even where the backfill has since kept something inside.
        skippedOpen[u] = 1;
        if (current === DROPPED) {
          state[u] = OPEN;
          current = OPEN;
        }
      }
      if (current === PARTIAL || current === OPEN) {
        if (worthDescending(s, u, limit - s.used)) nextLevel.push(u);
        else if (first) skipped[u] = 1;
        continue;
      }
      if (headStopped) continue;
      if (unitBytes[u]! + 1 <= limit - s.used && keepWithPath(s, u, limit)) continue;
      if (inHeadOrder) headStopped = true;
      if (isContainer(s.inventory, u)) {
        state[u] = OPEN;
        if (worthDescending(s, u, limit - s.used)) nextLevel.push(u);
        else if (first) skipped[u] = 1;
      } else if (kind[u] === NODE_STRING && cutCandidate[u] === 0) {
        cutCandidate[u] = 1;
        s.cutCandidates.push(u);
      }
    }
    level = nextLevel;
  }
  // Run out of containers with room left, visiting everything would have gone all the way down.
  if (first) s.firstPassLevels = limit - s.used >= MIN_FILL_ROOM ? Number.POSITIVE_INFINITY : depth;
}

interface MatchedRecord {
  score: number;
  terms: Set<number>;
  /** Indexes into the hits, in text order. */
  hits: number[];
}

/** Per node, the outermost ancestor-or-self that is an array item, -1 when none. */
function outermostItems(inventory: JsonInventory): Int32Array {
  const { count, kind, parent } = inventory;
  const outer = new Int32Array(count).fill(-1);
  for (let u = 1; u < count; u++) {
    const p = parent[u]!;
    outer[u] = outer[p]! >= 0 ? outer[p]! : kind[p] === NODE_ARRAY ? u : -1;
  }
  return outer;
}

/** The outermost ancestor-or-self of `u` of at most `cap` bytes (`u` when it is bigger). */
function outermostSmall(s: Selection, u: number, cap: number, memo: Int32Array): number {
  const { parent, unitBytes } = s.inventory;
  if (unitBytes[u]! > cap) return u;
  const chain: number[] = [];
  let a = u;
  while (memo[a]! < 0) {
    chain.push(a);
    const p = parent[a]!;
    if (p <= 0 || unitBytes[p]! > cap) break;
    a = p;
  }
  const top = memo[a]! >= 0 ? memo[a]! : a;
  for (const c of chain) memo[c] = top;
  return top;
}

function backfill(s: Selection, limit: number): void {
  const { hits } = s;
  if (!hits || hits.positions.length === 0) return;
  const { inventory } = s;
  const { parent, unitBytes } = inventory;
  const recordCap = Math.max(64, Math.floor((limit - s.used) / 2));
  const records = new Map<number, MatchedRecord>();
  // The outermost array item around each node, and the outermost ancestor small enough to keep:
  // found once per node (a walk to the root per match would be quadratic on deep documents).
  const outerItem = outermostItems(inventory);
  const small = new Int32Array(inventory.count).fill(-1);
  for (let h = 0; h < hits.positions.length; h++) {
    const term = hits.termOf[h]!;
    const weight = hits.weights[term]!;
    if (weight <= 0) continue;
    const node = nodeAt(inventory, hits.positions[h]!);
    if (node === 0) continue;
    let record = node;
    if (hits.terms[term]!.kind !== 'key') {
      // The record is the outermost array item around the match (a row of the result), or
      // else the outermost ancestor small enough to keep.
      const topItem = outerItem[node]!;
      record = topItem >= 0 ? topItem : outermostSmall(s, node, recordCap, small);
    }
    let entry = records.get(record);
    if (!entry) {
      entry = { score: 0, terms: new Set(), hits: [] };
      records.set(record, entry);
    }
    if (!entry.terms.has(term)) {
      entry.terms.add(term);
      entry.score += weight;
    }
    if (entry.hits.length < MAX_HITS_PER_RECORD) entry.hits.push(h);
  }
  const ranked = [...records.entries()].sort((a, b) => b[1].score - a[1].score || a[0] - b[0]);
  for (const [record, entry] of ranked.slice(0, MAX_BACKFILL_RECORDS)) {
    if ((++s.steps & 255) === 0 && s.check) s.check(256);
    if (limit - s.used < 8) break;
    if (keepWithPath(s, record, limit)) continue;
    // Too big to keep whole: keep the largest part around its rarest match that takes at most
    // half the room, then, for each other term, the match nearest to it, each with its path.
    let anchor = entry.hits[0]!;
    for (const h of entry.hits) {
      if (hits.weights[hits.termOf[h]!]! > hits.weights[hits.termOf[anchor]!]!) anchor = h;
    }
    const anchorAt = hits.positions[anchor]!;
    const anchorNode = nodeAt(inventory, anchorAt);
    const half = Math.floor((limit - s.used) / 2);
    let part = anchorNode;
    for (let a = anchorNode; a > 0 && a !== record; a = parent[a]!) {
      if (unitBytes[a]! + 1 <= half) part = a;
    }
    keepWithPath(s, part, limit);
    // Then the matches of the other terms nearest to it (a few per term), nearest first, each
    // with its path; a match inside a big container keeps only what takes a small share.
    const distance = (h: number) => Math.abs(hits.positions[h]! - anchorAt);
    const nearby: number[] = [];
    for (const term of entry.terms) {
      if (term === hits.termOf[anchor]) continue;
      const ofTerm = entry.hits.filter((h) => hits.termOf[h] === term);
      ofTerm.sort((x, y) => distance(x) - distance(y) || x - y);
      nearby.push(...ofTerm.slice(0, MATCHES_PER_TERM));
    }
    nearby.sort((x, y) => distance(x) - distance(y) || x - y);
    let kept = 0;
    for (const h of nearby) {
      if (kept >= MAX_HIT_NODES_PER_RECORD) break;
      const node = nodeAt(inventory, hits.positions[h]!);
      if (unitBytes[node]! > (limit - s.used) / 4) continue;
      if (keepWithPath(s, node, limit)) kept++;
    }
  }
}

function cutPass(s: Selection, limit: number): void {
  const { hits, inventory, state } = s;
  if (s.cutCandidates.length === 0 || limit - s.used < MIN_CUT_CONTENT + 8) return;
  const { text, keyBytes, start, end, unitBytes } = inventory;
  const order = s.cutCandidates.slice();
  const scores = new Map<number, number>();
  for (const u of order) {
    scores.set(u, hits ? rangeScore(hits, unitStart(inventory, u), end[u]!) : 0);
  }
  order.sort((a, b) => scores.get(b)! - scores.get(a)! || unitBytes[b]! - unitBytes[a]! || a - b);
  for (const u of order) {
    if (state[u] !== DROPPED) continue;
    const path = pathCost(s, u);
    if (path < 0) continue;
    const key = keyBytes[u]! > 0 ? keyBytes[u]! + 1 : 0;
    const room = limit - s.used - path - 1 - key - 2 - 3;
    if (room < MIN_CUT_CONTENT) continue;
    const length = cutStringContent(text, start[u]! + 1, end[u]! - 1, room);
    if (length.bytes < MIN_CUT_CONTENT) continue;
    openPath(s, u);
    state[u] = CUT;
    s.covered[u] = 1;
    s.cutLength.set(u, length.units);
    book(s.booked, u, 1 + key + 2 + length.bytes + 3);
    s.used += path + 1 + key + 2 + length.bytes + 3;
    if (limit - s.used < MIN_CUT_CONTENT + 8) break;
  }
}

/**
 * Selects whole units of `inventory` to fit `budget` minified bytes (seed 002 §4): breadth-first,
 * shallowest first and largest first within a depth, descending only into a unit too big to keep
 * whole; a top-level array fills from its head; a nested array offers its first
 * `nestedArrayCap` items. Relevance never drives that pass: it claims `relevanceShare` of the
 * budget for a backfill of matching records (with their path to the root) and orders the keys
 * of partly kept objects. What is left is filled by the whole-unit pass again, then by cutting
 * a dropped string inside.
 */
export function selectJsonBreadthFirst(
  inventory: JsonInventory,
  budget: number,
  hits: RelevanceHits | undefined,
  options: BreadthFirstOptions,
  check?: StopCheck,
): JsonSelection {
  const s = createSelection(inventory, hits, options, check);
  s.state[0] = PARTIAL;
  const share = hits?.queryMatched
    ? options.relevanceShare
    : hits && hits.positions.length > 0
      ? options.relevanceShare / 2
      : 0;
  if (share > 0) {
    wholeUnitPass(s, budget - Math.floor(budget * share), true);
    backfill(s, budget);
  }
  wholeUnitPass(s, budget, false);
  cutPass(s, budget);
  return { ...renderSelection(inventory, s.state, s.cutLength, hits, check), work: s.work };
}
