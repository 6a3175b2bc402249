import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { referenceCount, TRICKY_PIECES, trickyText } from '../test-support/grapheme-arbitraries.js';
import {
  countGraphemes,
  createGraphemeCounter,
  createGraphemeCounterWithLimit,
} from './count-graphemes.js';

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

  it('counts long simple runs between combining marks in one pass, CR LF or not', () => {
    // Issue 17: the CR LF count of each simple run searched on to the end of the text, so 4 MiB
    // of 60-letter runs each ending in a mark took 23 s; 8 MiB runs here in a fraction of one.
    const plain = 'x'.repeat(60) + '\u0301';
    const withCrlf = `${'x'.repeat(30)}\r\n${'x'.repeat(29)}\u0301`;
    for (const [unit, perUnit] of [
      [plain, 60],
      [withCrlf, 60],
    ] as const) {
      expect(countGraphemes(unit.repeat(3))).toBe(referenceCount(unit.repeat(3)));
      expect(countGraphemes(unit.repeat(140_000))).toBe(perUnit * 140_000);
    }
  });

  it('counts every UTF-16 unit between simple text and CR LF as Intl.Segmenter does', () => {
    // Each unit alone, after a letter, before a mark and beside CR LF: the native search for
    // complex units must reject exactly the units the per-unit check rejects.
    for (let unit = 0; unit <= 0xffff; unit++) {
      const c = String.fromCharCode(unit);
      for (const text of [`a${c}b`, `\r\n${c}\u0301\r\n`]) {
        if (countGraphemes(text) !== referenceCount(text)) {
          expect({ unit: unit.toString(16), count: countGraphemes(text) }).toEqual({
            unit: unit.toString(16),
            count: referenceCount(text),
          });
        }
      }
    }
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

  it('counts clusters longer than its limit exactly, however the text is split', () => {
    // Long runs of joining characters after every kind of base, so clusters outgrow a small
    // limit and the counter must compress them; the reference walks each text whole.
    const joining = ['\u0301', '\u094d', '\u200d', '\u{1f3fd}', '\ufe0f', '\u{e0061}', '\u0e31'];
    const longRun = fc
      .tuple(
        fc.constantFrom(...TRICKY_PIECES),
        fc.array(fc.constantFrom(...joining), { minLength: 20, maxLength: 120 }),
      )
      .map(([base, marks]) => base + marks.join(''));
    const text = fc
      .array(fc.oneof(longRun, fc.constantFrom(...TRICKY_PIECES)), { maxLength: 12 })
      .map((parts) => parts.join(''));
    fc.assert(
      fc.property(
        text,
        fc.array(fc.nat(), { maxLength: 12 }),
        fc.integer({ min: 8, max: 64 }),
        (input, cuts, limit) => {
          const points = [...new Set(cuts.map((cut) => cut % (input.length + 1)))].sort(
            (a, b) => a - b,
          );
          const counter = createGraphemeCounterWithLimit(limit);
          let from = 0;
          for (const point of points) {
            counter.push(input.slice(from, point));
            from = point;
          }
          counter.push(input.slice(from));
          expect(counter.finish()).toBe(referenceCount(input));
        },
      ),
      { numRuns: 1500 },
    );
  });

  it('counts a stream of one cluster of millions of marks in linear time', () => {
    const work = [1, 4].map((scale) => {
      let units = 0;
      const original = Intl.Segmenter.prototype.segment;
      Intl.Segmenter.prototype.segment = function (this: Intl.Segmenter, input: string) {
        units += input.length;
        return original.call(this, input);
      };
      try {
        const counter = createGraphemeCounter();
        counter.push('a');
        const marks = '\u0301'.repeat(65_536);
        for (let i = 0; i < 16 * scale; i++) counter.push(marks);
        counter.push('\u0915\u094d'.repeat(40_000));
        counter.push('\u0915 end');
        expect(counter.finish()).toBe(6);
      } finally {
        Intl.Segmenter.prototype.segment = original;
      }
      return units;
    });
    expect(work[1]).toBeLessThan(work[0]! * 4.5);
  });
});
