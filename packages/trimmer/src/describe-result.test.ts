import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { describeResult } from './describe-result.js';

describe('describeResult', () => {
  it('names a JSON list by its record count and the fields of its records', () => {
    const pods = Array.from({ length: 200 }, (_, i) => ({
      name: `pod-${i}`,
      phase: 'Running',
      node: 'n1',
    }));
    expect(describeResult(JSON.stringify(pods))).toBe(
      'JSON array of 200 records {name, phase, node}',
    );
    expect(
      describeResult(JSON.stringify({ kind: 'PodList', items: pods, metadata: { rv: '1' } })),
    ).toBe('JSON object {kind, items, metadata}; 200 records at items {name, phase, node}');
    expect(describeResult(JSON.stringify({ data: { result: pods.slice(0, 3) } }))).toBe(
      'JSON object {data}; 3 records at data.result {name, phase, node}',
    );
    expect(describeResult('[1,2,3]')).toBe('JSON array of 3 values');
    expect(describeResult('"just a string"')).toBe('JSON string of 13 chars');
  });

  it('counts the levels of a log and quotes its last error line', () => {
    const log = [
      '2026-11-30T06:00:00Z INFO request ok',
      '2026-11-30T06:00:01Z WARN slow request',
      '2026-11-30T06:00:02Z ERROR pool exhausted txn=1',
      '2026-11-30T06:00:03Z INFO request ok',
      '2026-11-30T06:00:04Z ERROR pool exhausted txn=2',
      '2026-11-30T06:00:05Z INFO done',
    ].join('\n');
    expect(describeResult(log)).toBe(
      '6 lines; levels: error=2 warn=1 info=3; last error: 2026-11-30T06:00:04Z ERROR pool exhausted txn=2',
    );
  });

  it('names plain text by its lines and its first line', () => {
    expect(describeResult('# Title\n\nSome prose here.\n')).toBe('3 lines; first: # Title');
    expect(describeResult('')).toBe('empty');
  });

  it('is one line of at most 160 characters whatever it reads', () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 3000 }), (text) => {
        const line = describeResult(text);
        expect(line).not.toMatch(/[\r\n\u2028\u2029]/);
        expect(line.length).toBeLessThanOrEqual(160);
      }),
      { numRuns: 300 },
    );
    const wide = JSON.stringify({
      [`k${'x'.repeat(400)}`]: 1,
      ...Object.fromEntries(Array.from({ length: 50 }, (_, i) => [`key${i}`, i])),
    });
    expect(describeResult(wide).length).toBeLessThanOrEqual(160);
    expect(describeResult(`ERROR ${'boom '.repeat(200)}`).length).toBeLessThanOrEqual(160);
  });

  it('does not parse a JSON result too large to hold parsed, and says so', () => {
    // 40 MB of records: parsed, it would hold several times that in memory.
    const record = `{"name":"svc","state":"ok","detail":"${'d'.repeat(200)}"},`;
    const text = `[${record.repeat(Math.ceil((40 << 20) / record.length))}{"name":"last"}]`;
    const line = describeResult(text);
    expect(line).toBe(
      `JSON array of ${text.length} characters (too large to read here for its records)`,
    );
    // Below the limit the same shape is read for its records.
    expect(describeResult(`[${record.repeat(100)}{"name":"last"}]`)).toMatch(
      /^JSON array of 101 records/,
    );
  });
});
