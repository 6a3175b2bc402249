import { describe, expect, it } from 'vitest';
import { disclosureNoteKind, disclosureNotes } from './disclosure-notes.js';
import { formatPartialAnalysis, parsePartialAnalysis } from './partial-analysis.js';
import { parseRecordCoverage } from './record-coverage.js';

describe('partial analysis segment', () => {
  it('says how much of a document was analysed and that the question matches past it', () => {
    const note = disclosureNotes.severelyReduced({
      keptBytes: 3743,
      originalBytes: 104_857_658,
      records: {
        path: 'items[]',
        total: 600_000,
        atLeast: true,
        named: 226,
        whole: 0,
        constant: [{ field: 'state', value: 'ok' }],
        droppedFields: ['state', 'msg'],
      },
      partial: { analysed: 2_999_999, total: 6_595_401, queryMatchesPast: 1 },
    });
    // Nothing is claimed for every record of a list read only in part: `state` is only named
    // as dropped, not told as `state=ok`.
    expect(note).toBe(
      '[severely reduced: kept 3743 of ~104857658 bytes (0.1%); records 226/600000+ named, 0 whole at items[]; dropped from every record: state, msg; only the first 2999999 of 6595401 fields analysed, 1 query match past them; not representative, treat anything not shown as UNKNOWN]',
    );
    expect(disclosureNoteKind(note)).toBe('severely-reduced');
    expect(parsePartialAnalysis(note)).toEqual({
      analysed: 2_999_999,
      total: 6_595_401,
      queryMatchesPast: 1,
    });
    expect(parseRecordCoverage(note)).toEqual({
      path: 'items[]',
      total: 600_000,
      atLeast: true,
      named: 226,
      whole: 0,
      droppedFields: ['state', 'msg'],
    });
  });

  it('leaves out the matches when there are none, and the segment when all was analysed', () => {
    const note = disclosureNotes.trimmedUnits({
      kept: 10,
      total: 4000,
      unit: 'fields',
      budgetBytes: 4096,
      partial: { analysed: 2000, total: 4000 },
    });
    expect(note).toBe(
      '[trimmed: 10/4000 fields kept, 3990 dropped to fit 4096 bytes; only the first 2000 of 4000 fields analysed; omitted content is UNKNOWN, not absent]',
    );
    expect(parsePartialAnalysis(note)).toEqual({ analysed: 2000, total: 4000 });
    expect(formatPartialAnalysis({ analysed: 5, total: 9, queryMatchesPast: 3 })).toBe(
      '; only the first 5 of 9 fields analysed, 3 query matches past them',
    );
    expect(formatPartialAnalysis(undefined)).toBe('');
    expect(
      parsePartialAnalysis(
        '[trimmed: 1/2 fields kept, 1 dropped to fit 300 bytes; omitted content is UNKNOWN, not absent]',
      ),
    ).toBeUndefined();
  });
});
