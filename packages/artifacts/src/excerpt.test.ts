import { fixturesAvailable, readFixture } from '@compaction/fixtures';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { describeText } from './describe-text.js';
import { excerpt, minimumExcerptBudget } from './excerpt.js';
import { type ExcerptSource, parseExcerptMarker } from './excerpt-marker.js';
import { sha256Hex } from './sha256-hex.js';
import {
  referenceBoundaries,
  referenceCount,
  trickyText,
} from './test-support/grapheme-arbitraries.js';

function sourceOf(text: string, file?: string): ExcerptSource {
  const described = describeText(text);
  return {
    totalChars: described.chars,
    totalBytes: described.bytes,
    digest: described.digest,
    ...(file ? { file } : {}),
  };
}

function checkExcerpt(text: string, budget: number, source: ExcerptSource) {
  const result = excerpt(text, budget, source);
  expect(referenceCount(result.text)).toBeLessThanOrEqual(budget);
  if (!result.contentLost) {
    expect(result.text).toBe(text);
    expect(referenceCount(text)).toBeLessThanOrEqual(budget);
    return result;
  }
  expect(result.text).toBe(`${result.head}\n${result.marker}\n${result.tail}`);
  const boundaries = referenceBoundaries(text);
  expect(text.startsWith(result.head)).toBe(true);
  expect(text.endsWith(result.tail)).toBe(true);
  expect(boundaries.has(result.head.length)).toBe(true);
  expect(boundaries.has(text.length - result.tail.length)).toBe(true);
  expect(result.head.length + result.tail.length).toBeLessThan(text.length);
  const marker = parseExcerptMarker(result.marker!);
  expect(marker?.digest).toBe(sha256Hex(text));
  expect(marker?.totalBytes).toBe(Buffer.byteLength(text));
  expect(marker?.elidedChars).toBe(
    referenceCount(text) - referenceCount(result.head) - referenceCount(result.tail),
  );
  return result;
}

describe('excerpt', () => {
  it('never exceeds its budget and is a prefix, a marker and a suffix cut on clusters', () => {
    fc.assert(
      fc.property(trickyText(200), fc.nat(160), fc.boolean(), (text, extra, stored) => {
        const source = sourceOf(text, stored ? 'call_1.txt' : undefined);
        const budget = minimumExcerptBudget(source) + extra;
        checkExcerpt(text, budget, source);
      }),
      { numRuns: 400 },
    );
  });

  it('with maxBytes, stays within both the char budget and the byte budget', () => {
    fc.assert(
      fc.property(trickyText(300), fc.nat(200), fc.nat(600), (text, extra, extraBytes) => {
        const source = sourceOf(text, 'call_2.txt');
        const budget = minimumExcerptBudget(source) + extra;
        const maxBytes = minimumExcerptBudget(source) + extraBytes;
        const result = excerpt(text, budget, source, { maxBytes });
        expect(referenceCount(result.text)).toBeLessThanOrEqual(budget);
        expect(Buffer.byteLength(result.text)).toBeLessThanOrEqual(maxBytes);
        if (result.contentLost) {
          expect(text.startsWith(result.head)).toBe(true);
          expect(text.endsWith(result.tail)).toBe(true);
        }
      }),
      { numRuns: 300 },
    );
  });

  it('keeps three quarters of the kept chars at the head and a quarter at the tail', () => {
    const text = 'x'.repeat(10_000);
    const source = sourceOf(text, 'op-7.txt');
    const result = checkExcerpt(text, 1000, source);
    const keep = 1000 - minimumExcerptBudget(source);
    expect(result.headChars).toBe(Math.floor(keep * 0.75));
    expect(result.tailChars).toBe(keep - result.headChars);
  });

  it('names the artifact by basename only and says when nothing was stored', () => {
    const text = 'line\n'.repeat(5000);
    const stored = excerpt(text, 400, { ...sourceOf(text), file: '/secret/dir/op-1.txt' });
    expect(stored.marker).toContain('full result: op-1.txt sha256 ');
    expect(stored.marker).not.toContain('/secret');
    const unstored = excerpt(text, 400, sourceOf(text));
    expect(unstored.marker).toMatch(/full result not stored \(no session\), sha256 [0-9a-f]{64}/);
    expect(unstored.marker).toContain('elided');
    expect(unstored.marker).toContain('25,000 bytes total');
  });

  it('returns the input unchanged when it fits, including one counted in clusters only', () => {
    const family = '👨‍👩‍👧‍👦'.repeat(50);
    expect(family.length).toBeGreaterThan(200);
    const result = excerpt(family, 50, sourceOf(family));
    expect(result.contentLost).toBe(false);
    expect(result.text).toBe(family);
    expect(excerpt('', 0, sourceOf('')).text).toBe('');
  });

  it('does not split CR LF, combining marks or emoji at either cut', () => {
    const pieces = ['\r\n', 'e\u0301\u0302', '👩🏽‍💻', '🇯🇵', 'ക്ഷ'];
    for (const piece of pieces) {
      const text = piece.repeat(3000);
      for (const budget of [200, 201, 202, 203, 257]) checkExcerpt(text, budget, sourceOf(text));
    }
  });

  it('refuses a budget smaller than the marker with a clear error', () => {
    const text = 'y'.repeat(1000);
    expect(() => excerpt(text, 20, sourceOf(text))).toThrow(
      /below the \d+ chars the excerpt marker needs/,
    );
    expect(() => excerpt(text, -1, sourceOf(text))).toThrow(/non-negative integer/);
  });

  it('segments only the ends: a 100 MB input is excerpted without walking it', () => {
    const big = 'a fairly ordinary log line\n'.repeat(4_000_000);
    const source = { totalChars: big.length, totalBytes: big.length, digest: '0'.repeat(64) };
    const result = excerpt(big, 2000, source);
    expect(result.contentLost).toBe(true);
    expect(result.text.length).toBeLessThanOrEqual(2000);
    expect(big.startsWith(result.head)).toBe(true);
    expect(big.endsWith(result.tail)).toBe(true);
  });
});

describe.skipIf(!fixturesAvailable())('excerpt on real Unicode payloads', () => {
  const paths = [
    'unicode/emoji-zwj-sequences.txt',
    'unicode/contributing-malayalam.md',
    'unicode/cjk-chuci-crlf.json',
    'unicode/big-list-of-naughty-strings.txt',
    'docs/free-programming-books-zh.md',
    'logs/loghub-OpenSSH_2k.log',
  ];
  for (const path of paths) {
    it(`cuts ${path} on cluster boundaries within budget`, () => {
      const text = readFixture(path);
      const source = sourceOf(text, 'fixture.txt');
      for (const budget of [300, 1001, 4000]) {
        const result = excerpt(text, budget, source);
        expect(referenceCount(result.text)).toBeLessThanOrEqual(budget);
        // The reference walks only the kept ends plus a margin: the whole would be too slow.
        const headZone = text.slice(0, result.head.length + 64);
        expect(referenceBoundaries(headZone).has(result.head.length)).toBe(true);
        const tailZone = text.slice(text.length - result.tail.length - 64);
        expect(referenceBoundaries(tailZone).has(64)).toBe(true);
        expect(parseExcerptMarker(result.marker!)?.digest).toBe(sha256Hex(text));
      }
    });
  }
});
