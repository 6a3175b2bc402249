import { InvalidArgumentError } from '@compaction/core';
import { fixturesAvailable, readFixture } from '@compaction/fixtures';
import fc from 'fast-check';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { sha256Hex } from '../storage/sha256-hex.js';
import {
  referenceBoundaries,
  referenceCount,
  trickyText,
} from '../test-support/grapheme-arbitraries.js';
import { describeText } from '../text/describe-text.js';
import { graphemeWindowLimit } from '../text/grapheme-window.js';
import { excerpt, minimumExcerptBudget } from './excerpt.js';
import { type ExcerptSource, parseExcerptMarker } from './excerpt-marker.js';

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

/** Units handed to `Intl.Segmenter` while `run` runs: the excerpt's work, without a clock. */
function segmentedUnits(run: () => void): number {
  let units = 0;
  const original = Intl.Segmenter.prototype.segment;
  const spy = vi.spyOn(Intl.Segmenter.prototype, 'segment').mockImplementation(function (
    this: Intl.Segmenter,
    input: string,
  ) {
    units += input.length;
    return original.call(this, input);
  });
  try {
    run();
  } finally {
    spy.mockRestore();
  }
  return units;
}

/** Text whose cluster boundaries all follow a mark or sit between flags, and worse. */
const HOSTILE: Record<string, (n: number) => string> = {
  'decomposed accents': (n) => 'e\u0301'.repeat(n),
  'stacked marks': (n) => 'o\u0308\u0304'.repeat(n),
  flags: (n) => '🇫🇷'.repeat(n),
  'clusters of 5000 marks': (n) => `a${'\u0301'.repeat(4999)}`.repeat(n / 100),
  'conjuncts of 1000 consonants': (n) => `${'\u0915\u094d'.repeat(999)}\u0915 `.repeat(n / 100),
  'flags after marks': (n) => `${'e\u0301'.repeat(n)}${'🇯🇵'.repeat(n)}`,
};

describe('excerpt on hostile text', () => {
  afterEach(() => vi.restoreAllMocks());

  for (const [name, make] of Object.entries(HOSTILE)) {
    it(`on ${name}, segments the same few units at 1x and 4x the input, within budget`, () => {
      const work = [100_000, 400_000].map((n) => {
        const text = make(n);
        const source = sourceOf(text, 'hostile.txt');
        let result: ReturnType<typeof excerpt> | undefined;
        const plain = segmentedUnits(() => {
          result = excerpt(text, 400, source);
        });
        const bytes = segmentedUnits(() => {
          excerpt(text, 400, source, { maxBytes: 600 });
        });
        expect(result!.contentLost).toBe(true);
        expect(referenceCount(result!.text)).toBeLessThanOrEqual(400);
        expect(text.startsWith(result!.head)).toBe(true);
        expect(text.endsWith(result!.tail)).toBe(true);
        // A cut never splits a surrogate pair (the hostile texts hold no lone surrogate).
        expect(Buffer.from(result!.head).toString()).toBe(result!.head);
        expect(Buffer.from(result!.tail).toString()).toBe(result!.tail);
        // One segmentation of each end, with or without a byte budget.
        expect(bytes).toBeLessThanOrEqual(plain);
        return plain;
      });
      expect(work[1]).toBeLessThanOrEqual(work[0]! * 1.05);
      expect(work[0]).toBeLessThanOrEqual(8 * graphemeWindowLimit(400));
    });
  }

  it('returns whole a text of one cluster of a million marks', () => {
    const text = `a${'\u0301'.repeat(1_000_000)}`;
    const result = excerpt(text, 400, sourceOf(text));
    expect(result).toMatchObject({ text, contentLost: false, headChars: 1 });
  });

  it('keeps a base with its marks when the window holds a base to cut before', () => {
    const text = `${'e\u0301\u0302'.repeat(30_000)}`;
    const result = excerpt(text, 500, sourceOf(text));
    expect(result.head.endsWith('\u0302')).toBe(true);
    expect(result.tail.startsWith('e')).toBe(true);
  });
});

describe('excerpt arguments', () => {
  const text = 'x'.repeat(10_000);
  const described = describeText(text);
  const source = sourceOf(text);
  const cases: [string, () => unknown][] = [
    ['a describeText() result as the source', () => excerpt(text, 400, described as never)],
    ['NaN totalChars', () => excerpt(text, 400, { ...source, totalChars: Number.NaN })],
    ['missing totalChars', () => excerpt(text, 400, { ...source, totalChars: undefined as never })],
    ['negative totalBytes', () => excerpt(text, 400, { ...source, totalBytes: -1 })],
    ['fractional totalChars', () => excerpt(text, 400, { ...source, totalChars: 1.5 })],
    ['a digest that is no SHA-256', () => excerpt(text, 400, { ...source, digest: 'abc' })],
    ['a numeric file name', () => excerpt(text, 400, { ...source, file: 7 as never })],
    ['a null source', () => excerpt(text, 400, null as never)],
    ['NaN budget', () => excerpt(text, Number.NaN, source)],
    ['fractional budget', () => excerpt(text, 400.5, source)],
    ['Infinity budget', () => excerpt(text, Number.POSITIVE_INFINITY, source)],
    ['NaN maxBytes', () => excerpt(text, 400, source, { maxBytes: Number.NaN })],
    ['negative maxBytes', () => excerpt(text, 400, source, { maxBytes: -5 })],
    ['NaN headShare', () => excerpt(text, 400, source, { headShare: Number.NaN })],
    ['a non-string text', () => excerpt(42 as never, 400, source)],
    [
      'minimumExcerptBudget of a describeText() result',
      () => minimumExcerptBudget(described as never),
    ],
  ];
  for (const [name, call] of cases) {
    it(`refuses ${name} with InvalidArgumentError, at once`, () => {
      let thrown: unknown;
      try {
        call();
      } catch (error) {
        thrown = error;
      }
      expect(InvalidArgumentError.isInstance(thrown)).toBe(true);
    });
  }

  it('names the fields to pass when given a describeText() result', () => {
    expect(() => excerpt(text, 400, described as never)).toThrow(
      /source\.totalChars is missing: pass \{ totalChars: d\.chars/,
    );
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
