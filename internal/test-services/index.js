// Plain JavaScript so tests (through Vitest) and benchmarks (plain Node) share it without a build.
import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** True when a `redis-server` binary is on the PATH. */
export function redisServerAvailable() {
  return spawnSync('redis-server', ['--version'], { stdio: 'ignore' }).status === 0;
}

/** Tests skip Redis only outside CI; under CI=true a missing binary must fail the run. */
export function skipRedisTests() {
  if (redisServerAvailable()) return false;
  if (process.env.CI === 'true') return false;
  console.warn('redis-server is not installed: skipping the Redis tests (they run under CI=true)');
  return true;
}

/** A free TCP port on 127.0.0.1. */
export async function freePort() {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() => resolve(typeof address === 'object' && address ? address.port : 0));
    });
  });
}

/** Starts `redis-server` on a free loopback port with no persistence, in a temporary directory. */
export async function startRedisServer() {
  const port = await freePort();
  const dir = mkdtempSync(join(tmpdir(), 'compaction-redis-'));
  const child = spawn(
    'redis-server',
    [
      '--port',
      String(port),
      '--bind',
      '127.0.0.1',
      '--save',
      '',
      '--appendonly',
      'no',
      '--dir',
      dir,
    ],
    { stdio: ['ignore', 'pipe', 'pipe'] },
  );
  await new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error('redis-server did not start in 10 s')), 10_000);
    let output = '';
    child.stdout.on('data', (data) => {
      output += data.toString();
      if (output.includes('Ready to accept connections')) {
        clearTimeout(timer);
        resolve();
      }
    });
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`redis-server exited with ${code}: ${output}`));
    });
  });
  child.stdout.resume();
  child.stderr.resume();
  const exited = new Promise((resolve) => {
    if (child.exitCode !== null) resolve();
    child.once('exit', () => resolve());
  });
  const end = async (signal) => {
    if (child.exitCode === null && child.signalCode === null) child.kill(signal);
    await exited;
  };
  return {
    port,
    url: `redis://127.0.0.1:${port}`,
    kill: () => end('SIGKILL'),
    async stop() {
      await end('SIGTERM');
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
