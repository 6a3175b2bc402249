import { type JsonInventory, NODE_ARRAY } from './json-inventory.js';
import type { JsonSignatures } from './json-signatures.js';

/** Arrays of one path read as rows of positions from this many of them. */
const MIN_ROWS = 3;

/**
 * Per node, the outermost array around it (itself included) whose items are read by position,
 * else -1; `undefined` when the document has none. Such an array (a table's row of cells
 * `["web-1", "1/1", "Running", 0]`, a sample `[1712345678.1, "0.5"]`) is one of at least three
 * arrays of its path, all of one length of two or more, whose items are of more than one kind:
 * dropping an item from it would shift the ones after it to another column, so a view keeps it
 * whole or not at all. Linear: one pass over the arrays, one over the nodes.
 */
export function tupleTops(
  inventory: JsonInventory,
  signatures: JsonSignatures,
): Int32Array | undefined {
  const { count, kind, next, parent } = inventory;
  const sigOf = signatures.of;
  // Per array signature: how many arrays, their common length (-1 once two differ), the kinds
  // their items come in (a bit per kind).
  const rows = new Int32Array(signatures.count);
  const length = new Int32Array(signatures.count);
  const kinds = new Int32Array(signatures.count);
  let any = false;
  for (let u = 0; u < count; u++) {
    if (kind[u] !== NODE_ARRAY) continue;
    const s = sigOf[u]!;
    let items = 0;
    let mask = 0;
    for (let c = u + 1; c < next[u]!; c = next[c]!) {
      items++;
      mask |= 1 << kind[c]!;
    }
    if (rows[s] === 0) length[s] = items;
    else if (length[s] !== items) length[s] = -1;
    rows[s]!++;
    kinds[s]! |= mask;
  }
  const positional = new Uint8Array(signatures.count);
  for (let s = 0; s < signatures.count; s++) {
    const mask = kinds[s]!;
    if (rows[s]! >= MIN_ROWS && length[s]! >= 2 && (mask & (mask - 1)) !== 0) {
      positional[s] = 1;
      any = true;
    }
  }
  if (!any) return undefined;
  // Parents come before their children: each node takes its parent's top, or itself.
  const top = new Int32Array(count);
  for (let u = 0; u < count; u++) {
    const p = parent[u]!;
    const above = p >= 0 ? top[p]! : -1;
    top[u] = above >= 0 ? above : positional[sigOf[u]!] === 1 ? u : -1;
  }
  return top;
}
