import { type JsonInventory, NODE_OBJECT } from './json-inventory.js';
import { type JsonSignatures, STEP_ITEM, STEP_KEY } from './json-signatures.js';

/** Path of a signature from the root: keys joined by dots, `[]` for any item, `{}` for a map's members. */
export function signaturePath(
  inventory: JsonInventory,
  analysis: { signatures: JsonSignatures },
  s: number,
  from = 0,
): string {
  const { signatures } = analysis;
  const parts: string[] = [];
  for (let t = s; t > from; t = signatures.parent[t]!) {
    const u = signatures.first[t]!;
    const step = signatures.step[t];
    if (step === STEP_KEY)
      parts.push(`.${inventory.text.slice(inventory.keyStart[u]! + 1, inventory.keyEnd[u]! - 1)}`);
    else if (step === STEP_ITEM)
      parts.push(inventory.kind[inventory.parent[u]!] === NODE_OBJECT ? '.*' : '[]');
    else parts.push(`[${inventory.childIndex[u]}]`);
  }
  return parts.reverse().join('').replace(/^\./, '');
}
