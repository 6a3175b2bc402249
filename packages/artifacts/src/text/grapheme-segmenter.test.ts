import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { referenceBoundaries } from '../test-support/grapheme-arbitraries.js';
import { segmentedUnits } from '../test-support/segmented-units.js';
import { clusterEnds } from './grapheme-segmenter.js';

const reference = (text: string) =>
  [...referenceBoundaries(text)].filter((b) => b > 0).sort((a, b) => a - b);

describe('clusterEnds', () => {
  it('ends every cluster where Intl.Segmenter does on runs of flags mixed with what joins them', () => {
    const piece = fc.constantFrom(
      '🇫',
      '🇷',
      '🇫🇷',
      '\u0301',
      '\u200d',
      '\ufe0f',
      'a',
      '\n',
      '👍',
      'ः',
    );
    fc.assert(
      fc.property(fc.array(piece, { maxLength: 60 }), (pieces) => {
        const text = pieces.join('');
        expect([...clusterEnds(text, 0, text.length)]).toEqual(reference(text));
        // An open end never reports the last cluster, which what follows could extend.
        const open = [...clusterEnds(text, 0, text.length, true)];
        expect(open).toEqual(reference(text).filter((b) => b < text.length));
      }),
      { numRuns: 2000 },
    );
  });

  it('pairs a run of flags without the segmenter (issue 17: 40 KB of flags cost 1 000 linear passes)', () => {
    const text = `${'🇫🇷'.repeat(5000)}🇩`;
    let ends: number[] = [];
    const units = segmentedUnits(() => {
      ends = [...clusterEnds(text, 0, text.length)];
    });
    expect(ends).toHaveLength(5001);
    expect(ends.at(-2)).toBe(20_000);
    expect(units).toBeLessThan(64);
  });
});
