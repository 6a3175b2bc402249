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

  it('keeps the biggest array worth keeping, and a huge one only until idle', async () => {
    const spare = scratch();
    const small = spare.take(10);
    const big = spare.take(1000);
    spare.give(big);
    spare.give(small);
    expect(spare.take(10)).toBe(big);
    spare.give(big);
    const huge = spare.take(2 ** 21);
    spare.give(huge);
    // The array kept for good serves what it can; the huge one what it cannot.
    expect(spare.take(10)).toBe(big);
    expect(spare.take(2 ** 21)).toBe(huge);
    spare.give(huge);
    // A second after the last huge array came back, it is let go; the other stays. (Asked
    // without taking it, so a loaded machine's late timer is waited for, up to ten seconds.)
    const holds = () => (spare as unknown as { bigSpare?: unknown }).bigSpare === huge;
    for (let waited = 0; holds() && waited < 10_000; waited += 100) {
      await new Promise((resolve) => setTimeout(resolve, waited === 0 ? 1_100 : 100));
    }
    expect(spare.take(2 ** 21)).not.toBe(huge);
    spare.give(big);
    expect(spare.take(10)).toBe(big);
  });
});
