import { describe, expect, it } from 'vitest';
import { generatedDiff } from '../test-support/generated-diffs.js';
import { diffBlocks } from './diff-blocks.js';
import { diffFiles } from './diff-files.js';
import { lineStarts } from './line-starts.js';

const never = () => {};
const filesOf = (text: string) => diffFiles(text, diffBlocks(text, lineStarts(text, never), never));

describe("a diff's files: path, lines added and removed, new, deleted or binary", () => {
  it.each(['recursive', 'bare', 'git'] as const)('reads every file of a %s diff', (style) => {
    const diff = generatedDiff(60, { style, eol: style === 'bare' ? '\r\n' : '\n' });
    const files = filesOf(diff.text);
    const only = style === 'recursive' ? ['new/doc/NOTES_60.txt'] : [];
    expect(files.map((file) => file.path)).toEqual([...diff.paths, ...only]);
    const state = (path: string) => files.find((file) => file.path === path)?.state;
    for (const path of diff.added) expect(state(path)).toBe('new');
    for (const path of diff.deleted) expect(state(path)).toBe('deleted');
    expect(files.filter((file) => file.state === 'binary').map((file) => file.path)).toEqual(
      diff.paths.filter((path) => path.endsWith('.png')),
    );
    // Lines as the hunks count them: the hostile hunk's `--- note` is a removed line.
    const lines = diff.text.split(/\r?\n/);
    const header = /^(\+\+\+|---) ((old|new|a|b)\/(src|lib|include|tools|doc)\/|\/dev\/null)/;
    const plus = lines.filter((line) => line.startsWith('+') && !header.test(line));
    const minus = lines.filter((line) => line.startsWith('-') && !header.test(line));
    expect(files.reduce((sum, file) => sum + file.plus, 0)).toBe(plus.length);
    expect(files.reduce((sum, file) => sum + file.minus, 0)).toBe(minus.length);
  });

  it('reads a side dated at time 0 in any zone as absent, and only that', () => {
    const text = (date: string) =>
      [
        `--- old/x.c\t${date}`,
        '+++ new/x.c\t2021-01-16 16:09:29.000000000 +0100',
        '@@ -0,0 +1 @@',
        '+a',
        '--- old/y.c\t2020-10-20 05:17:33.000000000 +0200',
        '+++ new/y.c\t2021-01-16 16:09:29.000000000 +0100',
        '@@ -1 +1 @@',
        '-b',
        '+c',
        '',
      ].join('\n');
    for (const date of [
      '1970-01-01 00:00:00.000000000 +0000',
      '1970-01-01 01:00:00.000000000 +0100',
      '1969-12-31 19:00:00.000000000 -0500',
      '1970-01-01 00:00:00 +0000',
    ]) {
      expect(filesOf(text(date)).map((file) => [file.path, file.state])).toEqual([
        ['x.c', 'new'],
        ['y.c', undefined],
      ]);
    }
    expect(filesOf(text('1970-01-01 00:00:01.000000000 +0000'))[0]!.state).toBeUndefined();
  });
});
