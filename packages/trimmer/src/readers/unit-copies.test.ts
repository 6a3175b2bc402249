import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { lineStarts } from './line-starts.js';
import { withTextUnits } from './text-units.js';
import { UnitCopies } from './unit-copies.js';

const NEVER_STOP = () => undefined;

function copiesOf(lines: string[]): boolean[] {
  const text = lines.join('\n');
  const starts = lineStarts(text, NEVER_STOP);
  return withTextUnits(text, (units) => {
    const copies = new UnitCopies(text, units, starts);
    return starts.map((_, i) => {
      const copy = copies.isCopy(i);
      if (!copy) copies.add(i);
      return copy;
    });
  });
}

describe('UnitCopies', () => {
  it('tells a line that reads as one kept, its line ending and string sequences aside', () => {
    const stamp = (t: number) => `\u001b_bk;t=${t}\u0007`;
    expect(
      copiesOf([
        `${stamp(1)}postgres Pulled`,
        `${stamp(2)}postgres Pulled\r`,
        `${stamp(3)}web Pulled`,
        'postgres Pulled',
        '\u001b]8;;https://x.test\u001b\\link\u001b]8;;\u001b\\ done',
        '\u001b]8;;https://y.test\u001b\\link\u001b]8;;\u001b\\ done',
        'link done!',
      ]),
    ).toEqual([false, true, false, true, false, true, false]);
  });

  it('agrees with comparing the lines without their string sequences', () => {
    const piece = fc.oneof(
      fc.constantFrom('a', 'b', ' ', '\u001b', '\u001b_t=1\u0007', '\u001b_t=2\u0007', '\u001b]x'),
    );
    const visible = (line: string) =>
      line
        .replace(/\r?\n$/, '')
        .replace(/\u001b[\]PX^_][^\u0007\u001b]*(?:\u0007|\u001b\\)/g, '')
        .replace(/\r$/, '');
    const line = fc.array(piece, { maxLength: 6 }).map((p) => p.join(''));
    fc.assert(
      fc.property(fc.array(line, { maxLength: 30 }), (lines) => {
        const text = lines.join('\n');
        const starts = lineStarts(text, NEVER_STOP);
        withTextUnits(text, (units) => {
          const copies = new UnitCopies(text, units, starts);
          const seen = new Set<string>();
          starts.forEach((from, i) => {
            const unit = visible(
              text.slice(from, i + 1 < starts.length ? starts[i + 1] : text.length),
            );
            expect(copies.isCopy(i)).toBe(seen.has(unit));
            if (!seen.has(unit)) copies.add(i);
            seen.add(unit);
          });
        });
      }),
      { numRuns: 1000 },
    );
  });
});
