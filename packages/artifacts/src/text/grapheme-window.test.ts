import { InvalidArgumentError } from '@compaction/core';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  referenceBoundaries,
  referenceCount,
  trickyText,
} from '../test-support/grapheme-arbitraries.js';
import { segmentedUnits } from '../test-support/segmented-units.js';
import { graphemeSegmenter } from './grapheme-segmenter.js';
import {
  graphemeWindowLimit,
  headGraphemeRun,
  headGraphemes,
  shorterRun,
  tailGraphemeRun,
  tailGraphemes,
} from './grapheme-window.js';

describe('headGraphemes', () => {
  it('returns a prefix of min(n, total) clusters ending on a cluster boundary', () => {
    fc.assert(
      fc.property(trickyText(), fc.nat(120), (text, n) => {
        const head = headGraphemes(text, n);
        const total = referenceCount(text);
        expect(text.startsWith(head.text)).toBe(true);
        expect(referenceBoundaries(text).has(head.text.length)).toBe(true);
        expect(head.count).toBe(Math.min(n, total));
        expect(referenceCount(head.text)).toBe(head.count);
        expect(head.whole).toBe(head.text.length === text.length);
      }),
      { numRuns: 600 },
    );
  });

  it('with an open end, never takes a cluster the rest of the text could extend', () => {
    fc.assert(
      fc.property(trickyText(), fc.nat(), fc.nat(120), (text, at, n) => {
        const cut = at % (text.length + 1);
        const head = headGraphemes(text.slice(0, cut), n, true);
        expect(referenceBoundaries(text).has(head.text.length)).toBe(true);
        expect(head.count).toBeLessThanOrEqual(n);
        expect(referenceCount(head.text)).toBe(head.count);
      }),
      { numRuns: 600 },
    );
  });
});

describe('tailGraphemes', () => {
  it('returns a suffix of min(n, total) clusters starting on a cluster boundary', () => {
    fc.assert(
      fc.property(trickyText(), fc.nat(120), (text, n) => {
        const tail = tailGraphemes(text, n);
        const total = referenceCount(text);
        expect(text.endsWith(tail.text)).toBe(true);
        expect(referenceBoundaries(text).has(text.length - tail.text.length)).toBe(true);
        expect(tail.count).toBe(Math.min(n, total));
        expect(referenceCount(tail.text)).toBe(tail.count);
      }),
      { numRuns: 600 },
    );
  });

  it('with an open start, starts only on a boundary of the whole text', () => {
    fc.assert(
      fc.property(trickyText(), fc.nat(), fc.nat(120), (text, at, n) => {
        const cut = at % (text.length + 1);
        const tail = tailGraphemes(text.slice(cut), n, true);
        expect(referenceBoundaries(text).has(text.length - tail.text.length)).toBe(true);
        expect(tail.count).toBeLessThanOrEqual(n);
        expect(referenceCount(tail.text)).toBe(tail.count);
      }),
      { numRuns: 600 },
    );
  });

  it('does not cut a family emoji, a flag run or a CR LF that straddles the window', () => {
    const text = `${'x'.repeat(1000)}👨‍👩‍👧‍👦🇫🇷🇩🇪🇫🇷\r\n`;
    for (let n = 1; n <= 6; n++) {
      const tail = tailGraphemes(text, n);
      expect(referenceBoundaries(text).has(text.length - tail.text.length)).toBe(true);
    }
    expect(tailGraphemes(text, 1).text).toBe('\r\n');
    expect(tailGraphemes(text, 2).text).toBe('🇫🇷\r\n');
  });

  it('segments only a window: the cost does not grow with the input', () => {
    const big = 'log line with some text\n'.repeat(400_000);
    const tail = tailGraphemes(big, 100);
    expect(tail.count).toBe(100);
    expect(big.endsWith(tail.text)).toBe(true);
  });

  it('finds the start of a plain-text tail without the segmenter', () => {
    const text = '{"items":[{"id":1,"status":"ok"}]}\n'.repeat(50);
    let tail = '';
    expect(
      segmentedUnits(() => {
        tail = tailGraphemes(text, 40).text;
      }),
    ).toBe(0);
    expect(tail).toBe(text.slice(-40));
  });

  it('walks long stretches with no certain boundary (dense emoji) exactly', () => {
    const clusters = ['👨‍👩‍👧‍👦', '🇫🇷', 'e\u0301', '中', '👍🏽'];
    const text = clusters.join('').repeat(2000);
    const prefixLength = (n: number) => {
      let length = 0;
      for (let i = 0; i < n; i++) length += clusters[i % clusters.length]!.length;
      return length;
    };
    for (const n of [1, 7, 999, 2501, 4000, 9999]) {
      const head = headGraphemes(text, n);
      expect(head.count).toBe(n);
      expect(head.text.length).toBe(prefixLength(n));
      const tail = tailGraphemes(text, n);
      expect(tail.count).toBe(n);
      expect(text.length - tail.text.length).toBe(prefixLength(10_000 - n));
    }
  });
});

