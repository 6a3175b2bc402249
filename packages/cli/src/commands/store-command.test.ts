import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ARTIFACT_INDEX_FILE } from '@compaction/artifacts/internal';
import {
  type ArtifactFault,
  type ArtifactFileOperation,
  createFaultyArtifactFileSystem,
} from '@compaction/artifacts/test';
import { describe, expect, it } from 'vitest';
import { runCli } from '../run-cli.js';
import { createMemoryIo } from '../test-support/memory-io.js';
import { binaryBuilt, runBinary } from '../test-support/run-binary.js';

const log = Array.from(
  { length: 500 },
  (_, i) => `line ${i + 1}: ${i + 1 === 321 ? 'FATAL kaboom' : 'ok'}`,
).join('\n');

describe.skipIf(!binaryBuilt())('compaction store and read (built binary)', () => {
  it('stores a result, then reads it back by 1-based lines, from the end and as JSON', () => {
    const dir = mkdtempSync(join(tmpdir(), 'compaction-store-'));
    writeFileSync(join(dir, 'build.log'), log);
    const stored = runBinary(
      ['store', '--session', 'run-9.jsonl', '--id', 'call_1', '--tool', 'terminal', 'build.log'],
      { cwd: dir },
    );
    expect(stored.status).toBe(0);
    const meta = JSON.parse(stored.stdout);
    expect(meta).toMatchObject({
      file: expect.stringMatching(/^call_1-[0-9a-f]{16}\.txt$/),
      bytes: Buffer.byteLength(log),
      chars: log.length,
      lines: 500,
    });

    const page = runBinary(
      ['read', meta.id, '--session', 'run-9.jsonl', '--offset', '321', '--limit', '2'],
      { cwd: dir },
    );
    expect(page.status).toBe(0);
    expect(page.stdout).toBe('line 321: FATAL kaboom\nline 322: ok\n');
    expect(page.stderr).toContain('lines 321-322 of 500; next: offset=323');

    const tail = runBinary(['read', 'call_1', '--session', 'run-9.jsonl', '--tail', '1'], {
      cwd: dir,
    });
    expect(tail.stdout).toBe('line 500: ok');
    expect(tail.stderr).toContain('end of artifact');

    // The file name the excerpt marker would name is accepted too.
    const byFile = runBinary(['read', meta.file, '--dir', '.', '--offset=-2', '--limit', '1'], {
      cwd: dir,
    });
    expect(byFile.stdout).toBe('line 499: ok\n');
    // A negative offset may also follow as its own argument.
    const spaced = runBinary(['read', meta.file, '--dir', '.', '--offset', '-2', '--limit', '1'], {
      cwd: dir,
    });
    expect(spaced).toEqual(byFile);

    const json = runBinary(
      ['read', meta.id, '--session', 'run-9.jsonl', '--offset', '321', '--limit', '1', '--json'],
      { cwd: dir },
    );
    expect(json.stderr).toBe('');
    expect(JSON.parse(json.stdout)).toMatchObject({
      id: meta.id,
      line: 321,
      count: 1,
      totalLines: 500,
      text: 'line 321: FATAL kaboom\n',
      next: { line: 322, column: 1 },
    });
  });

  it('keeps both results stored under a reused id (issue 13, item 2)', () => {
    const dir = mkdtempSync(join(tmpdir(), 'compaction-store-'));
    writeFileSync(join(dir, 'a.txt'), 'first\n');
    writeFileSync(join(dir, 'b.txt'), 'second\n');
    const a = JSON.parse(
      runBinary(['store', '--session', 's.jsonl', '--id', 'call_0', 'a.txt'], { cwd: dir }).stdout,
    );
    const b = JSON.parse(
      runBinary(['store', '--session', 's.jsonl', '--id', 'call_0', 'b.txt'], { cwd: dir }).stdout,
    );
    expect(a.file).not.toBe(b.file);
    expect(runBinary(['read', a.id, '--session', 's.jsonl'], { cwd: dir }).stdout).toBe('first\n');
    expect(runBinary(['read', b.id, '--session', 's.jsonl'], { cwd: dir }).stdout).toBe('second\n');
    const ambiguous = runBinary(['read', 'call_0', '--session', 's.jsonl'], { cwd: dir });
    expect(ambiguous.status).toBe(1);
    expect(ambiguous.stderr).toContain('names 2 artifacts');
  });

  it('refuses unknown artifacts with one line and exit 1, and stores any id', () => {
    const dir = mkdtempSync(join(tmpdir(), 'compaction-read-'));
    for (const id of ['../run-9.jsonl', '..', 'a/b', 'art_000000000000000000000000']) {
      const result = runBinary(['read', id, '--session', 'run-9.jsonl'], { cwd: dir });
      expect(result.status, id).toBe(1);
      expect(result.stderr).toMatch(/^compaction read: No (artifact|session)/);
    }
    expect(runBinary(['store', '-'], { input: 'x' }).status).toBe(2);
    expect(runBinary(['read', 'x'], { cwd: dir }).status).toBe(2);
    const odd = runBinary(['store', '--session', 's.jsonl', '--id', '../evil', '-'], {
      input: 'x',
      cwd: dir,
    });
    expect(odd.status).toBe(0);
    expect(JSON.parse(odd.stdout).file).toMatch(/^evil-[0-9a-f]{16}\.txt$/);
  });
});

describe('compaction store when the index entry cannot be recorded (issue 43, item 8)', () => {
  const faults: [ArtifactFileOperation, ArtifactFault][] = [
    ['append', { shortWrite: 30 }],
    ['append', { shortWrite: 30, code: 'ENOSPC' }],
    ['openForAppend', { code: 'ENOSPC' }],
    ['openForAppend', { code: 'EACCES' }],
  ];
  for (const [operation, fault] of faults) {
    it(`says so, exits 1 and prints no id; the bytes read back by file name (${operation} ${JSON.stringify(fault)})`, async () => {
      const dir = mkdtempSync(join(tmpdir(), 'compaction-store-'));
      const { io, stdout, stderr } = createMemoryIo({ stdin: log, cwd: dir });
      io.fileSystem = createFaultyArtifactFileSystem({
        fault: (op, path) =>
          op === operation && path.endsWith(ARTIFACT_INDEX_FILE) ? fault : undefined,
      });
      expect(await runCli(['store', '--session', 'run.jsonl', '--id', 'call_1', '-'], io)).toBe(1);
      expect(stdout()).toBe('');
      const message = stderr();
      expect(message).toMatch(
        /^compaction store: stored call_1-[0-9a-f]{16}\.txt but could not record it in the index/,
      );
      expect(message).toContain('code' in fault ? fault.code : 'short write, 30 of');
      const file = /(call_1-[0-9a-f]{16}\.txt)/.exec(message)![1]!;
      const read = createMemoryIo({ cwd: dir });
      expect(
        await runCli(['read', file, '--session', 'run.jsonl', '--limit', '1000'], read.io),
      ).toBe(0);
      expect(read.stdout()).toBe(log);
    });
  }
});
