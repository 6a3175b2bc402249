import { type JsonInventory, NODE_OBJECT } from './json-inventory.js';
import { type JsonSignatures, STEP_INDEX, STEP_ITEM, STEP_KEY } from './json-signatures.js';

/**
 * A key as a step of a note's path: as it is, or as a JSON string (`"app.example.io/name"`,
 * as jq writes it) when it is empty or holds what the path's own syntax uses, so that
 * `span.id` always means a key `id` inside `span`, and every path told resolves.
 */
const PLAIN_KEY = /^[^\u0000-\u0020\u007f."*[\]\\]+$/;

/** Path of a signature from the root: keys joined by dots, `[]` for any item, `.*` for a map's members. */
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
    if (step === STEP_KEY) {
      // The key as written in the source: a JSON string, its escapes kept.
      const written = inventory.text.slice(inventory.keyStart[u]!, inventory.keyEnd[u]!);
      const key = written.slice(1, -1);
      parts.push(`.${PLAIN_KEY.test(key) ? key : written}`);
    } else if (step === STEP_ITEM)
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
