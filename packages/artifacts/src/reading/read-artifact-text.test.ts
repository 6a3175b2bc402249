import { type FileHandle, mkdtemp, open, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { buildLineIndex } from './line-index.js';
import { searchText, type TextPosition } from './read-artifact-text.js';
import { compileSearchPattern, type SearchMatcher } from './search-pattern.js';

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'read-artifact-text-'));
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

async function withFile<T>(text: string | Buffer, use: (handle: FileHandle) => Promise<T>) {
  const path = join(dir, 'a.txt');
  await writeFile(path, text);
  const handle = await open(path);
  try {
    return await use(handle);
  } finally {
    await handle.close();
  }
}

const search = async (
  handle: FileHandle,
  matcher: SearchMatcher,
  from: TextPosition = { line: 1, column: 1 },
  maxMatches = 50,
) => {
  const index = await buildLineIndex(handle, (await handle.stat()).size);
  return searchText(handle, index, matcher, from, {
    maxMatches,
    deadline: Number.POSITIVE_INFINITY,
    now: () => 0,
  });
};

/** `matcher` counting the lines (and windows) it is asked about. */
function counting(matcher: SearchMatcher) {
  const counted = {
    ...matcher,
    calls: 0,
    find(line: string, from: number) {
      counted.calls++;
      return matcher.find(line, from);
    },
  };
  return counted;
}

describe('issue 43 item 12: a literal search looks at the lines that hold the literal', () => {
  const text = Array.from({ length: 20_000 }, (_, i) =>
    i === 14_999
      ? 'ERROR step 15000 FAIL here\n'
      : i === 19_998
        ? 'warn: fail again ſ\n'
        : `2026-11-30T08:00:00Z INFO step ${i + 1} ok\n`,
  ).join('');

  it('runs the line matcher on a few lines of 20 000, case-sensitive or not', async () => {
    await withFile(text, async (handle) => {
      for (const [pattern, caseSensitive, lines] of [
        ['FAIL', true, [15_000]],
        ['fail', false, [15_000, 19_999]],
        ['again s', false, [19_999]],
        ['no such text', false, []],
      ] as const) {
        const matcher = counting(compileSearchPattern(pattern, { caseSensitive }));
        const result = await search(handle, matcher);
        expect(
          result.matches.map((match) => match.line),
          pattern,
        ).toEqual(lines);
        expect(result.linesSearched, pattern).toBe(20_000);
        expect(result.more).toBe(false);
        expect(matcher.calls, pattern).toBeLessThan(10);
      }
    });
  });
});

describe('a literal search finds what testing every line finds', () => {
  // Units that fold or hide: Kelvin sign and long s fold with k and s, ß and ẞ, Σ/σ/ς, a
  // combining mark, CJK, an emoji pair, CR before LF, a byte that is not UTF-8.
  const pieces = [
    'k',
    'K',
    'K',
    's',
    'S',
    'ſ',
    'ß',
    'ẞ',
    'σ',
    'Σ',
    'ς',
    'e\u0301',
    'é',
    '错误',
    '😀',
    'a',
    'B',
    ' ',
    '-',
    '\r',
    '\n',
    '\r\n',
  ];
  const textArb = fc
    .array(fc.constantFrom(...pieces, 'ab', 'SK', 'ks'), { maxLength: 120 })
    .map((parts) => parts.join(''));
  const patternArb = fc
    .array(
      fc.constantFrom(
        'k',
        'K',
        's',
        'ſ',
        'ß',
        'σ',
        'é',
        'e\u0301',
        '错',
        '😀',
        'a',
        'B',
        ' ',
        '-',
        '\r',
      ),
      {
        minLength: 1,
        maxLength: 4,
      },
    )
    .map((parts) => parts.join(''));

  it('at every line and column, with and without case, resumed anywhere (property)', async () => {
    await fc.assert(
      fc.asyncProperty(
        textArb,
        patternArb,
        fc.boolean(),
        fc.boolean(),
        fc.integer({ min: 1, max: 8 }),
        fc.integer({ min: 1, max: 6 }),
        fc.integer({ min: 1, max: 5 }),
        async (text, pattern, caseSensitive, invalidByte, line, column, maxMatches) => {
          const bytes = invalidByte
            ? Buffer.concat([Buffer.from(text), Buffer.of(0xc3, 0x0a, 0xff), Buffer.from(text)])
            : Buffer.from(text);
          const matcher = compileSearchPattern(pattern, { caseSensitive });
          const { prefilter: _, ...everyLine } = matcher;
          await withFile(bytes, async (handle) => {
            const index = await buildLineIndex(handle, bytes.length);
            if (line > Math.max(1, index.totalLines)) return;
            const from = { line, column };
            let fast: unknown;
            let slow: unknown;
            try {
              fast = await search(handle, matcher, from, maxMatches);
            } catch (error) {
              fast = String(error);
            }
            try {
              slow = await search(handle, everyLine, from, maxMatches);
            } catch (error) {
              slow = String(error);
            }
            expect(fast).toEqual(slow);
          });
        },
      ),
      { numRuns: 300 },
    );
  });
});

