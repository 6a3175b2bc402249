import { parseRecordCoverage, trailingDisclosureNotes } from '@compaction/core';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { createStructuralTrimmer } from '../create-structural-trimmer.js';
import { scanJson } from '../json/json-inventory.js';
import { jsonSignatures } from '../json/json-signatures.js';
import { expectHonestView, viewBody } from '../test-support/view-invariants.js';
import { tupleTable } from './tuple-records.js';

function tableOf(text: string) {
  const inventory = scanJson(text, 1_000_000)!;
  return tupleTable(inventory, jsonSignatures(inventory));
}

const rows = (count: number) =>
  Array.from({ length: count }, (_, i) => [
    i + 1,
    `user${i}@example.com`,
    i % 9 === 4 ? 'suspended' : 'active',
    (i * 37) % 1000,
  ]);

describe('rows read by position, named by a header', () => {
  it('reads each row as a record of its cells under the header’s names, values as written', () => {
    const text =
      '{"result":{"columns":["id","na\\"me","n"],"rows":[' +
      Array.from({ length: 25 }, (_, i) => `[${i},"a\\u00e9${i}",12345678901234567890${i}]`).join(
        ',',
      ) +
      ']}}';
    const table = tableOf(text)!;
    expect(table.path).toBe('result.rows[]');
    expect(table.keys).toEqual(['result', 'rows']);
    expect(table.rows).toHaveLength(25);
    const first = table.records.slice(0, table.records.indexOf('}') + 1);
    expect(first).toBe('[{"id":0,"na\\"me":"a\\u00e90","n":123456789012345678900}');
    expect(JSON.parse(table.records)).toHaveLength(25);
  });

  it('takes the names from column objects, under the key that tells them apart', () => {
    const columns = [
      { type: 'int', name: 'id' },
      { type: 'text', name: 'email' },
      { type: 'text', name: 'status' },
      { type: 'int', name: 'ms' },
    ];
    const table = tableOf(JSON.stringify({ schema: columns, datarows: rows(30) }))!;
    expect(Object.keys(JSON.parse(table.records)[0])).toEqual(['id', 'email', 'status', 'ms']);
  });

  it('reads no table without a header naming every position apart, or of few or uneven rows', () => {
    const cases = [
      { columns: ['id', 'email', 'status', 'ms'], rows: rows(10) },
      { columns: ['id', 'email', 'status', 'status'], rows: rows(30) },
      { columns: ['id', 'email', 'status'], rows: rows(30) },
      { columns: ['id', 'email', 'status', 'ms'], rows: [...rows(30), [1, 'x', 'y']] },
      // Tables in a list of tables: whose rows would be whose is not read.
      [{ columns: ['id', 'email', 'status', 'ms'], rows: rows(30) }],
      { rows: rows(30) },
    ];
    for (const document of cases) expect(tableOf(JSON.stringify(document))).toBeUndefined();
  });

  it('stays honest whatever the header names and the cells hold (property)', () => {
    const trimmer = createStructuralTrimmer();
    const name = fc.oneof(
      fc.constantFrom('__proto__', 'constructor', 'a.b', 'x"y', '\ud800', 'e\u0301', 'status'),
      fc.string({ minLength: 1, maxLength: 6 }),
    );
    fc.assert(
      fc.property(
        fc.uniqueArray(name, { minLength: 2, maxLength: 4 }),
        fc.integer({ min: 20, max: 80 }),
        fc.array(fc.jsonValue({ maxDepth: 2 }), { minLength: 1, maxLength: 6 }),
        fc.double({ min: 0.02, max: 0.5, noNaN: true }),
        (names, count, pool, share) => {
          const all = Array.from({ length: count }, (_, i) =>
            names.map((_, j) =>
              j === 1 ? ['ok', 'ok', 'bad'][i % 3] : pool[(i + j) % pool.length],
            ),
          );
          const text = JSON.stringify({ columns: names, rows: all });
          const budget = Math.max(512, Math.floor(text.length * share));
          const view = trimmer.trim(text, budget);
          expectHonestView(view, text, budget);
          const note = parseRecordCoverage(trailingDisclosureNotes(view.text)[0]?.text ?? '');
          for (const d of note?.distributions ?? []) {
            const column = names.findIndex(
              (n) => JSON.stringify(n).slice(1, -1) === d.field || n === d.field,
            );
            if (column !== 1) continue;
            for (const { value, count: told } of d.values) {
              expect(all.filter((row) => row[1] === value)).toHaveLength(told);
            }
          }
        },
      ),
      { numRuns: 60 },
    );
  });

  it('shows the row of a rare state, and the newest and the oldest, at a tight budget', () => {
    const trimmer = createStructuralTrimmer();
    const all = Array.from({ length: 400 }, (_, i) => [
      `job-${(i * 7919).toString(36)}`,
      i === 287 ? 'pending' : 'done',
      // Shuffled times: the newest and the oldest are rows in the middle.
      new Date(Date.UTC(2026, 0, 1) + ((i * 173) % 400) * 60_000).toISOString(),
      (i * 37) % 900,
    ]);
    const text = JSON.stringify({ columns: ['job', 'state', 'finished', 'ms'], rows: all });
    const view = trimmer.trim(text, Math.floor(text.length * 0.03));
    const shown = (JSON.parse(viewBody(view)) as { rows: unknown[][] }).rows;
    const times = all.map((row) => row[2] as string).sort();
    expect(shown.some((row) => row[1] === 'pending')).toBe(true);
    expect(shown.some((row) => row[2] === times[0])).toBe(true);
    expect(shown.some((row) => row[2] === times[times.length - 1])).toBe(true);
  });

  it('tells how the rows divide by a column, and how many rows the view shows whole', () => {
    const trimmer = createStructuralTrimmer();
    const all = rows(300);
    const text = JSON.stringify({
      columns: ['id', 'email', 'status', 'ms'],
      rows: all,
      rowCount: 300,
    });
    fc.assert(
      fc.property(fc.double({ min: 0.01, max: 0.6, noNaN: true }), (share) => {
        const budget = Math.max(600, Math.floor(text.length * share));
        const view = trimmer.trim(text, budget);
        expectHonestView(view, text, budget);
        const note = parseRecordCoverage(trailingDisclosureNotes(view.text)[0]!.text);
        expect(note).toBeDefined();
        const shown = (JSON.parse(viewBody(view)) as { rows?: unknown[] }).rows?.length ?? 0;
        expect(note).toMatchObject({ path: 'rows[]', total: 300, named: shown, whole: shown });
        for (const d of note!.distributions ?? []) {
          expect(d.field).toBe('status');
          for (const { value, count } of d.values) {
            expect(all.filter((row) => row[2] === value)).toHaveLength(count);
          }
        }
      }),
      { numRuns: 40 },
    );
    const view = trimmer.trim(text, Math.floor(text.length * 0.05));
    const note = parseRecordCoverage(trailingDisclosureNotes(view.text)[0]!.text)!;
    expect(note.distributions?.[0]).toMatchObject({
      field: 'status',
      values: [
        { value: 'active', count: 267 },
        { value: 'suspended', count: 33 },
      ],
    });
  });
});
