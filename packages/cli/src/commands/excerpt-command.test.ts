import { createHash } from 'node:crypto';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
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

const lines = Array.from({ length: 20_000 }, (_, i) => `row ${i + 1} ✓ e\u0301`).join('\r\n');
const chars = (text: string) =>
  [...new Intl.Segmenter(undefined, { granularity: 'grapheme' }).segment(text)].length;
const sha256 = (data: string | Buffer) => createHash('sha256').update(data).digest('hex');

describe.skipIf(!binaryBuilt())('compaction excerpt (built binary)', () => {
  it('prints a head/tail excerpt within the budget, saying nothing was stored', () => {
    const { status, stdout, stderr } = runBinary(['excerpt', '--budget', '500', '-'], {
      input: lines,
    });
    expect(status).toBe(0);
    expect(stderr).toBe('');
    expect(chars(stdout)).toBeLessThanOrEqual(500);
    expect(stdout.startsWith('row 1 ✓ e\u0301\r\n')).toBe(true);
    expect(stdout.endsWith('row 20000 ✓ e\u0301')).toBe(true);
    expect(stdout).toContain(`full result not stored (no session), sha256 ${sha256(lines)}`);
  });

  it('with --session stores the full bytes beside the transcript and names the file by basename', () => {
    const dir = mkdtempSync(join(tmpdir(), 'compaction-excerpt-'));
    const input = join(dir, 'input.log');
    writeFileSync(input, lines);
    const { status, stdout } = runBinary(
      [
        'excerpt',
        '--budget',
        '400',
        '--session',
        'run-1.jsonl',
        '--id',
        'call_7',
        '--json',
        'input.log',
      ],
      { cwd: dir },
    );
    expect(status).toBe(0);
    const parsed = JSON.parse(stdout);
    expect(parsed.stored).toMatchObject({
      file: `call_7-${sha256(lines).slice(0, 16)}.txt`,
      digest: sha256(lines),
      bytes: Buffer.byteLength(lines),
    });
    expect(parsed.artifact.id).toMatch(/^art_[0-9a-f]{24}$/);
    expect(parsed.text).toContain(
      `full result: call_7-${sha256(lines).slice(0, 16)}.txt sha256 ${sha256(lines)}`,
    );
    expect(parsed.text).not.toContain(dir);
    expect(
      readFileSync(
        join(dir, 'run-1.artifacts', `call_7-${sha256(lines).slice(0, 16)}.txt`),
        'utf8',
      ),
    ).toBe(lines);
  });

  it('honours --max-bytes as well as the char budget', () => {
    const wide = '日本語のログ行です ✓\n'.repeat(5000);
    const { status, stdout } = runBinary(
      ['excerpt', '--budget', '2000', '--max-bytes', '1200', '-'],
      { input: wide },
    );
    expect(status).toBe(0);
    expect(Buffer.byteLength(stdout)).toBeLessThanOrEqual(1200);
    expect(chars(stdout)).toBeLessThanOrEqual(2000);
    expect(stdout).toContain('full result not stored (no session)');
  });

  it('returns a short input unchanged and refuses bad usage with exit 2', () => {
    expect(runBinary(['excerpt', '--budget', '500'], { input: 'short' }).stdout).toBe('short');
    expect(runBinary(['excerpt', '-'], { input: 'x' }).status).toBe(2);
    expect(runBinary(['excerpt', '--budget', 'ten', '-'], { input: 'x' }).status).toBe(2);
    const tooSmall = runBinary(['excerpt', '--budget', '20', '-'], { input: lines });
    expect(tooSmall.status).toBe(1);
    expect(tooSmall.stderr).toMatch(/below the \d+ chars the excerpt marker needs/);
  });
});

describe('compaction excerpt --session when the index cannot be written (issue 43, item 9)', () => {
  const faults: [ArtifactFileOperation, ArtifactFault][] = [
    ['openForAppend', { code: 'ENOSPC' }],
    ['openForAppend', { code: 'EACCES' }],
    ['openForAppend', { code: 'EROFS' }],
    ['append', { shortWrite: 12 }],
  ];
  for (const [operation, fault] of faults) {
    it(`fails open: the excerpt marked not stored and a warning (${operation} ${JSON.stringify(fault)})`, async () => {
      const dir = mkdtempSync(join(tmpdir(), 'compaction-excerpt-'));
      for (const json of [false, true]) {
        const { io, stdout, stderr } = createMemoryIo({ stdin: lines, cwd: dir });
        io.fileSystem = createFaultyArtifactFileSystem({
          fault: (op, path) =>
            op === operation && path.endsWith(ARTIFACT_INDEX_FILE) ? fault : undefined,
        });
        const args = ['excerpt', '--budget', '400', '--session', 'run.jsonl', '--id', 'call_1'];
        expect(await runCli([...args, ...(json ? ['--json'] : []), '-'], io)).toBe(0);
        const text = json ? JSON.parse(stdout()).text : stdout();
        expect(chars(text)).toBeLessThanOrEqual(400);
        expect(text.startsWith('row 1 ✓')).toBe(true);
        expect(text).toContain(`full result not stored (write failed), sha256 ${sha256(lines)}`);
        if (json) expect(JSON.parse(stdout())).toMatchObject({ stored: null, artifact: null });
        expect(stderr()).toMatch(/^warning: the full result was not stored: Could not index/);
        expect(stderr()).toContain('code' in fault ? fault.code : 'short write, 12 of');
        expect(stderr().split('\n')).toHaveLength(2);
      }
    });
  }
});

describe('compaction excerpt --help (issue 43, item 16)', () => {
  it('names the stored file as it is written: the operation id and a SHA-256 prefix', async () => {
    const help = createMemoryIo();
    expect(await runCli(['excerpt', '--help'], help.io)).toBe(0);
    expect(help.stdout()).toContain(
      '<transcript-stem>.artifacts/<OPID>-<first 16 hex of its SHA-256>.txt',
    );

    const dir = mkdtempSync(join(tmpdir(), 'compaction-excerpt-help-'));
    const { io, stdout } = createMemoryIo({ stdin: lines, cwd: dir });
    expect(
      await runCli(
        ['excerpt', '--budget', '400', '--session', 'run-1.jsonl', '--id', 'call_7', '--json', '-'],
        io,
      ),
    ).toBe(0);
    const file = `call_7-${sha256(lines).slice(0, 16)}.txt`;
    expect(JSON.parse(stdout()).stored.file).toBe(file);
    expect(readFileSync(join(dir, 'run-1.artifacts', file), 'utf8')).toBe(lines);
  });
});
