import { EXHAUSTIVE } from '@compaction/test-runtime';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { createStopCheck, STOP_POLL_INTERVAL, type StopCheck } from '../engine/stop-check.js';
import { relativeGrowth } from '../test-support/relative-growth.js';
import { lineStarts } from './line-starts.js';
import { ndjsonRecords, RECORD_CAP } from './ndjson-records.js';

const NO_STOP: StopCheck = () => undefined;

function scoresOf(text: string, check: StopCheck = NO_STOP, note = false): Float64Array {
  return ndjsonRecords(text, lineStarts(text, NO_STOP), check, { note, order: note }).scores;
}

/** A deterministic pseudo-random sequence (a linear congruential generator). */
function random(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (Math.imul(state, 1664525) + 1013904223) >>> 0;
    return state / 2 ** 32;
  };
}

const hex = (next: () => number, digits: number) =>
  Array.from({ length: digits }, () => Math.floor(next() * 16).toString(16)).join('');

interface PinoOptions {
  count: number;
  seed?: number;
  /** Overrides per record index. */
  special?: (i: number, record: Record<string, unknown>) => void;
}

/** Pino request logs: every record at level 30, distinct ids, times and URLs. */
function pino({ count, seed = 1, special }: PinoOptions): string {
  const next = random(seed);
  const lines: string[] = [];
  for (let i = 0; i < count; i++) {
    const record: Record<string, unknown> = {
      level: 30,
      time: 1714550400000 + i * 37 + Math.floor(next() * 30),
      pid: 4242,
      hostname: 'api-7f9c',
      reqId: `req-${i + 1}`,
      req: {
        method: next() < 0.8 ? 'GET' : 'POST',
        url: `/orders/${hex(next, 8)}`,
        remoteAddress: `10.0.${Math.floor(next() * 256)}.${Math.floor(next() * 256)}`,
      },
      res: { statusCode: 200 },
      responseTime: 10 + Math.floor(next() * 41),
      msg: 'request completed',
    };
    special?.(i, record);
    lines.push(JSON.stringify(record));
  }
  return `${lines.join('\n')}\n`;
}

function argmax(scores: Float64Array): number {
  let best = 0;
  for (let i = 1; i < scores.length; i++) if (scores[i]! > scores[best]!) best = i;
  return best;
}

function expectWellFormed(scores: Float64Array, units: number) {
  expect(scores.length).toBe(units);
  for (const score of scores) {
    expect(Number.isFinite(score)).toBe(true);
    expect(score).toBeGreaterThanOrEqual(0);
    expect(score).toBeLessThanOrEqual(RECORD_CAP);
  }
}

