import Anthropic from '@anthropic-ai/sdk';
import OpenAI from 'openai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAnthropicClient } from './anthropic/index.js';
import { createChainClient } from './create-chain-client.js';
import { MissingCredentialsError } from './missing-credentials-error.js';
import { ModelCallError } from './model-call-error.js';
import { createOpenAIClient } from './openai/index.js';
import { createProviderServer, type ProviderServer } from './test/index.js';

let server: ProviderServer;

beforeAll(async () => {
  server = await createProviderServer();
});
afterAll(async () => {
  await server.close();
});

const clients = {
  openai: (retries = 0) =>
    createOpenAIClient({
      env: { OPENAI_API_KEY: 'sk-test', OPENAI_BASE_URL: server.openaiBaseUrl },
      maxRetries: retries,
    }),
  anthropic: (retries = 0) =>
    createAnthropicClient({
      env: { ANTHROPIC_API_KEY: 'ak-test', ANTHROPIC_BASE_URL: server.anthropicBaseUrl },
      maxRetries: retries,
    }),
};

async function failureOf(promise: Promise<unknown>): Promise<ModelCallError> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  if (!ModelCallError.isInstance(error)) throw new Error(`expected a ModelCallError, got ${error}`);
  return error;
}

describe.each(['openai', 'anthropic'] as const)('%s client over the real SDK', (provider) => {
  it('sends system, prompt, resolved alias and limits, and reads text and usage', async () => {
    server.resetStats();
    server.setHandler(() => ({ text: 'the answer', usage: { inputTokens: 11, outputTokens: 3 } }));
    const answer = await clients[provider]().complete({
      system: 'be brief',
      prompt: 'what is up',
      model: 'fast',
      maxTokens: 77,
      temperature: 0,
    });
    expect(answer.text).toBe('the answer');
    expect(answer.usage).toEqual({ inputTokens: 11, outputTokens: 3 });
    // A request an earlier test abandoned (the hang) can still reach a loaded server late.
    const request = server.requests.find((r) => r.prompt === 'what is up');
    expect(request).toMatchObject({
      format: provider,
      system: 'be brief',
      prompt: 'what is up',
      maxTokens: 77,
      temperature: 0,
    });
    expect(request!.model).toBe(provider === 'openai' ? 'gpt-5-mini' : 'claude-haiku-4-5');
    expect(request!.apiKey).toBe(provider === 'openai' ? 'sk-test' : 'ak-test');
  });

  it('classifies 429 and 500 as retryable and 404 as a client error', async () => {
    for (const [status, kind, retryable] of [
      [429, 'rate_limit', true],
      [500, 'server', true],
      [404, 'client', false],
    ] as const) {
      server.setHandler(() => ({ status }));
      const error = await failureOf(
        clients[provider]().complete({ system: '', prompt: 'x', model: 'fast' }),
      );
      expect(error).toMatchObject({ status, kind, retryable, provider });
    }
  });

  it('uses the SDK retries: a 429 then a success answers once, with two requests', async () => {
    server.resetStats();
    server.setHandler((_request, index) => (index === 0 ? { status: 429 } : { text: 'ok' }));
    const answer = await clients[provider](2).complete({ system: '', prompt: 'x', model: 'fast' });
    expect(answer.text).toBe('ok');
    expect(server.requests).toHaveLength(2);
  });

  it('rejects a malformed body as retryable and a hang as aborted when the signal fires', async () => {
    server.setHandler(() => ({ malformed: true }));
    const malformed = await failureOf(
      clients[provider]().complete({ system: '', prompt: 'x', model: 'fast' }),
    );
    expect(malformed.retryable).toBe(true);

    // The server never answers: only the abort ends the call (or the test's timeout would).
    server.setHandler(() => ({ hang: true }));
    const aborted = await failureOf(
      clients[provider]().complete({
        system: '',
        prompt: 'x',
        model: 'fast',
        signal: AbortSignal.timeout(150),
      }),
    );
    expect(aborted).toMatchObject({ kind: 'aborted', retryable: false });
  });

  it('refuses to build a client without an API key and names the variable', () => {
    const error = (() => {
      try {
        provider === 'openai' ? createOpenAIClient() : createAnthropicClient();
      } catch (e) {
        return e;
      }
    })();
    expect(MissingCredentialsError.isInstance(error)).toBe(true);
    expect(String((error as Error).message)).toContain(
      provider === 'openai' ? 'OPENAI_API_KEY' : 'ANTHROPIC_API_KEY',
    );
  });
});

describe('a keyless OpenAI-compatible server', () => {
  it('is reached through a base URL alone, with no Authorization header', async () => {
    server.resetStats();
    server.setHandler(() => ({ text: 'local answer' }));
    const client = createOpenAIClient({
      env: { OPENAI_BASE_URL: server.openaiBaseUrl },
      maxRetries: 0,
    });
    const answer = await client.complete({ system: 's', prompt: 'p', model: 'fast' });
    expect(answer.text).toBe('local answer');
    expect(server.requests[0]!.apiKey).toBeUndefined();
  });
});

describe('ready SDK instances', () => {
  it('uses an injected OpenAI or Anthropic client as is, with alias overrides', async () => {
    server.resetStats();
    server.setHandler(() => ({ text: 'ok' }));
    const openai = createOpenAIClient({
      client: new OpenAI({ apiKey: 'own', baseURL: server.openaiBaseUrl, maxRetries: 0 }),
      models: { fast: 'llama3.2' },
    });
    const anthropic = createAnthropicClient({
      client: new Anthropic({ apiKey: 'own', baseURL: server.anthropicBaseUrl, maxRetries: 0 }),
    });
    await openai.complete({ system: '', prompt: 'x', model: 'fast' });
    await anthropic.complete({ system: '', prompt: 'x', model: 'claude-3-5-haiku-latest' });
    expect(server.requests.map((r) => [r.format, r.model, r.apiKey])).toEqual([
      ['openai', 'llama3.2', 'own'],
      ['anthropic', 'claude-3-5-haiku-latest', 'own'],
    ]);
  });
});

describe('createChainClient', () => {
  it('fails over on a retryable error to the next provider', async () => {
    server.resetStats();
    server.setHandler((request) =>
      request.format === 'openai' ? { status: 503 } : { text: 'from anthropic' },
    );
    const failovers: string[] = [];
    const chain = createChainClient([clients.openai(), clients.anthropic()], {
      onFailover: ({ provider, next }) => failovers.push(`${provider}>${next}`),
    });
    const answer = await chain.complete({ system: '', prompt: 'x', model: 'fast' });
    expect(answer.text).toBe('from anthropic');
    expect(failovers).toEqual(['openai>anthropic']);
    expect(server.requests.map((r) => r.format)).toEqual(['openai', 'anthropic']);
  });

  it('stops at a non-retryable 404 without trying the next provider', async () => {
    server.resetStats();
    server.setHandler((request) =>
      request.format === 'openai' ? { status: 404 } : { text: 'never' },
    );
    const chain = createChainClient([clients.openai(), clients.anthropic()]);
    const error = await failureOf(chain.complete({ system: '', prompt: 'x', model: 'gpt-x' }));
    expect(error.status).toBe(404);
    expect(server.requests.map((r) => r.format)).toEqual(['openai']);
  });

  it('rejects with the last failure when every provider fails', async () => {
    server.setHandler(() => ({ status: 500 }));
    const chain = createChainClient([clients.openai(), clients.anthropic()]);
    const error = await failureOf(chain.complete({ system: '', prompt: 'x', model: 'fast' }));
    expect(error.provider).toBe('anthropic');
  });
});
