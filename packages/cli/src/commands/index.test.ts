import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { moduleLog } from '@compaction/test-runtime';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { binaryBuilt, runBinary } from '../test-support/run-binary.js';
import { COMMANDS } from './index.js';

describe('COMMANDS', () => {
  it('loads, for each row, the command of that name', async () => {
    const names = COMMANDS.map((entry) => entry.name);
    expect(new Set(names).size).toBe(names.length);
    for (const entry of COMMANDS) {
      const command = await entry.load();
      expect(command.name).toBe(entry.name);
      expect(command.help).toContain(`Usage: compaction ${entry.name}`);
    }
  });
});

/** The packages whose modules a URL list names: `@compaction/<dir>` or a node_modules name. */
function packagesOf(urls: string[]): Set<string> {
  const names = new Set<string>();
  for (const url of urls) {
    const path = url.replace(/^file:\/\//, '');
    const dependency = /.*\/node_modules\/((?:@[^/]+\/)?[^/]+)\//.exec(path);
    const workspace = /\/packages\/([^/]+)\//.exec(path);
    if (dependency) names.add(dependency[1]!);
    else if (workspace) names.add(`@compaction/${workspace[1]}`);
  }
  return names;
}

const HEAVY = [
  '@compaction/distiller',
  '@compaction/digest',
  '@compaction/orchestration',
  '@compaction/mcp',
  '@modelcontextprotocol/sdk',
  'zod',
];

describe.skipIf(!binaryBuilt())('what a command loads (the built binary)', () => {
  let dir: string;
  let input: string;
  let session: string;
  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), 'cli-modules-'));
    input = join(dir, 'result.json');
    session = join(dir, 'session.jsonl');
    writeFileSync(input, JSON.stringify({ items: [{ id: 1, status: 'ok' }] }));
    writeFileSync(session, '');
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  function loaded(args: string[]): { packages: Set<string>; urls: string[]; stdout: string } {
    const log = join(dir, `modules-${args[0]}.log`);
    writeFileSync(log, '');
    const { execArgv, env } = moduleLog(log);
    const run = runBinary(args, { execArgv, env });
    expect(run.status, run.stderr).toBe(0);
    const urls = readFileSync(log, 'utf8')
      .split('\n')
      .filter((url) => url.startsWith('file:'));
    return { packages: packagesOf(urls), urls, stdout: run.stdout };
  }

  it('trim loads the CLI, core and the trimmer, nothing else', () => {
    const { packages, stdout } = loaded(['trim', '--budget', '512', input]);
    expect(JSON.parse(stdout)).toEqual({ items: [{ id: 1, status: 'ok' }] });
    expect([...packages].sort()).toEqual([
      '@compaction/cli',
      '@compaction/core',
      '@compaction/trimmer',
    ]);
  });

  it('store, read and excerpt load the artifacts, not the trimmer, the model or MCP layers', () => {
    const store = loaded(['store', '--session', session, '--id', 'op-1', input]);
    const { id } = JSON.parse(store.stdout) as { id: string };
    const read = loaded(['read', id, '--session', session]);
    expect(read.stdout).toContain('"status":"ok"');
    const excerpt = loaded(['excerpt', '--budget', '200', input]);
    for (const { packages } of [store, read, excerpt]) {
      expect(packages).toContain('@compaction/artifacts');
      for (const name of ['@compaction/trimmer', ...HEAVY]) expect(packages).not.toContain(name);
    }
    // Writing needs no search: store and excerpt import `@compaction/artifacts/storage`, without
    // the regex engine, the server or the transcript; read pages (and searches) with all of it.
    for (const { urls } of [store, excerpt]) {
      expect(packagesOf(urls)).not.toContain('re2js');
      // Nor core's root: what they need of core comes from `@compaction/core/internal`.
      expect(urls.filter((url) => url.endsWith('/core/dist/index.js'))).toEqual([]);
      expect(
        urls.filter((url) => /\/artifacts\/dist\/(reading|serving|transcript)\//.test(url)),
      ).toEqual([]);
    }
    // Read imports `@compaction/artifacts/reading`: search, but not the server or the transcript.
    expect(read.packages).toContain('re2js');
    expect(
      read.urls.filter((url) =>
        /\/core\/dist\/index\.js$|\/artifacts\/dist\/(serving|transcript)\//.test(url),
      ),
    ).toEqual([]);
  });
});
