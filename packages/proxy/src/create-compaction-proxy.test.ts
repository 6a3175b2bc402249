import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Anthropic from '@anthropic-ai/sdk';
import { InvalidArgumentError, utf8ByteLength } from '@compaction/core';
import OpenAI from 'openai';
import { afterEach, describe, expect, it } from 'vitest';
import { createCompactionProxy } from './create-compaction-proxy.js';
import type { FakeUpstream } from './test/index.js';
import {
  anthropicConversation,
  bigLog,
  closeTestProxies,
  explodingView,
  onTestCleanup,
  startTestProxy,
} from './test-support/start-test-proxy.js';

afterEach(closeTestProxies);

/** The one pointer line a compacted view opens with: the stored file's path. */
function storedPath(view: string): string {
  const path = / in the file (\/\S+) \(/.exec(view.split('\n')[0]!)?.[1];
  expect(path, view.slice(0, 300)).toBeDefined();
  return path!;
}

/** The messages (or input items) of an upstream request body, each as its minified JSON. */
function serialized(upstream: FakeUpstream, index: number, key = 'messages'): string {
  const body = upstream.requests[index]!.body;
  const joined = (JSON.parse(body)[key] as unknown[]).map((m) => JSON.stringify(m)).join(',');
  expect(body).toContain(joined);
  return joined;
}

describe('createCompactionProxy with the Anthropic SDK', () => {
  it('sends upstream the compacted view with its note, the full result in the file it names, and the next request repeats it byte for byte', async () => {
    const { upstream, url, events } = await startTestProxy();
    const client = new Anthropic({ apiKey: 'sk-ant-test-key', baseURL: url, maxRetries: 0 });
    const log = bigLog('nightly');
    const messages = anthropicConversation(log);
    const answer = await client.messages.create({ model: 'claude-x', max_tokens: 100, messages });
    expect(answer.content).toEqual([{ type: 'text', text: 'fake answer' }]);

    const sent = JSON.parse(upstream.requests[0]!.body);
    const result = sent.messages[2].content[0];
    expect(result.cache_control).toEqual({ type: 'ephemeral' });
    expect(utf8ByteLength(result.content)).toBeLessThanOrEqual(8192);
    expect(result.content).toMatch(/\n\[trimmed: [^\n]*omitted content is UNKNOWN, not absent\]$/);
    expect(result.content).toContain('disk quota exceeded');
    expect(await readFile(storedPath(result.content), 'utf8')).toBe(log);
    expect(upstream.requests[0]!.headers.authorization).toBe('Bearer sk-ant-test-key');
    expect(upstream.requests[0]!.headers['anthropic-version']).toBeDefined();
    expect(JSON.stringify(events)).not.toContain('sk-ant-test-key');
    expect(events[0]).toMatchObject({ format: 'anthropic-messages', toolResults: 1, rewritten: 1 });
    expect(events[0]!.bytesOut).toBeLessThan(events[0]!.bytesIn / 10);

    // The conversation goes on: the model's answer, a second tool call and its result.
    messages.push(
      {
        role: 'assistant',
        content: [{ type: 'tool_use', id: 'toolu_2', name: 'Bash', input: { command: 'df' } }],
      },
      {
        role: 'user',
        content: [{ type: 'tool_result', tool_use_id: 'toolu_2', content: bigLog('df') }],
      },
    );
    const stream = client.messages.stream({ model: 'claude-x', max_tokens: 100, messages });
    const final = await stream.finalMessage();
    expect(final.content).toEqual([{ type: 'text', text: 'fake answer' }]);
    expect(upstream.requests[1]!.body).toContain(serialized(upstream, 0));
    expect(events[1]).toMatchObject({ toolResults: 2, rewritten: 2 });
    expect(events[1]!.conversationId).toBe(events[0]!.conversationId);
    expect(JSON.parse(upstream.requests[1]!.body).stream).toBe(true);
    const stats = (await (await fetch(`${url}/compaction/stats`)).json()) as {
      conversations: Record<string, { requests: number; bytesIn: number; bytesOut: number }>;
    };
    const totals = stats.conversations[events[0]!.conversationId!];
    expect(totals).toMatchObject({ requests: 2, bytesIn: events[0]!.bytesIn + events[1]!.bytesIn });
    expect(totals!.bytesOut).toBe(events[0]!.bytesOut + events[1]!.bytesOut);
  });

  it('holds a long conversation to its budget: older results step down to a line naming their file', async () => {
    const { upstream, url, events } = await startTestProxy({ conversation: { maxBytes: 20_000 } });
    const client = new Anthropic({ apiKey: 'k', baseURL: url, maxRetries: 0 });
    const messages: Anthropic.MessageParam[] = [
      { role: 'user', content: 'Find the failing step.' },
    ];
    for (let i = 1; i <= 4; i++) {
      messages.push(
        {
          role: 'assistant',
          content: [{ type: 'tool_use', id: `toolu_${i}`, name: 'Bash', input: { i } }],
        },
        {
          role: 'user',
          content: [{ type: 'tool_result', tool_use_id: `toolu_${i}`, content: bigLog(`run${i}`) }],
        },
      );
    }
    await client.messages.create({ model: 'claude-x', max_tokens: 10, messages });
    const sent = JSON.parse(upstream.requests[0]!.body).messages;
    const first = sent[2].content[0].content as string;
    const path =
      /^\[stepped down: Bash toolu_1, \d+ bytes, (?:sha256 [0-9a-f]{64}, )?stored as art_[0-9a-f]{24} in the file (\/\S+);/.exec(
        first,
      )?.[1];
    expect(path, first.slice(0, 400)).toBeDefined();
    expect(await readFile(path!, 'utf8')).toBe(bigLog('run1'));
    expect(first).toContain('opening the file its line names with your file tools');
    expect(JSON.stringify(sent)).not.toContain('artifact_read');
    expect(events[0]!.bytesOut).toBeLessThan(24_000);
  });

  it('sends the same bytes after a restart: a fresh proxy on the same dir rewrites the conversation identically', async () => {
    const first = await startTestProxy({ conversation: { maxBytes: 20_000 } });
    const messages: Anthropic.MessageParam[] = [
      { role: 'user', content: 'Find the failing step.' },
    ];
    for (let i = 1; i <= 3; i++) {
      messages.push(
        {
          role: 'assistant',
          content: [{ type: 'tool_use', id: `toolu_${i}`, name: 'Bash', input: { i } }],
        },
        {
          role: 'user',
          content: [{ type: 'tool_result', tool_use_id: `toolu_${i}`, content: bigLog(`r${i}`) }],
        },
      );
    }
    const ask = (url: string) =>
      new Anthropic({ apiKey: 'k', baseURL: url, maxRetries: 0 }).messages.create({
        model: 'claude-x',
        max_tokens: 10,
        messages,
      });
    await ask(first.url);
    const restarted = createCompactionProxy({
      port: 0,
      dir: first.dir,
      upstreamAnthropic: first.upstream.url,
      maxResultBytes: 8192,
      conversation: { maxBytes: 20_000 },
      env: {},
    });
    const url = await restarted.listen();
    onTestCleanup(() => restarted.close());
    await ask(url);
    expect(first.upstream.requests[1]!.body).toBe(first.upstream.requests[0]!.body);
    expect(first.upstream.requests[0]!.body).toContain('[stepped down: Bash toolu_1');
  });

  it('keeps a result within --max-bytes whole, unless COMPACTION_ARTIFACT_INLINE_LIMIT asks for the inline limit', async () => {
    // A 6 KB source file: under the 8 KiB per-result budget, over seed 001's 4 000 characters.
    const file = Array.from({ length: 150 }, (_, i) => `export const value${i} = ${i * 7};`).join(
      '\n',
    );
    const sentWith = async (env: Record<string, string>) => {
      const { upstream, url } = await startTestProxy({ env });
      const client = new Anthropic({ apiKey: 'k', baseURL: url, maxRetries: 0 });
      await client.messages.create({
        model: 'claude-x',
        max_tokens: 10,
        messages: anthropicConversation(file),
      });
      return JSON.parse(upstream.requests[0]!.body).messages[2].content[0].content as string;
    };
    expect(await sentWith({})).toBe(file);
    const limited = await sentWith({ COMPACTION_ARTIFACT_INLINE_LIMIT: '4000' });
    expect(limited).not.toBe(file);
    expect(await readFile(storedPath(limited), 'utf8')).toBe(file);
  });

  it('passes error statuses, rate-limit headers and error bodies through unchanged', async () => {
    const error = { type: 'error', error: { type: 'rate_limit_error', message: 'slow down' } };
    const { upstream, url } = await startTestProxy({}, () => ({
      status: 429,
      headers: {
        'content-type': 'application/json',
        'retry-after': '7',
        'anthropic-ratelimit-requests-remaining': '0',
        'request-id': 'req_429',
      },
      body: JSON.stringify(error),
    }));
    const client = new Anthropic({ apiKey: 'k', baseURL: url, maxRetries: 0 });
    const caught = await client.messages
      .create({ model: 'claude-x', max_tokens: 10, messages: anthropicConversation(bigLog('x')) })
      .catch((e: unknown) => e);
    expect(caught).toBeInstanceOf(Anthropic.RateLimitError);
    const failure = caught as InstanceType<typeof Anthropic.RateLimitError>;
    expect(failure.status).toBe(429);
    expect(failure.error).toEqual(error);
    expect(failure.headers.get('retry-after')).toBe('7');
    expect(failure.headers.get('anthropic-ratelimit-requests-remaining')).toBe('0');
    expect(failure.requestID).toBe('req_429');
    expect(upstream.requests).toHaveLength(1);
  });

  it('compacts count_tokens the same way and forwards other paths untouched', async () => {
    const { upstream, url } = await startTestProxy();
    const client = new Anthropic({ apiKey: 'k', baseURL: url, maxRetries: 0 });
    const counted = await client.messages.countTokens({
      model: 'claude-x',
      messages: anthropicConversation(bigLog('count')),
    });
    expect(counted.input_tokens).toBe(42);
    expect(upstream.requests[0]!.path).toBe('/v1/messages/count_tokens');
    expect(upstream.requests[0]!.body.length).toBeLessThan(20_000);
    const models = await fetch(`${url}/v1/models?limit=5`, { headers: { 'x-api-key': 'k' } });
    expect(models.status).toBe(200);
    expect(upstream.requests[1]).toMatchObject({ method: 'GET', path: '/v1/models?limit=5' });
  });

  it('fails open: a failing view, or one past the deadline, sends the original bytes and says why', async () => {
    const failing = await startTestProxy({ view: explodingView });
    const messages = anthropicConversation(bigLog('open'));
    const client = new Anthropic({ apiKey: 'k', baseURL: failing.url, maxRetries: 0 });
    await client.messages.create({ model: 'claude-x', max_tokens: 10, messages });
    expect(JSON.parse(failing.upstream.requests[0]!.body).messages).toEqual(messages);
    expect(failing.events[0]!.failedOpen).toContain('view exploded');

    const slow = await startTestProxy({
      deadlineMs: 50,
      view: { process: () => new Promise(() => {}) },
    });
    const slowClient = new Anthropic({ apiKey: 'k', baseURL: slow.url, maxRetries: 0 });
    await slowClient.messages.create({ model: 'claude-x', max_tokens: 10, messages });
    expect(JSON.parse(slow.upstream.requests[0]!.body).messages).toEqual(messages);
    expect(slow.events[0]!.failedOpen).toBe('compaction passed its deadline of 50 ms');
  });

  it('answers 502 in the API error shape when the upstream cannot be reached', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'compaction-proxy-'));
    onTestCleanup(() => rm(dir, { recursive: true, force: true }));
    const proxy = createCompactionProxy({
      port: 0,
      dir,
      upstreamAnthropic: 'http://127.0.0.1:9',
      env: {},
    });
    const url = await proxy.listen();
    onTestCleanup(() => proxy.close());
    const client = new Anthropic({ apiKey: 'k', baseURL: url, maxRetries: 0 });
    const caught = await client.messages
      .create({ model: 'claude-x', max_tokens: 10, messages: [{ role: 'user', content: 'hi' }] })
      .catch((e: unknown) => e);
    expect(caught).toMatchObject({ status: 502 });
    expect(String((caught as Error).message)).toContain('upstream could not be reached');
  });
});

