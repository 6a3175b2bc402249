import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { scanJson } from './json-inventory.js';
import { findHits, relevanceTerms } from './relevance.js';
import { selectJson } from './select-json.js';

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

describe('selectJson', () => {
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
          const pruned = selectJson(inventory, budget, hits, options);
          const reference = selectJson(inventory, budget, hits, { ...options, visitAll: true });
          expect(pruned).toEqual(reference);
        },
      ),
      { numRuns: 4000 },
    );
  });
});
