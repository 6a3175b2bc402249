import { describe, expect, it } from 'vitest';
import { editDistance, nearestName } from './nearest-name.js';

describe('editDistance', () => {
  it.each([
    ['', '', 0],
    ['abc', '', 3],
    ['LIMT', 'LIMIT', 1],
    ['BYTSE', 'BYTES', 1],
    ['kitten', 'sitting', 3],
    ['TRIM_MAX_BYTES', 'RESULT_TRIM_MAX_BYTES', 7],
  ])('%s → %s is %i', (a, b, distance) => {
    expect(editDistance(a, b)).toBe(distance);
    expect(editDistance(b, a)).toBe(distance);
  });
});

describe('nearestName', () => {
  const names = ['RESULT_TRIM_MAX_BYTES', 'RESULT_TRIM_MAX_TOTAL_BYTES', 'ARTIFACT_INLINE_LIMIT'];

  it('finds the closest name within 40% of its length', () => {
    expect(nearestName('RESULT_TRIM_MAX_BYTE', names)).toBe('RESULT_TRIM_MAX_BYTES');
    expect(nearestName('TRIM_MAX_BYTES', names)).toBe('RESULT_TRIM_MAX_BYTES');
    expect(nearestName('ARTIFACT_INLINE_LIMTI', names)).toBe('ARTIFACT_INLINE_LIMIT');
  });

  it('finds none when every name is far', () => {
    expect(nearestName('SOMETHING_ELSE_ENTIRELY', names)).toBeUndefined();
    expect(nearestName('X', [])).toBeUndefined();
  });
});