describe('ndjsonRecords', () => {
  it('puts the one failed, slow request of 3000 first, every routine one at 0', () => {
    const failed = 1789;
    const text = pino({
      count: 3000,
      special: (i, record) => {
        if (i !== failed) return;
        record.res = { statusCode: 503 };
        record.responseTime = 7196;
      },
    });
    const scores = scoresOf(text);
    expectWellFormed(scores, 3000);
    expect(argmax(scores)).toBe(failed);
    // A rare value in a dominated field and a number far above the rest, both counted.
    expect(scores[failed]!).toBeGreaterThan(4.5);
    scores.forEach((score, i) => {
      if (i !== failed) expect(score).toBe(0);
    });
    // Lines that are not each whole records (CRLF endings, indented) are the same list.
    expect(scoresOf(text.replaceAll('\n', '\r\n'))).toEqual(scores);
    expect(scoresOf(`  ${text.replaceAll('\n{', '\n  {')}`)).toEqual(scores);
  });

  it('scores a request that is only slow, or only failed, each on its own', () => {
    const text = pino({
      count: 3000,
      seed: 7,
      special: (i, record) => {
        if (i === 100) record.responseTime = 7196;
        if (i === 2000) record.res = { statusCode: 503 };
      },
    });
    const scores = scoresOf(text);
    expect(scores[100]!).toBeGreaterThanOrEqual(2);
    expect(scores[2000]!).toBeGreaterThan(3);
    scores.forEach((score, i) => {
      if (i !== 100 && i !== 2000) expect(score).toBe(0);
    });
  });

  it('scores the record with an `err` object none of the others have', () => {
    const text = pino({
      count: 500,
      seed: 3,
      special: (i, record) => {
        if (i !== 321) return;
        record.err = {
          type: 'Error',
          message: 'connect ECONNREFUSED 10.0.0.5:5432',
          stack: 'Error: connect ECONNREFUSED\n    at TCPConnectWrap.afterConnect',
        };
      },
    });
    const scores = scoresOf(text);
    expect(argmax(scores)).toBe(321);
    expect(scores[321]!).toBeGreaterThan(4);
    scores.forEach((score, i) => {
      if (i !== 321) expect(score).toBe(0);
    });
  });

  it('is not thrown off by a rare level, which the text path judges', () => {
    const text = pino({
      count: 3000,
      seed: 5,
      special: (i, record) => {
        if (i % 1000 === 500) record.level = 50;
        if (i === 2222) record.res = { statusCode: 503 };
      },
    });
    const scores = scoresOf(text);
    expectWellFormed(scores, 3000);
    expect(scores[2222]!).toBeGreaterThan(3);
    for (const i of [500, 1500, 2500]) expect(scores[i]!).toBeGreaterThan(0);
    scores.forEach((score, i) => {
      if (i % 1000 !== 500 && i !== 2222) expect(score).toBe(0);
    });
  });

  it('never finds a record anomalous for its ids, timestamps or URLs', () => {
    const next = random(11);
    const lines = Array.from({ length: 2000 }, (_, i) =>
      JSON.stringify({
        id: i + 1,
        uuid: `${hex(next, 8)}-${hex(next, 4)}-${hex(next, 4)}-${hex(next, 12)}`,
        traceId: hex(next, 32),
        ts: new Date(Date.UTC(2024, 4, 1) + i * 1013).toISOString(),
        epoch: 1714550400 + i,
        url: `https://shop.test/items/${hex(next, 6)}?page=${i}`,
        user: { id: Math.floor(next() * 1e9), name: `user-${hex(next, 5)}` },
        kind: 'view',
      }),
    );
    const scores = scoresOf(lines.join('\n'));
    expect(scores.every((score) => score === 0)).toBe(true);
  });

  it('gives keys that are data (one per address) no rare-key score', () => {
    const lines = Array.from({ length: 1000 }, (_, i) =>
      JSON.stringify({ event: 'hit', counts: { [`10.0.${i >> 8}.${i & 255}`]: 1 + (i % 3) } }),
    );
    const scores = scoresOf(lines.join('\n'));
    expect(scores.every((score) => score === 0)).toBe(true);
  });

  it('does not take a few one-off values in a mostly empty field for failures', () => {
    const text = pino({
      count: 2000,
      seed: 9,
      special: (i, record) => {
        record.parentSpan = i % 50 === 7 ? `span-${i}` : '';
        if (i === 1234) record.res = { statusCode: 503 };
      },
    });
    const scores = scoresOf(text);
    expect(argmax(scores)).toBe(1234);
    // Set on one record in fifty, a field is optional, not one record's oddity.
    scores.forEach((score, i) => {
      if (i !== 1234) expect(score).toBeLessThan(2);
    });
  });

  it('reads an error-like string where few records have one', () => {
    const text = pino({
      count: 400,
      seed: 13,
      special: (i, record) => {
        record.msg = i === 77 ? `upstream timed out after ${i} ms` : `request ${i} completed`;
      },
    });
    const scores = scoresOf(text);
    expect(argmax(scores)).toBe(77);
    expect(scores[77]!).toBeGreaterThanOrEqual(2.5);
    scores.forEach((score, i) => {
      if (i !== 77) expect(score).toBe(0);
    });
  });

  it('survives what is not NDJSON: junk, blank lines, a BOM, CRLF, deep nesting, huge lines', () => {
    const routine = (i: number) => JSON.stringify({ level: 30, status: 200, n: 10 + (i % 7) });
    const lines: string[] = [];
    for (let i = 0; i < 300; i++) lines.push(routine(i));
    lines[0] = `\ufeff${lines[0]}`;
    lines[10] = '';
    lines[11] = '   ';
    lines[12] = '{"level":30,"status":';
    lines[13] = 'not json at all';
    lines[25] = '{"level":30,,"status":200}';
    lines[26] = '[{"level":30}}';
    lines[14] = '[1,2,3]';
    lines[15] = '"a string"';
    lines[16] = `${'['.repeat(100_000)}${']'.repeat(100_000)}`;
    lines[17] = `{"a":${'['.repeat(30_000)}${']'.repeat(30_000)}}`;
    lines[18] = `{"blob":"${'x'.repeat(2_000_000)}"}`;
    lines[19] = `{${Array.from({ length: 3000 }, (_, k) => `"k${k}":${k}`).join(',')}}`;
    lines[20] = '{"__proto__":{"polluted":true},"constructor":{"prototype":{"x":1}},"status":200}';
    lines[21] = '{"level":30,"status":500,"n":1e400}';
    lines[22] = '{"level":30,"status":200,"n":-1e300}';
    lines[23] = '{"level":30,"status":200,"n":123456789012345678901234567890}';
    lines[24] = `{"${'k'.repeat(70_000)}":1}`;
    const text = `${lines.join('\r\n')}\r\n`;
    const started = Date.now();
    const scores = scoresOf(text);
    expect(Date.now() - started).toBeLessThan(5000);
    expectWellFormed(scores, lineStarts(text, NO_STOP).length);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    expect(scores[21]!).toBeGreaterThan(0);
    for (const i of [10, 11, 12, 13, 15, 16, 18, 24, 25, 26]) expect(scores[i]).toBe(0);
  });

  it('treats a `__proto__` key as any other key', () => {
    const lines = Array.from({ length: 200 }, (_, i) =>
      i === 42
        ? '{"status":200,"__proto__":{"reason":"connection refused"}}'
        : JSON.stringify({ status: 200, seq: i }),
    );
    const scores = scoresOf(lines.join('\n'));
    expect(argmax(scores)).toBe(42);
    expect(({} as Record<string, unknown>).reason).toBeUndefined();
  });

  it('gives nothing for too few records, an empty text or no starts', () => {
    expect(scoresOf('').length).toBe(1);
    expect(ndjsonRecords('', [], NO_STOP).scores.length).toBe(0);
    const few = ['{"s":200}', '{"s":200}', '{"s":503}'].join('\n');
    expect([...scoresOf(few)]).toEqual([0, 0, 0]);
  });

  it('is well formed and deterministic on any lines', () => {
    const line = fc.oneof(
      fc.json({ maxDepth: 3 }),
      fc.jsonValue({ maxDepth: 2 }).map((value) => JSON.stringify({ v: value, s: 200 })),
      fc
        .record({ s: fc.constantFrom(200, 200, 200, 503), t: fc.nat(100_000) })
        .map((record) => JSON.stringify(record)),
      fc.string({ maxLength: 40 }),
      fc.constant(''),
    );
    fc.assert(
      fc.property(
        fc.array(line, { maxLength: 120 }),
        fc.constantFrom('\n', '\r\n'),
        (lines, newline) => {
          const text = lines.join(newline);
          const starts = lineStarts(text, NO_STOP);
          const first = ndjsonRecords(text, starts, NO_STOP).scores;
          expectWellFormed(first, starts.length);
          expect([...ndjsonRecords(text, starts, NO_STOP).scores]).toEqual([...first]);
          // Reading them for the note too judges the records alike, and counts only records.
          const forNote = ndjsonRecords(text, starts, NO_STOP, { note: true, order: true });
          expect([...forNote.scores]).toEqual([...first]);
          if (forNote.head) {
            let records = 0;
            for (const flag of forNote.isRecord) records += flag;
            expect(forNote.head.total).toBe(records);
          }
        },
      ),
      { numRuns: 300 },
    );
  });

  it('hears the work it does and can be stopped', () => {
    const text = pino({ count: 2000 });
    let reported = 0;
    scoresOf(text, (work) => {
      reported += work;
    });
    expect(reported).toBeGreaterThanOrEqual(text.length);
    expect(reported).toBeLessThan(4 * text.length);
    let polls = 0;
    const stopping = createStopCheck(() => ++polls > 2, 4096);
    expect(() => scoresOf(text, stopping)).toThrow('asked to stop');
  });
});

