import type { RecordAnalysis } from '../engine/analyze-records.js';
import { CLASS_INTEGER } from '../engine/column-roles.js';
import type { RecordGroup } from '../readers/json-records.js';
import type { JsonInventory } from './json-inventory.js';

/** Bytes a record's braces, comma and each enclosing key cost beside its name, about. */
const RECORD_OVERHEAD = 4;
const LEVEL_OVERHEAD = 5;

/**
 * About the bytes a view takes to name every record of `group` by its identity and nothing
 * else (`{"name":"web-1"},` each, with the keys that lead to a nested name): what the body
 * would need before anything else of the records could be shown. 0 when the records have no
 * identity. Linear in the records.
 */
export function recordNamesBytes(
  inventory: JsonInventory,
  analysis: RecordAnalysis,
  group: RecordGroup,
): number {
  const { keyBytes, unitBytes } = inventory;
  // Members of a map are named by their keys.
  if (group.keyed) {
    let bytes = 0;
    for (const r of group.records) bytes += keyBytes[r]! + RECORD_OVERHEAD;
    return bytes;
  }
  const s = group.identity;
  if (s < 0) return 0;
  const { first, nextSame, parent } = analysis.signatures;
  // The keys above the name within its record (`spec.identity.ref`: two more).
  let levels = 0;
  for (let t = parent[s]!; t > group.sig; t = parent[t]!) levels++;
  let bytes = group.records.length * RECORD_OVERHEAD;
  for (let u = first[s]!; u >= 0; u = nextSame[u]!) {
    bytes += unitBytes[u]! + levels * (keyBytes[u]! + LEVEL_OVERHEAD);
  }
  return bytes;
}

/**
 * Names each record of `group` with its `label` too (`identityTogether`) where naming them all
 * by their identity alone takes more than `room` bytes: a view that can name a few hundred of
 * four thousand journal entries names them with their messages, not by numbers alone. Where
 * every name fits, the identity names them and what they say follows it; unless the identity
 * is a number that is no name at all (`named` false: a token count unique by chance).
 */
export function labelWhereFew(
  inventory: JsonInventory,
  analysis: RecordAnalysis,
  group: RecordGroup,
  room: number,
): void {
  if (group.label < 0 || group.alsoIdentity >= 0) return;
  // A number that names nothing (a token count unique by chance) is no name even where all fit.
  const noName = !group.named && analysis.classOf[group.identity] === CLASS_INTEGER;
  if (!noName && recordNamesBytes(inventory, analysis, group) <= room) return;
  group.alsoIdentity = group.label;
  group.identityTogether = true;
}
