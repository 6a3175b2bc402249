import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { disclosureNoteKind, disclosureNotes } from './disclosure-notes.js';
import {
  formatRecordCoverage,
  parseRecordCoverage,
  type RecordCoverage,
} from './record-coverage.js';

const example: RecordCoverage = {
  path: 'items[]',
  total: 140,
  named: 79,
  whole: 2,
  constant: [{ field: 'involvedObject.namespace', value: 'kube-system' }],
  droppedFields: ['metadata.managedFields', 'source'],
  omitted: [
    { count: 58, field: 'type', value: 'Normal' },
    { count: 3, field: 'type', value: 'Warning' },
  ],
};

describe('record coverage segment', () => {
  it('reads as one line in a trimmed note and parses back', () => {
    const note = disclosureNotes.trimmedRecords({
      kept: 420,
      total: 6655,
      unit: 'fields',
      budgetBytes: 8000,
      records: example,
    });
    expect(note).toBe(
      '[trimmed: 420/6655 fields kept, 6235 dropped to fit 8000 bytes; records 79/140 named, 2 whole at items[]; every record has involvedObject.namespace=kube-system; every record lacks metadata.managedFields, source; omitted 58 with type=Normal, 3 with type=Warning; omitted content is UNKNOWN, not absent]',
    );
    expect(disclosureNoteKind(note)).toBe('trimmed');
    expect(parseRecordCoverage(note)).toEqual(example);
  });

  it('rides along in a severely reduced note', () => {
    const note = disclosureNotes.severelyReduced({
      keptBytes: 3000,
      originalBytes: 123_475,
      records: { path: 'items[]', total: 7, named: 7, whole: 0 },
    });
    expect(note).toBe(
      '[severely reduced: kept 3000 of ~123475 bytes (2.4%); records 7/7 named, 0 whole at items[]; not representative, treat anything not shown as UNKNOWN]',
    );
    expect(disclosureNoteKind(note)).toBe('severely-reduced');
    expect(parseRecordCoverage(note)).toEqual({ path: 'items[]', total: 7, named: 7, whole: 0 });
    expect(formatRecordCoverage(undefined)).toBe('');
  });

  it('keeps data from breaking the line or the syntax', () => {
    fc.assert(
      fc.property(
        fc.string({ maxLength: 80 }),
        fc.string({ maxLength: 80 }),
        fc.nat(1000),
        (field, value, count) => {
          const records: RecordCoverage = {
            path: field,
            total: count + 1,
            named: count,
            whole: 0,
            droppedFields: [field, value],
            omitted: [{ count, field, value }],
            constant: [{ field, value }],
          };
          const note = disclosureNotes.trimmedRecords({
            kept: 1,
            total: 2,
            unit: 'fields',
            budgetBytes: 256,
            records,
          });
          expect(note).not.toMatch(/[\r\n]/);
          expect(disclosureNoteKind(note)).toBe('trimmed');
          const parsed = parseRecordCoverage(note)!;
          expect(parsed.named).toBe(count);
          expect(parsed.droppedFields).toHaveLength(2);
          expect(parsed.omitted).toHaveLength(1);
          expect(parsed.omitted![0]!.count).toBe(count);
          expect(parsed.constant).toHaveLength(1);
        },
      ),
      { numRuns: 500 },
    );
  });
});