// Linear in its input, whatever its shape: the work reported to the stop check, and the growth
// of its time against a linear reference pass, from one size to 8 times that (as in
// text-path-complexity.test.ts).
const SMALL = 1 << 18;
const GROWTH = 8;
const BOUND = 3.5;

function fillLines(make: (i: number) => string, length: number): string {
  const lines: string[] = [];
  let size = 0;
  for (let i = 0; size < length; i++) {
    const line = make(i);
    lines.push(line);
    size += line.length + 1;
  }
  return `${lines.join('\n')}\n`;
}

const FAMILIES: Array<[string, (length: number) => string]> = [
  ['pino request logs', (n) => pino({ count: Math.ceil(n / 220) })],
  [
    'keys that are data',
    (n) => fillLines((i) => JSON.stringify({ [`k${i}`]: i, [`v${i}`]: 'x' }), n),
  ],
  [
    'distinct values everywhere',
    (n) => fillLines((i) => JSON.stringify({ a: `v${i}`, b: i * 7.5 }), n),
  ],
  [
    'wide records',
    (n) =>
      fillLines(
        (i) =>
          JSON.stringify(
            Object.fromEntries(Array.from({ length: 300 }, (_, k) => [`f${(k * 7 + i) % 900}`, k])),
          ),
        n,
      ),
  ],
  ['deep records', (n) => fillLines((i) => `${'{"a":'.repeat(500)}${i}${'}'.repeat(500)}`, n)],
  [
    'long arrays',
    (n) =>
      fillLines(
        (i) => JSON.stringify({ xs: Array.from({ length: 2000 }, (_, k) => (k * i) % 97) }),
        n,
      ),
  ],
  ['lines that do not parse', (n) => fillLines((i) => `{"a":${i},"b":[`, n)],
  ['lines that parse but fail late', (n) => fillLines((i) => `{"a":${i},"b":[1,2,}`, n)],
  ['one long line', (n) => `{"s":"${'x'.repeat(n)}"}\n`],
];

