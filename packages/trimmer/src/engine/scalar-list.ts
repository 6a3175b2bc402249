import {
  type JsonInventory,
  NODE_ARRAY,
  NODE_SCALAR,
  NODE_STRING,
} from '../json/json-inventory.js';
import { type JsonSignatures, STEP_ITEM, STEP_KEY } from '../json/json-signatures.js';
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

/** Keys a field of a list's items may sit below its record, counted as a note's path has them. */
const NESTED_KEYS = 4;

/**
 * For a value field `s` of the items of one list inside each record of `group` (a pod's
 * `spec.containers[].image`, a component's `licenses[].license.id`): how many records hold each
 * sequence of its values, joined by `+` in the order the record holds them (one value where a
 * record holds one item, as most do), commonest first, with the keys between the record and
 * the field. `undefined` where `s` is no such field, a value holds `+`, or more than `limit`
 * sequences occur. Linear in the records and the field's values.
 */
export function nestedListCounts(
  inventory: JsonInventory,
  signatures: JsonSignatures,
  groupSig: number,
  records: readonly number[],
  s: number,
  limit: number,
): { counts: Array<{ value: string; count: number }>; keys: number } | undefined {
  const { kind, next } = inventory;
  const first = signatures.first[s]!;
  if (first < 0 || (kind[first] !== NODE_STRING && kind[first] !== NODE_SCALAR)) return undefined;
  // One list between the record and the field, a few keys each side of it.
  let items = 0;
  let keys = 0;
  for (let t = s; t !== groupSig; t = signatures.parent[t]!) {
    if (t <= 0) return undefined;
    if (signatures.step[t] === STEP_ITEM) items++;
    else if (signatures.step[t] === STEP_KEY) keys++;
    else return undefined;
  }
  if (items !== 1 || keys > NESTED_KEYS) return undefined;
  const counts = new Map<string, number>();
  let r = 0;
  let value = '';
  let holder = -1;
  const close = () => {
    if (holder < 0) return;
    counts.set(value, (counts.get(value) ?? 0) + 1);
    holder = -1;
    value = '';
  };
  for (let u = first; u >= 0; u = signatures.nextSame[u]!) {
    while (r < records.length && next[records[r]!]! <= u) r++;
    if (r === records.length || records[r]! > u) return undefined;
    const item = scalarValue(inventory, u);
    if (item.includes('+')) return undefined;
    if (holder !== records[r]) {
      close();
      holder = records[r]!;
      value = item;
    } else value += `+${item}`;
    if (counts.size > limit) return undefined;
  }
  close();
  if (counts.size > limit) return undefined;
  const sorted = [...counts].map(([text, count]) => ({ value: text, count }));
  return { counts: sorted.sort((a, b) => b.count - a.count), keys };
}
