// A new user's view of the packages: the tarballs `pnpm pack` writes, installed with npm into
// fresh projects, then imported, required, type-checked and run, on the Node.js running this.
import { execFile } from 'node:child_process';
import {
  copyFileSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { NODE_MAJOR } from '@compaction/test-runtime';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type PackedPackage, packPackages, REPO_ROOT } from './index.js';

const exec = promisify(execFile);
const TSC = join(REPO_ROOT, 'node_modules/typescript/bin/tsc');
const CONSUMER_SCRIPTS = new URL('./consumer/', import.meta.url);
const REDIS = existsSync('/usr/bin/redis-server') || process.env.CI === 'true';

// openai 7 requires Node >= 22 (its engines field); ioredis 6 runs on Node 20. The repository's
// own tests run openai 6 and ioredis 5 on both lines, so together both passes of .ci/run cover
// each installable combination.
const PEERS =
  NODE_MAJOR >= 22
    ? [
        'openai@^7',
        'ioredis@^6',
        '@anthropic-ai/sdk@^1',
        '@opentelemetry/api@^1',
        'gpt-tokenizer@^4',
      ]
    : [
        'openai@^6',
        'ioredis@^6',
        '@anthropic-ai/sdk@^1',
        '@opentelemetry/api@^1',
        'gpt-tokenizer@^4',
      ];

let scratch: string;
let packed: PackedPackage[];

function tarballs(names?: readonly string[]): string[] {
  return packed.filter((pkg) => !names || names.includes(pkg.name)).map((pkg) => pkg.tarball);
}

/** `name` and every published package it depends on, as the packed manifests say. */
function withDependencies(name: string, into = new Set<string>()): string[] {
  into.add(name);
  const pkg = packed.find((candidate) => candidate.name === name)!;
  const manifest = JSON.parse(readFileSync(join(pkg.dir, 'package.json'), 'utf8'));
  for (const dependency of Object.keys(manifest.dependencies ?? {})) {
    if (packed.some((candidate) => candidate.name === dependency) && !into.has(dependency))
      withDependencies(dependency, into);
  }
  return [...into];
}

/** A fresh npm project with the given packages installed, as `npm install` leaves it. */
async function createProject(
  name: string,
  install: string[],
  flags: string[] = [],
): Promise<string> {
  const dir = join(scratch, name);
  mkdirSync(dir, { recursive: true });
  writeFileSync(
    join(dir, 'package.json'),
    JSON.stringify({ name: `consumer-${name}`, private: true, type: 'module' }),
  );
  await exec(
    'npm',
    [
      'install',
      '--no-audit',
      '--no-fund',
      '--ignore-scripts',
      '--loglevel=error',
      ...flags,
      ...install,
    ],
    {
      cwd: dir,
      maxBuffer: 64 * 1024 * 1024,
      env: { ...process.env, npm_config_update_notifier: 'false' },
    },
  );
  return dir;
}

async function node(dir: string, args: string[], env: Record<string, string> = {}) {
  return exec(process.execPath, args, {
    cwd: dir,
    maxBuffer: 64 * 1024 * 1024,
    env: { ...process.env, NODE_NO_WARNINGS: '1', ...env },
  });
}

/** Runs a command and returns its exit code and output instead of throwing on failure. */
async function attempt(
  file: string,
  args: string[],
  cwd: string,
  env: Record<string, string> = {},
) {
  try {
    const { stdout, stderr } = await exec(file, args, { cwd, env: { ...process.env, ...env } });
    return { code: 0, stdout, stderr };
  } catch (error) {
    const { code, stdout, stderr } = error as { code: number; stdout: string; stderr: string };
    return { code, stdout, stderr };
  }
}

/** Every `import` specifier the packed packages export (`./package.json` aside). */
function entryPoints(): string[] {
  return packed.flatMap((pkg) => {
    const manifest = JSON.parse(readFileSync(join(pkg.dir, 'package.json'), 'utf8'));
    return Object.keys(manifest.exports)
      .filter((key) => key !== './package.json')
      .map((key) => (key === '.' ? pkg.name : `${pkg.name}${key.slice(1)}`));
  });
}

beforeAll(async () => {
  scratch = mkdtempSync(join(tmpdir(), 'compaction-consumer-'));
  mkdirSync(join(scratch, 'tarballs'));
  packed = await packPackages(join(scratch, 'tarballs'));
}, 180_000);

afterAll(() => {
  if (scratch) rmSync(scratch, { recursive: true, force: true });
}, 180_000);

