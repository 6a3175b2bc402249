import { sampled, WHOLE_IN_FUZZ } from '@compaction/test-runtime';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { edgeText, referenceBoundaries, trickyText } from '../test-support/grapheme-arbitraries.js';
import { segmentedUnits } from '../test-support/segmented-units.js';
import { countGraphemes } from './count-graphemes.js';
import { clusterEnds } from './grapheme-segmenter.js';
import { ClusterTally, isEasyBoundary, walkEasyClusters } from './walk-easy-clusters.js';

const sorted = (boundaries: Set<number>) => [...boundaries].sort((a, b) => a - b);

/** Marks, controls, format characters (ZWJ, variation selectors), Hangul jamo, emoji and their parts. */
const BREAK_PROPERTY =
  /[\p{M}\p{Cc}\p{Cf}\p{Zl}\p{Zp}\p{Extended_Pictographic}\p{Emoji_Modifier}\p{Emoji_Component}\u1100-\u11ff\ua960-\ua97f\ud7b0-\ud7ff]/u;

/**
 * A unit whose grapheme-cluster-break property is not Other or which joins emoji sequences: the
 * classes above, lone surrogates and the LV Hangul syllables (an LVT one differs from its LV
 * neighbour by its trailing jamo only, which the sample reaches at random).
 */
function hasBreakProperty(unit: number): boolean {
  if (unit >= 0xd800 && unit <= 0xdfff) return true;
  if (unit >= 0xac00 && unit <= 0xd7a3) return (unit - 0xac00) % 28 === 0;
  return BREAK_PROPERTY.test(String.fromCharCode(unit));
}

/** The reference boundaries of `text` in `(from, to]`. */
function referenceEnds(text: string, from: number, to: number): number[] {
  return sorted(referenceBoundaries(text)).filter((b) => b > from && b <= to);
}

/** The easy walk from 0 to `to` with every end it reports, and where it stopped. */
function walk(text: string, to = text.length, simpleRun?: number) {
  const tally = new ClusterTally(simpleRun === undefined ? { ends: [] } : { ends: [], simpleRun });
  const stop = walkEasyClusters(text, 0, to, tally);
  return { stop, ends: tally.ends!, count: tally.count };
}

/** Every text of `pieces` joined `length` at a time, in every order. */
function* sequences(pieces: readonly string[], length: number): Generator<string> {
  if (length === 0) {
    yield '';
    return;
  }
  for (const head of pieces) for (const rest of sequences(pieces, length - 1)) yield head + rest;
}

