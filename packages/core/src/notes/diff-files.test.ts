import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { type DiffFiles, formatDiffFiles, parseDiffFiles, tellsDiffPath } from './diff-files.js';
import { disclosureNoteKind, disclosureNotes } from './disclosure-notes.js';

describe("a diff's files in the note", () => {
  it('counts the files, their kinds, and names the most changed with their lines', () => {
    const segment = formatDiffFiles({
      total: 101,
      added: 4,
      deleted: 3,
      binary: 1,
      told: [
        { path: 'src/buffer_40.c', plus: 0, minus: 69, state: 'deleted' },
        { path: 'tools/count_28.c', plus: 63, minus: 0, state: 'new' },
        { path: 'src/net/index_89.c', plus: 15, minus: 12 },
        { path: 'img/logo.png', plus: 0, minus: 0, state: 'binary' },
        { path: 'new/doc/NOTES.txt', plus: 0, minus: 0 },
      ],
    });
    expect(segment).toBe(
      '; files 101 (4 new, 3 deleted, 1 binary): src/buffer_40.c -69 deleted, tools/count_28.c +63 new, src/net/index_89.c +15 -12, img/logo.png binary, new/doc/NOTES.txt, +96 more',
    );
    expect(formatDiffFiles({ total: 2, added: 0, deleted: 0, binary: 0, told: [] })).toBe(
      '; files 2',
    );
    expect(formatDiffFiles(undefined)).toBe('');
  });

  it('names no path that would read as the note’s own syntax, and counts it with the rest', () => {
    for (const path of ['a;b.c', 'x]y', 'a, b', ' lead', 'line\nbreak', 'x'.repeat(161)]) {
      expect(tellsDiffPath(path)).toBe(false);
    }
    for (const path of ['src/a b.c', 'a/b/c.d', '[id]/page.tsx'.replace(/[[\]]/g, '_')]) {
      expect(tellsDiffPath(path)).toBe(true);
    }
    const segment = formatDiffFiles({
      total: 3,
      added: 0,
      deleted: 0,
      binary: 0,
      told: [
        { path: 'ok.c', plus: 1, minus: 1 },
        { path: 'bad];x', plus: 1, minus: 1 },
      ],
    });
    expect(segment).toBe('; files 3: ok.c +1 -1, +2 more');
  });

  it('is a segment of the trimmed and the severely reduced notes', () => {
    const files = { total: 5, added: 1, deleted: 0, binary: 0, told: [] };
    const trimmed = disclosureNotes.trimmedUnits({
      kept: 3,
      total: 40,
      unit: 'file headers and hunks',
      budgetBytes: 900,
      files,
    });
    expect(trimmed).toContain('; files 5 (1 new); omitted content is UNKNOWN');
    expect(disclosureNoteKind(trimmed)).toBe(
      disclosureNoteKind(
        disclosureNotes.trimmedUnits({ kept: 3, total: 40, unit: 'lines', budgetBytes: 900 }),
      ),
    );
    const reduced = disclosureNotes.severelyReduced({ keptBytes: 10, originalBytes: 1000, files });
    expect(reduced).toContain('; files 5 (1 new); not representative');
  });

  it('reads back what it tells, in a note among other segments (property)', () => {
    const change = fc.oneof(
      fc.record({ plus: fc.nat(9999), minus: fc.nat(9999) }),
      fc.record({
        plus: fc.nat(9999),
        minus: fc.constant(0),
        state: fc.constant('new' as const),
      }),
      fc.record({
        plus: fc.constant(0),
        minus: fc.nat(9999),
        state: fc.constant('deleted' as const),
      }),
      fc.record({
        plus: fc.constant(0),
        minus: fc.constant(0),
        state: fc.constant('binary' as const),
      }),
    );
    const path = fc
      .array(fc.stringMatching(/^[a-z0-9_.-]{1,12}$/), { minLength: 1, maxLength: 4 })
      .map((parts) => parts.join('/'));
    const files = fc
      .record({
        told: fc.uniqueArray(fc.record({ path, change }), {
          maxLength: 6,
          selector: (file) => file.path,
        }),
        more: fc.nat(50),
        added: fc.nat(9),
        deleted: fc.nat(9),
        binary: fc.nat(9),
      })
      .map(
        ({ told, more, ...kinds }): DiffFiles => ({
          ...kinds,
          total: told.length + more,
          told: told.map((file) => ({ path: file.path, ...file.change })),
        }),
      );
    fc.assert(
      fc.property(files, (told) => {
        const note = `[trimmed: 3/90 lines kept${formatDiffFiles(told)}; not representative]`;
        expect(parseDiffFiles(note)).toEqual(told);
      }),
    );
    expect(parseDiffFiles('[trimmed: 3/90 lines kept; not representative]')).toBeUndefined();
    // A path with a space inside, and one named alone (a file only one side has, no lines).
    const spaced: DiffFiles = {
      total: 3,
      added: 0,
      deleted: 0,
      binary: 0,
      told: [
        { path: 'docs/My Notes.md', plus: 2, minus: 1 },
        { path: 'new/doc/NOTES.txt', plus: 0, minus: 0 },
      ],
    };
    expect(parseDiffFiles(formatDiffFiles(spaced))).toEqual(spaced);
  });
});
