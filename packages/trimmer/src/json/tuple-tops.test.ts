import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { createStructuralTrimmer } from '../create-structural-trimmer.js';
import { viewBody } from '../test-support/view-invariants.js';
import { scanJson } from './json-inventory.js';
import { jsonSignatures } from './json-signatures.js';
import { tupleTops } from './tuple-tops.js';

const trimmer = createStructuralTrimmer();

/** The rows of a query result by position: a name, a ready count, a phase, restarts, a node. */
function table(count: number, seed: number) {
  const phases = ['Running', 'Running', 'Running', 'Pending', 'Failed'];
  const rows = Array.from({ length: count }, (_, i) => [
    `web-${((i + seed) * 7919).toString(36)}`,
    `${i % 3}/2`,
    phases[(i * seed) % phases.length],
    (i * 7) % 11,
    { node: `node-${i % 4}`, zone: ['a', 'b'][i % 2] },
    i % 9 === 0 ? null : `10.0.${i % 250}.${(i * 13) % 250}`,
  ]);
  return {
    rows,
    text: JSON.stringify({
      columns: ['name', 'ready', 'phase', 'restarts', 'placement', 'ip'],
      rows,
    }),
  };
}

describe('rows of positions', () => {
  it('are arrays of one path, of one length, whose items are of more than one kind', () => {
    const tops = (value: unknown) => {
      const inventory = scanJson(JSON.stringify(value), 10_000)!;
      const found = tupleTops(inventory, jsonSignatures(inventory));
      if (!found) return [];
      return [...new Set([...found].filter((u) => u >= 0))].map((u) =>
        JSON.parse(inventory.text.slice(inventory.start[u]!, inventory.end[u]!)),
      );
    };
    const samples = [
      [1712345678.1, '0.5'],
      [1712345688.1, '0.7'],
      [1712345698.1, '0.6'],
    ];
    expect(tops({ values: samples })).toEqual(samples);
    // Lists of one kind, lists of varying length, and fewer than three rows are lists.
    expect(
      tops({ items: [{ tags: ['a', 'b'] }, { tags: ['c', 'd'] }, { tags: ['e', 'f'] }] }),
    ).toEqual([]);
    expect(
      tops({
        rows: [
          ['a', 1],
          ['b', 2, 3],
          ['c', 4],
        ],
      }),
    ).toEqual([]);
    expect(
      tops({
        rows: [
          ['a', 1],
          ['b', 2],
        ],
      }),
    ).toEqual([]);
  });

  it('are shown whole or not at all, at any budget (property)', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 8, max: 120 }),
        fc.integer({ min: 1, max: 50 }),
        fc.double({ min: 0.01, max: 0.6, noNaN: true }),
        (count, seed, share) => {
          const { rows, text } = table(count, seed);
          const budget = Math.max(256, Math.floor(text.length * share));
          const view = trimmer.trim(text, budget);
          expect(Buffer.byteLength(view.text)).toBeLessThanOrEqual(budget);
          const shown = (JSON.parse(viewBody(view)).rows ?? []) as unknown[][];
          const whole = new Set(rows.map((row) => JSON.stringify(row)));
          for (const row of shown) expect(whole.has(JSON.stringify(row))).toBe(true);
        },
      ),
      { numRuns: 60 },
    );
  });
});