describe('walkEasyClusters', () => {
  it('reports exactly the boundaries Intl.Segmenter finds, up to a boundary where it stops', () => {
    fc.assert(
      fc.property(fc.oneof(edgeText(), trickyText()), (text) => {
        const { stop, ends, count } = walk(text);
        expect(referenceBoundaries(text).has(stop)).toBe(true);
        expect(ends).toEqual(referenceEnds(text, 0, stop));
        expect(count).toBe(ends.length);
      }),
      { numRuns: 3000 },
    );
  });

  it('cut anywhere, reports only boundaries of the whole text but a last cluster reaching the cut', () => {
    fc.assert(
      fc.property(fc.oneof(edgeText(), trickyText()), fc.nat(), (text, at) => {
        const cut = at % (text.length + 1);
        const { stop, ends } = walk(text, cut);
        // The walk stops on a boundary of the whole text, or at the cut itself.
        expect(stop === cut || referenceBoundaries(text).has(stop)).toBe(true);
        const exact = ends.at(-1) === cut ? ends.slice(0, -1) : ends;
        expect(exact).toEqual(referenceEnds(text, 0, exact.at(-1) ?? 0));
        expect(exact.every((end) => referenceBoundaries(text).has(end))).toBe(true);
      }),
      { numRuns: 3000 },
    );
  });

  it('stops at the start of a long simple run when asked, on a boundary', () => {
    fc.assert(
      fc.property(edgeText(), fc.integer({ min: 2, max: 8 }), (text, run) => {
        const { stop, ends } = walk(text, text.length, run);
        expect(referenceBoundaries(text).has(stop)).toBe(true);
        expect(ends).toEqual(referenceEnds(text, 0, stop));
      }),
      { numRuns: 1000 },
    );
  });

  it('walks every sequence of three Hangul units as Intl.Segmenter does (GB6 to GB8)', () => {
    // L, V, T jamo of both blocks, LV and LVT syllables, a mark, a letter and a CJK ideograph.
    const pieces = [
      '\u1100',
      '\ua97c',
      '\u1160',
      '\ud7c6',
      '\u11a8',
      '\ud7cb',
      '가',
      '각',
      '\ud7a3',
      '\u0301',
      'a',
      '日',
    ];
    for (const text of sequences(pieces, 3)) {
      const { stop, ends } = walk(text);
      expect({ text, stop, ends }).toEqual({ text, stop, ends: referenceEnds(text, 0, stop) });
      expect(countGraphemes(text)).toBe(referenceBoundaries(text).size - 1);
    }
  });

  // Every BMP unit is 786 432 walks (8 s alone, 38 s on a loaded machine): `pnpm test` walks
  // every unit with a grapheme-break property of its own and a seeded sixteenth of the rest;
  // `pnpm fuzz` walks them all.
  it(`agrees with Intl.Segmenter on every BMP unit beside each easy shape ${WHOLE_IN_FUZZ}`, () => {
    const mismatches: string[] = [];
    const units = sampled(
      Array.from({ length: 0x10000 }, (_, unit) => unit),
      { share: 1 / 16, seed: 0x3a7, keep: hasBreakProperty },
    );
    for (const unit of units) {
      const c = String.fromCharCode(unit);
      for (const text of [
        `${c}\u0301x`,
        `x${c}x`,
        `👍\u200d${c}x`,
        `${c}\u200d👍`,
        `${c}\ufe0f\u200d👍`,
        `\u1100${c}`,
        `가${c}`,
        `각${c}`,
        `${c}\u11a8`,
        `🇫${c}🇷`,
        `\r${c}`,
        `${c}🏽`,
      ]) {
        const { stop, ends } = walk(text);
        const expected = referenceEnds(text, 0, stop);
        if (!referenceBoundaries(text).has(stop) || ends.join() !== expected.join()) {
          mismatches.push(`${unit.toString(16)} in ${JSON.stringify(text)}`);
        }
      }
    }
    expect(mismatches.slice(0, 20)).toEqual([]);
  });

  it('agrees with Intl.Segmenter on every emoji-plane code point and on sampled CJK ones', () => {
    const mismatches: string[] = [];
    const points: number[] = [];
    for (let point = 0x1f000; point <= 0x1ffff; point++) points.push(point);
    for (let point = 0x20000; point <= 0x3ffff; point += 97) points.push(point);
    for (let point = 0xe0000; point <= 0xe01ef; point++) points.push(point);
    for (const point of points) {
      const c = String.fromCodePoint(point);
      for (const text of [
        `x${c}x`,
        `${c}\u0301x`,
        `👍\u200d${c}x`,
        `${c}\u200d👍`,
        `🇫${c}`,
        `${c}🇫🇷`,
        `x${c}${c}`,
      ]) {
        const { stop, ends } = walk(text);
        const expected = referenceEnds(text, 0, stop);
        if (!referenceBoundaries(text).has(stop) || ends.join() !== expected.join()) {
          mismatches.push(`${point.toString(16)} in ${JSON.stringify(text)}`);
        }
      }
    }
    expect(mismatches.slice(0, 20)).toEqual([]);
  });

  it('hands CJK, emoji, flags, combining marks and CR LF to no segmenter', () => {
    const line = '日志 ✓ 处理完成，「状态」。 👩🏽‍💻 café e\u0301 🇯🇵 ❤️‍🔥 가각 — 状态=成功\r\n';
    const text = line.repeat(2000);
    let count = 0;
    let ends: number[] = [];
    const units = segmentedUnits(() => {
      count = countGraphemes(text);
      ends = [...clusterEnds(text, 0, text.length)];
    });
    expect(units).toBe(0);
    expect(count).toBe(2000 * (referenceBoundaries(line).size - 1));
    expect(ends).toHaveLength(count);
  });
});

describe('isEasyBoundary', () => {
  it('holds only where Intl.Segmenter puts a boundary', () => {
    fc.assert(
      fc.property(fc.oneof(edgeText(), trickyText()), (text) => {
        const boundaries = referenceBoundaries(text);
        for (let i = 0; i <= text.length; i++) {
          if (isEasyBoundary(text, i))
            expect({ i, boundary: boundaries.has(i) }).toEqual({ i, boundary: true });
        }
      }),
      { numRuns: 2000 },
    );
  });
});
