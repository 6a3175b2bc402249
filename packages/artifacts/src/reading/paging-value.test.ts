import { describe, expect, it } from 'vitest';
import { pagingValue } from './paging-value.js';

describe('pagingValue', () => {
  const range = { default: 200, min: 1, max: 1000 };

  it('gives the default when absent and reads a value above the maximum as the maximum', () => {
    expect(pagingValue(undefined, 'limit', range)).toBe(200);
    expect(pagingValue(null, 'limit', range)).toBe(200);
    expect(pagingValue(1, 'limit', range)).toBe(1);
    expect(pagingValue(1000, 'limit', range)).toBe(1000);
    expect(pagingValue(1001, 'limit', range)).toBe(1000);
    expect(pagingValue(Number.MAX_SAFE_INTEGER, 'limit', range)).toBe(1000);
  });

  it('refuses a value below the minimum or not an integer, naming the parameter', () => {
    for (const [value, message] of [
      [0, 'limit must be at least 1'],
      [-5, 'limit must be at least 1'],
      [1.5, 'limit must be an integer'],
      ['10', 'limit must be an integer'],
      [Number.NaN, 'limit must be an integer'],
      [2 ** 60, 'limit must be an integer'],
    ] as const) {
      expect(() => pagingValue(value, 'limit', range), String(value)).toThrow(
        expect.objectContaining({ code: 'artifact_invalid_argument', message }),
      );
    }
  });
});
