import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { scanJson } from '../json/json-inventory.js';
import { analyzeRecords } from './analyze-records.js';
import { recencyAsk, recordsByTime, timeField } from './recency.js';
import { timeOrderKey } from './time-order-key.js';

/** A list of records with a time of one form each (ties, gaps and nulls among them), maybe in order. */
const timedList = fc
  .tuple(
    fc.constantFrom('iso', 'epoch', 'written'),
    fc.array(fc.option(fc.integer({ min: 0, max: 40 }), { freq: 20 }), {
      minLength: 2,
      maxLength: 60,
    }),
    fc.boolean(),
  )
  .map(([form, times, inOrder]) => {
    const ordered = inOrder ? [...times].sort((a, b) => (a ?? -1) - (b ?? -1)) : times;
    return JSON.stringify({
      items: ordered.map((t, i) => ({
        name: `job-${i}`,
        at:
          t === null
            ? null
            : form === 'iso'
              ? new Date(Date.UTC(2026, 0, 1, 0, t)).toISOString()
              : form === 'epoch'
                ? 1_767_225_600 + 60 * t
                : new Date(Date.UTC(2026, 0, 1, 0, t)).toUTCString(),
      })),
    });
  });

describe('recordsByTime', () => {
  it('orders records by time, by value or as text, ties in document order (property)', () => {
    fc.assert(
      fc.property(timedList, (text) => {
        const inventory = scanJson(text, 100_000)!;
        const analysis = analyzeRecords(inventory);
        expect(analysis.main).toBeGreaterThanOrEqual(0);
        const group = analysis.groups[analysis.main]!;
        const s = timeField(analysis, group);
        // Mostly nulls make no time field.
        fc.pre(s >= 0);
        const timed = recordsByTime(inventory, analysis, group, s);
        const byValue = timed.every(({ time }) => !Number.isNaN(timeOrderKey(time)));
        const expected = [...timed]
          .sort((a, b) => a.record - b.record)
          .sort((a, b) =>
            byValue
              ? timeOrderKey(a.time) - timeOrderKey(b.time)
              : a.time < b.time
                ? -1
                : a.time > b.time
                  ? 1
                  : 0,
          );
        expect(timed).toEqual(expected);
        expect(timed.length).toBe(
          JSON.parse(text).items.filter((r: { at: unknown }) => r.at !== null).length,
        );
      }),
      { numRuns: 300 },
    );
  });

  it('orders a time field that holds an object in one record as text, the object last', () => {
    const text = JSON.stringify({
      items: [
        { name: 'a', at: '2026-01-01T00:00:00Z' },
        { name: 'b', at: { when: '2026-01-01T00:01:00Z' } },
        { name: 'c', at: '2026-01-01T00:02:00Z' },
      ],
    });
    const inventory = scanJson(text, 100_000)!;
    const analysis = analyzeRecords(inventory);
    const group = analysis.groups[analysis.main]!;
    // The `at` member of the first record.
    const first = group.records[0]!;
    let at = first + 1;
    while (text.slice(inventory.keyStart[at]!, inventory.keyEnd[at]!) !== '"at"') {
      at = inventory.next[at]!;
    }
    const timed = recordsByTime(inventory, analysis, group, analysis.signatures.of[at]!);
    expect(timed.map(({ time }) => time.slice(0, 8))).toEqual(['2026-01-', '2026-01-', '{"when":']);
  });
});

describe('timeOrderKey', () => {
  it('reads epoch seconds with a fraction of any length by value', () => {
    // A logger writes seconds as a float: digits after the point vary from line to line.
    const times = ['1669575482.0968924', '1669574919.1999', '1669574894.2211716', '1669575000'];
    const keys = times.map(timeOrderKey);
    expect(keys.every(Number.isFinite)).toBe(true);
    expect([...times].sort((a, b) => timeOrderKey(a) - timeOrderKey(b))).toEqual([
      '1669574894.2211716',
      '1669574919.1999',
      '1669575000',
      '1669575482.0968924',
    ]);
  });
});

describe('recencyAsk', () => {
  it('reads a window between two epoch times, in seconds with a fraction too', () => {
    expect(recencyAsk(['between', '1669574951', 'and', '1669574953'])).toEqual({
      from: '1669574951',
      to: '1669574953',
    });
    expect(recencyAsk(['between', '1669574953.6475832', 'and', '1669574951.63288'])).toEqual({
      from: '1669574951.63288',
      to: '1669574953.6475832',
    });
  });
});
