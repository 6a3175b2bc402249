import { utf8ByteLength } from '@compaction/core';
import { lowerBound } from '../engine/lower-bound.js';
import { type RelevanceHits, rangeScore } from '../engine/relevance.js';
import type { StopCheck } from '../engine/stop-check.js';
import {
  type JsonInventory,
  minifyRange,
  NODE_ARRAY,
  NODE_OBJECT,
  unitStart,
} from './json-inventory.js';
import { CUT, cutStringContent, ELLIPSIS, WHOLE } from './selection-ledger.js';

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
  /** A measure of the work the selection did (steps, path costs asked), for tests. */
  work?: number;
}

/**
 * Writes the view a selection describes as minified JSON, slicing every kept value from the
 * source (numbers and strings verbatim). A partly kept object lists its members that match the
 * query or a preserved key (and, with `errorsFirst`, error-like words) first, the rest in
 * source order; everything else keeps source order.
 * `check` is called every few thousand nodes and may throw to stop.
 */
export function renderSelection(
  inventory: JsonInventory,
  state: Uint8Array,
  cutLength: ReadonlyMap<number, number>,
  hits: RelevanceHits | undefined,
  check?: StopCheck,
  errorsFirst = true,
): JsonSelection {
  const { kind, next } = inventory;
  // Error-like words reorder members only where asked (the seed's rule); the query and
  // preserved keys always do.
  const ordering =
    hits && hits.positions.length > 0 && (errorsFirst || hits.queryMatched) ? hits : undefined;
  const r = createRender(inventory, state, cutLength, ordering, errorsFirst);
  let visited = 0;
  open(r, 0);
  const { stackNode, stackNext, stackOrder, stackFirst } = r;
  while (stackNode.length > 0) {
    const top = stackNode.length - 1;
    const u = stackNode[top]!;
    const order = stackOrder[top];
    let child = -1;
    if (order) {
      const index = stackNext[top]!;
      if (index < order.length) {
        child = order[index]!;
        stackNext[top] = index + 1;
      }
    } else {
      let c = stackNext[top]!;
      const stop = next[u]!;
      // A container is partly kept (PARTIAL) only once something inside it is kept, so the
      // state alone says what is in the view: WHOLE, PARTIAL and CUT are 1 to 3; dropped and
      // descended-into-but-empty (the breadth-first OPEN, 4) have no low bits.
      while (c < stop && (state[c]! & 3) === 0) {
        if ((++visited & 16383) === 0 && check) check(16384);
        c = next[c]!;
      }
      if (c < stop) {
        child = c;
        stackNext[top] = next[c]!;
      }
    }
    if (child < 0) {
      emitChar(r, kind[u] === NODE_OBJECT ? 0x7d : 0x5d);
      stackNode.pop();
      stackNext.pop();
      stackOrder.pop();
      stackFirst.pop();
      continue;
    }
    if (stackFirst[top]) stackFirst[top] = false;
    else emitChar(r, 0x2c);
    open(r, child);
  }
  flushRun(r);
  const body = r.body;
  return {
    body,
    bodyBytes: body.length + r.extraBytes,
    unitsKept: r.unitsKept,
    unitsTotal: inventory.totalValues,
    cutShort: r.cutShort,
  };
}

/**
 * What a rendering has written and the containers it has open: the node, and either the next
 * child to look at (children in source order) or, for an object whose members are reordered,
 * the list of them and a position. Plain functions work on it, not closures (closures made per
 * call get their own optimised code, compiled again on every call).
 */
