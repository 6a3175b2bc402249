import { EVENT_NAMES, type TokenCounter } from '@compaction/core';
import { createGptTokenCounter } from '@compaction/core/gpt-tokenizer';
import { createRecordingTelemetry } from '@compaction/core/test';
import { fixturesAvailable, readFixture } from '@compaction/fixtures';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createDistiller, type DistillerSettings } from './create-distiller.js';
import { createOpenAIClient } from './openai/index.js';
import { createProviderServer, type ProviderServer } from './test/index.js';
import { sampleRecords } from './test-support/sample-data.js';

let server: ProviderServer;
beforeAll(async () => {
  server = await createProviderServer();
});
afterAll(async () => {
  await server.close();
});
beforeEach(() => {
  server.resetStats();
  server.setHandler(() => ({ text: 'extract' }));
});

const context = { userQuery: 'which requests failed?' };

function distiller(settings: DistillerSettings) {
  const client = createOpenAIClient({
    env: { OPENAI_API_KEY: 'sk-test', OPENAI_BASE_URL: server.openaiBaseUrl },
    maxRetries: 0,
  });
  return createDistiller({ client, onWarning: () => {}, ...settings });
}

const halfByteCounter: TokenCounter = {
  name: 'two bytes per token',
  countTokens: (text) => Math.ceil(new TextEncoder().encode(text).length / 2),
};

describe('the token counter seam', () => {
  it('routes by the counter it is given, and says which one counted', async () => {
    const result = sampleRecords(300_000); // ~86 000 tokens estimated, ~150 000 at 2 bytes each
    const estimated = createRecordingTelemetry();
    const single = await distiller({ contextTokens: 100_000, telemetry: estimated }).process(
      result,
      4096,
      context,
    );
    expect(single.metadata.strategy).not.toBe('map-reduce');
    expect(estimated.events(EVENT_NAMES.mapReduceRoute)).toEqual([]);

    const counted = createRecordingTelemetry();
    const split = await distiller({
      contextTokens: 100_000,
      tokenCounter: halfByteCounter,
      telemetry: counted,
    }).process(result, 4096, context);
    expect(split.metadata.strategy).toBe('map-reduce');
    expect(counted.events(EVENT_NAMES.mapReduceRoute)[0]!.attributes).toMatchObject({
      'compaction.reason': 'context',
      'compaction.token_counter': 'two bytes per token',
      'compaction.estimated_tokens': expect.any(Number),
    });
  });

  it.skipIf(!fixturesAvailable())(
    'splits a real log that the byte estimate wrongly fits in the context, with o200k counting',
    async () => {
      const log = readFixture('logs/loghub-HDFS_2k.log'); // 288 KB: ~82 000 estimated, ~97 000 o200k
      const telemetry = createRecordingTelemetry();
      const byEstimate = await distiller({ contextTokens: 90_000 }).process(log, 4096, context);
      expect(byEstimate.metadata.strategy).not.toBe('map-reduce');
      const byTokenizer = await distiller({
        contextTokens: 90_000,
        tokenCounter: createGptTokenCounter(),
        telemetry,
      }).process(log, 4096, context);
      expect(byTokenizer.metadata.strategy).toBe('map-reduce');
      const route = telemetry.events(EVENT_NAMES.mapReduceRoute)[0]!.attributes;
      expect(route['compaction.token_counter']).toBe('o200k_base (gpt-tokenizer)');
      expect(route['compaction.estimated_tokens']).toBeGreaterThan(90_000);
    },
  );
});
