import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { findHits, relevanceTerms } from '../engine/relevance.js';
import { scanJson } from './json-inventory.js';
import { selectJsonBreadthFirst } from './select-json-breadth-first.js';

const words = ['alpha', 'beta', 'status', 'error', 'failed', 'id', 'name', 'x'];
const word = fc.constantFrom(...words);
const text = fc.array(word, { minLength: 1, maxLength: 6 }).map((parts) => parts.join(' '));
const leaf = fc.oneof(text, fc.integer(), fc.boolean(), fc.constant(null));
const value = fc.letrec((tie) => ({
  node: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    leaf,
    fc.array(tie('node'), { maxLength: 6 }),
    fc.dictionary(word, tie('node'), { maxKeys: 5 }),
  ),
})).node;

describe('selectJsonBreadthFirst', () => {
  it('selects the same as a walk that visits every container', () => {
    fc.assert(
      fc.property(
        fc.array(value, { minLength: 1, maxLength: 8 }),
        fc.boolean(),
        fc.double({ min: 0.02, max: 1, noNaN: true }),
        fc.subarray(words, { maxLength: 3 }),
        fc.integer({ min: 1, max: 4 }),
        fc.constantFrom(0, 0.35, 0.9),
        (items, pretty, share, query, nestedArrayCap, relevanceShare) => {
          const source = JSON.stringify(items, null, pretty ? 2 : undefined);
          const inventory = scanJson(source, 1_000_000)!;
          const terms = relevanceTerms({ words: query, preserveKeys: [], json: true });
          const hits = findHits(source, terms, inventory.count, 50_000, undefined, {
            at: inventory.errorAt,
            word: inventory.errorWord,
          });
          const budget = Math.max(8, Math.floor(inventory.valueBytes[0]! * share));
          const options = { nestedArrayCap, relevanceShare };
          const pruned = selectJsonBreadthFirst(inventory, budget, hits, options);
          const reference = selectJsonBreadthFirst(inventory, budget, hits, {
            ...options,
            visitAll: true,
          });
          expect({ ...pruned, work: 0 }).toEqual({ ...reference, work: 0 });
        },
      ),
      { numRuns: 4000 },
    );
  });

  // Work counted by the selection itself (path costs asked, containers opened), never time.
  const chain = (depth: number, leaf: string) => `${'['.repeat(depth)}${leaf}${']'.repeat(depth)}`;
  it.each([
    ['a chain of arrays', (d: number) => chain(d, '')],
    ['a chain with a value at the bottom', (d: number) => chain(d, `1,"${'s'.repeat(40)}"`)],
    ['a chain of objects', (d: number) => `${'{"k":'.repeat(d)}1${'}'.repeat(d)}`],
    [
      'two chains, one keeping a value at every level',
      (d: number) => `[${chain(d, '"deep value"')},${'[1,'.repeat(d)}1${']'.repeat(d)}]`,
    ],
  ])('does linear work on %s trimmed just below its size', (_name, build) => {
    const work = [2500, 5000, 10_000, 20_000].map((depth) => {
      const json = build(depth);
      const inventory = scanJson(json, 1_000_000)!;
      const terms = relevanceTerms({ words: [], preserveKeys: [], json: true });
      const hits = findHits(json, terms, inventory.count, 50_000);
      const options = { nestedArrayCap: 500, relevanceShare: 0.35 };
      const selection = selectJsonBreadthFirst(inventory, json.length - 1, hits, options);
      expect(selection.bodyBytes).toBeLessThanOrEqual(json.length - 1);
      return selection.work! / depth;
    });
    expect(Math.max(...work)).toBeLessThanOrEqual(2 * Math.min(...work) + 4);
  });
});
