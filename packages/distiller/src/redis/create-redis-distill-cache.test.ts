import { execFileSync } from 'node:child_process';
import { stripDisclosureNotes } from '@compaction/core';
import { Redis } from 'ioredis';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createDistiller } from '../create-distiller.js';
import { DISTILL_CACHE_ENVELOPE_VERSION, distillInputDigest } from '../distill-cache-entry.js';
import { createOpenAIClient } from '../openai/index.js';
import {
  createProviderServer,
  type ProviderServer,
  type RedisServerProcess,
  startRedisServer,
} from '../test/index.js';
import { sampleRecords } from '../test-support/sample-data.js';
import { skipRedisTests } from '../test-support/skip-redis-tests.js';
import { connectRedisDistillCache, createRedisDistillCache } from './index.js';

const context = { userQuery: 'which requests failed?', stepTask: 'fetch the logs' };

describe.skipIf(skipRedisTests())('createRedisDistillCache against a real redis-server', () => {
  let redis: RedisServerProcess;
  let provider: ProviderServer;
  const clients: Redis[] = [];

  const connect = () => {
    const client = new Redis({ host: '127.0.0.1', port: redis.port, maxRetriesPerRequest: 1 });
    client.on('error', () => {});
    clients.push(client);
    return client;
  };
  const distiller = (client: Redis, timeoutMs = 250, cacheSecret?: string) =>
    createDistiller({
      client: createOpenAIClient({
        env: { OPENAI_API_KEY: 'sk-test', OPENAI_BASE_URL: provider.openaiBaseUrl },
        maxRetries: 0,
      }),
      cache: createRedisDistillCache({ client, timeoutMs }),
      ...(cacheSecret ? { cacheSecret } : {}),
    });

  beforeAll(async () => {
    redis = await startRedisServer();
    provider = await createProviderServer();
  });
  afterEach(() => {
    for (const client of clients.splice(0)) client.disconnect();
    provider.resetStats();
    provider.setHandler(() => ({}));
  });
  afterAll(async () => {
    await provider.close();
    await redis.stop();
  });

  it('stores with a TTL under its prefix and reads back', async () => {
    const client = connect();
    const cache = createRedisDistillCache({ client, keyPrefix: 'test:' });
    await cache.set('k', 'value', { ttlMs: 60_000 });
    expect(await cache.get('k')).toBe('value');
    expect(await client.get('test:k')).toBe('value');
    const ttl = await client.pttl('test:k');
    expect(ttl).toBeGreaterThan(55_000);
    expect(ttl).toBeLessThanOrEqual(60_000);
    expect(await cache.get('missing')).toBeUndefined();
  });

  it('connects by URL for one-shot programs, and fails fast when nothing listens', async () => {
    const connected = await connectRedisDistillCache({ url: `redis://127.0.0.1:${redis.port}` });
    await connected.cache.set('url-key', 'v', { ttlMs: 10_000 });
    expect(await connected.cache.get('url-key')).toBe('v');
    connected.close();

    const dead = await connectRedisDistillCache({ url: 'redis://127.0.0.1:1', timeoutMs: 200 });
    const started = performance.now();
    await expect(dead.cache.get('x')).rejects.toThrow();
    expect(performance.now() - started).toBeLessThan(2000);
    dead.close();
  });

  it('lets a one-shot program end soon after close() when nothing listens', () => {
    // ioredis waits 2 s (its disconnectTimeout) for a socket to close before destroying it:
    // the CLI printed its view on time and then lingered. In a program of its own, nothing
    // keeps it alive a few command timeouts after close().
    const dist = new URL('../../dist/redis/index.js', import.meta.url);
    const script = `
      const { connectRedisDistillCache } = await import(${JSON.stringify(dist.href)});
      const dead = await connectRedisDistillCache({ url: 'redis://127.0.0.1:1' });
      await dead.cache.get('x').catch(() => {});
      dead.close();
      setTimeout(() => console.log(JSON.stringify(process.getActiveResourcesInfo())), 1000);
    `;
    const output = execFileSync(process.execPath, ['--input-type=module', '-e', script], {
      encoding: 'utf8',
    });
    // The one timer left is the one asking.
    const timers = (JSON.parse(output) as string[]).filter((kind) => kind === 'Timeout');
    expect(timers).toHaveLength(1);
  });

  it('shares a distillation between two processes-worth of clients and distillers', async () => {
    provider.setHandler(() => ({ text: 'shared summary' }));
    const result = sampleRecords(50_000);
    const first = await distiller(connect()).process(result, 4096, context);
    const second = await distiller(connect()).process(result, 4096, context);
    expect(second).toEqual(first);
    expect(provider.requests).toHaveLength(1);
  });

  it('treats an envelope of another version as a miss and overwrites it', async () => {
    provider.setHandler(() => ({ text: 'recomputed' }));
    const client = connect();
    await client.flushdb();
    const d = distiller(client);
    const result = sampleRecords(30_000, 3);
    await d.process(result, 4096, context);
    const keys = await client.keys('compaction:distill:*');
    expect(keys).toHaveLength(1);
    for (const key of keys) {
      await client.set(
        key,
        JSON.stringify({ v: 0, text: 'stale', metadata: { contentLost: false } }),
      );
    }
    const out = await d.process(result, 4096, context);
    expect(stripDisclosureNotes(out.text)).toBe('recomputed');
    expect(provider.requests).toHaveLength(2);
    for (const key of keys) {
      expect(JSON.parse((await client.get(key))!).v).toBe(DISTILL_CACHE_ENVELOPE_VERSION);
    }
  });

  it('refuses a well-formed forged envelope: it must match the input and read as a distillation', async () => {
    provider.setHandler(() => ({ text: 'real summary' }));
    const client = connect();
    await client.flushdb();
    const result = sampleRecords(300_000, 11);
    await distiller(client).process(result, 4096, context);
    const [key] = await client.keys('compaction:distill:*');
    const real = JSON.parse((await client.get(key!))!);
    const forgeries = [
      // A lossless claim for a 300 KB input, no note, a tiny original size.
      {
        ...real,
        text: 'invented',
        metadata: { contentLost: false, originalBytes: 8, outputBytes: 8 },
      },
      // A plausible distillation made from another input.
      { ...real, input: { digest: await distillInputDigest('other'), bytes: real.input.bytes } },
      { ...real, input: { ...real.input, bytes: 8 } },
      // Right input, but the text is not a distillation.
      {
        ...real,
        text: 'invented',
        metadata: { ...real.metadata, outputBytes: 8 },
      },
    ];
    for (const forged of forgeries) {
      await client.set(key!, JSON.stringify(forged));
      provider.resetStats();
      const out = await distiller(client).process(result, 4096, context);
      expect(stripDisclosureNotes(out.text)).toBe('real summary');
      expect(provider.requests).toHaveLength(1);
    }
  });

  it('authenticates entries with a shared secret: an unsigned or wrongly signed entry is a miss', async () => {
    provider.setHandler(() => ({ text: 'signed summary' }));
    const client = connect();
    await client.flushdb();
    const result = sampleRecords(40_000, 12);
    const secret = 'correct horse battery staple';
    const first = await distiller(client, 250, secret).process(result, 4096, context);
    const [key] = await client.keys('compaction:distill:*');
    const signed = JSON.parse((await client.get(key!))!);
    expect(signed.mac).toMatch(/^[0-9a-f]{64}$/);
    expect(await client.get(key!)).not.toContain(secret);

    provider.resetStats();
    expect(await distiller(client, 250, secret).process(result, 4096, context)).toEqual(first);
    expect(provider.requests).toHaveLength(0);

    const { mac: _mac, ...unsigned } = signed;
    for (const tampered of [
      unsigned,
      { ...signed, mac: '0'.repeat(64) },
      { ...signed, text: signed.text.replace('signed', 'forged') },
    ]) {
      await client.set(key!, JSON.stringify(tampered));
      provider.resetStats();
      await distiller(client, 250, secret).process(result, 4096, context);
      expect(provider.requests).toHaveLength(1);
    }
    // Another secret cannot read the entries either.
    provider.resetStats();
    await distiller(client, 250, 'another secret').process(result, 4096, context);
    expect(provider.requests).toHaveLength(1);
  });

  it('stays bounded when Redis is slow', async () => {
    provider.setHandler(() => ({ text: 'fresh' }));
    const client = connect();
    const admin = connect();
    const probe = connect();
    await Promise.all([client.ping(), probe.ping()]);
    // Bounded means done while Redis is still paused: a probe sent after the pause answers only
    // when it ends, so no wall-clock number is needed (the pause is 33 times the 150 ms timeout).
    await admin.call('CLIENT', 'PAUSE', '5000', 'ALL');
    let redisBack = false;
    const back = probe.ping().then(() => {
      redisBack = true;
    });
    const out = await distiller(client, 150).process(sampleRecords(30_000, 5), 4096, context);
    expect(redisBack).toBe(false);
    await admin.call('CLIENT', 'UNPAUSE');
    await back;
    expect(stripDisclosureNotes(out.text)).toBe('fresh');
  });

  it('still compacts when Redis is killed mid-run', async () => {
    provider.setHandler(() => ({ text: 'works' }));
    const client = connect();
    const d = distiller(client);
    await d.process(sampleRecords(30_000, 7), 4096, context);
    expect(await client.dbsize()).toBeGreaterThan(0);
    await redis.kill();
    const started = performance.now();
    const out = await d.process(sampleRecords(30_000, 11), 4096, context);
    expect(stripDisclosureNotes(out.text)).toBe('works');
    expect(performance.now() - started).toBeLessThan(3000);
    redis = await startRedisServer();
  });
});
