import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../run-cli.js';
import { createMemoryIo } from '../test-support/memory-io.js';

const log = Array.from({ length: 500 }, (_, i) =>
  i + 1 === 321 ? 'line 321: FATAL kaboom (a.c)' : `line ${i + 1}: ok abc`,
).join('\n');

describe('compaction search (issue 43, item 16)', () => {
  let dir: string;
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'compaction-search-'));
    const { io } = createMemoryIo({ stdin: log, cwd: dir });
    expect(await runCli(['store', '--session', 'run.jsonl', '--id', 'call_1', '-'], io)).toBe(0);
  });
  afterAll(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  async function search(...args: string[]) {
    const { io, stdout, stderr } = createMemoryIo({ cwd: dir });
    const code = await runCli(['search', ...args], io);
    return { code, stdout: stdout(), stderr: stderr() };
  }

  it('prints LINE:COLUMN: text per match, numbered as read numbers lines', async () => {
    const found = await search('call_1', 'fatal', '--session', 'run.jsonl');
    expect(found).toMatchObject({ code: 0, stdout: '321:11: line 321: FATAL kaboom (a.c)\n' });
    expect(found.stderr).toMatch(
      /^\[artifact art_[0-9a-f]{24} \(call_1-[0-9a-f]{16}\.txt\): 1 match; 500 lines\]\n$/,
    );
    // The line it names is the line `compaction read --offset` starts at.
    const { io, stdout } = createMemoryIo({ cwd: dir });
    await runCli(
      ['read', 'call_1', '--session', 'run.jsonl', '--offset', '321', '--limit', '1'],
      io,
    );
    expect(stdout()).toBe('line 321: FATAL kaboom (a.c)\n');
  });

  it('takes the pattern literally unless --regex, and matches case only with --case-sensitive', async () => {
    expect((await search('call_1', 'a.c', '--dir', '.')).stdout).toBe(
      '321:25: line 321: FATAL kaboom (a.c)\n',
    );
    const regex = await search('call_1', 'line 3[2-3]1:', '--regex', '--dir', '.');
    expect(regex.stdout).toBe('321:1: line 321: FATAL kaboom (a.c)\n331:1: line 331: ok abc\n');
    expect((await search('call_1', 'fatal', '--case-sensitive', '--dir', '.')).stdout).toBe('');
  });

  it('stops at --max-matches and says how to go on', async () => {
    const first = await search('call_1', 'ok', '--max-matches', '2', '--session', 'run.jsonl');
    expect(first.stdout).toBe('1:9: line 1: ok abc\n2:9: line 2: ok abc\n');
    expect(first.stderr).toContain('2+ matches');
    expect(first.stderr).toContain('more matches: search again with --from-line 3');
    const next = await search(
      'call_1',
      'ok',
      '--max-matches',
      '1',
      '--from-line',
      '3',
      '--session',
      'run.jsonl',
    );
    expect(next.stdout).toBe('3:9: line 3: ok abc\n');
  });

  it('prints the whole result as JSON with --json', async () => {
    const { code, stdout } = await search('call_1', 'kaboom', '--dir', '.', '--json');
    expect(code).toBe(0);
    expect(JSON.parse(stdout)).toMatchObject({
      file: expect.stringMatching(/^call_1-/),
      totalLines: 500,
      more: false,
      matches: [{ line: 321, column: 17, length: 6 }],
    });
  });

  it('refuses bad usage with exit 2 and a bad pattern or an unknown artifact with exit 1', async () => {
    expect((await search('call_1', '--dir', '.')).code).toBe(2);
    expect((await search('call_1', 'x')).code).toBe(2);
    expect((await search('call_1', 'x', '--max-matches', '0', '--dir', '.')).code).toBe(2);
    const badRegex = await search('call_1', '(', '--regex', '--dir', '.');
    expect(badRegex.code).toBe(1);
    expect(badRegex.stderr).toMatch(/^compaction search: /);
    const missing = await search('call_9', 'x', '--dir', '.');
    expect(missing.code).toBe(1);
  });

  it('is listed, and read --help points to it for line numbers', async () => {
    const list = createMemoryIo();
    await runCli(['--help'], list.io);
    expect(list.stdout()).toMatch(/\n\s+search\s/);
    const help = createMemoryIo();
    expect(await runCli(['search', '--help'], help.io)).toBe(0);
    expect(help.stdout()).toContain('Usage: compaction search REF PATTERN');
    const read = createMemoryIo();
    await runCli(['read', '--help'], read.io);
    expect(read.stdout()).toContain("'compaction search'");
  });
});