/** Pieces of hostile text: no trusted boundary within reach, or clusters of any length. */
const hostilePiece = fc.oneof(
  fc.constantFrom('🇫🇷', '🇦', 'e\u0301', '\u0915\u094d', '\u200d', '👩🏽', '\u0301', 'x'),
  fc.integer({ min: 1, max: 3000 }).map((n) => `a${'\u0301'.repeat(n)}`),
  fc.integer({ min: 1, max: 600 }).map((n) => '🇯🇵'.repeat(n)),
);
const hostileText = fc
  .array(hostilePiece, { minLength: 1, maxLength: 40 })
  .map((pieces) => pieces.join(''));
const splitsPair = (text: string, at: number) =>
  at > 0 &&
  at < text.length &&
  /[\ud800-\udbff]/.test(text[at - 1]!) &&
  /[\udc00-\udfff]/.test(text[at]!);

describe('grapheme windows past their reach', () => {
  it('cut hostile text on code points, counting what a segmenter of the cut text counts', () => {
    fc.assert(
      fc.property(hostileText, fc.integer({ min: 0, max: 40 }), (text, n) => {
        const head = headGraphemeRun(text, n);
        const tail = tailGraphemeRun(text, n, { floor: head.text.length });
        expect(text.startsWith(head.text) && text.endsWith(tail.text)).toBe(true);
        expect(head.text.length + tail.text.length).toBeLessThanOrEqual(text.length);
        expect(splitsPair(text, head.text.length)).toBe(false);
        expect(splitsPair(text, text.length - tail.text.length)).toBe(false);
        expect(head.count).toBeLessThanOrEqual(n);
        expect(tail.count).toBeLessThanOrEqual(n);
        expect(referenceCount(head.text)).toBe(head.count);
        expect(referenceCount(tail.text)).toBe(tail.count);
        // Within its reach a window is exact.
        if (text.length <= graphemeWindowLimit(n)) {
          expect(referenceBoundaries(text).has(head.text.length)).toBe(true);
          expect(head.count).toBe(Math.min(n, referenceCount(text)));
        }
        for (let k = 0; k <= head.count; k++) expect(head.take(k)).toBe(shorterRun(head, k).text);
      }),
      { numRuns: 200 },
    );
  });

  it('start a tail inside a long run of flags on a code point after a bounded look-behind', () => {
    const text = `x${'🇫🇷'.repeat(100_000)}`;
    const tail = tailGraphemeRun(text, 50);
    expect(tail.count).toBe(50);
    expect(tail.text.length).toBe(200);
    expect(splitsPair(text, text.length - tail.text.length)).toBe(false);
  });

  it('hand the segmenter about one reach of a long run of flags, not one per doubling', () => {
    // Work counted as the units given to the shared segmenter, never time: a run of flags
    // holds no trusted boundary, so the search for one must not segment the window again at
    // every doubling (issue 17: the fuzz run found this 200 to 1000 times a linear pass).
    const segmenter = graphemeSegmenter();
    const segment = segmenter.segment;
    let units = 0;
    segmenter.segment = (input: string) => {
      units += input.length;
      return segment.call(segmenter, input);
    };
    try {
      const text = `x${'🇫🇷'.repeat(100_000)}`;
      for (const n of [50, 300, 2000]) {
        units = 0;
        const tail = tailGraphemeRun(text, n);
        expect(tail.count).toBe(n);
        expect(units).toBeLessThanOrEqual(graphemeWindowLimit(n) * 1.1);
      }
    } finally {
      segmenter.segment = segment;
    }
  });

  it('cut a first cluster longer than the reach before a base, or on a code point', () => {
    const conjunct = '\u0915\u094d'.repeat(50_000);
    const head = headGraphemeRun(conjunct, 10);
    expect(head.count).toBe(1);
    expect(head.text.length).toBeLessThanOrEqual(graphemeWindowLimit(10));
    expect(conjunct[head.text.length]).toBe('\u0915');
    const marks = `a${'\u{1d165}'.repeat(50_000)}`;
    const cut = headGraphemeRun(marks, 10);
    expect(cut.count).toBe(1);
    expect(splitsPair(marks, cut.text.length)).toBe(false);
  });

  it('refuse a count that is not a non-negative integer', () => {
    for (const n of [Number.NaN, -1, 1.5, Number.POSITIVE_INFINITY]) {
      for (const call of [() => headGraphemes('abc', n), () => tailGraphemes('abc', n)]) {
        expect(() => call()).toThrow(/non-negative integer/);
        try {
          call();
        } catch (error) {
          expect(InvalidArgumentError.isInstance(error)).toBe(true);
        }
      }
    }
    expect(() => tailGraphemeRun('abc', 1, { floor: 9 })).toThrow(/floor must be an index/);
  });
});