function createRender(
  inventory: JsonInventory,
  state: Uint8Array,
  cutLength: ReadonlyMap<number, number>,
  ordering: RelevanceHits | undefined,
  errorsFirst: boolean,
) {
  return {
    inventory,
    state,
    cutLength,
    ordering,
    errorsFirst,
    /**
     * What is written so far. Pieces are appended, not pushed to be joined: a view is thousands
     * of short pieces, and V8 joins appended strings once, when the text is first read, for less
     * than an array's join costs.
     */
    body: '',
    /** Source text `[runFrom, runTo)` written but not yet appended to `body` (see `emitRange`). */
    runFrom: 0,
    runTo: 0,
    unitsKept: 0,
    cutShort: 0,
    stackNode: [] as number[],
    stackNext: [] as number[],
    stackOrder: [] as Array<number[] | undefined>,
    stackFirst: [] as boolean[],
    /** Scratch for `emitWhole`: the containers it has open. */
    wholeOpen: [] as number[],
    /** Scratch for `byScore`: the scores of one object's members. */
    scores: [] as number[],
    /**
     * UTF-8 bytes written beyond one per UTF-16 unit, so the body's size needs no second pass:
     * each key and value adds what the inventory measured of it (its bytes less its units), the
     * pieces that are not source text their own. Characters beyond ASCII sit only inside
     * strings, and no two strings' contents touch in the body (quotes, an ellipsis or
     * punctuation always stand between), so the pieces' sizes add up.
     */
    extraBytes: 0,
  };
}

type Render = ReturnType<typeof createRender>;

/**
 * Writes source text `[from, to)`, `bytes` in UTF-8 (as the inventory measured it). Pieces that follow each other in the source (a key, its
 * colon, its value, the comma after it, the next member…, as in a minified text) are joined
 * into one run and sliced once when the run ends: a view of whole records is then a few long
 * slices rather than four short strings per field.
 */
function emitRange(r: Render, from: number, to: number, bytes = to - from): void {
  r.extraBytes += bytes - (to - from);
  if (from === r.runTo && r.runTo > r.runFrom) {
    r.runTo = to;
    return;
  }
  flushRun(r);
  r.runFrom = from;
  r.runTo = to;
}

/** Writes the punctuation character `code`, as part of the run when the source has it next. */
function emitChar(r: Render, code: number): void {
  const { text } = r.inventory;
  if (r.runTo > r.runFrom && text.charCodeAt(r.runTo) === code) {
    r.runTo++;
    return;
  }
  flushRun(r);
  r.body += String.fromCharCode(code);
}

/** Writes `piece`, which is not source text. */
function emitString(r: Render, piece: string): void {
  flushRun(r);
  r.body += piece;
  r.extraBytes += utf8ByteLength(piece) - piece.length;
}

function flushRun(r: Render): void {
  if (r.runTo > r.runFrom) r.body += r.inventory.text.slice(r.runFrom, r.runTo);
  r.runFrom = 0;
  r.runTo = 0;
}

function pushKey(r: Render, u: number): void {
  const { keyStart, keyEnd, keyBytes } = r.inventory;
  if (keyStart[u]! >= 0) {
    emitRange(r, keyStart[u]!, keyEnd[u]!, keyBytes[u]!);
    emitChar(r, 0x3a);
  }
}

/** Writes `u` whole or cut, or opens it (pushes its frame) when partly kept. */
function open(r: Render, u: number): void {
  const { inventory, state } = r;
  const { kind, next, start, end, valueBytes } = inventory;
  const current = state[u]!;
  if (u > 0) r.unitsKept += current === WHOLE ? next[u]! - u : 1;
  if (current === WHOLE) {
    pushKey(r, u);
    // A scalar has no whitespace in it; a container may, outside its strings (an empty one
    // written `{ }` included).
    const k = kind[u];
    if (inventory.minified || (k !== NODE_OBJECT && k !== NODE_ARRAY)) {
      emitRange(r, start[u]!, end[u]!, valueBytes[u]!);
    } else if (inventory.truncated && next[u]! >= inventory.count) {
      // Its subtree runs past the nodes the inventory recorded: only its text has all of it.
      emitString(r, minifyRange(inventory.text, start[u]!, end[u]!));
    } else emitWhole(r, u);
    return;
  }
  if (current === CUT) {
    r.cutShort++;
    pushKey(r, u);
    const from = start[u]! + 1;
    const to = from + r.cutLength.get(u)!;
    emitRange(r, from - 1, to, 1 + utf8ByteLength(inventory.text.slice(from, to)));
    emitString(r, `${ELLIPSIS}"`);
    return;
  }
  pushKey(r, u);
  // Its opening bracket is source text: the run goes on into its first kept member.
  emitRange(r, start[u]!, start[u]! + 1);
  let order: number[] | undefined;
  if (kind[u] === NODE_OBJECT && r.ordering) {
    const children: number[] = [];
    for (let c = u + 1; c < next[u]!; c = next[c]!) if ((state[c]! & 3) !== 0) children.push(c);
    order = children.length > 1 ? byScore(r, children) : children;
  }
  r.stackNode.push(u);
  r.stackNext.push(order ? 0 : u + 1);
  r.stackOrder.push(order);
  r.stackFirst.push(true);
}

