import {
  type JsonInventory,
  minifyRange,
  NODE_ARRAY,
  NODE_OBJECT,
  NODE_STRING,
  stringEnd,
  unitStart,
} from './json-inventory.js';
import { type RelevanceHits, rangeScore } from './relevance.js';

const DROPPED = 0;
const WHOLE = 1;
const PARTIAL = 2;
const CUT = 3;
/** Descended into, nothing inside kept yet: its brackets are not paid for. */
const OPEN = 4;

/** Marks a string cut inside (3 UTF-8 bytes). */
const ELLIPSIS = '\u2026';
/** A string is only cut inside when this many content bytes fit. */
const MIN_CUT_CONTENT = 16;
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

/** Options of `selectJson`. */
export interface SelectJsonOptions {
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

/** The kept view of a JSON document. */
export interface JsonSelection {
  /** Minified JSON. */
  body: string;
  /** UTF-8 bytes of `body`. */
  bodyBytes: number;
  /** Values (fields and items) in the view, partly kept containers included. */
  unitsKept: number;
  /** Values in the document other than the root. */
  unitsTotal: number;
  /** Strings kept only in part (cut inside, ending in an ellipsis). */
  cutShort: number;
}

// Selection state. An object literal with plain functions, not closures: closures created per
// call get their own optimised code (context specialisation), re-compiled on every call.
function createSelection(
  inventory: JsonInventory,
  hits: RelevanceHits | undefined,
  cap: number,
  visitAll: boolean,
) {
  return {
    inventory,
    hits,
    nestedArrayCap: cap,
    visitAll,
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
  };
}

type Selection = ReturnType<typeof createSelection>;

function skeletonCost(s: Selection, u: number): number {
  const key = s.inventory.keyBytes[u]!;
  return (key > 0 ? key + 1 : 0) + 3;
}

function isContainer(s: Selection, u: number): boolean {
  const kind = s.inventory.kind[u];
  return kind === NODE_OBJECT || kind === NODE_ARRAY;
}

// Cost of making `u` visible: the brackets of its ancestors not yet paid for, or -1 when an
// ancestor (or `u` itself) is already kept whole. A descended (OPEN) container pays for its
// brackets only when something inside it is kept, so a descent that keeps nothing is free.
// The walk stops at the first paid-for ancestor (whose own path is paid for), or once the cost
// passes `room`, which bounds it on very deep documents.
function pathCost(s: Selection, u: number, room: number): number {
  const { state } = s;
  const parent = s.inventory.parent;
  let cost = 0;
  for (let a = u; a > 0; a = parent[a]!) {
    const current = state[a]!;
    if (current === WHOLE || current === CUT) return -1;
    if (current === PARTIAL) return a === u ? 0 : cost;
    if (a !== u) cost += skeletonCost(s, a);
    if (cost > room) return cost;
  }
  return cost;
}

function openPath(s: Selection, u: number): void {
  const { state } = s;
  const parent = s.inventory.parent;
  for (let a = parent[u]!; a > 0 && state[a] !== PARTIAL; a = parent[a]!) state[a] = PARTIAL;
}

function keepWithPath(s: Selection, u: number, limit: number): boolean {
  const path = pathCost(s, u, limit - s.used);
  if (path < 0) return true;
  const cost = path + s.inventory.unitBytes[u]! + 1;
  if (s.used + cost > limit) return false;
  openPath(s, u);
  if (s.state[u] === PARTIAL) s.used -= skeletonCost(s, u);
  s.state[u] = WHOLE;
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
  const path = pathCost(s, u, room);
  return path >= 0 && path + skeletonCost(s, u) + 2 <= room;
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
      let current = state[u]!;
      if (current === WHOLE || current === CUT) continue;
      if (
        ghosts &&
        depth <= s.firstPassLevels &&
        (skipped[parent[u]!] === 1 || skippedOpen[parent[u]!] === 1) &&
        isContainer(s, u)
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
      if (isContainer(s, u)) {
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

/** The node whose unit contains `position`. */
function nodeAt(s: Selection, position: number): number {
  const { inventory } = s;
  const { end, parent } = inventory;
  let low = 0;
  let high = inventory.count - 1;
  while (low < high) {
    const mid = (low + high + 1) >>> 1;
    if (unitStart(inventory, mid) <= position) low = mid;
    else high = mid - 1;
  }
  let u = low;
  while (u > 0 && end[u]! <= position) u = parent[u]!;
  return u;
}

interface MatchedRecord {
  score: number;
  terms: Set<number>;
  /** Indexes into the hits, in text order. */
  hits: number[];
}

function backfill(s: Selection, limit: number): void {
  const { hits } = s;
  if (!hits || hits.positions.length === 0) return;
  const { inventory } = s;
  const { kind, parent, unitBytes } = inventory;
  const recordCap = Math.max(64, Math.floor((limit - s.used) / 2));
  const records = new Map<number, MatchedRecord>();
  for (let h = 0; h < hits.positions.length; h++) {
    const term = hits.termOf[h]!;
    const weight = hits.weights[term]!;
    if (weight <= 0) continue;
    const node = nodeAt(s, hits.positions[h]!);
    if (node === 0) continue;
    let record = node;
    if (hits.terms[term]!.kind !== 'key') {
      // The record is the outermost array item around the match (a row of the result), or
      // else the outermost ancestor small enough to keep.
      let topItem = -1;
      let topSmall = node;
      for (let a = node; a > 0; a = parent[a]!) {
        if (kind[parent[a]!] === NODE_ARRAY) topItem = a;
        if (unitBytes[a]! <= recordCap) topSmall = a;
      }
      record = topItem >= 0 ? topItem : topSmall;
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
    if (limit - s.used < 8) break;
    if (keepWithPath(s, record, limit)) continue;
    // Too big to keep whole: keep the largest part around its rarest match that takes at most
    // half the room, then, for each other term, the match nearest to it, each with its path.
    let anchor = entry.hits[0]!;
    for (const h of entry.hits) {
      if (hits.weights[hits.termOf[h]!]! > hits.weights[hits.termOf[anchor]!]!) anchor = h;
    }
    const anchorAt = hits.positions[anchor]!;
    const anchorNode = nodeAt(s, anchorAt);
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
      const node = nodeAt(s, hits.positions[h]!);
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
    const path = pathCost(s, u, limit - s.used);
    if (path < 0) continue;
    const key = keyBytes[u]! > 0 ? keyBytes[u]! + 1 : 0;
    const room = limit - s.used - path - 1 - key - 2 - 3;
    if (room < MIN_CUT_CONTENT) continue;
    const length = cutStringContent(text, start[u]! + 1, end[u]! - 1, room);
    if (length.bytes < MIN_CUT_CONTENT) continue;
    openPath(s, u);
    state[u] = CUT;
    s.cutLength.set(u, length.units);
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
export function selectJson(
  inventory: JsonInventory,
  budget: number,
  hits: RelevanceHits | undefined,
  options: SelectJsonOptions,
): JsonSelection {
  const s = createSelection(inventory, hits, options.nestedArrayCap, options.visitAll === true);
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
  return render(inventory, s.state, s.cutLength, hits);
}

/**
 * How much of the string content `text[from, to)` fits in `room` UTF-8 bytes without splitting
 * an escape sequence or a character.
 */
function cutStringContent(
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

function render(
  inventory: JsonInventory,
  state: Uint8Array,
  cutLength: ReadonlyMap<number, number>,
  hits: RelevanceHits | undefined,
): JsonSelection {
  const { text, count, kind, parent, next, keyStart, start, end } = inventory;
  const included = new Uint8Array(count);
  let unitsKept = 0;
  for (let i = count - 1; i > 0; i--) {
    const current = state[i]!;
    if (current === WHOLE || current === CUT) included[i] = 1;
    else if (current !== PARTIAL) included[i] = 0;
    if (included[i] === 1) included[parent[i]!] = 1;
  }
  const keyPart = (u: number) =>
    keyStart[u]! >= 0 ? `${text.slice(keyStart[u]!, stringEnd(text, keyStart[u]!) + 1)}:` : '';
  const wholeText = (u: number) =>
    inventory.minified
      ? text.slice(unitStart(inventory, u), end[u]!)
      : keyPart(u) + minifyRange(text, start[u]!, end[u]!);

  const out: string[] = [];
  const stack: Array<{ close: string; children: number[]; index: number }> = [];
  let cutShort = 0;
  const open = (u: number): void => {
    const current = state[u]!;
    if (u > 0) unitsKept += current === WHOLE ? next[u]! - u : 1;
    if (current === WHOLE) {
      out.push(wholeText(u));
      return;
    }
    if (current === CUT) {
      cutShort++;
      const from = start[u]! + 1;
      out.push(`${keyPart(u)}"${text.slice(from, from + cutLength.get(u)!)}${ELLIPSIS}"`);
      return;
    }
    const children: number[] = [];
    for (let c = u + 1; c < next[u]!; c = next[c]!) if (included[c] === 1) children.push(c);
    if (kind[u] === NODE_OBJECT && hits && hits.positions.length > 0 && children.length > 1) {
      const scores = new Map<number, number>();
      for (const c of children) scores.set(c, rangeScore(hits, unitStart(inventory, c), end[c]!));
      children.sort((a, b) => scores.get(b)! - scores.get(a)! || a - b);
    }
    out.push(keyPart(u) + (kind[u] === NODE_OBJECT ? '{' : '['));
    stack.push({ close: kind[u] === NODE_OBJECT ? '}' : ']', children, index: 0 });
  };
  open(0);
  while (stack.length > 0) {
    const frame = stack[stack.length - 1]!;
    if (frame.index >= frame.children.length) {
      out.push(frame.close);
      stack.pop();
      continue;
    }
    if (frame.index > 0) out.push(',');
    open(frame.children[frame.index++]!);
  }
  const body = out.join('');
  return {
    body,
    bodyBytes: Buffer.byteLength(body, 'utf8'),
    unitsKept,
    unitsTotal: inventory.totalValues,
    cutShort,
  };
}

/** A root string value `text` (quotes included) cut inside to `budget` bytes, still valid JSON. */
export function cutRootString(text: string, budget: number): string {
  const length = cutStringContent(text, 1, text.length - 1, Math.max(0, budget - 2 - 3));
  return `"${text.slice(1, 1 + length.units)}${ELLIPSIS}"`;
}
