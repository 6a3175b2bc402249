import type { JsonInventory } from './json-inventory.js';

/** The items or members of container `u` (0 for a scalar). */
export function childCount(inventory: JsonInventory, u: number): number {
  const { next } = inventory;
  let count = 0;
  for (let c = u + 1; c < next[u]!; c = next[c]!) count++;
  return count;
}
