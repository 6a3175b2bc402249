import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { countGraphemes, createGraphemeCounter } from './count-graphemes.js';
import { referenceCount, trickyText } from './test-support/grapheme-arbitraries.js';

describe('countGraphemes', () => {
  it('counts exactly what Intl.Segmenter counts', () => {
    fc.assert(
      fc.property(trickyText(), (text) => {
        expect(countGraphemes(text)).toBe(referenceCount(text));
      }),
      { numRuns: 500 },
    );
  });

  it('treats CR LF as one and a lone CR or LF as one each', () => {
    expect(countGraphemes('a\r\nb')).toBe(3);
    expect(countGraphemes('\r\r\n\n')).toBe(3);
    expect(countGraphemes('e\u0301\r\n')).toBe(2);
  });

  it('counts an empty string as zero', () => {
    expect(countGraphemes('')).toBe(0);
  });
});

describe('createGraphemeCounter', () => {
  it('gives the same count however the text is split into chunks', () => {
    fc.assert(
      fc.property(trickyText(), fc.array(fc.nat(), { maxLength: 12 }), (text, cuts) => {
        const points = [...new Set(cuts.map((cut) => cut % (text.length + 1)))].sort(
          (a, b) => a - b,
        );
        const counter = createGraphemeCounter();
        let from = 0;
        for (const point of points) {
          counter.push(text.slice(from, point));
          from = point;
        }
        counter.push(text.slice(from));
        expect(counter.finish()).toBe(referenceCount(text));
      }),
      { numRuns: 500 },
    );
  });

  it('stays exact on long runs without an ASCII anchor (the segmenter fallback)', () => {
    // Five clusters per repetition; counted by the reference on one repetition, since V8's
    // segmenter is too slow to walk the whole 340k-unit string in one go.
    const unit = '中文👨‍👩‍👧e\u0301🇫🇷';
    const text = unit.repeat(20_000);
    const counter = createGraphemeCounter();
    for (let i = 0; i < text.length; i += 7_001) counter.push(text.slice(i, i + 7_001));
    expect(referenceCount(unit.repeat(3))).toBe(15);
    expect(counter.finish()).toBe(5 * 20_000);
    expect(countGraphemes(text)).toBe(5 * 20_000);
  });
});
