import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { looksOpaque } from './looks-opaque.js';

/** The definition, one unit at a time. */
function reference(text: string, from: number, to: number): boolean {
  let run = 0;
  let turns = 0;
  let last = '';
  for (let i = from; i < Math.min(to, from + 128); i++) {
    const c = text.charCodeAt(i);
    const digit = c >= 0x30 && c <= 0x39;
    const letter = (c >= 0x41 && c <= 0x5a) || (c >= 0x61 && c <= 0x7a);
    if (digit || letter || c === 0x2b || c === 0x2f || c === 0x3d) {
      run++;
      const now = digit ? 'digit' : letter ? 'letter' : last;
      if (last !== '' && now !== last) turns++;
      last = now;
      if (run >= 20 && turns >= 2) return true;
    } else {
      run = 0;
      turns = 0;
      last = '';
    }
  }
  return false;
}

describe('looksOpaque', () => {
  it('tells hashes and base64 from names and prose', () => {
    const cases: Array<[string, boolean]> = [
      ['sha256:9b2e0c1f4d5a6b7c8d9e0f1a2b3c4d5e', true],
      ['aGVsbG8gd29ybGQgaGVsbG8gd29ybGQ=', true],
      ['coredns-64fd4b4794-p72lf', false],
      ['TestCreateUserProfileHandler12', false],
      ['order12345678901234567890', false],
      ['AKIAIOSFODNN7EXAMPLEKEY', true],
      ['The quick brown fox jumps over the lazy dog again and again', false],
      ['abcdefghijklmnopqrstuvwxyz', false],
      ['12345678901234567890123', false],
      ['', false],
    ];
    for (const [text, opaque] of cases) expect(looksOpaque(text, 0, text.length)).toBe(opaque);
  });

  it('decides as the unit-by-unit definition does, on any text and range', () => {
    const unit = fc.constantFrom('a', 'Z', '7', '0', '+', '/', '=', '-', ' ', '_', '\u00e9', '"');
    fc.assert(
      fc.property(
        fc.array(unit, { maxLength: 300 }).map((units) => units.join('')),
        fc.nat(),
        fc.nat(),
        (text, a, b) => {
          const from = a % (text.length + 1);
          const to = from + (b % (text.length - from + 1));
          expect(looksOpaque(text, from, to)).toBe(reference(text, from, to));
        },
      ),
      { numRuns: 3000 },
    );
  });

  it('looks only at the first 128 units', () => {
    const text = `${'word '.repeat(30)}9b2e0c1f4d5a6b7c8d9e0f1a2b3c`;
    expect(looksOpaque(text, 0, text.length)).toBe(false);
    expect(looksOpaque(text, 130, text.length)).toBe(true);
  });
});
