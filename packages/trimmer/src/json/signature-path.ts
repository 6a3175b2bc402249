import { type JsonInventory, NODE_OBJECT } from './json-inventory.js';
import { type JsonSignatures, STEP_INDEX, STEP_ITEM, STEP_KEY } from './json-signatures.js';

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

/**
 * The name the note gives field `s` of the records at `from`: its path, but for a value in a
 * list of one (`"span.id": ["a1b2"]`, `fieldDepth` set on its position), the list's own path,
 * as the value stands for the field.
 */
export function fieldPath(
  inventory: JsonInventory,
  analysis: { signatures: JsonSignatures; fieldDepth: Int32Array },
  s: number,
  from: number,
): string {
  const { signatures, fieldDepth } = analysis;
  const field =
    signatures.step[s] === STEP_INDEX && fieldDepth[s]! >= 1 ? signatures.parent[s]! : s;
  return signaturePath(inventory, analysis, field, from);
}
