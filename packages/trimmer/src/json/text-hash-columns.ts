import { textHash } from '@compaction/core/internal';
import { NODE_SCALAR, NODE_STRING } from './json-inventory.js';

/** The `keyHash` and `valueHash` columns of an inventory. */
export interface TextHashColumns {
  keyHash: Int32Array;
  valueHash: Int32Array;
}

/**
 * The hash columns of `count` nodes, as the tape's inventory computes them in WebAssembly (see
 * `JsonTapeInventory`), for the inventories built in JavaScript: per member its key's
 * `textHash` between the quotes, per scalar its text's (a string's between its quotes), else 0.
 */
export function textHashColumns(
  text: string,
  count: number,
  kind: Uint8Array,
  keyStart: Int32Array,
  keyEnd: Int32Array,
  start: Int32Array,
  end: Int32Array,
): TextHashColumns {
  const keyHash = new Int32Array(count);
  const valueHash = new Int32Array(count);
  for (let u = 0; u < count; u++) {
    const key = keyStart[u]!;
    if (key >= 0) keyHash[u] = textHash(text, key + 1, keyEnd[u]! - 1);
    const k = kind[u]!;
    if (k === NODE_STRING) valueHash[u] = textHash(text, start[u]! + 1, end[u]! - 1);
    else if (k === NODE_SCALAR) valueHash[u] = textHash(text, start[u]!, end[u]!);
  }
  return { keyHash, valueHash };
}
