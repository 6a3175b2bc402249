import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  createProviderServer,
  type ProviderServer,
  redisServerAvailable,
  startRedisServer,
} from '@compaction/distiller/test';
import { createStructuralTrimmer } from '@compaction/trimmer';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createMemoryIo } from '../test-support/memory-io.js';
import { BINARY, binaryBuilt } from '../test-support/run-binary.js';
import { UsageError } from '../usage-error.js';
import { distillCommand } from './distill-command.js';

function records(bytes: number): string {
  const items: string[] = [];
  for (let i = 0, size = 2; size < bytes; i++) {
    const item = `{"id":${9_007_199_254_740_993n + BigInt(i)},"level":"${i % 50 === 0 ? 'ERROR' : 'INFO'}","message":"request ${i}"}`;
    items.push(item);
    size += item.length + 1;
  }
  return `[${items.join(',')}]`;
}

// The provider server runs in this process, so the binary must run without blocking it.
function runAsync(args: string[], env: Record<string, string>, input = '') {
  const base: Record<string, string> = {};
  for (const [key, value] of Object.entries(process.env)) {
    if (value !== undefined && !/^(COMPACTION_|OPENAI_|ANTHROPIC_)/.test(key)) base[key] = value;
  }
  return new Promise<{ status: number | null; stdout: string; stderr: string }>((resolve) => {
    const child = spawn(process.execPath, [BINARY, ...args], { env: { ...base, ...env } });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (data) => {
      stdout += data;
    });
    child.stderr.on('data', (data) => {
      stderr += data;
    });
    child.on('close', (status) => resolve({ status, stdout, stderr }));
    // A child that exits before reading its input must fail its own assertions, not the run.
    child.stdin.on('error', () => {});
    child.stdin.end(input);
  });
}

let server: ProviderServer;
let dir: string;
beforeAll(async () => {
  server = await createProviderServer();
  dir = mkdtempSync(join(tmpdir(), 'compaction-distill-cli-'));
});
afterAll(async () => {
  await server.close();
  rmSync(dir, { recursive: true, force: true });
});
beforeEach(() => {
  server.resetStats();
  server.setHandler(() => ({}));
});

