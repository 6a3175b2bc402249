import { withJsonTape } from '@compaction/core';
import { fixturesAvailable, listFixtures, readFixture } from '@compaction/fixtures';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { inventoryFromTape } from './inventory-from-tape.js';
import { type JsonInventory, NODE_ARRAY, NODE_OBJECT, scanJson } from './json-inventory.js';
import {
  type JsonSignatures,
  jsonSignatures,
  STEP_INDEX,
  STEP_ITEM,
  STEP_KEY,
  signaturesInJavaScript,
} from './json-signatures.js';

// Lists that mix maps, objects, tuples and arrays, with keys that differ in one character only,
// in the middle too (`read_capacity` beside `rend_capacity`), and keys of one length with the same
// first and last characters.
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
    fc.assert(
      fc.property(fc.array(value, { maxLength: 12 }), (list) => {
        const { inventory, signatures } = signaturesOf({ list });
        expect(violation(inventory, signatures)).toBeUndefined();
      }),
      { numRuns: 400 },
    );
  });
});

const FIELDS = ['parent', 'step', 'first', 'last', 'nodes', 'objects', 'leaves', 'depth'] as const;

/** The first difference between two passes' signatures of one inventory, or undefined. */
function signatureDifference(
  inventory: JsonInventory,
  expected: JsonSignatures,
  actual: JsonSignatures,
): string | undefined {
  if (expected.count !== actual.count) return `count: ${expected.count} vs ${actual.count}`;
  for (const column of ['of', 'nextSame'] as const) {
    for (let u = 0; u < inventory.count; u++) {
      if (expected[column][u] !== actual[column][u]) {
        return `${column}[${u}]: ${expected[column][u]} vs ${actual[column][u]}`;
      }
    }
  }
  for (const column of [...FIELDS, 'bytes', 'maxBytes'] as const) {
    for (let s = 0; s < expected.count; s++) {
      if (expected[column][s] !== actual[column][s]) {
        return `${column}[${s}]: ${expected[column][s]} vs ${actual[column][s]}`;
      }
    }
  }
  return undefined;
}

/**
 * The signatures of `text` from the lent tape's pass in WebAssembly and from the pass here, over
 * one borrowed inventory, and how they differ (undefined: not at all; a string when the pass
 * there did not run).
 */
function compareWithWasm(text: string): string | undefined {
  const read = withJsonTape(text, (tape, reader) => {
    const inventory = inventoryFromTape(tape, 1_000_000, reader, undefined, true)!;
    if (!inventory.tapeReader) return 'no pass in WebAssembly';
    const inWasm = inventory.tapeReader.signatures(true);
    if (!inWasm) return 'the pass in WebAssembly gave nothing';
    const found = signatureDifference(inventory, signaturesInJavaScript(inventory), inWasm);
    // What jsonSignatures answers: the pass there.
    return found ?? signatureDifference(inventory, inWasm, jsonSignatures(inventory));
  });
  return read.ok ? read.value : `the tape says ${read.reason}`;
}

describe('jsonSignatures over a lent tape (the pass in WebAssembly)', () => {
  it('finds what the pass in JavaScript finds on mixed lists', () => {
    fc.assert(
      fc.property(fc.array(value, { maxLength: 12 }), fc.boolean(), (list, pretty) => {
        const text = JSON.stringify({ list }, null, pretty ? 2 : undefined);
        expect(compareWithWasm(text)).toBeUndefined();
      }),
      { numRuns: 400 },
    );
  });

  it('finds it at the edges: a scalar root, empty containers, long tuples, maps of eight', () => {
    const texts = [
      '0',
      '"x"',
      '[]',
      '{}',
      '[[]]',
      '[{}, {}, {"a": {}}]',
      JSON.stringify([
        Array.from({ length: 16 }, (_, i) => i),
        Array.from({ length: 17 }, (_, i) => i),
      ]),
      JSON.stringify(Object.fromEntries(Array.from({ length: 8 }, (_, i) => [`k${i}`, { v: i }]))),
      JSON.stringify(Object.fromEntries(Array.from({ length: 7 }, (_, i) => [`k${i}`, { v: i }]))),
      JSON.stringify([{ a: 1, b: 2 }, { b: 2, a: 1 }, { a: 1, c: 3, b: 2 }, { c: 3 }]),
    ];
    for (const text of texts) expect(compareWithWasm(text), text).toBeUndefined();
  });

  it('finds it when a document has more signatures than the pass first makes room for', () => {
    // One value per key, all keys distinct: a signature per value.
    const wide = Object.fromEntries(Array.from({ length: 3000 }, (_, i) => [`key${i}`, i]));
    expect(compareWithWasm(JSON.stringify(wide))).toBeUndefined();
    const deep = JSON.stringify(
      Array.from({ length: 40 }, (_, i) => ({ [`f${i}`]: { [`g${i}`]: [i] } })),
    );
    expect(compareWithWasm(deep)).toBeUndefined();
  });

  it.skipIf(!fixturesAvailable())('finds it on every JSON fixture', () => {
    for (const fixture of listFixtures({ kind: 'json' })) {
      expect(compareWithWasm(readFixture(fixture.path)), fixture.path).toBeUndefined();
    }
  });
});
