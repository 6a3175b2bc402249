import { parseRecordCoverage, trailingDisclosureNotes } from '@compaction/core';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { createStructuralTrimmer } from '../create-structural-trimmer.js';

/** The steps of a note's path: plain keys split at dots, `"…"` keys read as JSON strings. */
function steps(path: string): string[] {
  const out: string[] = [];
  let i = 0;
  while (i < path.length) {
    if (path[i] === '.') i++;
    if (path[i] === '"') {
      let end = i + 1;
      while (path[end] !== '"') end += path[end] === '\\' ? 2 : 1;
      out.push(JSON.parse(path.slice(i, end + 1)) as string);
      i = end + 1;
    } else {
      let end = i;
      while (end < path.length && path[end] !== '.' && path[end] !== '[') end++;
      out.push(path.slice(i, end));
      i = end;
    }
    // A list of one stands for its value (`"span.id": ["a1"]` is told as `"span.id"`).
    while (path.startsWith('[]', i)) i += 2;
  }
  return out;
}

/** The value at `path` in `record`, unwrapping lists of one, or `undefined`. */
function resolve(record: unknown, path: string): unknown {
  let value = record;
  for (const key of steps(path)) {
    if (Array.isArray(value) && value.length === 1) value = value[0];
    if (value === null || typeof value !== 'object' || !Object.hasOwn(value, key)) return undefined;
    value = (value as Record<string, unknown>)[key];
  }
  return Array.isArray(value) && value.length === 1 ? value[0] : value;
}

const written = (value: unknown) => (typeof value === 'string' ? value : JSON.stringify(value));

describe('the paths a note tells', () => {
  it('tell a key holding dots, quotes or spaces apart from nested keys, and resolve', () => {
    const keys = ['span.id', 'span', 'a b', 'say "hi"', '', '*', 'x[]', 'app.kubernetes.io/name'];
    fc.assert(
      fc.property(
        fc.array(fc.constantFrom(...keys), { minLength: 1, maxLength: 4 }),
        fc.integer({ min: 12, max: 60 }),
        (picked, n) => {
          const records = Array.from({ length: n }, (_, i) => {
            const record: Record<string, unknown> = {
              name: `record-${i}`,
              span: { id: `nested-${i}` },
            };
            for (const [k, key] of picked.entries()) record[key] = `${k}-${i % 3}`;
            record['span.id'] = [`flat-${i % 2}`];
            record.filler = 'x'.repeat(80);
            return record;
          });
          const json = JSON.stringify({ items: records });
          const view = createStructuralTrimmer().trim(json, Math.floor(json.length / 3));
          const note = parseRecordCoverage(trailingDisclosureNotes(view.text)[0]!.text)!;
          expect(note).toBeDefined();
          let told = 0;
          for (const { field, value } of note.constant ?? []) {
            for (const record of records) expect(written(resolve(record, field))).toBe(value);
          }
          for (const distribution of note.distributions ?? []) {
            for (const field of [distribution.field, ...(distribution.alike ?? [])]) {
              const counts = new Map<string, number>();
              for (const record of records) {
                const value = resolve(record, field);
                if (value !== undefined)
                  counts.set(written(value), (counts.get(written(value)) ?? 0) + 1);
              }
              for (const { value, count } of distribution.values) {
                expect(counts.get(value), `${field} ${value}`).toBe(count);
                told++;
              }
            }
          }
          expect(told).toBeGreaterThan(0);
        },
      ),
      { numRuns: 40 },
    );
  });
});