describe('compaction distill (in process)', () => {
  it('requires --query', async () => {
    const { io } = createMemoryIo({ stdin: '{}' });
    await expect(distillCommand.run(['-'], io)).rejects.toThrow(UsageError);
    await expect(
      distillCommand.run(['--query', 'x', '--provider', 'gemini', '-'], io),
    ).rejects.toThrow(UsageError);
  });

  it('says there is no key on stderr and prints the structural floor', async () => {
    const input = records(100_000);
    const { io, stdout, stderr } = createMemoryIo({ stdin: input });
    const code = await distillCommand.run(['--query', 'errors?', '--budget', '4096', '-'], io);
    expect(code).toBe(0);
    expect(stderr()).toMatch(/no model API key: set OPENAI_API_KEY or ANTHROPIC_API_KEY/);
    const floor = createStructuralTrimmer().trim(input, 4096, { userQuery: 'errors?' });
    expect(stdout()).toBe(`${floor.text}\n`);
  });

  it('distills through OPENAI_BASE_URL without a key, sending no credential (local servers need none)', async () => {
    server.setHandler(() => ({ text: 'request 0 failed' }));
    const { io, stdout, stderr } = createMemoryIo({
      stdin: records(60_000),
      env: { OPENAI_BASE_URL: server.openaiBaseUrl },
    });
    expect(
      await distillCommand.run(['--query', 'which failed?', '--budget', '8192', '-'], io),
    ).toBe(0);
    expect(stderr()).toBe('');
    expect(stdout()).toMatch(/^request 0 failed\n\[distilled: /);
    expect(server.requests).toHaveLength(1);
    expect(server.requests[0]!.apiKey).toBeUndefined();
  });

  it('says a map-reduce threshold below the pre-filter budget is ignored exactly once', async () => {
    server.setHandler(() => ({ text: 'summary' }));
    const { io, stderr } = createMemoryIo({
      stdin: records(60_000),
      env: {
        OPENAI_BASE_URL: server.openaiBaseUrl,
        COMPACTION_RESULT_DISTILL_MAPREDUCE_THRESHOLD: '65536',
      },
    });
    expect(await distillCommand.run(['--query', 'errors?', '-'], io)).toBe(0);
    expect(stderr().match(/below the pre-filter budget/g)).toHaveLength(1);
  });

  it('shows map-reduce progress on stderr when it is a terminal', async () => {
    server.setHandler(() => ({ text: 'extract' }));
    const { io, stdout, stderr } = createMemoryIo({
      stdin: records(400_000),
      env: {
        OPENAI_API_KEY: 'sk-test',
        OPENAI_BASE_URL: server.openaiBaseUrl,
        COMPACTION_RESULT_DISTILL_MAPREDUCE_THRESHOLD: '131072',
      },
    });
    (io.stderr as { isTTY?: boolean }).isTTY = true;
    expect(await distillCommand.run(['--query', 'errors?', '-'], io)).toBe(0);
    expect(stderr()).toMatch(/map-reduce: (\d+)\/\1 segments distilled\n/);
    expect(stdout()).toMatch(/^extract\n\[distilled: .*\]\n$/);
  });
});

describe.skipIf(!binaryBuilt())('the built binary against a local OpenAI-compatible server', () => {
  it('distills a file through OPENAI_BASE_URL with the fast alias', async () => {
    server.setHandler(() => ({ text: 'request 0 failed (id 9007199254740993)' }));
    const file = join(dir, 'logs.json');
    writeFileSync(file, records(60_000));
    const { status, stdout, stderr } = await runAsync(
      [
        'distill',
        '--query',
        'which requests failed?',
        '--task',
        'fetch logs',
        '--budget',
        '8192',
        file,
      ],
      { OPENAI_API_KEY: 'sk-test', OPENAI_BASE_URL: server.openaiBaseUrl },
    );
    expect(stderr).toBe('');
    expect(status).toBe(0);
    expect(stdout).toMatch(/^request 0 failed \(id 9007199254740993\)\n\[distilled: .*\]\n$/);
    expect(server.requests).toHaveLength(1);
    expect(server.requests[0]!.model).toBe('gpt-5-mini');
    expect(server.requests[0]!.prompt).toContain('which requests failed?');
  });

  it('map-reduces standard input without progress output when stderr is not a terminal', async () => {
    server.setHandler((request) => ({
      text: request.prompt.includes('### Extract') ? 'reduced' : 'extract',
    }));
    const { status, stdout, stderr } = await runAsync(
      ['distill', '--query', 'errors?', '--json', '-'],
      {
        OPENAI_API_KEY: 'sk-test',
        OPENAI_BASE_URL: server.openaiBaseUrl,
        COMPACTION_RESULT_DISTILL_MAPREDUCE_THRESHOLD: '131072',
      },
      records(500_000),
    );
    expect(status).toBe(0);
    expect(stderr).toBe('');
    const { text, metadata } = JSON.parse(stdout);
    expect(text).toMatch(/^reduced\n\[distilled: /);
    expect(metadata.strategy).toBe('map-reduce');
    expect(server.requests.length).toBe(metadata.segmentsTotal + 1);
  });

  it.skipIf(!redisServerAvailable() && process.env.CI !== 'true')(
    'caches in Redis from COMPACTION_REDIS_URL: a repeated run makes no model call',
    async () => {
      const redis = await startRedisServer();
      try {
        server.setHandler(() => ({ text: 'cached across runs' }));
        const env = {
          OPENAI_API_KEY: 'sk-test',
          OPENAI_BASE_URL: server.openaiBaseUrl,
          COMPACTION_REDIS_URL: `redis://127.0.0.1:${redis.port}`,
        };
        const input = records(50_000);
        const args = ['distill', '--query', 'errors?', '--budget', '8192', '-'];
        const first = await runAsync(args, env, input);
        const second = await runAsync(args, env, input);
        expect(first.stdout).toMatch(/^cached across runs\n\[distilled: .*\]\n$/);
        expect(second.stdout).toBe(first.stdout);
        expect(server.requests).toHaveLength(1);
        await redis.kill();
        const down = await runAsync(args, env, input);
        expect(down).toMatchObject({ status: 0, stdout: first.stdout });
        expect(server.requests).toHaveLength(2);
      } finally {
        await redis.stop();
      }
    },
  );

  it('falls open to the floor when the server fails', async () => {
    server.setHandler(() => ({ status: 500 }));
    const { status, stdout, stderr } = await runAsync(
      ['distill', '--query', 'errors?', '--budget', '2048', '-'],
      { OPENAI_API_KEY: 'sk-test', OPENAI_BASE_URL: server.openaiBaseUrl },
      records(40_000),
    );
    expect(status).toBe(0);
    expect(stderr).toMatch(/warning: single-call distill: .* failed: openai: HTTP 500/);
    expect(Buffer.byteLength(stdout)).toBeLessThanOrEqual(2049);
    expect(stdout).toMatch(/\n\[(trimmed|severely reduced): /);
  });
});