describe('createCompactionProxy with the OpenAI SDK', () => {
  const chat = (first: string): OpenAI.ChatCompletionMessageParam[] => [
    { role: 'system', content: 'You are a release engineer.' },
    { role: 'user', content: 'Why did the nightly job fail?' },
    {
      role: 'assistant',
      content: null,
      tool_calls: [
        { id: 'call_1', type: 'function', function: { name: 'read_log', arguments: '{}' } },
      ],
    },
    { role: 'tool', tool_call_id: 'call_1', content: first },
  ];

  it('compacts role "tool" messages in Chat Completions, streaming and not, and keeps earlier messages byte for byte', async () => {
    const { upstream, url, events } = await startTestProxy();
    const client = new OpenAI({ apiKey: 'sk-test', baseURL: `${url}/v1`, maxRetries: 0 });
    const messages = chat(bigLog('chat'));
    const answer = await client.chat.completions.create({ model: 'gpt-x', messages });
    expect(answer.choices[0]!.message.content).toBe('fake answer');
    const sent = JSON.parse(upstream.requests[0]!.body).messages[3].content as string;
    expect(utf8ByteLength(sent)).toBeLessThanOrEqual(8192);
    expect(sent).toContain('disk quota exceeded');
    expect(await readFile(storedPath(sent), 'utf8')).toBe(bigLog('chat'));
    expect(upstream.requests[0]!.headers.authorization).toBe('Bearer sk-test');

    messages.push(
      {
        role: 'assistant',
        content: 'Looking further.',
        tool_calls: [
          { id: 'call_2', type: 'function', function: { name: 'read_log', arguments: '{"n":2}' } },
        ],
      },
      { role: 'tool', tool_call_id: 'call_2', content: [{ type: 'text', text: bigLog('second') }] },
    );
    const stream = await client.chat.completions.create({ model: 'gpt-x', messages, stream: true });
    let text = '';
    for await (const chunk of stream) text += chunk.choices[0]?.delta.content ?? '';
    expect(text).toBe('fake answer');
    expect(upstream.requests[1]!.body).toContain(serialized(upstream, 0));
    const second = JSON.parse(upstream.requests[1]!.body).messages[5].content;
    expect(second).toHaveLength(1);
    expect(utf8ByteLength(second[0].text)).toBeLessThanOrEqual(8192);
    expect(events.map((e) => e.format)).toEqual(['openai-chat', 'openai-chat']);
  });

  it('compacts function_call_output items in Responses, streaming and not', async () => {
    const { upstream, url } = await startTestProxy();
    const client = new OpenAI({ apiKey: 'sk-test', baseURL: `${url}/v1`, maxRetries: 0 });
    const input: OpenAI.Responses.ResponseInputItem[] = [
      { role: 'user', content: 'Why did the nightly job fail?' },
      { type: 'function_call', call_id: 'call_1', name: 'read_log', arguments: '{}' },
      { type: 'function_call_output', call_id: 'call_1', output: bigLog('responses') },
    ];
    const answer = await client.responses.create({ model: 'gpt-x', input });
    expect(answer.output_text).toBe('fake answer');
    const sent = JSON.parse(upstream.requests[0]!.body).input[2].output as string;
    expect(utf8ByteLength(sent)).toBeLessThanOrEqual(8192);
    expect(await readFile(storedPath(sent), 'utf8')).toBe(bigLog('responses'));

    input.push(
      { type: 'function_call', call_id: 'call_2', name: 'read_log', arguments: '{"n":2}' },
      { type: 'function_call_output', call_id: 'call_2', output: bigLog('again') },
    );
    const stream = await client.responses.create({ model: 'gpt-x', input, stream: true });
    let text = '';
    for await (const event of stream)
      if (event.type === 'response.output_text.delta') text += event.delta;
    expect(text).toBe('fake answer');
    expect(upstream.requests[1]!.body).toContain(serialized(upstream, 0, 'input'));
  });
});

