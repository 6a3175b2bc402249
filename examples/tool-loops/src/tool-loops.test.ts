import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Anthropic from '@anthropic-ai/sdk';
import OpenAI from 'openai';
import { afterEach, describe, expect, it } from 'vitest';
import { runAnthropicToolLoop } from './run-anthropic-tool-loop.js';
import { runOpenAIToolLoop } from './run-openai-tool-loop.js';
import { startScriptedModel } from './scripted-provider.js';

const cleanups: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0)) await cleanup();
});

async function setup() {
  const server = await startScriptedModel();
  const root = await mkdtemp(join(tmpdir(), 'tool-loop-'));
  cleanups.push(
    () => server.close(),
    () => rm(root, { recursive: true, force: true }),
  );
  return { server, transcriptPath: join(root, 'session.jsonl') };
}

describe('tool loops with the real SDKs and artifact-backed tool results', () => {
  it('OpenAI: the 2.5 MB log goes in as a small excerpt, the model finds the failure with artifact_search', async () => {
    const { server, transcriptPath } = await setup();
    const client = new OpenAI({ apiKey: 'local', baseURL: server.openaiBaseUrl, maxRetries: 0 });
    const run = await runOpenAIToolLoop({ client, model: 'gpt-test', transcriptPath });
    expect(run.answer).toContain('connection pool exhausted (max=5) txn=txn_4242');
    expect(run.toolMessages.map((m) => m.tool)).toEqual(['fetch_logs', 'artifact_search']);
    expect(run.toolMessages[0]!.bytes).toBeLessThan(16_000);
    expect(server.requests[0]!.toolNames).toEqual([
      'fetch_logs',
      'artifact_read',
      'artifact_search',
    ]);
    expect(server.requests.every((request) => request.bodyBytes < 40_000)).toBe(true);
  });

  it('Anthropic: the same loop on the Messages API', async () => {
    const { server, transcriptPath } = await setup();
    const client = new Anthropic({
      apiKey: 'local',
      baseURL: server.anthropicBaseUrl,
      maxRetries: 0,
    });
    const run = await runAnthropicToolLoop({ client, model: 'claude-test', transcriptPath });
    expect(run.answer).toContain('txn=txn_4242');
    expect(run.toolMessages.map((m) => m.tool)).toEqual(['fetch_logs', 'artifact_search']);
    expect(server.requests.every((request) => request.bodyBytes < 40_000)).toBe(true);
  });
});
