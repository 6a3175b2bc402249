import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { headGraphemes, tailGraphemes } from './grapheme-window.js';
import {
  referenceBoundaries,
  referenceCount,
  trickyText,
} from './test-support/grapheme-arbitraries.js';

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
