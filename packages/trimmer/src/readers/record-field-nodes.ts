import type { JsonInventory } from '../json/json-inventory.js';
import { type RecordGroup, type RecordPaths, recordField } from './json-records.js';

const nodesOf = new WeakMap<RecordGroup, Map<number, Int32Array>>();

/**
 * `recordField` of every record of `group` for field `s`, in the order of `group.records`
 * (-1 where a record lacks it), kept per group and field. A field right below the records is
 * read off its signature's chain of nodes, in one walk beside the records: looking for it among
 * each record's keys cost more than the passes that asked, over tens of thousands of records.
 */
export function recordFieldNodes(
  inventory: JsonInventory,
  analysis: RecordPaths,
  group: RecordGroup,
  s: number,
): Int32Array {
  let byField = nodesOf.get(group);
  if (!byField) {
    byField = new Map();
    nodesOf.set(group, byField);
  }
  let nodes = byField.get(s);
  if (nodes) return nodes;
  const { records } = group;
  nodes = new Int32Array(records.length).fill(-1);
  const { signatures } = analysis;
  if (s >= 0 && signatures.parent[s] === group.sig) {
    // Nodes of `s` and records both come in document order, and each node's parent is a node of
    // the records' signature: the first node under a record is the one `recordField` finds.
    const { parent } = inventory;
    let i = 0;
    for (let u = signatures.first[s]!; u >= 0 && i < records.length; u = signatures.nextSame[u]!) {
      const r = parent[u]!;
      while (i < records.length && records[i]! < r) i++;
      if (i < records.length && records[i] === r) {
        nodes[i] = u;
        i++;
      }
    }
  } else if (s >= 0) {
    for (let i = 0; i < records.length; i++)
      nodes[i] = recordField(inventory, analysis, records[i]!, s);
  }
  byField.set(s, nodes);
  return nodes;
}