/** Members of one object sorted by insertion up to this many (quadratic past it). */
const INSERTION_SORT_MAX = 32;

/**
 * `children` (kept members of one object, in source order) by their score against the ordering,
 * highest first, ties in source order. Most objects have no match or their matches first: their
 * scores are already in order and the list is returned as it came, with no sort.
 */
function byScore(r: Render, children: number[]): number[] {
  const { inventory } = r;
  const scores = r.scores;
  scores.length = children.length;
  const ordering = r.ordering!;
  const { positions } = ordering;
  let sorted = true;
  // The members follow each other in the text: one search finds the first hit, and a walk
  // along the hits which member holds any (a member with none scores 0).
  let h = lowerBound(positions, unitStart(inventory, children[0]!));
  for (let i = 0; i < children.length; i++) {
    const c = children[i]!;
    const from = unitStart(inventory, c);
    const to = inventory.end[c]!;
    while (h < positions.length && positions[h]! < from) h++;
    scores[i] =
      h < positions.length && positions[h]! < to
        ? rangeScore(ordering, from, to, r.errorsFirst)
        : 0;
    if (i > 0 && scores[i]! > scores[i - 1]!) sorted = false;
  }
  if (sorted) return children;
  if (children.length > INSERTION_SORT_MAX) {
    const at = children.map((_, i) => i);
    at.sort((a, b) => scores[b]! - scores[a]! || a - b);
    return at.map((i) => children[i]!);
  }
  // Insertion sort, stable: most objects have a few dozen members, and an inline loop over two
  // arrays costs less than a comparator called per pair.
  for (let i = 1; i < children.length; i++) {
    const c = children[i]!;
    const score = scores[i]!;
    let j = i - 1;
    for (; j >= 0 && scores[j]! < score; j--) {
      children[j + 1] = children[j]!;
      scores[j + 1] = scores[j]!;
    }
    children[j + 1] = c;
    scores[j + 1] = score;
  }
  return children;
}

/**
 * Writes container `u` (its key already written) minified, from a source that is not: node by
 * node, each key, value and bracket as source text and the punctuation between them, so no
 * character inside a string or a run of indentation is read. Pieces that touch in the source
 * (a key and its colon, a value and its comma) join into one run as `emitRange` does.
 */
function emitWhole(r: Render, u: number): void {
  const { kind, next, parent, start, end, valueBytes } = r.inventory;
  const open = r.wholeOpen;
  open.length = 0;
  emitRange(r, start[u]!, start[u]! + 1);
  open.push(u);
  const stop = next[u]!;
  for (let c = u + 1; c < stop; c++) {
    let top = open[open.length - 1]!;
    while (next[top]! <= c) {
      emitRange(r, end[top]! - 1, end[top]!);
      open.pop();
      top = open[open.length - 1]!;
    }
    if (c !== parent[c]! + 1) emitChar(r, 0x2c);
    pushKey(r, c);
    const k = kind[c];
    if (k === NODE_OBJECT || k === NODE_ARRAY) {
      emitRange(r, start[c]!, start[c]! + 1);
      open.push(c);
    } else emitRange(r, start[c]!, end[c]!, valueBytes[c]!);
  }
  while (open.length > 0) {
    const top = open.pop()!;
    emitRange(r, end[top]! - 1, end[top]!);
  }
}

/** A root string value `text` (quotes included) cut inside to `budget` bytes, still valid JSON. */
export function cutRootString(text: string, budget: number): string {
  const length = cutStringContent(text, 1, text.length - 1, Math.max(0, budget - 2 - 3));
  return `"${text.slice(1, 1 + length.units)}${ELLIPSIS}"`;
}
