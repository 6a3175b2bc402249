import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { generatedDiff } from '../test-support/generated-diffs.js';
import { BLOCK_FILE, BLOCK_HUNK, diffBlocks } from './diff-blocks.js';
import { lineStarts } from './line-starts.js';

const never = () => {};

/** The first line of each block of `kind`. */
function firstLines(text: string, kind: number): string[] {
  const blocks = diffBlocks(text, lineStarts(text, never), never);
  const lines: string[] = [];
  blocks.starts.forEach((at, b) => {
    if (blocks.kinds[b] !== kind) return;
    const end = text.indexOf('\n', at);
    lines.push(text.slice(at, end < 0 ? undefined : end).replace(/\r$/, ''));
  });
  return lines;
}

describe('a diff is read into file headers and hunks whatever heads its files', () => {
  it('heads each file of a recursive diff by its `diff` line, a one-sided file by its own line', () => {
    const diff = generatedDiff(40);
    const headers = firstLines(diff.text, BLOCK_FILE);
    expect(headers).toEqual([
      ...diff.paths.map((path) => `diff -Npur old/${path} new/${path}`),
      'Only in new/doc: NOTES_40.txt',
    ]);
  });

  it('heads each file by its `---` line where nothing is above it, by its `Index:` line where that is', () => {
    const bare = generatedDiff(40, { style: 'bare' });
    const pathOf = (header: string) => /^--- old\/(\S+)\t/.exec(header)?.[1];
    const bareHeaders = firstLines(bare.text, BLOCK_FILE);
    // The binary file is its `Binary files … differ` line.
    expect(bareHeaders.map((line) => pathOf(line) ?? line)).toEqual(
      bare.paths.map((path) =>
        path.endsWith('.png') ? `Binary files old/${path} and new/${path} differ` : path,
      ),
    );
    const index = generatedDiff(40, { style: 'index' });
    expect(firstLines(index.text, BLOCK_FILE)).toEqual(index.paths.map((path) => `Index: ${path}`));
  });

  it('counts a hunk by its header: removed `-- ` and added `++ ` lines are not file headers', () => {
    for (const eol of ['\n', '\r\n'] as const) {
      const diff = generatedDiff(40, { eol });
      const hunks = firstLines(diff.text, BLOCK_HUNK);
      expect(hunks.length).toBe(diff.text.split(`${eol}@@ `).length - 1);
      const headers = firstLines(diff.text, BLOCK_FILE);
      expect(headers.some((line) => line.includes('ledger'))).toBe(false);
      expect(headers.length).toBe(diff.paths.length + 1);
    }
  });

  it('ends a hunk at a line no hunk holds, whatever its header counted', () => {
    const text = [
      '--- a/x',
      '+++ b/x',
      '@@ -1,9 +1,9 @@',
      '-old',
      '+new',
      'Only in b: y',
      '--- a/z',
      '+++ b/z',
      '@@ -1 +1 @@',
      '-1',
      '+2',
      '',
    ].join('\n');
    expect(firstLines(text, BLOCK_FILE)).toEqual(['--- a/x', 'Only in b: y', '--- a/z']);
  });

  it('reads a git diff as it always did: its `diff --git` lines head files, its `@@` lines start hunks', () => {
    // Hunks whose lines read as other headers: `--- `/`+++ ` pairs, `Index:`, `diff -u`.
    const content = fc.constantFrom(
      ' context',
      '-removed',
      '+added',
      '--- a/looks/like/a/header',
      '+++ b/looks/like/a/header',
      '-Index: x',
      '+diff -u a b',
      ' Only in a: b',
      '+Binary files a and b differ',
      '\\ No newline at end of file',
    );
    const hunk = fc.array(content, { minLength: 1, maxLength: 8 }).map((lines) => {
      const old = lines.filter((line) => line[0] === ' ' || line[0] === '-').length;
      const now = lines.filter((line) => line[0] === ' ' || line[0] === '+').length;
      return [`@@ -1,${old} +1,${now} @@`, ...lines];
    });
    const file = fc
      .tuple(fc.constantFrom('src/a.c', 'b.sql', 'doc/c d.txt'), fc.array(hunk, { maxLength: 3 }))
      .map(([path, hunks]) => [
        `diff --git a/${path} b/${path}`,
        'index 1111111..2222222 100644',
        ...(hunks.length > 0 ? [`--- a/${path}`, `+++ b/${path}`] : []),
        ...hunks.flat(),
      ]);
    fc.assert(
      fc.property(
        fc.array(file, { minLength: 1, maxLength: 5 }),
        fc.constantFrom('\n', '\r\n'),
        (files, eol) => {
          const lines = files.flat();
          const text = `${lines.join(eol)}${eol}`;
          expect(firstLines(text, BLOCK_FILE)).toEqual(
            lines.filter((line) => line.startsWith('diff --git ')),
          );
          expect(firstLines(text, BLOCK_HUNK)).toEqual(
            lines.filter((line) => line.startsWith('@@ ')),
          );
        },
      ),
      { numRuns: 300 },
    );
  });
});