describe('createCompactionProxy beyond loopback', () => {
  it('refuses to listen beyond loopback without a token', () => {
    let error: unknown;
    try {
      createCompactionProxy({ host: '0.0.0.0', port: 0, env: {} });
    } catch (caught) {
      error = caught;
    }
    expect(InvalidArgumentError.isInstance(error)).toBe(true);
    expect(String((error as Error).message)).toContain('needs a token');
  });

  it('with a token, answers 401 to requests without it and serves those whose base URL carries it', async () => {
    const token = 'test-token-0123456789';
    const { upstream, url } = await startTestProxy({ host: '0.0.0.0', token });
    expect(url.endsWith(`/t/${token}`)).toBe(true);
    const port = new URL(url).port;
    const bare = new Anthropic({ apiKey: 'k', baseURL: `http://127.0.0.1:${port}`, maxRetries: 0 });
    const refused = await bare.messages
      .create({ model: 'claude-x', max_tokens: 10, messages: [{ role: 'user', content: 'hi' }] })
      .catch((e: unknown) => e);
    expect(refused).toBeInstanceOf(Anthropic.AuthenticationError);
    expect(upstream.requests).toHaveLength(0);
    const client = new Anthropic({
      apiKey: 'k',
      baseURL: `http://127.0.0.1:${port}/t/${token}`,
      maxRetries: 0,
    });
    await client.messages.create({
      model: 'claude-x',
      max_tokens: 10,
      messages: [{ role: 'user', content: 'hi' }],
    });
    expect(upstream.requests[0]!.path).toBe('/v1/messages');
    const stats = await fetch(`http://127.0.0.1:${port}/t/${token}/compaction/stats`);
    expect(stats.status).toBe(200);
  });
});
