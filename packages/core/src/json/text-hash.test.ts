import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { TEXT_HASH_UNITS, textHash } from './text-hash.js';

const units = (length: number) =>
  fc.array(fc.integer({ min: 0, max: 0xffff }), { minLength: length, maxLength: length });
const text = (codes: number[]) => String.fromCharCode(...codes);

describe('textHash', () => {
  it('tells apart any two texts of up to 48 units that differ in one unit (property)', () => {
    // A unit that changes by d changes each sum by d times an odd 16-bit multiplier, never 0
    // mod 2³²; the two sums then agree with the old ones' mix only by a 2⁻³² chance.
    fc.assert(
      fc.property(
        fc
          .integer({ min: 1, max: TEXT_HASH_UNITS })
          .chain((n) => fc.tuple(units(n), fc.nat(n - 1), fc.integer({ min: 0, max: 0xffff }))),
        ([codes, at, replacement]) => {
          fc.pre(codes[at] !== replacement);
          const changed = codes.slice();
          changed[at] = replacement;
          expect(textHash(text(codes), 0, codes.length)).not.toBe(
            textHash(text(changed), 0, codes.length),
          );
        },
      ),
      { numRuns: 2000 },
    );
  });

  it('tells a text from its negation, each unit u read as -u (property)', () => {
    // `first ^ second * k` could not: negating both sums left it the same whenever their
    // lowest set bits lined up (always for one unit: 0xfff2 and 0x000e shared a hash).
    expect(textHash('\ufff2', 0, 1)).not.toBe(textHash('\u000e', 0, 1));
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: TEXT_HASH_UNITS }).chain((n) => units(n)),
        (codes) => {
          const negated = codes.map((unit) => (0x10000 - unit) & 0xffff);
          fc.pre(negated.some((unit, i) => unit !== codes[i]));
          expect(textHash(text(codes), 0, codes.length)).not.toBe(
            textHash(text(negated), 0, codes.length),
          );
        },
      ),
      { numRuns: 2000 },
    );
  });

  it('tells apart lengths, and reads only the range it is given', () => {
    const hashes = new Set<number>();
    for (let n = 0; n <= 200; n++) hashes.add(textHash('a'.repeat(n), 0, n));
    expect(hashes.size).toBe(201);
    expect(textHash('x"name"y', 2, 6)).toBe(textHash('name', 0, 4));
  });

  it('reads the first 32 and the last 16 units of a longer text', () => {
    const base = Array.from({ length: 100 }, (_, i) => 0x41 + (i % 26));
    const hash = (codes: number[]) => textHash(text(codes), 0, codes.length);
    const at = (i: number) => {
      const changed = base.slice();
      changed[i] = 0x30;
      return hash(changed);
    };
    for (const i of [0, 31, 84, 99]) expect(at(i)).not.toBe(hash(base));
    for (const i of [32, 60, 83]) expect(at(i)).toBe(hash(base));
  });

  it('spreads a list of ids over the low bits a table indexes by', () => {
    const slots = new Set<number>();
    for (let id = 0; id < 4096; id++) {
      const key = String(505874924095815681n + BigInt(id));
      slots.add(textHash(key, 0, key.length) & 4095);
    }
    // Random hashing fills about 1 − 1/e of 4096 slots with 4096 keys.
    expect(slots.size).toBeGreaterThan(2400);
  });
});
