import { describe, expect, it } from 'vitest';
import { ScratchArray } from './scratch-array.js';

describe('ScratchArray', () => {
  const scratch = () => new ScratchArray((length) => new Int32Array(length));

  it('lends the array given back, while it is long enough', () => {
    const spare = scratch();
    const first = spare.take(100);
    expect(first.length).toBe(100);
    first[5] = 7;
    spare.give(first);
    const again = spare.take(50);
    expect(again).toBe(first);
    expect(again[5]).toBe(7);
    spare.give(again);
    expect(spare.take(101)).not.toBe(first);
  });

  it('lends a fresh array to a call made while its own is lent', () => {
    const spare = scratch();
    spare.give(spare.take(10));
    const outer = spare.take(10);
    const inner = spare.take(10);
    expect(inner).not.toBe(outer);
    spare.give(inner);
    spare.give(outer);
    expect([outer, inner]).toContain(spare.take(10));
  });

  it('keeps the biggest array worth keeping, not a huge one', () => {
    const spare = scratch();
    const small = spare.take(10);
    const big = spare.take(1000);
    spare.give(big);
    spare.give(small);
    expect(spare.take(10)).toBe(big);
    const huge = spare.take(2 ** 21);
    spare.give(huge);
    expect(spare.take(10)).not.toBe(huge);
  });
});
