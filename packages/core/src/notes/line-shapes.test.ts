import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { disclosureNoteKind, disclosureNotes } from './disclosure-notes.js';
import { parseLevelBreakdown } from './level-breakdown.js';
import {
  formatLineShape,
  formatLineShapes,
  type LineShape,
  noteExcerpt,
  parseLineShapes,
  SHAPE_LIMIT,
} from './line-shapes.js';

const counts = [
  { level: 'error', dropped: 20, total: 47 },
  { level: 'unleveled', dropped: 1830, total: 1952 },
];
const shapes: LineShape[] = [
  {
    count: 45,
    level: 'error',
    shape: 'Dec # LabSZ sshd[#]: error: Received disconnect from #: No more…',
  },
  { count: 380, shape: 'Dec # LabSZ sshd[#]: Failed password for invalid user * from # port…' },
];

describe('how a text note tells its events by shape', () => {
  it('tells each shape with its count and level after the level counts, and reads them back', () => {
    const note = disclosureNotes.trimmedUnits({
      kept: 170,
      total: 2000,
      unit: 'lines',
      budgetBytes: 22_521,
      byLevel: { unit: 'lines', counts, shapes },
    });
    expect(note).toBe(
      '[trimmed: 170/2000 lines kept, 1830 dropped to fit 22521 bytes; lines dropped by level: error=20/47 unleveled=1830/1952; events by shape: 45 error "Dec # LabSZ sshd[#]: error: Received disconnect from #: No more…", 380 "Dec # LabSZ sshd[#]: Failed password for invalid user * from # port…"; omitted content is UNKNOWN, not absent]',
    );
    expect(disclosureNoteKind(note)).toBeDefined();
    expect(parseLineShapes(note)).toEqual(shapes);
    expect(parseLevelBreakdown(note)).toEqual({ unit: 'lines', counts });
  });

  it('is told without level counts too (a log with no levels), and absent where none is told', () => {
    const note = disclosureNotes.severelyReduced({
      keptBytes: 3000,
      originalBytes: 375_951,
      byLevel: { unit: 'lines', counts: [], shapes },
    });
    expect(note).toContain('(0.8%); events by shape: 45 error "Dec');
    expect(parseLevelBreakdown(note)).toBeUndefined();
    expect(parseLineShapes(note)).toEqual(shapes);
    expect(formatLineShapes([])).toBe('');
    expect(
      parseLineShapes('[trimmed: 1/2 lines kept; omitted content is UNKNOWN, not absent]'),
    ).toBeUndefined();
  });

  it('cuts a shape at what the note would read otherwise, visibly, whole characters only', () => {
    expect(noteExcerpt('a; b', SHAPE_LIMIT)).toBe('a…');
    expect(noteExcerpt('first\nsecond', SHAPE_LIMIT)).toBe('first…');
    expect(noteExcerpt('[error] state # [preauth]\n', SHAPE_LIMIT)).toBe(
      '[error] state # [preauth]',
    );
    expect(noteExcerpt(';', SHAPE_LIMIT)).toBe('');
    const cut = noteExcerpt(`${'x'.repeat(SHAPE_LIMIT - 2)}\u{1f600}tail`, SHAPE_LIMIT);
    expect(cut.length).toBeLessThanOrEqual(SHAPE_LIMIT);
    expect(cut.endsWith('x…')).toBe(true);
  });

  it('reads back any shape, level and count it writes, each entry as long as its bytes say', () => {
    fc.assert(
      fc.property(
        fc.array(
          fc.record({
            count: fc.integer({ min: 1, max: 10_000_000 }),
            level: fc.option(fc.constantFrom('error', 'warn', 'fatal', '30', 'e'), {
              nil: undefined,
            }),
            shape: fc.string({ unit: 'binary', maxLength: 200 }),
          }),
          { maxLength: 6 },
        ),
        (entries) => {
          const told = entries
            .map((entry) => ({ ...entry, shape: noteExcerpt(entry.shape, SHAPE_LIMIT) }))
            .filter((entry) => entry.shape !== '')
            .map(({ level, ...rest }) => (level === undefined ? rest : { ...rest, level }));
          const segment = formatLineShapes(entries);
          expect(segment).not.toMatch(/[\r\n\u2028\u2029]/);
          let length = 0;
          for (const entry of told) length += formatLineShape(entry, length === 0).length;
          expect(segment.length).toBe(
            told.length === 0 ? 0 : '; events by shape: '.length + length,
          );
          const note = `[trimmed: 1/2 lines kept${segment}; omitted content is UNKNOWN, not absent]`;
          expect(parseLineShapes(note) ?? []).toEqual(told);
        },
      ),
      { numRuns: 500 },
    );
  });
});
