import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { type JsonInventory, NODE_ARRAY, NODE_OBJECT, scanJson } from './json-inventory.js';
import {
  type JsonSignatures,
  jsonSignatures,
  STEP_INDEX,
  STEP_ITEM,
  STEP_KEY,
} from './json-signatures.js';

function signaturesOf(value: unknown): { inventory: JsonInventory; signatures: JsonSignatures } {
  const inventory = scanJson(JSON.stringify(value), 1_000_000);
  if (!inventory) throw new Error('not JSON');
  return { inventory, signatures: jsonSignatures(inventory) };
}

/** How the children of container `p` step from it: a map's and a long array's are items. */
function expectedStep(inventory: JsonInventory, p: number): number {
  const { kind, next } = inventory;
  const children: number[] = [];
  for (let c = p + 1; c < next[p]!; c = next[c]!) children.push(c);
  if (kind[p] === NODE_ARRAY) {
    const tuple =
      children.length > 0 &&
      children.length <= 16 &&
      children.every((c) => kind[c] !== NODE_OBJECT && kind[c] !== NODE_ARRAY);
    return tuple ? STEP_INDEX : STEP_ITEM;
  }
  const map =
    children.length >= 8 && children.every((c) => kind[c] === NODE_OBJECT && next[c] !== c + 1);
  return map ? STEP_ITEM : STEP_KEY;
}

/** The first broken invariant of `signatures`, or undefined. */
function violation(inventory: JsonInventory, signatures: JsonSignatures): string | undefined {
  const { kind, parent, childIndex, keyStart, keyEnd, text } = inventory;
  const sigOf = signatures.of;
  const stepOfChildren = new Map<number, number>();
  const indexOf = new Map<number, number>();
  const keyOf = new Map<number, string>();
  for (let u = 1; u < inventory.count; u++) {
    const s = sigOf[u]!;
    const p = parent[u]!;
    if (signatures.parent[s] !== sigOf[p])
      return `node ${u}: its signature's parent is not its parent's`;
    const step = signatures.step[s]!;
    // Every child of one container steps from it the same way, as its kind allows.
    const seen = stepOfChildren.get(p);
    if (seen !== undefined && seen !== step) return `node ${u}: steps ${step} beside ${seen}`;
    stepOfChildren.set(p, step);
    if (step === STEP_KEY && kind[p] !== NODE_OBJECT) return `node ${u}: a key step under an array`;
    if (step === STEP_INDEX) {
      if (kind[p] !== NODE_ARRAY) return `node ${u}: an index step under an object`;
      const index = indexOf.get(s);
      if (index !== undefined && index !== childIndex[u]) return `node ${u}: positions differ`;
      indexOf.set(s, childIndex[u]!);
    }
    if (step === STEP_KEY) {
      // Keys of one signature are one key (but for a chance agreement of their hashes).
      const key = text.slice(keyStart[u]!, keyEnd[u]!);
      const known = keyOf.get(s);
      if (known !== undefined && known !== key) return `node ${u}: key ${key} beside ${known}`;
      keyOf.set(s, key);
    }
    if (step !== expectedStep(inventory, p)) return `node ${u}: step ${step} under node ${p}`;
  }
  return undefined;
}

describe('jsonSignatures', () => {
  it('gives each position of a list of tuples its own signature', () => {
    const { inventory, signatures } = signaturesOf([
      [1, 2],
      [3, 4],
      [5, 6, 7],
    ]);
    const sig = (u: number) => signatures.of[u];
    // Nodes: 0 root, 1 tuple, 2 1, 3 2, 4 tuple, 5 3, 6 4, 7 tuple, 8 5, 9 6, 10 7.
    expect(sig(2)).toBe(sig(5));
    expect(sig(3)).toBe(sig(6));
    expect(sig(2)).not.toBe(sig(3));
    expect(signatures.step[sig(10)!]).toBe(STEP_INDEX);
    expect(violation(inventory, signatures)).toBeUndefined();
  });

  it('does not carry a map’s item signature over to the next record’s plain members', () => {
    const map = Object.fromEntries(Array.from({ length: 8 }, (_, i) => [`aa${i}b`, { v: i }]));
    const { inventory, signatures } = signaturesOf({
      list: [{ x: map }, { x: { aa9b: { v: 1 } } }, { x: map }],
    });
    expect(violation(inventory, signatures)).toBeUndefined();
  });

  it('does not carry a tuple’s positions over to the next record’s long or nested array', () => {
    const { inventory, signatures } = signaturesOf([
      { a: [1, 2] },
      { a: Array.from({ length: 20 }, (_, i) => i) },
      { a: [1, [2]] },
      { a: [3, 4] },
    ]);
    expect(violation(inventory, signatures)).toBeUndefined();
  });

  it('keeps its invariants on lists that mix maps, objects, tuples and arrays', () => {
    // Keys that differ in one character only, in the middle too (`read_capacity` beside
    // `rend_capacity`), and keys of one length with the same first and last characters.
    const key = fc.constantFrom('a', 'b', 'ab', 'ba', 'abc', 'aXc', 'name', 'nose', 'x1', 'x2');
    const leaf = fc.oneof(fc.integer(), fc.constantFrom('s', 'Running', null, true));
    const value = fc.letrec((tie) => ({
      node: fc.oneof(
        { depthSize: 'small', withCrossShrink: true },
        leaf,
        fc.array(leaf, { maxLength: 18 }),
        fc.array(tie('node'), { maxLength: 4 }),
        fc.dictionary(key, tie('node'), { maxKeys: 5 }),
        // A map: at least eight members, each a non-empty object.
        fc
          .array(fc.dictionary(key, leaf, { minKeys: 1, maxKeys: 2 }), {
            minLength: 8,
            maxLength: 9,
          })
          .map((items) => Object.fromEntries(items.map((item, i) => [`m${i}`, item]))),
      ),
    })).node;
    fc.assert(
      fc.property(fc.array(value, { maxLength: 12 }), (list) => {
        const { inventory, signatures } = signaturesOf({ list });
        expect(violation(inventory, signatures)).toBeUndefined();
      }),
      { numRuns: 400 },
    );
  });
});
