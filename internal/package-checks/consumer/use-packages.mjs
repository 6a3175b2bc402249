// Run in a consumer project with openai, @anthropic-ai/sdk and ioredis installed: each packed
// package doing its job through the SDKs the user installed, against the local provider server
// (and a real redis-server when REDIS_TESTS=1). Prints a JSON report.
import { readFileSync } from 'node:fs';
import { createDistiller } from '@compaction/distiller';
import { createAnthropicClient } from '@compaction/distiller/anthropic';
import { createOpenAIClient } from '@compaction/distiller/openai';
import { connectRedisDistillCache } from '@compaction/distiller/redis';
import { createProviderServer, startRedisServer } from '@compaction/distiller/test';
import { createStructuralTrimmer } from '@compaction/trimmer';

const versionOf = (name) =>
  JSON.parse(readFileSync(new URL(`./node_modules/${name}/package.json`, import.meta.url), 'utf8'))
    .version;

const report = {
  versions: {
    node: process.versions.node,
    openai: versionOf('openai'),
    anthropic: versionOf('@anthropic-ai/sdk'),
    ioredis: versionOf('ioredis'),
  },
};

const records = Array.from({ length: 400 }, (_, i) => ({
  id: `9007199254740993${i}`,
  state: i === 321 ? 'failed: out of memory' : 'done',
  log: 'x'.repeat(120),
}));
const big = JSON.stringify({ jobs: records });
const view = createStructuralTrimmer().trim(big, 2048, { userQuery: 'which job failed?' });
report.trim = {
  bytes: new TextEncoder().encode(view.text).length,
  contentLost: view.metadata.contentLost,
  keptFailure: view.text.includes('failed: out of memory'),
};

const server = await createProviderServer();
try {
  const openai = createOpenAIClient({
    env: { OPENAI_API_KEY: 'sk-test', OPENAI_BASE_URL: server.openaiBaseUrl },
    maxRetries: 0,
  });
  const anthropic = createAnthropicClient({
    env: { ANTHROPIC_API_KEY: 'ak-test', ANTHROPIC_BASE_URL: server.anthropicBaseUrl },
    maxRetries: 0,
  });
  server.setHandler(() => ({
    text: 'job 321 failed: out of memory',
    usage: { inputTokens: 5, outputTokens: 7 },
  }));
  const request = { system: 'be brief', prompt: 'which job failed?', model: 'fast', maxTokens: 50 };
  report.openai = await openai.complete(request);
  report.anthropic = await anthropic.complete(request);

  if (process.env.REDIS_TESTS === '1') {
    const redisServer = await startRedisServer();
    const redis = await connectRedisDistillCache({
      url: `redis://127.0.0.1:${redisServer.port}/0`,
    });
    try {
      server.resetStats();
      const distiller = createDistiller({ client: openai, cache: redis.cache });
      const first = await distiller.process(big, 4096, { userQuery: 'which job failed?' });
      const second = await distiller.process(big, 4096, { userQuery: 'which job failed?' });
      report.redis = {
        same: first.text === second.text,
        modelCalls: server.requests.length,
        distilled: first.text.includes('job 321 failed'),
      };
    } finally {
      redis.close();
      await redisServer.stop();
    }
  }
} finally {
  await server.close();
}
process.stdout.write(JSON.stringify(report));
