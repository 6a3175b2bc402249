import type { JsonInventory } from '../json/json-inventory.js';
import { NODE_ARRAY, NODE_OBJECT, NODE_STRING } from '../json/json-inventory.js';
import { type RecordPaths, recordField } from '../readers/json-records.js';

/** A bit of `prose` per signature: its strings read as prose. */
export const READS_AS_PROSE = 1;
/** A bit of `prose` per signature: a signature below it reads as prose (both, for a field that is a text in some records and holds parts in others). */
export const HOLDS_PROSE = 2;

/**
 * The first string inside container `u`, in document order, whose field reads as prose (`prose`
 * per signature, as `proseBySignature` marks it): what a message made of parts (a text, a tool
 * call, its output) says first. Goes down only into parts whose fields hold prose. -1 when none.
 */
export function firstProseLeaf(
  inventory: JsonInventory,
  sigOf: Int32Array,
  prose: Uint8Array,
  u: number,
): number {
  const { kind, next } = inventory;
  for (let c = u + 1; c < next[u]!; ) {
    const mark = prose[sigOf[c]!]!;
    if ((mark & READS_AS_PROSE) !== 0 && kind[c] === NODE_STRING) return c;
    // Into a part that holds prose below; past any other (its whole subtree).
    const into = (mark & HOLDS_PROSE) !== 0 && (kind[c] === NODE_OBJECT || kind[c] === NODE_ARRAY);
    c = into ? c + 1 : next[c]!;
  }
  return -1;
}

/**
 * Marks per signature which read as prose (`READS_AS_PROSE`, from `readsAsProse`, 1 each) and which
 * hold one below (`HOLDS_PROSE`). Signatures are numbered parents first, so one pass from the last marks every
 * ancestor.
 */
export function proseBySignature(readsAsProse: Uint8Array, parent: Int32Array): Uint8Array {
  const prose = new Uint8Array(readsAsProse.length);
  for (let s = readsAsProse.length - 1; s >= 1; s--) {
    if (readsAsProse[s] === 1) prose[s]! |= READS_AS_PROSE;
    if (prose[s] !== 0 && parent[s]! > 0) prose[parent[s]!]! |= HOLDS_PROSE;
  }
  return prose;
}

/**
 * What record `r` says in field `s`: the field's node where it is a value, or where it holds
 * parts (a message's list of blocks), the first text in them that reads as prose. -1 when none.
 */
export function recordSays(
  inventory: JsonInventory,
  analysis: RecordPaths & { prose: Uint8Array },
  r: number,
  s: number,
): number {
  const u = recordField(inventory, analysis, r, s);
  if (u < 0 || (inventory.kind[u] !== NODE_OBJECT && inventory.kind[u] !== NODE_ARRAY)) return u;
  return firstProseLeaf(inventory, analysis.signatures.of, analysis.prose, u);
}
