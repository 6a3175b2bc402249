import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { binaryBuilt, runBinary } from '../test-support/run-binary.js';

const log = Array.from(
  { length: 500 },
  (_, i) => `line ${i}: ${i === 321 ? 'FATAL kaboom' : 'ok'}`,
).join('\n');

describe.skipIf(!binaryBuilt())('compaction store and read (built binary)', () => {
  it('stores a result, then reads it back page by page by lines and by chars', () => {
    const dir = mkdtempSync(join(tmpdir(), 'compaction-store-'));
    writeFileSync(join(dir, 'build.log'), log);
    const stored = runBinary(
      ['store', '--session', 'run-9.jsonl', '--id', 'call_1', '--tool', 'terminal', 'build.log'],
      { cwd: dir },
    );
    expect(stored.status).toBe(0);
    const meta = JSON.parse(stored.stdout);
    expect(meta).toMatchObject({
      file: 'call_1.txt',
      bytes: Buffer.byteLength(log),
      chars: log.length,
    });

    const page = runBinary(
      ['read', meta.id, '--session', 'run-9.jsonl', '--offset', '321', '--limit', '2'],
      { cwd: dir },
    );
    expect(page.status).toBe(0);
    expect(page.stdout).toBe('line 321: FATAL kaboom\nline 322: ok\n');
    expect(page.stderr).toBe('next offset 323\n');

    const chars = runBinary(
      ['read', meta.id, '--session', 'run-9.jsonl', '--chars', '--offset', '5', '--limit', '4'],
      { cwd: dir },
    );
    expect(chars.stdout).toBe('0: o');

    const end = runBinary(['read', meta.id, '--session', 'run-9.jsonl', '--offset', '499'], {
      cwd: dir,
    });
    expect(end.stdout).toBe('line 499: ok');
    expect(end.stderr).toBe('end\n');

    const json = runBinary(
      ['read', meta.id, '--session', 'run-9.jsonl', '--offset', '321', '--limit', '1', '--json'],
      {
        cwd: dir,
      },
    );
    expect(json.stderr).toBe('');
    expect(JSON.parse(json.stdout)).toMatchObject({
      id: meta.id,
      unit: 'lines',
      offset: 321,
      count: 1,
      text: 'line 321: FATAL kaboom\n',
      nextOffset: 322,
    });
  });

  it('refuses traversal ids and unknown artifacts with one line and exit 1', () => {
    const dir = mkdtempSync(join(tmpdir(), 'compaction-read-'));
    for (const id of ['../run-9.jsonl', '..', 'a/b']) {
      const result = runBinary(['read', id, '--session', 'run-9.jsonl'], { cwd: dir });
      expect(result.status).toBe(1);
      expect(result.stderr).toMatch(/^compaction read: Invalid artifact id/);
    }
    const missing = runBinary(
      ['read', 'art_000000000000000000000000', '--session', 'run-9.jsonl'],
      { cwd: dir },
    );
    expect(missing.stderr).toBe('compaction read: No artifact art_000000000000000000000000\n');
    expect(runBinary(['store', '-'], { input: 'x' }).status).toBe(2);
    expect(
      runBinary(['store', '--session', 's.jsonl', '--id', '../evil', '-'], { input: 'x', cwd: dir })
        .status,
    ).toBe(1);
  });
});