describe(`the packed packages in a new npm project (Node ${process.versions.node})`, () => {
  let app: string;
  let esmExports: Record<string, string[]>;

  beforeAll(async () => {
    app = await createProject('app', [
      ...tarballs(),
      ...PEERS,
      `@types/node@^${Math.min(NODE_MAJOR, 24)}`,
    ]);
    for (const file of readdirSync(CONSUMER_SCRIPTS)) {
      copyFileSync(new URL(file, CONSUMER_SCRIPTS), join(app, file));
    }
    writeFileSync(join(app, 'entries.json'), JSON.stringify(entryPoints()));
  }, 300_000);

  it('imports every entry point as an ES module', async () => {
    const { stdout } = await node(app, ['load-esm.mjs']);
    esmExports = JSON.parse(stdout);
    expect(Object.keys(esmExports).sort()).toEqual(entryPoints().sort());
    for (const [entry, names] of Object.entries(esmExports)) {
      expect(names.length, `${entry} exports nothing`).toBeGreaterThan(0);
    }
  }, 60_000);

  it('requires every entry point from CommonJS, with the same exports', async () => {
    const { stdout } = await node(app, ['load-cjs.cjs']);
    expect(JSON.parse(stdout)).toEqual(esmExports);
  }, 60_000);

  describe('TypeScript', () => {
    /** One runtime export of each entry point, imported by name. */
    function importsSource(): string {
      const lines = Object.entries(esmExports).map(
        ([entry, names], i) => `import { ${names[0]} as e${i} } from '${entry}';`,
      );
      const used = Object.keys(esmExports).map((_, i) => `e${i}`);
      return `${lines.join('\n')}
import type { ResultProcessor, ResultTrimMetadata } from '@compaction/core';
import { createStructuralTrimmer } from '@compaction/trimmer';

const trimmer: ResultProcessor = createStructuralTrimmer();
export const metadata: Promise<ResultTrimMetadata> = trimmer
  .process('{"a":[1,2,3]}', 1024, {})
  .then((view) => view.metadata);
export const used: unknown[] = [${used.join(', ')}];
console.log(used.length === ${used.length} ? 'ok' : 'missing');
`;
    }

    function writeConfig(name: string, compilerOptions: object, files: string[]) {
      writeFileSync(
        join(app, `tsconfig.${name}.json`),
        JSON.stringify({
          compilerOptions: {
            target: 'es2022',
            strict: true,
            skipLibCheck: true,
            types: ['node'],
            noEmit: true,
            ...compilerOptions,
          },
          files,
        }),
      );
    }

    async function tsc(name: string) {
      return attempt(process.execPath, [TSC, '-p', `tsconfig.${name}.json`], app);
    }

    it.each([
      ['nodenext', { module: 'nodenext', moduleResolution: 'nodenext' }],
      ['node16', { module: 'node16', moduleResolution: 'node16' }],
      ['bundler', { module: 'esnext', moduleResolution: 'bundler' }],
    ])(
      'type-checks an ES module project with %s resolution',
      async (name, options) => {
        writeFileSync(join(app, 'check.ts'), importsSource());
        writeConfig(name, options, ['check.ts']);
        const result = await tsc(name);
        expect(result.stdout + result.stderr).toBe('');
        expect(result.code).toBe(0);
      },
      120_000,
    );

    it('compiles a CommonJS project with nodenext resolution that then runs', async () => {
      writeFileSync(join(app, 'check.cts'), importsSource());
      writeConfig(
        'cjs',
        { module: 'nodenext', moduleResolution: 'nodenext', noEmit: false, outDir: 'out' },
        ['check.cts'],
      );
      const result = await tsc('cjs');
      expect(result.stdout + result.stderr).toBe('');
      expect(readFileSync(join(app, 'out/check.cjs'), 'utf8')).toContain(
        'require("@compaction/trimmer")',
      );
      const { stdout } = await node(app, ['out/check.cjs']);
      expect(stdout.trim()).toBe('ok');
    }, 120_000);
  });

  it('trims, and calls models and Redis through the SDKs the user installed', async () => {
    const { stdout } = await node(app, ['use-packages.mjs'], { REDIS_TESTS: REDIS ? '1' : '0' });
    const report = JSON.parse(stdout);
    expect(report.versions.openai.split('.')[0]).toBe(NODE_MAJOR >= 22 ? '7' : '6');
    expect(report.versions.ioredis.split('.')[0]).toBe('6');
    expect(report.trim).toEqual({
      bytes: expect.any(Number),
      contentLost: true,
      keptFailure: true,
    });
    expect(report.trim.bytes).toBeLessThanOrEqual(2048);
    expect(report.openai).toMatchObject({
      text: 'job 321 failed: out of memory',
      usage: { inputTokens: 5, outputTokens: 7 },
    });
    expect(report.anthropic).toMatchObject({
      text: 'job 321 failed: out of memory',
      usage: { inputTokens: 5, outputTokens: 7 },
    });
    if (REDIS) expect(report.redis).toEqual({ same: true, modelCalls: 1, distilled: true });
  }, 120_000);
});

