import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { analyzeRecords } from './analyze-records.js';
import { scanJson } from './json-inventory.js';

/** A list of records whose fields hold nested lists and values of every kind. */
function recordList(minLength: number, maxLength: number) {
  return fc
    .tuple(
      fc.array(fc.jsonValue({ maxDepth: 3 }), { minLength, maxLength }),
      fc.array(fc.string({ maxLength: 6 }), { minLength: 1, maxLength: 6 }),
      fc.boolean(),
    )
    .map(([values, keys, nested]) => {
      const items = values.map((value, i) => ({
        id: i,
        [keys[i % keys.length]!]: value,
        state: i % 7 === 0 ? 'failed' : 'ok',
        parts: nested ? [{ n: i }, [i, value]] : [],
      }));
      return JSON.stringify(nested ? [items, { items }] : { items });
    });
}

/** Every field of `value`, typed arrays and maps included, as one text. */
function digest(value: unknown): string {
  return JSON.stringify(value, (_key, field: unknown) =>
    ArrayBuffer.isView(field)
      ? Array.from(field as Int32Array)
      : field instanceof Map
        ? [...field]
        : field,
  );
}

describe('analyzeRecords', () => {
  it('does not depend on what was analysed before it (property)', () => {
    // Its passes keep working columns between calls (`ScratchArray`): what another document
    // left in them must never show.
    fc.assert(
      fc.property(recordList(2, 40), recordList(40, 160), (text, other) => {
        const inventory = scanJson(text, 100_000)!;
        const before = analyzeRecords(inventory);
        analyzeRecords(scanJson(other, 100_000)!);
        // Compared as text: a deep diff of big typed arrays would take minutes to print.
        expect(digest(analyzeRecords(inventory)) === digest(before)).toBe(true);
      }),
      { numRuns: 300 },
    );
  });
});
