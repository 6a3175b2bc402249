import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { createStructuralTrimmer } from '../create-structural-trimmer.js';
import { lineMeasureOutliers } from './line-measures.js';

const never = () => {};

/** The scores `lineMeasureOutliers` gives `lines`. */
function scores(lines: readonly string[]) {
  const text = lines.join('\n');
  const units = new Uint16Array(text.length);
  for (let i = 0; i < text.length; i++) units[i] = text.charCodeAt(i);
  const bounds: number[] = [];
  let at = 0;
  for (const line of lines) {
    bounds.push(at);
    at += line.length + 1;
  }
  return lineMeasureOutliers(units, bounds, never);
}

/** Rows with a positive score, greatest first. */
function ranked(score: Float64Array | undefined): number[] {
  if (!score) return [];
  return [...score.keys()].filter((r) => score[r]! > 0).sort((a, b) => score[b]! - score[a]!);
}

/** A latency drawn around 2 ms (1 to 4), the same for every seed. */
function latency(i: number): number {
  return 1 + ((i * 7919) % 3000) / 1000;
}

/** A request log, newest first: `took(i)` gives each request's milliseconds. */
function requests(count: number, took: (i: number) => number) {
  return Array.from({ length: count }, (_, i) => {
    const second = 25 - Math.floor((i * 4) / count);
    const micros = String(999_999 - i * 97).padStart(6, '0');
    return `ts=2024-05-02T12:17:${second}.${micros}Z caller=http.go:194 level=debug orgID=${i % 2 ? 3648 : 1218} msg="POST /push.v1.PusherService/Push (200) ${took(i).toFixed(6)}ms"`;
  });
}

describe('lineMeasureOutliers', () => {
  it('scores the greatest of a measure far past its median, atop a tail too long for an outlier', () => {
    // A database's statement durations: most take a fraction of a millisecond, a long tail of
    // writes waits on locks up to 440 ms; the slowest took 470 ms. No value stands out of so
    // long a tail, but the slowest statement is what a reader of the log asks for.
    const lines = Array.from({ length: 600 }, (_, i) => {
      const u = ((i * 7919) % 600) / 600;
      const ms = i === 449 ? 470.688 : Math.exp(Math.log(0.01) + u ** 1.6 * Math.log(44_000));
      return `2017-09-06 08:41:${String(i % 60).padStart(2, '0')} UTC [${36 + (i % 9)}]: LOG:  duration: ${ms.toFixed(3)} ms  statement: SELECT abalance FROM pgbench_accounts;`;
    });
    expect(ranked(scores(lines))[0]).toBe(449);
  });
  it('scores the slowest requests, the slowest most, and the next ones less each', () => {
    const slow = new Map([
      [1234, 137.77],
      [3020, 104.15],
      [77, 59.5],
    ]);
    const lines = requests(5000, (i) => slow.get(i) ?? latency(i));
    const score = scores(lines);
    expect(ranked(score)).toEqual([1234, 3020, 77]);
    expect(score![1234]).toBeGreaterThan(score![3020]! + 0.5);
  });

  it('takes a clock or a counter for no measure, nor a date, a time, a version or an id', () => {
    // An uptime that keeps rising, with a long gap: its last value is not an outlier.
    const uptime = Array.from(
      { length: 300 },
      (_, i) => `uptime ${(i < 290 ? i * 3.5 : 50_000 + i).toFixed(3)} s: tick`,
    );
    expect(scores(uptime)).toBeUndefined();
    // Every line the same but for these, one in a hundred far greater: none is a measure.
    const lines = Array.from({ length: 400 }, (_, i) => {
      const odd = i % 100 === 3;
      const n = odd ? 9000 : 10 + (i % 7);
      return `at 2024-05-${n} 12:${n}:05 version v1.${n}.0 addr 10.0.${n}.1 user u${n} id ${n}f3a -${n} done`;
    });
    expect(scores(lines)).toBeUndefined();
  });

  it('measures a number among the lines that open with the same word, named by the word before it', () => {
    // Suites take far longer than test cases: the slowest case stands out among cases.
    const lines = [
      ...Array.from(
        { length: 60 },
        (_, i) => `<testsuite name="suite${i}" time="${(100 + i).toFixed(3)}">`,
      ),
      ...Array.from(
        { length: 400 },
        (_, i) =>
          `<testcase name="case${i}" time="${i === 123 ? '34.542' : (0.01 * latency(i)).toFixed(3)}"/>`,
      ),
    ];
    expect(ranked(scores(lines))[0]).toBe(60 + 123);
    // A number no word names (`12 34.5`, at the opening of a line) measures nothing.
    const unnamed = Array.from({ length: 100 }, (_, i) => `${i === 9 ? 9000 : latency(i)}`);
    expect(scores(unnamed)).toBeUndefined();
  });

  it('gives every row a finite score of at least 0, on any text (property)', () => {
    const line = fc.oneof(
      fc.string({ unit: 'binary', maxLength: 300 }),
      fc
        .tuple(fc.constantFrom('time=', 'took ', 'x: ', '(ms) '), fc.double({ noNaN: true }))
        .map(([name, x]) => `${name}${x}`),
    );
    fc.assert(
      fc.property(fc.array(line, { minLength: 1, maxLength: 120 }), (lines) => {
        for (const s of scores(lines) ?? []) expect(Number.isFinite(s) && s >= 0).toBe(true);
      }),
    );
  });
});

describe('a view of a log with a slow request', () => {
  it('shows the slowest request among thousands of routine ones', () => {
    const lines = requests(5000, (i) => (i === 2345 ? 137.768472 : latency(i)));
    const text = lines.join('\n');
    const view = createStructuralTrimmer().trim(text, Math.floor(text.length * 0.03)).text;
    expect(view).toContain(' 137.768472ms"');
  });
});