describe('a trimmer-only install', () => {
  it('is two packages, no SDK, installed offline, and works from import and require', async () => {
    const dir = await createProject(
      'trimmer-only',
      tarballs(['@compaction/core', '@compaction/trimmer']),
      ['--offline'],
    );
    const installed = readdirSync(join(dir, 'node_modules'), { recursive: true })
      .map(String)
      .filter((path) => path.endsWith('package.json') && path.split('/').length <= 3)
      .filter((path) => !path.includes('/dist/'));
    expect(installed.sort()).toEqual([
      '@compaction/core/package.json',
      '@compaction/trimmer/package.json',
    ]);
    const script = `const { createStructuralTrimmer } = MODULE;
const view = createStructuralTrimmer().trim(JSON.stringify({ items: Array.from({ length: 500 }, (_, i) => ({ id: i })) }), 400);
console.log(new TextEncoder().encode(view.text).length <= 400 && view.metadata.contentLost);`;
    writeFileSync(
      join(dir, 'esm.mjs'),
      script.replace('MODULE', "await import('@compaction/trimmer')"),
    );
    writeFileSync(join(dir, 'cjs.cjs'), script.replace('MODULE', "require('@compaction/trimmer')"));
    expect((await node(dir, ['esm.mjs'])).stdout.trim()).toBe('true');
    expect((await node(dir, ['cjs.cjs'])).stdout.trim()).toBe('true');
  }, 120_000);
});

describe('the CLI installed without its optional peers', () => {
  let dir: string;
  const bin = () => join(dir, 'node_modules/.bin/compaction');

  beforeAll(async () => {
    dir = await createProject('cli-only', tarballs(withDependencies('@compaction/cli')), [
      '--prefer-offline',
    ]);
    writeFileSync(
      join(dir, 'pods.json'),
      JSON.stringify({
        items: Array.from({ length: 300 }, (_, i) => ({ name: `pod-${i}`, phase: 'Running' })),
      }),
    );
  }, 300_000);

  it('brings no model SDK, Redis client or OpenTelemetry SDK', () => {
    for (const name of [
      'openai',
      '@anthropic-ai/sdk',
      'ioredis',
      '@opentelemetry/sdk-node',
      '@opentelemetry/api',
    ]) {
      expect(existsSync(join(dir, 'node_modules', name)), name).toBe(false);
    }
  });

  it('prints its version and runs the commands that need none of them', async () => {
    const version = await attempt(bin(), ['--version'], dir);
    expect(version).toMatchObject({ code: 0, stdout: `${packed[0]!.version}\n` });
    const trim = await attempt(bin(), ['trim', '--budget', '600', 'pods.json'], dir);
    expect(trim.code).toBe(0);
    expect(trim.stdout).toContain('{"name":"pod-0"');
    expect(trim.stdout).toMatch(/\n\[(trimmed|severely reduced): [^\n]+\]\n?$/);
    expect(new TextEncoder().encode(trim.stdout.trimEnd()).length).toBeLessThanOrEqual(600);
  }, 60_000);

  it('says what to install when a command needs a missing peer', async () => {
    const distill = await attempt(
      bin(),
      ['distill', '--query', 'which pods failed?', 'pods.json'],
      dir,
      {
        OPENAI_API_KEY: 'sk-test',
      },
    );
    expect(distill.code).toBe(1);
    expect(distill.stderr).toContain(
      'the openai provider needs openai, an optional peer of @compaction/cli that is not installed: npm install openai beside @compaction/cli',
    );
    const otel = await attempt(bin(), ['--otel', 'trim', 'pods.json'], dir);
    expect(otel.code).toBe(1);
    expect(otel.stderr).toMatch(
      /--otel needs @opentelemetry\/[a-z-]+, an optional peer of @compaction\/cli/,
    );
    expect(otel.stderr).toContain('npx -y -p @compaction/cli -p @opentelemetry/api');
  }, 60_000);
});
