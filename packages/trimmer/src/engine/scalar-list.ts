import {
  type JsonInventory,
  NODE_ARRAY,
  NODE_SCALAR,
  NODE_STRING,
} from '../json/json-inventory.js';
import type { JsonSignatures } from '../json/json-signatures.js';
import { scalarValue } from '../readers/json-records.js';

/** Lists of a signature looked at to tell whether they hold values. */
const LIST_SAMPLES = 8;

/** Whether the nodes of `s` are lists of values (strings, numbers), not of objects. */
export function holdsScalarList(
  inventory: JsonInventory,
  signatures: JsonSignatures,
  s: number,
): boolean {
  const { kind, next } = inventory;
  let seen = 0;
  for (let u = signatures.first[s]!; u >= 0 && seen < LIST_SAMPLES; u = signatures.nextSame[u]!) {
    if (kind[u] !== NODE_ARRAY) return false;
    seen++;
    const c = u + 1;
    if (c < next[u]!) return kind[c] === NODE_STRING || kind[c] === NODE_SCALAR;
  }
  return false;
}

/**
 * How many lists of signature `s` hold each sequence of values, commonest first (then first
 * seen), a sequence written as its values joined by `+` (`delete+create`, a Terraform
 * replacement): one value per record for a list each record holds once. Empty lists hold no
 * value and are not counted; `undefined` when a list holds anything but values or a value
 * holding `+` (the sequences would not read apart), or when more than `limit` sequences occur.
 */
export function scalarListCounts(
  inventory: JsonInventory,
  signatures: JsonSignatures,
  s: number,
  limit: number,
): Array<{ value: string; count: number }> | undefined {
  const { kind, next } = inventory;
  const counts = new Map<string, number>();
  for (let u = signatures.first[s]!; u >= 0; u = signatures.nextSame[u]!) {
    if (kind[u] !== NODE_ARRAY) return undefined;
    if (u + 1 === next[u]) continue;
    let value = '';
    for (let c = u + 1; c < next[u]!; c = next[c]!) {
      if (kind[c] !== NODE_STRING && kind[c] !== NODE_SCALAR) return undefined;
      const item = scalarValue(inventory, c);
      // `["a+b"]` and `["a", "b"]` would read alike: such lists are not counted.
      if (item.includes('+')) return undefined;
      value += (c === u + 1 ? '' : '+') + item;
    }
    counts.set(value, (counts.get(value) ?? 0) + 1);
    if (counts.size > limit) return undefined;
  }
  return [...counts].map(([value, count]) => ({ value, count })).sort((a, b) => b.count - a.count);
}
