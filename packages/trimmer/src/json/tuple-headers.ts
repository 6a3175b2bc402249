import { childCount } from './child-count.js';
import { type JsonInventory, NODE_ARRAY, NODE_OBJECT } from './json-inventory.js';

/** Arrays at most this many levels below the root may be a header of rows… */
const HEADER_DEPTH = 3;
/** …among the first this many containers looked at. */
const HEADER_SEARCH = 4096;

/**
 * The arrays that name the positions of the rows read by position (`tupleTops`): near the root,
 * outside every row, and of as many items as a row (a query result's `schema` beside its
 * `datarows`, a table's column definitions beside its rows' cells). Without one a row's values
 * are values of no column, so a view shows it before the rows. In document order.
 */
export function tupleHeaders(inventory: JsonInventory, top: Int32Array): number[] {
  const { count, kind, next, parent } = inventory;
  const lengths = new Set<number>();
  const rowLists = new Set<number>();
  for (let u = 0; u < count; u++) {
    if (top[u] !== u) continue;
    lengths.add(childCount(inventory, u));
    rowLists.add(parent[u]!);
  }
  const headers: number[] = [];
  // Depth first from the root, a few levels down, skipping the rows and the lists of them.
  const stack: Array<[number, number]> = count > 0 ? [[0, 0]] : [];
  for (let seen = 0; stack.length > 0 && seen < HEADER_SEARCH; seen++) {
    const [u, depth] = stack.pop()!;
    if (top[u]! >= 0 || rowLists.has(u)) continue;
    if (kind[u] === NODE_ARRAY && u !== 0 && lengths.has(childCount(inventory, u))) {
      headers.push(u);
      continue;
    }
    if (depth >= HEADER_DEPTH) continue;
    for (let c = u + 1; c < next[u]!; c = next[c]!) {
      if (kind[c] === NODE_ARRAY || kind[c] === NODE_OBJECT) stack.push([c, depth + 1]);
    }
  }
  return headers.sort((a, b) => a - b);
}
