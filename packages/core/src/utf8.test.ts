import fc from 'fast-check';
import { describe, expect, it, vi } from 'vitest';
import { InvalidArgumentError } from './errors.js';
import { truncateUtf8, truncateUtf8Start, utf8ByteLength } from './utf8.js';

const unit = fc.oneof(
  fc.constantFrom('a', 'é', '€', '😀', '\uD800', '\uDFFF', '\r\n', 'e\u0301', '\u0000'),
  fc.string({ unit: 'binary', minLength: 1, maxLength: 1 }),
);
const text = fc.array(unit, { maxLength: 80 }).map((parts) => parts.join(''));

const isHigh = (code: number) => code >= 0xd800 && code <= 0xdbff;
const isLow = (code: number) => code >= 0xdc00 && code <= 0xdfff;

function splitsPair(whole: string, cut: number): boolean {
  return (
    cut > 0 &&
    cut < whole.length &&
    isHigh(whole.charCodeAt(cut - 1)) &&
    isLow(whole.charCodeAt(cut))
  );
}

describe('utf8ByteLength', () => {
  it('counts UTF-8 bytes, a lone surrogate as the 3 bytes of U+FFFD', () => {
    expect(utf8ByteLength('a')).toBe(1);
    expect(utf8ByteLength('é')).toBe(2);
    expect(utf8ByteLength('€')).toBe(3);
    expect(utf8ByteLength('😀')).toBe(4);
    expect(utf8ByteLength('\uD800')).toBe(3);
    expect(utf8ByteLength('')).toBe(0);
  });

  it('agrees with encoding the text, short or longer than the encoder scratch (property)', () => {
    const encoder = new TextEncoder();
    const long = fc
      .tuple(text, fc.integer({ min: 0, max: 20_000 }), text)
      .map(([head, padding, tail]) => `${head}${'x'.repeat(padding)}😀${tail}`);
    fc.assert(
      fc.property(fc.oneof(text, long), (input) => {
        expect(utf8ByteLength(input)).toBe(encoder.encode(input).length);
      }),
      { numRuns: 300 },
    );
  });

  it("counts the same without Node's Buffer, as browsers and edge runtimes do (property)", () => {
    const encoder = new TextEncoder();
    const long = fc
      .tuple(text, fc.integer({ min: 0, max: 20_000 }), text)
      .map(([head, padding, tail]) => `${head}${'x'.repeat(padding)}😀${tail}`);
    const inputs = fc.sample(fc.oneof(text, long), { numRuns: 200, seed: 7 });
    const expected = inputs.map((input) => encoder.encode(input).length);
    vi.stubGlobal('Buffer', undefined);
    try {
      const measured = inputs.map((input) => utf8ByteLength(input));
      vi.unstubAllGlobals();
      expect(measured).toEqual(expected);
    } finally {
      vi.unstubAllGlobals();
    }
  });
});

describe('truncateUtf8', () => {
  it('never exceeds the budget, returns a prefix, never splits a surrogate pair, and is maximal', () => {
    fc.assert(
      fc.property(text, fc.integer({ min: 0, max: 400 }), (input, maxBytes) => {
        const cut = truncateUtf8(input, maxBytes);
        expect(utf8ByteLength(cut)).toBeLessThanOrEqual(Math.max(0, maxBytes));
        expect(input.startsWith(cut)).toBe(true);
        expect(splitsPair(input, cut.length)).toBe(false);
        if (cut.length < input.length) {
          const nextUnits =
            isHigh(input.charCodeAt(cut.length)) && isLow(input.charCodeAt(cut.length + 1)) ? 2 : 1;
          expect(utf8ByteLength(input.slice(0, cut.length + nextUnits))).toBeGreaterThan(maxBytes);
        }
      }),
      { numRuns: 3000 },
    );
  });

  it('keeps a pair whole or drops it whole', () => {
    expect(truncateUtf8('a😀', 4)).toBe('a');
    expect(truncateUtf8('a😀', 5)).toBe('a😀');
  });

  it('costs the budget, not the input: a 100 MB string cut to 10 bytes', () => {
    const big = 'x'.repeat(100 * 1024 * 1024);
    expect(truncateUtf8(big, 10)).toBe('x'.repeat(10));
  });
});

describe('truncateUtf8Start', () => {
  it('never exceeds the budget, returns a suffix, never splits a surrogate pair, and is maximal', () => {
    fc.assert(
      fc.property(text, fc.integer({ min: 0, max: 400 }), (input, maxBytes) => {
        const cut = truncateUtf8Start(input, maxBytes);
        expect(utf8ByteLength(cut)).toBeLessThanOrEqual(Math.max(0, maxBytes));
        expect(input.endsWith(cut)).toBe(true);
        expect(splitsPair(input, input.length - cut.length)).toBe(false);
        const start = input.length - cut.length;
        if (start > 0) {
          const prevUnits =
            isLow(input.charCodeAt(start - 1)) && start >= 2 && isHigh(input.charCodeAt(start - 2))
              ? 2
              : 1;
          expect(utf8ByteLength(input.slice(start - prevUnits))).toBeGreaterThan(maxBytes);
        }
      }),
      { numRuns: 3000 },
    );
  });
});

describe('truncateUtf8 and truncateUtf8Start arguments', () => {
  it('refuse a budget that is NaN, negative, fractional or not a number', () => {
    for (const cut of [truncateUtf8, truncateUtf8Start]) {
      for (const maxBytes of [Number.NaN, -1, 2.5, '10' as unknown as number]) {
        let error: unknown;
        try {
          cut('hello', maxBytes);
        } catch (caught) {
          error = caught;
        }
        expect(InvalidArgumentError.isInstance(error)).toBe(true);
      }
      expect(cut('hello', Number.POSITIVE_INFINITY)).toBe('hello');
    }
  });
});
