import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { sentenceStarts } from './sentence-starts.js';

/** The pattern the sentence split used before (quadratic on runs of marks), for small inputs. */
const BACKTRACKING = /[.!?。！？]+["')\]]*[ \t]+|\n+/g;

function backtrackingStarts(text: string): number[] {
  const starts = [0];
  BACKTRACKING.lastIndex = 0;
  for (let m = BACKTRACKING.exec(text); m; m = BACKTRACKING.exec(text)) {
    const at = m.index + m[0].length;
    // The old split also began a unit at a newline right after a sentence's spaces; the run of
    // newlines now stays with the sentence before it.
    if (at < text.length && text[at] !== '\n') starts.push(at);
  }
  return starts;
}

describe('sentenceStarts', () => {
  it('splits where the old pattern did, on any text without full-width marks', () => {
    fc.assert(
      fc.property(
        fc.array(fc.constantFrom('a', 'b', '.', '!', '?', ' ', '\t', '\n', '"', ')', ']', "'"), {
          maxLength: 80,
        }),
        (chars) => {
          const text = chars.join('');
          expect(sentenceStarts(text)).toEqual(backtrackingStarts(text));
        },
      ),
      { numRuns: 3000 },
    );
  });

  it('ends a sentence after a full-width mark with no space, as CJK text is written', () => {
    const text = '床前明月光。疑是地上霜！举头望明月？低头思故乡';
    expect(sentenceStarts(text).map((start) => text[start])).toEqual(['床', '疑', '举', '低']);
  });

  it('steps over a run of marks with no space after it, however long', () => {
    const dots = '.'.repeat(200_000);
    expect(sentenceStarts(dots)).toEqual([0]);
    expect(sentenceStarts(`${dots} next`)).toEqual([0, 200_001]);
    expect(sentenceStarts(`${'?!'.repeat(50_000)}x. y`).at(-1)).toBe(100_003);
  });

  it('polls the stop check as it goes', () => {
    let work = 0;
    sentenceStarts('a. '.repeat(10_000), (units) => {
      work += units;
    });
    expect(work).toBe(30_000);
  });
});
