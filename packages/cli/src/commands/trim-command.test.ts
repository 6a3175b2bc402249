import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { stripDisclosureNotes, trailingDisclosureNotes } from '@compaction/core';
import { describe, expect, it } from 'vitest';
import { binaryBuilt, runBinary } from '../test-support/run-binary.js';

const records = Array.from({ length: 3000 }, (_, i) => ({
  id: `job-${i}`,
  state: i === 2222 ? 'failed: out of memory' : 'done',
  detail: 'x'.repeat(40),
}));
const input = JSON.stringify(records, null, 2);

describe.skipIf(!binaryBuilt())('compaction trim (built binary)', () => {
  it('prints exactly the view on stdout, within the budget, with one note', () => {
    const { status, stdout, stderr } = runBinary(
      ['trim', '--budget', '8192', '--query', 'job-2222', '-'],
      {
        input,
      },
    );
    expect(status).toBe(0);
    expect(stderr).toBe('');
    expect(Buffer.byteLength(stdout)).toBeLessThanOrEqual(8192);
    expect(trailingDisclosureNotes(stdout)).toHaveLength(1);
    const body = JSON.parse(stripDisclosureNotes(stdout)) as Array<{ id: string; state: string }>;
    expect(body.find((item) => item.id === 'job-2222')?.state).toBe('failed: out of memory');
  });

  it('reads a FILE argument and prints {text, metadata} with --json', () => {
    const dir = mkdtempSync(join(tmpdir(), 'compaction-trim-'));
    const file = join(dir, 'result.json');
    writeFileSync(file, input);
    const { status, stdout } = runBinary(['trim', '--budget', '4096', '--json', file]);
    expect(status).toBe(0);
    const parsed = JSON.parse(stdout) as { text: string; metadata: Record<string, unknown> };
    expect(Object.keys(parsed)).toEqual(['text', 'metadata']);
    expect(parsed.metadata).toMatchObject({ contentLost: true, strategy: 'json' });
    expect(Buffer.byteLength(parsed.text)).toBeLessThanOrEqual(4096);
  });

  it('defaults the budget to trim.maxTotalBytes from the environment', () => {
    const big = JSON.stringify(records.slice(0, 2000));
    const defaulted = runBinary(['trim', '--json'], { input: big });
    expect(JSON.parse(defaulted.stdout).metadata.outputBytes).toBe(Buffer.byteLength(big));
    const fromEnv = runBinary(['trim', '--json'], {
      input: big,
      env: { COMPACTION_RESULT_TRIM_MAX_TOTAL_BYTES: '10000' },
    });
    const metadata = JSON.parse(fromEnv.stdout).metadata;
    expect(metadata.contentLost).toBe(true);
    expect(metadata.outputBytes).toBeLessThanOrEqual(10_000);
  });

  it('minifies pretty JSON that fits once minified, with no note', () => {
    const pretty = JSON.stringify({ id: 1, tags: ['a', 'b'] }, null, 4).replace(
      '1',
      '12345678901234567890',
    );
    const { status, stdout } = runBinary(['trim', '--budget', '45'], { input: pretty });
    expect(status).toBe(0);
    expect(stdout).toBe('{"id":12345678901234567890,"tags":["a","b"]}');
  });

  it('trims text line by line, keeping the asked line and the tail', () => {
    const log = Array.from({ length: 2000 }, (_, i) => `line ${i} ok`).join('\n');
    const { stdout } = runBinary(['trim', '--budget', '600', '--task', 'find line 1500'], {
      input: log,
    });
    expect(stdout).toContain('line 1500 ok');
    expect(stdout).toContain('line 1999 ok');
    expect(trailingDisclosureNotes(stdout)[0]?.kind).toBe('severely-reduced');
  });

  it('favours --preserve-keys: preserved fields come first in partly kept objects', () => {
    const rows = JSON.stringify(
      Array.from({ length: 60 }, (_, i) => ({ blob: 'b'.repeat(300), seq: i, TraceId: `t-${i}` })),
    );
    const { stdout } = runBinary(['trim', '--budget', '1500', '--preserve-keys', 'traceid'], {
      input: rows,
    });
    const body = JSON.parse(stripDisclosureNotes(stdout)) as Array<Record<string, unknown>>;
    const partial = body.filter((row) => Object.keys(row).length < 3);
    expect(partial.some((row) => 'TraceId' in row)).toBe(true);
    for (const row of partial) if ('TraceId' in row) expect(Object.keys(row)[0]).toBe('TraceId');
  });

  it('exits 2 on a budget below the minimum or a bad flag', () => {
    const small = runBinary(['trim', '--budget', '100'], { input });
    expect(small.status).toBe(2);
    expect(small.stdout).toBe('');
    expect(small.stderr).toContain('below the minimum of 256 bytes');
    expect(runBinary(['trim', '--budget', 'lots'], { input }).status).toBe(2);
    expect(runBinary(['trim', '--bogus'], { input }).status).toBe(2);
  });
});
