import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { runCli } from '../run-cli.js';
import { createMemoryIo } from '../test-support/memory-io.js';

// Paths `open` refuses with EACCES: CI runs as root, where chmod takes nothing away.
const denied = vi.hoisted(() => new Set<string>());
vi.mock('node:fs/promises', async (importOriginal) => {
  const actual = await importOriginal<typeof import('node:fs/promises')>();
  const open = (async (path: Parameters<typeof actual.open>[0], ...rest: unknown[]) => {
    if (denied.has(String(path))) {
      throw Object.assign(new Error(`EACCES: permission denied, open '${String(path)}'`), {
        code: 'EACCES',
      });
    }
    return (actual.open as (...args: unknown[]) => ReturnType<typeof actual.open>)(path, ...rest);
  }) as typeof actual.open;
  return { ...actual, open };
});

const log = Array.from({ length: 50 }, (_, i) => `line ${i + 1}`).join('\n');

describe('compaction read (in process, against a store in a temp directory)', () => {
  let dir: string;
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'compaction-read-'));
    const { io, stderr } = createMemoryIo({ stdin: log, cwd: dir });
    expect(await runCli(['store', '--session', 'run.jsonl', '--id', 'call_1', '-'], io)).toBe(0);
    expect(stderr()).toBe('');
  });
  afterAll(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  async function read(...args: string[]) {
    const { io, stdout, stderr } = createMemoryIo({ cwd: dir });
    const code = await runCli(['read', 'call_1', '--session', 'run.jsonl', ...args], io);
    return { code, stdout: stdout(), stderr: stderr() };
  }

  it('takes a negative offset as a separate argument, as with --offset=-N', async () => {
    const inline = await read('--offset=-2', '--limit', '1');
    expect(inline).toMatchObject({ code: 0, stdout: 'line 49\n' });
    expect(await read('--offset', '-2', '--limit', '1')).toEqual(inline);
    expect(await read('--limit', '1', '--offset', '-2', '--json')).toMatchObject({ code: 0 });
    expect(JSON.parse((await read('--offset', '-2', '--json')).stdout)).toMatchObject({
      line: 49,
      count: 2,
      text: 'line 49\nline 50',
      next: null,
    });
    // --tail N is --offset -N.
    expect((await read('--tail', '2')).stdout).toBe((await read('--offset', '-2')).stdout);
  });

  it('refuses a negative number for the other numeric options with their own message', async () => {
    for (const [flag, message] of [
      ['--tail', '--tail must be an integer ≥ 1, got "-2"'],
      ['--limit', '--limit must be an integer ≥ 1, got "-2"'],
      ['--column', '--column must be an integer ≥ 1, got "-2"'],
    ] as const) {
      const result = await read(flag, '-2');
      expect(result.code, flag).toBe(2);
      expect(result.stderr, flag).toContain(message);
    }
    const fraction = await read('--offset', '-2.5');
    expect(fraction.code).toBe(2);
    expect(fraction.stderr).toContain('--offset must be an integer, got "-2.5"');
    expect((await read('--offset', '-2', '--tail', '1')).stderr).toContain(
      '--tail and --offset do not go together',
    );
  });

  it('says "permission denied" for a store it may not read, not "no artifact" (issue 43, item 10)', async () => {
    const index = join(dir, 'run.artifacts', 'index.jsonl');
    denied.add(index);
    try {
      const result = await read('--limit', '1');
      expect(result.code).toBe(1);
      expect(result.stderr).toMatch(
        /^compaction read: No artifact "call_1" in the stores that could be read; permission denied reading run\.artifacts\/index\.jsonl\n$/,
      );
    } finally {
      denied.delete(index);
    }
    expect((await read('--limit', '1')).code).toBe(0);
  });

  it('still refuses a dash value that is no number, and an option with no value', async () => {
    const flag = await read('--offset', '-x');
    expect(flag.code).toBe(2);
    expect(flag.stderr).toContain("Option '--offset' argument is ambiguous");
    const missing = await read('--offset');
    expect(missing.code).toBe(2);
    expect(missing.stderr).toContain("Option '--offset <value>' argument missing");
    // After `--` a negative number is an argument, not a value: REF is then extra.
    const positional = await read('--', '-2');
    expect(positional.code).toBe(2);
    expect(positional.stderr).toContain('unexpected argument: -2');
  });
});
