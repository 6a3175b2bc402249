import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { rankByScore } from './rank-by-score.js';

const noStop = () => undefined;

describe('rankByScore', () => {
  it('orders the positive scores highest first, ties in index order, as a stable sort would', () => {
    fc.assert(
      fc.property(
        fc.array(
          fc.oneof(
            fc.constant(0),
            fc.integer({ min: -5, max: 6000 }).map((n) => n / 16),
          ),
        ),
        (scores) => {
          const ranked = [...rankByScore(Float64Array.from(scores), noStop)];
          const expected = scores
            .map((score, index) => ({ score: Math.min(score, 4095 / 16), index }))
            .filter((entry) => entry.score > 0)
            .sort((a, b) => b.score - a.score || a.index - b.index)
            .map((entry) => entry.index);
          expect(ranked).toEqual(expected);
        },
      ),
      { numRuns: 500 },
    );
  });

  it('leaves out zero, negative and NaN scores', () => {
    expect([...rankByScore(Float64Array.from([0, -1, Number.NaN, 2]), noStop)]).toEqual([3]);
  });
});