describe('a literal search over chunks, samples and the time budget', () => {
  it('across 1 MiB chunks and line-index samples, as testing every line (property)', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(
          fc.constantFrom(
            'plain line ok',
            'a Kelvin K here',
            'ſ long s',
            '错误 found',
            'x'.repeat(3000),
            'CRLF\r',
          ),
          {
            minLength: 1,
            maxLength: 6,
          },
        ),
        fc.integer({ min: 200, max: 900 }),
        fc.constantFrom('ks', 'found', 'K', 'LF', 'x k', 'xxxx'),
        fc.boolean(),
        fc.integer({ min: 1, max: 4000 }),
        async (lines, repeat, pattern, caseSensitive, line) => {
          const block = `${lines.join('\n')}\n`;
          const text = block.repeat(repeat);
          const matcher = compileSearchPattern(pattern, { caseSensitive });
          const { prefilter: _, ...everyLine } = matcher;
          await withFile(text, async (handle) => {
            const index = await buildLineIndex(handle, Buffer.byteLength(text));
            if (line > index.totalLines) return;
            const from = { line, column: 1 };
            expect(await search(handle, matcher, from, 20)).toEqual(
              await search(handle, everyLine, from, 20),
            );
          });
        },
      ),
      { numRuns: 12 },
    );
  });

  it('stopped by the clock anywhere, following next finds every match once', async () => {
    // Four 1 MiB chunks and more, so the clock stops the byte scan between chunks too.
    const text = Array.from({ length: 300_000 }, (_, i) =>
      i % 97_000 === 0
        ? `match ${i} ${'é'.repeat(i % 5)}needle\n`
        : `line ${i} ${'ü'.repeat(i % 3)}\n`,
    ).join('');
    await withFile(text, async (handle) => {
      const index = await buildLineIndex(handle, Buffer.byteLength(text));
      for (const caseSensitive of [true, false]) {
        const matcher = compileSearchPattern(caseSensitive ? 'needle' : 'NEEDLE', {
          caseSensitive,
        });
        const whole = await search(handle, matcher);
        let clock = 0;
        let from: TextPosition | null = { line: 1, column: 1 };
        const found: string[] = [];
        let calls = 0;
        let timeStops = 0;
        while (from) {
          const result = await searchText(handle, index, matcher, from, {
            maxMatches: 2,
            deadline: clock + 3,
            now: () => clock++,
          });
          found.push(...result.matches.map((match) => `${match.line}:${match.column}`));
          if (result.stoppedBy === 'time') timeStops++;
          if (result.more) {
            expect(result.next!.line > from.line || result.next!.column > from.column).toBe(true);
          }
          from = result.more ? result.next : null;
          expect(++calls, String(caseSensitive)).toBeLessThan(10_000);
        }
        expect(found).toEqual(whole.matches.map((match) => `${match.line}:${match.column}`));
        expect(whole.matches).toHaveLength(4);
        expect(timeStops).toBeGreaterThan(1);
      }
    });
  });
});
