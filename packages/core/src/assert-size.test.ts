import { describe, expect, it } from 'vitest';
import { assertSize } from './assert-size.js';
import { InvalidArgumentError } from './errors.js';

function thrown(run: () => unknown): unknown {
  try {
    run();
  } catch (error) {
    return error;
  }
  return undefined;
}

describe('assertSize', () => {
  it('returns integers at or above the minimum, and Infinity only when allowed', () => {
    expect(assertSize(0, 'n')).toBe(0);
    expect(assertSize(4096, 'maxBytes', { min: 1 })).toBe(4096);
    expect(assertSize(Number.POSITIVE_INFINITY, 'maxBytes', { allowInfinity: true })).toBe(
      Number.POSITIVE_INFINITY,
    );
  });

  it('refuses NaN, negatives, fractions, strings, Infinity and values below the minimum', () => {
    const bad: [unknown, object][] = [
      [Number.NaN, {}],
      [-1, {}],
      [1.5, {}],
      ['100', {}],
      [undefined, {}],
      [null, {}],
      [Number.POSITIVE_INFINITY, {}],
      [Number.NEGATIVE_INFINITY, { allowInfinity: true }],
      [0, { min: 1 }],
      [2 ** 53, {}],
    ];
    for (const [value, options] of bad) {
      const error = thrown(() => assertSize(value, 'maxBytes', options));
      expect(InvalidArgumentError.isInstance(error)).toBe(true);
      expect((error as InvalidArgumentError).argument).toBe('maxBytes');
      expect((error as Error).message).toMatch(/^maxBytes must be an integer ≥ \d+/);
    }
  });
});
