// The growth exponents the complexity benchmark reports: the slope of log(time) on log(size),
// and the same measured against a linear baseline timed beside it, so that a machine busier
// at one size than another moves both and cancels out.
import { describe, expect, it } from 'vitest';
import { growthExponent, relativeGrowthExponent } from './growth-exponent.mjs';

const sizes = [1, 2, 4, 8, 16, 32, 64].map((k) => k * 16_384);

describe('growthExponent', () => {
  it('is 1 for linear time, 2 for quadratic and 0 for constant', () => {
    expect(growthExponent(sizes.map((bytes) => ({ bytes, ms: bytes / 1000 })))).toBeCloseTo(1, 9);
    expect(growthExponent(sizes.map((bytes) => ({ bytes, ms: bytes ** 2 })))).toBeCloseTo(2, 9);
    expect(growthExponent(sizes.map((bytes) => ({ bytes, ms: 3 })))).toBeCloseTo(0, 9);
  });

  it('sees n log n as barely above 1 over a 64x range', () => {
    const e = growthExponent(sizes.map((bytes) => ({ bytes, ms: bytes * Math.log2(bytes) })));
    expect(e).toBeGreaterThan(1);
    expect(e).toBeLessThan(1.15);
  });
});

describe('relativeGrowthExponent', () => {
  it('cancels load that slows pass and baseline alike', () => {
    // The machine is 3x busier at the larger sizes: the plain exponent is fooled, the relative not.
    const points = sizes.map((bytes, i) => {
      const load = i >= 4 ? 3 : 1;
      return { bytes, ms: (bytes / 100) * load, baselineMs: (bytes / 10_000) * load };
    });
    expect(growthExponent(points)).toBeGreaterThan(1.2);
    expect(relativeGrowthExponent(points)).toBeCloseTo(1, 9);
  });

  it('reports a quadratic pass as 2 against a linear baseline, and a constant one as 0', () => {
    const quadratic = sizes.map((bytes) => ({ bytes, ms: bytes ** 2, baselineMs: bytes }));
    const constant = sizes.map((bytes) => ({ bytes, ms: 1, baselineMs: bytes }));
    expect(relativeGrowthExponent(quadratic)).toBeCloseTo(2, 9);
    expect(relativeGrowthExponent(constant)).toBeCloseTo(0, 9);
  });

  it('needs two sizes at least', () => {
    expect(() => relativeGrowthExponent([{ bytes: 1, ms: 1, baselineMs: 1 }])).toThrow(/two sizes/);
  });
});
