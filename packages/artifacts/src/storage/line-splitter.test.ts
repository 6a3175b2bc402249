import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { createLineSplitter } from './line-splitter.js';

/** `data` cut into chunks at the given lengths (the last chunk takes what is left). */
function chunksOf(data: Buffer, lengths: readonly number[]): Buffer[] {
  const chunks: Buffer[] = [];
  let start = 0;
  for (const length of lengths) {
    if (start >= data.length) break;
    chunks.push(data.subarray(start, start + length));
    start += length;
  }
  if (start < data.length) chunks.push(data.subarray(start));
  return chunks;
}

describe('createLineSplitter', () => {
  it('gives the lines of a split on newlines, skipping those over the limit, however the bytes arrive', () => {
    fc.assert(
      fc.property(
        fc.array(fc.constantFrom('a', 'bcd', '\n', '\n\n', '\r\n', 'é', '\u{1f600}'), {
          maxLength: 40,
        }),
        fc.array(fc.integer({ min: 1, max: 9 }), { maxLength: 40 }),
        fc.option(fc.integer({ min: 0, max: 12 }), { nil: undefined }),
        (parts, lengths, maxLineBytes) => {
          const data = Buffer.from(parts.join(''), 'utf8');
          const splitter = createLineSplitter(maxLineBytes === undefined ? {} : { maxLineBytes });
          const lines: string[] = [];
          let mostHeld = 0;
          for (const chunk of chunksOf(data, lengths)) {
            // A reused read buffer: lines and held bytes must not depend on it afterwards.
            const copy = Buffer.from(chunk);
            splitter.push(
              copy,
              (line) => lines.push(line.toString('latin1')),
              () => lines.push('(skipped)'),
            );
            copy.fill(0x21);
            mostHeld = Math.max(mostHeld, splitter.held);
          }
          const all = data.toString('latin1').split('\n');
          const last = all.pop()!;
          const limit = maxLineBytes ?? Number.POSITIVE_INFINITY;
          const skipped = (line: string) => (line.length <= limit ? line : '(skipped)');
          expect(lines).toEqual([...all, ...(last.length > limit ? [last] : [])].map(skipped));
          expect(splitter.skipping).toBe(last.length > limit);
          expect(splitter.held).toBe(last.length > limit ? 0 : last.length);
          expect(mostHeld).toBeLessThanOrEqual(limit);
        },
      ),
      { numRuns: 1000 },
    );
  });

  it('goes on skipping the line it was started inside', () => {
    const lines: string[] = [];
    const splitter = createLineSplitter({ maxLineBytes: 4, skipping: true });
    splitter.push(Buffer.from('rest of it\nok\ntoo long\nyes\n'), (line) =>
      lines.push(line.toString()),
    );
    expect(lines).toEqual(['ok', 'yes']);
    expect(splitter.skipping).toBe(false);
  });
});
