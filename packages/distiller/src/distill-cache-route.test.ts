import { stripDisclosureNotes } from '@compaction/core';
import { createMemoryDistillCache, createScriptedAIClient } from '@compaction/core/test';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createAnthropicClient } from './anthropic/index.js';
import { createChainClient } from './create-chain-client.js';
import { createDistiller } from './create-distiller.js';
import { createOpenAIClient } from './openai/index.js';
import { createProviderServer, type ProviderServer } from './test/index.js';
import { sampleRecords } from './test-support/sample-data.js';

// Seed 002 §5.3: the cache key carries a stable, secret-free route fingerprint; an unstable one
// bypasses the cache; an answer is written only when it came over the announced route.

let server: ProviderServer;
beforeAll(async () => {
  server = await createProviderServer();
});
afterAll(async () => {
  await server.close();
});
beforeEach(() => {
  server.resetStats();
  server.setHandler((request) => ({ text: `answer from ${request.model}` }));
});

const context = { userQuery: 'which requests failed?' };
const result = sampleRecords(40_000, 21);
const openai = (models?: { fast: string }) =>
  createOpenAIClient({
    env: { OPENAI_API_KEY: 'sk-secret-key', OPENAI_BASE_URL: server.openaiBaseUrl },
    maxRetries: 0,
    ...(models ? { models } : {}),
  });
const anthropic = () =>
  createAnthropicClient({
    env: { ANTHROPIC_API_KEY: 'ak-secret-key', ANTHROPIC_BASE_URL: server.anthropicBaseUrl },
    maxRetries: 0,
  });

describe('the distill cache and the route', () => {
  it('misses after the fast alias is remapped to another model', async () => {
    const cache = createMemoryDistillCache();
    const before = await createDistiller({ client: openai({ fast: 'model-a' }), cache }).process(
      result,
      4096,
      context,
    );
    const after = await createDistiller({ client: openai({ fast: 'model-b' }), cache }).process(
      result,
      4096,
      context,
    );
    expect(stripDisclosureNotes(before.text)).toBe('answer from model-a');
    expect(stripDisclosureNotes(after.text)).toBe('answer from model-b');
    expect(server.requests.map((request) => request.model)).toEqual(['model-a', 'model-b']);
    // The same mapping again is a hit.
    await createDistiller({ client: openai({ fast: 'model-b' }), cache }).process(
      result,
      4096,
      context,
    );
    expect(server.requests).toHaveLength(2);
  });

  it('does not store an answer produced after a chain failover under the chain key', async () => {
    server.setHandler((request) =>
      request.format === 'openai' ? { status: 503 } : { text: `answer from ${request.model}` },
    );
    const cache = createMemoryDistillCache();
    const chain = () => createChainClient([openai(), anthropic()]);
    const first = await createDistiller({ client: chain(), cache }).process(result, 4096, context);
    expect(stripDisclosureNotes(first.text)).toBe('answer from claude-haiku-4-5');
    expect(cache.calls.set).toBe(0);
    // With the first provider back, its answer is stored and then served.
    server.setHandler((request) => ({ text: `answer from ${request.model}` }));
    server.resetStats();
    await createDistiller({ client: chain(), cache }).process(result, 4096, context);
    await createDistiller({ client: chain(), cache }).process(result, 4096, context);
    expect(cache.calls.set).toBe(1);
    expect(server.requests).toHaveLength(1);
    // Another provider order is another route.
    await createDistiller({ client: createChainClient([anthropic(), openai()]), cache }).process(
      result,
      4096,
      context,
    );
    expect(server.requests).toHaveLength(2);
  });

  it('bypasses the cache entirely when the route is unstable', async () => {
    const cache = createMemoryDistillCache();
    const client = {
      ...createScriptedAIClient(() => ({ text: 'routed somewhere', route: 'r' })),
      route: () => ({ fingerprint: 'r', stable: false }),
    };
    const d = createDistiller({ client, cache });
    await d.process(result, 4096, context);
    await d.process(result, 4096, context);
    expect(cache.calls).toEqual({ get: 0, set: 0 });
  });

  it('does not store an answer whose reported route differs from the preflight', async () => {
    const cache = createMemoryDistillCache();
    const client = {
      ...createScriptedAIClient(() => ({ text: 'from elsewhere', route: 'other' })),
      route: () => ({ fingerprint: 'planned', stable: true }),
    };
    await createDistiller({ client, cache }).process(result, 4096, context);
    expect(cache.calls.get).toBe(1);
    expect(cache.calls.set).toBe(0);
  });

  it('fingerprints the endpoint, the resolved model and the provider order, never a credential', () => {
    const fingerprint = createChainClient([
      createOpenAIClient({
        apiKey: 'sk-secret-key',
        baseURL: 'https://alice:hunter2@proxy.example/v1?sig=zzqq',
      }),
      anthropic(),
    ]).route!({ model: 'fast' }).fingerprint;
    expect(fingerprint).toContain('proxy.example/v1');
    expect(fingerprint).toContain('gpt-5-mini');
    expect(fingerprint).toContain('claude-haiku-4-5');
    expect(fingerprint.indexOf('openai')).toBeLessThan(fingerprint.indexOf('anthropic'));
    for (const secret of ['sk-secret-key', 'ak-secret-key', 'alice', 'hunter2', 'zzqq']) {
      expect(fingerprint).not.toContain(secret);
    }
  });
});
