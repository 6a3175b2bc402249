import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { moduleLog } from '@compaction/test-runtime';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BINARY, binaryBuilt, runBinary, UNBUNDLED } from '../test-support/run-binary.js';
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

describe.skipIf(!binaryBuilt())('what a command loads', () => {
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

  function loaded(
    args: string[],
    script?: string,
  ): { packages: Set<string>; urls: string[]; stdout: string } {
    const log = join(dir, `modules-${args[0]}.log`);
    writeFileSync(log, '');
    const { execArgv, env } = moduleLog(log);
    const run = runBinary(args, { execArgv, env, ...(script ? { script } : {}) });
    expect(run.status, run.stderr).toBe(0);
    const urls = readFileSync(log, 'utf8')
      .split('\n')
      .filter((url) => url.startsWith('file:'));
    return { packages: packagesOf(urls), urls, stdout: run.stdout };
  }

  /** The hot commands, run against a stored artifact. */
  function hotCommands(script?: string) {
    const trim = loaded(['trim', '--budget', '512', input], script);
    expect(JSON.parse(trim.stdout)).toEqual({ items: [{ id: 1, status: 'ok' }] });
    const store = loaded(['store', '--session', session, '--id', 'op-1', input], script);
    const { id } = JSON.parse(store.stdout) as { id: string };
    const read = loaded(['read', id, '--session', session], script);
    expect(read.stdout).toContain('"status":"ok"');
    const excerpt = loaded(['excerpt', '--budget', '200', input], script);
    return { trim, store, read, excerpt };
  }

  // The module graph, seen in the unbundled build: what the binary's bundle of a command holds.
  describe('unbundled, module by module', () => {
    it('trim loads the CLI, core and the trimmer, nothing else', () => {
      const { trim } = hotCommands(UNBUNDLED);
      expect([...trim.packages].sort()).toEqual([
        '@compaction/cli',
        '@compaction/core',
        '@compaction/trimmer',
      ]);
    });

    it('store, read and excerpt load the artifacts, not the trimmer, the model or MCP layers', () => {
      const { store, read, excerpt } = hotCommands(UNBUNDLED);
      for (const { packages, urls } of [store, read, excerpt]) {
        expect(packages).toContain('@compaction/artifacts');
        for (const name of ['@compaction/trimmer', ...HEAVY]) expect(packages).not.toContain(name);
        // Nor the regex engine (read imports it on its first search), nor core's root: what
        // they need of core comes from `@compaction/core/internal`.
        expect(packages).not.toContain('re2js');
        expect(urls.filter((url) => url.endsWith('/core/dist/index.js'))).toEqual([]);
        expect(urls.filter((url) => /\/artifacts\/dist\/(serving|transcript)\//.test(url))).toEqual(
          [],
        );
      }
      // Writing imports `@compaction/artifacts/storage`, without the reading library.
      for (const { urls } of [store, excerpt]) {
        expect(urls.filter((url) => /\/artifacts\/dist\/reading\//.test(url))).toEqual([]);
      }
    });
  });

  it('the binary runs each hot command from a few files of its own bundle', () => {
    const bundle = join(dirname(BINARY), '..', 'dist', 'bundle');
    for (const [name, { urls }] of Object.entries(hotCommands())) {
      const files = urls.map((url) => fileURLToPath(url));
      expect(files[0], name).toBe(BINARY);
      for (const file of files.slice(1)) expect(dirname(file), `${name}: ${file}`).toBe(bundle);
      expect(files.length, `${name}: ${files.join(', ')}`).toBeLessThanOrEqual(4);
    }
  });
});