function polls(text: string): number {
  let count = 0;
  const check = createStopCheck(() => {
    count++;
    return false;
  }, STOP_POLL_INTERVAL);
  scoresOf(text, check, true);
  return count;
}

function reference(text: string): number {
  let sum = 0;
  for (let i = 0; i < text.length; i++) sum += text.charCodeAt(i);
  return sum + text.split('\n').length;
}

describe('ndjsonRecords is linear on every shape', () => {
  it.each(FAMILIES)('%s: work reported grows as the input does', (_, make) => {
    const small = make(SMALL);
    const large = make(SMALL * GROWTH);
    expect(polls(large)).toBeLessThanOrEqual(polls(small) * GROWTH * 1.25 + 2);
  });

  // Wall-clock growth depends on what else the machine runs: `pnpm fuzz` runs it; in `pnpm test`
  // the work count above is the proof.
  it.runIf(EXHAUSTIVE).each(FAMILIES)(
    '%s: time grows as a linear reference pass does (wall clock: pnpm fuzz only)',
    (name, make) => {
      const small = make(SMALL);
      const large = make(SMALL * GROWTH);
      const relative = relativeGrowth(
        (text) => scoresOf(text, NO_STOP, true),
        reference,
        small,
        large,
        BOUND,
      );
      if (process.env.COMPLEXITY_DEBUG) console.log(name, relative.toFixed(2));
      expect(relative).toBeLessThan(BOUND);
    },
    180_000,
  );
});
