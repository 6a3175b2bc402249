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
  namedBy: 'metadata.name',
  whole: 2,
  constant: [{ field: 'involvedObject.namespace', value: 'kube-system' }],
  distributions: [
    {
      field: 'type',
      values: [
        { value: 'Normal', count: 137 },
        { value: 'Warning', count: 3 },
      ],
    },
    {
      field: 'reason',
      values: [
        { value: 'Pulled', count: 60 },
        { value: 'Created', count: 50 },
      ],
      otherValues: 4,
      otherCount: 30,
    },
    { field: 'series.count', present: 12, values: [{ value: '2', count: 12 }] },
    {
      field: 'source.component',
      alike: ['reportingComponent'],
      values: [
        { value: 'kubelet', count: 120 },
        { value: 'default-scheduler', count: 20 },
      ],
    },
  ],
  ranges: [
    { field: 'lastTimestamp', from: '2025-09-11T15:07:12Z', to: '2025-09-11T15:54:39Z' },
    { field: 'count', from: '1', to: '97', median: '1' },
  ],
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
      '[trimmed: 420/6655 fields kept, 6235 dropped to fit 8000 bytes; records 79/140 named by metadata.name, 2 whole at items[]; every record: involvedObject.namespace=kube-system; by type: Normal 137, Warning 3; by reason: Pulled 60, Created 50, 4 other values 30; by series.count (present in 12): 2 12; by source.component, reportingComponent: kubelet 120, default-scheduler 20; range of lastTimestamp: 2025-09-11T15:07:12Z to 2025-09-11T15:54:39Z; range of count: 1 to 97, median 1; dropped from every record: metadata.managedFields, source; omitted 58 with type=Normal, 3 with type=Warning; omitted content is UNKNOWN, not absent]',
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

  it('tells a constant field once, as what every record says, apart from the fields dropped', () => {
    const note = disclosureNotes.trimmedRecords({
      kept: 297,
      total: 901,
      unit: 'fields',
      budgetBytes: 3000,
      records: {
        path: 'items[]',
        total: 300,
        named: 148,
        whole: 0,
        constant: [{ field: 'phase', value: 'Running' }],
        droppedFields: ['phase', 'labels'],
      },
    });
    expect(note).toContain('; every record: phase=Running; dropped from every record: labels;');
    expect(note.match(/phase/g)).toHaveLength(1);
    expect(parseRecordCoverage(note)).toEqual({
      path: 'items[]',
      total: 300,
      named: 148,
      whole: 0,
      constant: [{ field: 'phase', value: 'Running' }],
      droppedFields: ['labels'],
    });
  });

  it('tells a field of the item a key names, and none whose name the path could not say', () => {
    const records: RecordCoverage = {
      path: 'items[]',
      total: 40,
      named: 40,
      whole: 0,
      distributions: [
        {
          field: 'status.conditions[type=Ready].status',
          alike: ['status.conditions[type=ContainersReady].status', 'tags[Key=a b].Value'],
          values: [
            { value: 'True', count: 38 },
            { value: 'False', count: 2 },
          ],
        },
        { field: 'tags[Key=x]y].Value', values: [{ value: 'web', count: 40 }] },
        { field: 'tags[Key=team lead].Value', values: [{ value: 'ops', count: 40 }] },
      ],
      ranges: [{ field: 'metadata[key=timestamp].value', from: '2025-03-25', to: '2025-03-26' }],
    };
    const segment = formatRecordCoverage(records);
    expect(segment).toBe(
      '; records 40/40 named, 0 whole at items[]; by status.conditions[type=Ready].status, status.conditions[type=ContainersReady].status: True 38, False 2; range of metadata[key=timestamp].value: 2025-03-25 to 2025-03-26',
    );
    expect(parseRecordCoverage(`[trimmed${segment}]`)).toMatchObject({
      distributions: [
        {
          field: 'status.conditions[type=Ready].status',
          alike: ['status.conditions[type=ContainersReady].status'],
        },
      ],
      ranges: [{ field: 'metadata[key=timestamp].value' }],
    });
  });

  it('tells a path whole or not at all, so that it leads back to one field', () => {
    const annotation = 'metadata.annotations."deployment.kubernetes.io/revision"';
    const tooLong = `spec.${'x'.repeat(130)}`;
    const note = disclosureNotes.trimmedRecords({
      kept: 10,
      total: 90,
      unit: 'fields',
      budgetBytes: 3000,
      records: {
        path: 'items[]',
        total: 30,
        named: 30,
        whole: 0,
        constant: [
          { field: annotation, value: '1' },
          { field: tooLong, value: 'a' },
        ],
        droppedFields: ['metadata.annotations."deployment.kubernetes.io/max-replicas"', tooLong],
        droppedMore: 2,
      },
    });
    expect(note).not.toContain('…');
    expect(parseRecordCoverage(note)).toMatchObject({
      constant: [{ field: annotation, value: '1' }],
      droppedFields: ['metadata.annotations."deployment.kubernetes.io/max-replicas"'],
      droppedMore: 3,
    });
  });

  it('says how much a shortened list left out, and parses without the path', () => {
    const records: RecordCoverage = {
      path: '',
      total: 300,
      named: 17,
      whole: 0,
      constant: [{ field: 'phase', value: 'Running' }],
      droppedMore: 3,
      omitted: [{ count: 280, field: 'phase', value: 'Running' }],
      omittedMore: 3,
    };
    const segment = formatRecordCoverage(records);
    expect(segment).toBe(
      '; records 17/300 named, 0 whole; every record: phase=Running; dropped from every record: +3 more; omitted 280 with phase=Running, +3 more',
    );
    const note = disclosureNotes.severelyReduced({
      keptBytes: 400,
      originalBytes: 11_001,
      records,
    });
    expect(parseRecordCoverage(note)).toEqual(records);
    expect(
      parseRecordCoverage(formatRecordCoverage({ ...records, omitted: [], constant: [] }) + ']'),
    ).toEqual({ path: '', total: 300, named: 17, whole: 0, droppedMore: 3, omittedMore: 3 });
  });

  it('never tells a value other than it is: one holding separators is left untold', () => {
    const records: RecordCoverage = {
      path: 'packages.*',
      total: 900,
      named: 40,
      whole: 0,
      constant: [
        { field: 'engines.node', value: '>=8' },
        { field: 'license', value: 'MIT' },
      ],
      distributions: [
        {
          field: 'selector',
          values: [
            { value: 'app=web,tier!=db', count: 600 },
            { value: 'app', count: 300 },
          ],
        },
      ],
      omitted: [
        { count: 600, field: 'selector', value: 'app=web,tier!=db' },
        { count: 260, field: 'phase', value: 'Running' },
      ],
    };
    const segment = formatRecordCoverage(records);
    expect(segment).toContain('; every record: engines.node, license=MIT;');
    // The value that cannot be told is counted among the others: the counts still add up.
    expect(segment).toContain('; by selector: app 300, 1 other value 600;');
    expect(segment).toContain('omitted 260 with phase=Running, +600 more');
    expect(segment).not.toContain('> 8');
    expect(segment).not.toContain('app web');
    // One whose every value holds separators would tell only how many: it is not told.
    const diffs = formatRecordCoverage({
      ...records,
      distributions: [
        {
          field: 'printDiff',
          values: [
            { value: '@@ -1,3 +1,4 @@\n-a', count: 40 },
            { value: 'x; y', count: 24 },
          ],
        },
      ],
    });
    expect(diffs).not.toContain('by printDiff');
    // A value as long as a module's path is told whole and reads back; one past 96 units is
    // counted among the others, never cut short.
    const module = 'gotest.tools/gotestsum/testjson/internal/parallelfails';
    const long = `${'x'.repeat(90)}/parallel`;
    const packages = formatRecordCoverage({
      ...records,
      omitted: [],
      distributions: [
        {
          field: 'Package',
          values: [
            { value: module, count: 141 },
            { value: long, count: 9 },
          ],
        },
      ],
    });
    expect(packages).toContain(`; by Package: ${module} 141, 1 other value 9`);
    const note = disclosureNotes.trimmedRecords({
      kept: 1,
      total: 2,
      unit: 'fields',
      budgetBytes: 900,
      records: {
        ...records,
        omitted: [],
        distributions: [{ field: 'Package', values: [{ value: module, count: 141 }] }],
      },
    });
    expect(parseRecordCoverage(note)?.distributions?.[0]?.values).toEqual([
      { value: module, count: 141 },
    ]);
  });

  it('tells no aggregate of a list analysed only in part', () => {
    const segment = formatRecordCoverage({ ...example, atLeast: true });
    expect(segment).toBe(
      '; records 79/140+ named by metadata.name, 2 whole at items[]; dropped from every record: metadata.managedFields, source; omitted 58 with type=Normal, 3 with type=Warning',
    );
  });

  it('keeps data from breaking the line or the syntax, and counts that add up', () => {
    fc.assert(
      fc.property(
        fc.string({ maxLength: 80 }),
        fc.string({ maxLength: 80 }),
        fc.array(fc.tuple(fc.string({ maxLength: 20 }), fc.integer({ min: 1, max: 500 })), {
          maxLength: 6,
        }),
        fc.nat(1000),
        (field, value, entries, count) => {
          const present = entries.reduce((sum, [, n]) => sum + n, 0);
          const records: RecordCoverage = {
            path: field,
            total: count + 1,
            named: count,
            namedBy: field,
            whole: 0,
            droppedFields: [`d${field}`, `e${value}`],
            droppedMore: count,
            omitted: [{ count, field, value }],
            omittedMore: count + 1,
            constant: [{ field: `c${field}`, value }],
            distributions: [
              {
                field,
                alike: [value],
                present,
                values: entries.map(([v, n]) => ({ value: v, count: n })),
              },
            ],
            ranges: [{ field, from: value, to: value, median: value }],
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
          expect(parsed.total).toBe(count + 1);
          // A path is told as it is, or not at all and counted among the fields not listed.
          const tellable = (path: string) => path !== '' && !/[\s,;=[\]]/.test(path);
          for (const dropped of parsed.droppedFields ?? []) {
            expect([`d${field}`, `e${value}`]).toContain(dropped);
          }
          expect((parsed.droppedFields?.length ?? 0) + (parsed.droppedMore ?? 0)).toBe(count + 2);
          // A value is told as it is (or cut short with a visible …), or not at all.
          const asIs = (told: string) =>
            told === value || (told.endsWith('…') && value.startsWith(told.slice(0, -1)));
          if (tellable(`c${field}`)) expect(parsed.constant).toHaveLength(1);
          for (const told of parsed.constant ?? []) {
            expect(told.field).toBe(`c${field}`);
            if (told.value !== '') expect(asIs(told.value)).toBe(true);
          }
          if (parsed.omitted) {
            expect(parsed.omitted).toHaveLength(1);
            expect(parsed.omitted[0]!.count).toBe(count);
            expect(asIs(parsed.omitted[0]!.value)).toBe(true);
            expect(parsed.omittedMore).toBe(count + 1);
          } else {
            expect(parsed.omittedMore).toBe(2 * count + 1);
          }
          // A distribution, when told, is told whole: its counts add up to the records with
          // the field, and every value told is one of the values, as it is.
          for (const distribution of parsed.distributions ?? []) {
            expect(distribution.field).toBe(field);
            // A field told alike is told as it is, or left out.
            for (const other of distribution.alike ?? []) expect(other).toBe(value);
            const sum =
              distribution.values.reduce((s, entry) => s + entry.count, 0) +
              (distribution.otherCount ?? 0);
            expect(sum).toBe(present);
            for (const entry of distribution.values) {
              expect(entries.some(([v, n]) => v === entry.value && n === entry.count)).toBe(true);
            }
          }
          for (const range of parsed.ranges ?? []) {
            expect([range.field, range.from, range.to, range.median]).toEqual([
              field,
              value,
              value,
              value,
            ]);
          }
        },
      ),
      { numRuns: 500 },
    );
  });
});
