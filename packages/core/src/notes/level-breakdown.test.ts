import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { disclosureNoteKind, disclosureNotes } from './disclosure-notes.js';
import { formatLevelBreakdown, parseLevelBreakdown } from './level-breakdown.js';

const byLevel = {
  unit: 'lines',
  counts: [
    { level: 'error', dropped: 0, total: 3 },
    { level: 'warn', dropped: 2, total: 12 },
    { level: 'info', dropped: 1870, total: 1910 },
    { level: 'unleveled', dropped: 76, total: 80 },
  ],
};

describe('the level breakdown of a text note', () => {
  it('says how many units of each level were dropped, in both notes that carry it', () => {
    const trimmed = disclosureNotes.trimmedUnits({
      kept: 57,
      total: 2005,
      unit: 'lines',
      budgetBytes: 6000,
      byLevel,
    });
    expect(trimmed).toBe(
      '[trimmed: 57/2005 lines kept, 1948 dropped to fit 6000 bytes; lines dropped by level: error=0/3 warn=2/12 info=1870/1910 unleveled=76/80; omitted content is UNKNOWN, not absent]',
    );
    const reduced = disclosureNotes.severelyReduced({
      keptBytes: 5120,
      originalBytes: 171_239,
      byLevel,
    });
    expect(reduced).toContain('(3%); lines dropped by level: error=0/3 ');
    for (const note of [trimmed, reduced]) {
      expect(disclosureNoteKind(note)).toBeDefined();
      expect(parseLevelBreakdown(note)).toEqual(byLevel);
    }
  });

  it('adds nothing without counts, and notes without it parse as having none', () => {
    expect(formatLevelBreakdown(undefined)).toBe('');
    expect(formatLevelBreakdown({ unit: 'lines', counts: [] })).toBe('');
    const plain = disclosureNotes.trimmedUnits({
      kept: 1,
      total: 2,
      unit: 'lines',
      budgetBytes: 10,
    });
    expect(plain).toBe(
      '[trimmed: 1/2 lines kept, 1 dropped to fit 10 bytes; omitted content is UNKNOWN, not absent]',
    );
    expect(parseLevelBreakdown(plain)).toBeUndefined();
  });

  it('keeps any label parseable and the segment as long as its digits say', () => {
    fc.assert(
      fc.property(
        fc.string({ maxLength: 30 }),
        fc.array(
          fc.record({
            level: fc.string({ maxLength: 30 }),
            dropped: fc.nat(),
            total: fc.nat(),
          }),
          { minLength: 1, maxLength: 8 },
        ),
        (unit, counts) => {
          const segment = formatLevelBreakdown({ unit, counts });
          expect(segment).not.toMatch(/[\r\n\]]/);
          const parsed = parseLevelBreakdown(`[trimmed: x${segment}; y]`);
          expect(parsed?.counts.map((entry) => [entry.dropped, entry.total])).toEqual(
            counts.map((entry) => [entry.dropped, entry.total]),
          );
          const widest = formatLevelBreakdown({
            unit,
            counts: counts.map((entry) => ({ ...entry, dropped: 99, total: 99 })),
          });
          const narrow = formatLevelBreakdown({
            unit,
            counts: counts.map((entry) => ({ ...entry, dropped: 1, total: 1 })),
          });
          expect(widest.length - narrow.length).toBe(2 * counts.length);
        },
      ),
      { numRuns: 500 },
    );
  });
});
