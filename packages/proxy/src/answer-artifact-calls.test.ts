import { rmSync } from 'node:fs';
import Anthropic from '@anthropic-ai/sdk';
import OpenAI from 'openai';
import { afterEach, describe, expect, it } from 'vitest';
import { createCompactionProxy } from './create-compaction-proxy.js';
import { fakeToolCallAnswer, type RecordedRequest } from './test/index.js';
import {
  anthropicConversation,
  bigLog,
  closeTestProxies,
  explodingView,
  onTestCleanup,
  startTestProxy,
} from './test-support/start-test-proxy.js';

afterEach(closeTestProxies);

const OURS = ['artifact_read', 'artifact_search'];
const bashTool: Anthropic.Tool = {
  name: 'Bash',
  description: 'Runs a shell command.',
  input_schema: { type: 'object', properties: { command: { type: 'string' } } },
};

/** The `art_` id the pointer line of the request's first stored result names. */
const storedId = (request: RecordedRequest) =>
  /artifact (art_[0-9a-f]{24})/.exec(request.body)![1]!;

const answeredBy = (request: RecordedRequest, marker: string) => request.body.includes(marker);

/** Lines `from`..`from + count - 1` (counting from 1) of `text`. */
const linesOf = (text: string, from: number, count: number) =>
  text
    .split('\n')
    .slice(from - 1, from - 1 + count)
    .join('\n');

describe('artifactTools with the Anthropic SDK', () => {
  it('adds the tools after the client’s, answers artifact_read with the stored bytes, and returns only the final answer', async () => {
    const log = bigLog('nightly');
    // The model reads lines 3989-3993 of the stored log, then answers.
    const script = (request: RecordedRequest) =>
      request.path === '/v1/messages' && !answeredBy(request, 'toolu_read')
        ? fakeToolCallAnswer(request, [
            {
              id: 'toolu_read',
              name: 'artifact_read',
              input: { id: storedId(request), offset: 3989, limit: 5 },
            },
          ])
        : undefined;
    const { upstream, url, dir, events } = await startTestProxy({ artifactTools: true }, script);
    const client = new Anthropic({ apiKey: 'k', baseURL: url, maxRetries: 0 });
    const messages = anthropicConversation(log);
    const answer = await client.messages.create({
      model: 'claude-x',
      max_tokens: 100,
      tools: [bashTool],
      messages,
    });
    expect(answer.content).toEqual([{ type: 'text', text: 'fake answer' }]);
    expect(answer.stop_reason).toBe('end_turn');
    expect(upstream.requests).toHaveLength(2);

    const first = JSON.parse(upstream.requests[0]!.body);
    expect(first.tools.map((tool: { name: string }) => tool.name)).toEqual(['Bash', ...OURS]);
    expect(first.tools[1].input_schema.required).toEqual(['id']);
    expect(first.messages[2].content[0].content).toContain('Use artifact_read("art_');
    const second = JSON.parse(upstream.requests[1]!.body);
    expect(second.tools).toEqual(first.tools);
    expect(second.messages.slice(0, 3)).toEqual(first.messages);
    expect(second.messages[3]).toEqual({
      role: 'assistant',
      content: [
        { type: 'text', text: 'Let me look.' },
        {
          type: 'tool_use',
          id: 'toolu_read',
          name: 'artifact_read',
          input: { id: storedId(upstream.requests[0]!), offset: 3989, limit: 5 },
        },
      ],
    });
    const result = second.messages[4].content[0];
    expect(result).toMatchObject({ type: 'tool_result', tool_use_id: 'toolu_read' });
    expect(result.is_error).toBeUndefined();
    const [header, ...page] = (result.content as string).split('\n');
    expect(header).toMatch(/^\[artifact art_[0-9a-f]{24} \(.*\): lines 3989-3993 of 4000;/);
    expect(page.join('\n')).toBe(`${linesOf(log, 3989, 5)}\n`);
    expect(page.join('\n')).toContain('ERROR nightly: disk quota exceeded');
    expect(events).toHaveLength(1);
    expect(events[0]).toMatchObject({ rewritten: 1, artifactToolCalls: 1 });

    // The client goes on from its own history: the proxy's round is not in it, and its
    // requests keep the same bytes before the new messages, tools block included.
    messages.push(
      { role: 'assistant', content: answer.content },
      { role: 'user', content: 'Thanks. Anything else?' },
    );
    await client.messages.create({
      model: 'claude-x',
      max_tokens: 100,
      tools: [bashTool],
      messages,
    });
    const third = upstream.requests[2]!.body;
    const sentBefore = first.messages.map((m: unknown) => JSON.stringify(m)).join(',');
    expect(upstream.requests[0]!.body).toContain(sentBefore);
    expect(third).toContain(`${sentBefore},{"role":"assistant"`);
    expect(JSON.parse(third).tools).toEqual(first.tools);
    expect(upstream.requests).toHaveLength(4);

    // A restarted proxy on the same folder sends the same bytes.
    const restarted = createCompactionProxy({
      port: 0,
      dir,
      upstreamAnthropic: upstream.url,
      maxResultBytes: 8192,
      env: {},
      artifactTools: true,
    });
    const again = new Anthropic({ apiKey: 'k', baseURL: await restarted.listen(), maxRetries: 0 });
    onTestCleanup(() => restarted.close());
    await again.messages.create({
      model: 'claude-x',
      max_tokens: 100,
      tools: [bashTool],
      messages,
    });
    expect(upstream.requests[4]!.body).toBe(third);
  });

  it('answers a failing read with an error result, and stops after maxArtifactToolRounds rounds', async () => {
    const log = bigLog('gone');
    let storeDir = '';
    let call = 0;
    // The model asks for an unknown id, then for the stored one, whose folder is gone by then.
    const script = (request: RecordedRequest) => {
      call++;
      if (call === 2) rmSync(storeDir, { recursive: true, force: true });
      return fakeToolCallAnswer(request, [
        {
          id: `toolu_r${call}`,
          name: 'artifact_read',
          input: { id: call === 1 ? 'art_000000000000000000000000' : storedId(request) },
        },
      ]);
    };
    const { upstream, url, events, dir } = await startTestProxy(
      { artifactTools: true, maxArtifactToolRounds: 2 },
      script,
    );
    storeDir = dir;
    const client = new Anthropic({ apiKey: 'k', baseURL: url, maxRetries: 0 });
    const answer = await client.messages.create({
      model: 'claude-x',
      max_tokens: 100,
      messages: anthropicConversation(log),
    });
    expect(upstream.requests).toHaveLength(3);
    // After the last round, the response reaches the client without the proxy's calls.
    expect(answer.content).toEqual([{ type: 'text', text: 'Let me look.' }]);
    expect(answer.stop_reason).toBe('end_turn');
    const last = JSON.parse(upstream.requests[2]!.body).messages;
    for (const index of [4, 6]) {
      const result = last[index].content[0];
      expect(result.is_error).toBe(true);
      expect(result.content).toMatch(/^error: /);
    }
    expect(last[4].content[0].content).toContain('art_000000000000000000000000');
    expect(events[0]).toMatchObject({ artifactToolCalls: 2 });
  });

  it('passes a turn that also calls the client’s tools to the client, the proxy’s calls removed', async () => {
    const script = (request: RecordedRequest) =>
      fakeToolCallAnswer(request, [
        { id: 'toolu_bash', name: 'Bash', input: { command: 'df -h' } },
        { id: 'toolu_read', name: 'artifact_read', input: { id: storedId(request) } },
      ]);
    const { upstream, url } = await startTestProxy({ artifactTools: true }, script);
    const client = new Anthropic({ apiKey: 'k', baseURL: url, maxRetries: 0 });
    const answer = await client.messages.create({
      model: 'claude-x',
      max_tokens: 100,
      tools: [bashTool],
      messages: anthropicConversation(bigLog('mixed')),
    });
    expect(upstream.requests).toHaveLength(1);
    expect(answer.stop_reason).toBe('tool_use');
    expect(answer.content).toEqual([
      { type: 'text', text: 'Let me look.' },
      { type: 'tool_use', id: 'toolu_bash', name: 'Bash', input: { command: 'df -h' } },
    ]);
  });

  it('fails open as before, and adds nothing to a request without a stored result', async () => {
    const failing = await startTestProxy({ artifactTools: true, view: explodingView });
    const messages = anthropicConversation(bigLog('open'));
    const client = new Anthropic({ apiKey: 'k', baseURL: failing.url, maxRetries: 0 });
    await client.messages.create({ model: 'claude-x', max_tokens: 10, messages });
    expect(JSON.parse(failing.upstream.requests[0]!.body)).not.toHaveProperty('tools');
    expect(JSON.parse(failing.upstream.requests[0]!.body).messages).toEqual(messages);
    expect(failing.events[0]!.failedOpen).toContain('view exploded');

    const { upstream, url, events } = await startTestProxy({ artifactTools: true });
    const plain = new Anthropic({ apiKey: 'k', baseURL: url, maxRetries: 0 });
    await plain.messages.create({
      model: 'claude-x',
      max_tokens: 10,
      tools: [bashTool],
      messages: anthropicConversation('small output'),
    });
    expect(JSON.parse(upstream.requests[0]!.body).tools).toEqual([bashTool]);
    expect(events[0]!.artifactToolCalls).toBeUndefined();
  });

  it('in a streamed request, holds the proxy’s turn back and streams only the final answer', async () => {
    const log = bigLog('streamed');
    const script = (request: RecordedRequest) =>
      answeredBy(request, 'toolu_read')
        ? undefined
        : fakeToolCallAnswer(request, [
            {
              id: 'toolu_read',
              name: 'artifact_read',
              input: { id: storedId(request), offset: 3990, limit: 2 },
            },
          ]);
    const { upstream, url, events } = await startTestProxy({ artifactTools: true }, script);
    const client = new Anthropic({ apiKey: 'k', baseURL: url, maxRetries: 0 });
    const stream = client.messages.stream({
      model: 'claude-x',
      max_tokens: 10,
      tools: [bashTool],
      messages: anthropicConversation(log),
    });
    const texts: string[] = [];
    stream.on('text', (text) => texts.push(text));
    const final = await stream.finalMessage();
    expect(final.content).toEqual([{ type: 'text', text: 'fake answer' }]);
    expect(texts).toEqual(['fake answer']);
    const first = JSON.parse(upstream.requests[0]!.body);
    expect(first.stream).toBe(true);
    expect(first.tools.map((tool: { name: string }) => tool.name)).toEqual(['Bash', ...OURS]);
    const second = JSON.parse(upstream.requests[1]!.body);
    expect(second.stream).toBe(true);
    // The turn is put together from its events: text, and the call's input from two deltas.
    expect(second.messages[3].content).toEqual([
      { type: 'text', text: 'Let me look.' },
      {
        type: 'tool_use',
        id: 'toolu_read',
        name: 'artifact_read',
        input: { id: storedId(upstream.requests[0]!), offset: 3990, limit: 2 },
      },
    ]);
    const page = second.messages[4].content[0].content as string;
    expect(page.split('\n').slice(1).join('\n')).toBe(`${linesOf(log, 3990, 2)}\n`);
    expect(events[0]).toMatchObject({ artifactToolCalls: 1 });
  });

  it('takes the proxy’s calls out of a streamed turn that also calls the client’s tools', async () => {
    const script = (request: RecordedRequest) =>
      fakeToolCallAnswer(request, [
        { id: 'toolu_read', name: 'artifact_read', input: { id: 'art_1' } },
        { id: 'toolu_bash', name: 'Bash', input: { command: 'df -h' } },
      ]);
    const { upstream, url } = await startTestProxy({ artifactTools: true }, script);
    const client = new Anthropic({ apiKey: 'k', baseURL: url, maxRetries: 0 });
    const final = await client.messages
      .stream({
        model: 'claude-x',
        max_tokens: 10,
        tools: [bashTool],
        messages: anthropicConversation(bigLog('mixed')),
      })
      .finalMessage();
    expect(upstream.requests).toHaveLength(1);
    expect(final.stop_reason).toBe('tool_use');
    expect(final.content).toEqual([
      { type: 'text', text: 'Let me look.' },
      { type: 'tool_use', id: 'toolu_bash', name: 'Bash', input: { command: 'df -h' } },
    ]);
  });
});

describe('artifactTools with the OpenAI SDK', () => {
  const chat = (log: string): OpenAI.ChatCompletionMessageParam[] => [
    { role: 'user', content: 'Why did the nightly job fail?' },
    {
      role: 'assistant',
      content: null,
      tool_calls: [
        { id: 'call_1', type: 'function', function: { name: 'read_log', arguments: '{}' } },
      ],
    },
    { role: 'tool', tool_call_id: 'call_1', content: log },
  ];
  const readLog: OpenAI.ChatCompletionTool = {
    type: 'function',
    function: { name: 'read_log', parameters: { type: 'object', properties: {} } },
  };

  it('answers artifact_search in Chat Completions, streamed and not, with the same tools block', async () => {
    const log = bigLog('chat');
    const script = (request: RecordedRequest) =>
      answeredBy(request, 'call_search')
        ? undefined
        : fakeToolCallAnswer(request, [
            {
              id: 'call_search',
              name: 'artifact_search',
              input: { id: storedId(request), pattern: 'disk quota' },
            },
          ]);
    const { upstream, url, events } = await startTestProxy({ artifactTools: true }, script);
    const client = new OpenAI({ apiKey: 'sk-test', baseURL: `${url}/v1`, maxRetries: 0 });
    const messages = chat(log);
    const answer = await client.chat.completions.create({
      model: 'gpt-x',
      tools: [readLog],
      messages,
    });
    expect(answer.choices[0]!.message).toMatchObject({ content: 'fake answer' });
    expect(answer.choices[0]!.message.tool_calls).toBeUndefined();
    const first = JSON.parse(upstream.requests[0]!.body);
    expect(
      first.tools.map((tool: OpenAI.ChatCompletionFunctionTool) => tool.function.name),
    ).toEqual(['read_log', ...OURS]);
    const second = JSON.parse(upstream.requests[1]!.body).messages;
    expect(second.slice(0, 3)).toEqual(first.messages);
    expect(second[3]).toMatchObject({
      role: 'assistant',
      content: null,
      tool_calls: [{ id: 'call_search', function: { name: 'artifact_search' } }],
    });
    expect(second[4].tool_call_id).toBe('call_search');
    expect(second[4].content).toMatch(/: 1 match; 4000 lines\]\n3991:\d+: ERROR chat: disk quota/);
    expect(events[0]).toMatchObject({ artifactToolCalls: 1 });

    const stream = await client.chat.completions.create({
      model: 'gpt-x',
      tools: [readLog],
      messages,
      stream: true,
    });
    let text = '';
    for await (const chunk of stream) text += chunk.choices[0]?.delta.content ?? '';
    expect(text).toBe('fake answer');
    expect(upstream.requests).toHaveLength(4);
    const streamed = JSON.parse(upstream.requests[2]!.body);
    expect(JSON.stringify(streamed.tools)).toBe(JSON.stringify(first.tools));
    const continued = JSON.parse(upstream.requests[3]!.body).messages;
    expect(continued[3]).toMatchObject({
      role: 'assistant',
      tool_calls: [
        {
          id: 'call_search',
          function: {
            name: 'artifact_search',
            arguments: JSON.stringify({
              id: storedId(upstream.requests[2]!),
              pattern: 'disk quota',
            }),
          },
        },
      ],
    });
    expect(continued[4].content).toMatch(/\n3991:\d+: ERROR chat: disk quota/);
    expect(events[1]).toMatchObject({ artifactToolCalls: 1 });
  });

  it('answers artifact_read in Responses', async () => {
    const log = bigLog('responses');
    const script = (request: RecordedRequest) =>
      answeredBy(request, 'call_read')
        ? undefined
        : fakeToolCallAnswer(request, [
            {
              id: 'call_read',
              name: 'artifact_read',
              input: { id: storedId(request), offset: -3 },
            },
          ]);
    const { upstream, url } = await startTestProxy({ artifactTools: true }, script);
    const client = new OpenAI({ apiKey: 'sk-test', baseURL: `${url}/v1`, maxRetries: 0 });
    const asked: OpenAI.Responses.ResponseInputItem[] = [
      { role: 'user', content: 'Why did the nightly job fail?' },
      { type: 'function_call', call_id: 'call_1', name: 'read_log', arguments: '{}' },
      { type: 'function_call_output', call_id: 'call_1', output: log },
    ];
    const answer = await client.responses.create({ model: 'gpt-x', input: asked });
    expect(answer.output_text).toBe('fake answer');
    expect(answer.output.map((item) => item.type)).toEqual(['message']);
    const first = JSON.parse(upstream.requests[0]!.body);
    expect(first.tools).toMatchObject([
      { type: 'function', name: 'artifact_read', strict: false },
      { type: 'function', name: 'artifact_search', strict: false },
    ]);
    const input = JSON.parse(upstream.requests[1]!.body).input;
    expect(input.slice(0, 3)).toEqual(first.input);
    expect(input[3]).toMatchObject({ type: 'function_call', call_id: 'call_read' });
    expect(input[4]).toMatchObject({ type: 'function_call_output', call_id: 'call_read' });
    expect(input[4].output.split('\n').slice(1).join('\n')).toBe(linesOf(log, 3998, 3));

    const stream = await client.responses.create({
      model: 'gpt-x',
      input: asked,
      stream: true,
    });
    let text = '';
    for await (const event of stream) {
      expect(event.type).not.toMatch(/function_call/);
      if (event.type === 'response.output_text.delta') text += event.delta;
    }
    expect(text).toBe('fake answer');
    const streamed = JSON.parse(upstream.requests[3]!.body).input;
    expect(streamed[3]).toMatchObject({
      type: 'function_call',
      call_id: 'call_read',
      name: 'artifact_read',
    });
    expect(streamed[4].output).toBe(input[4].output);
  });

  it('takes the proxy’s calls out of a streamed Chat Completions or Responses turn that also calls the client’s', async () => {
    const script = (request: RecordedRequest) =>
      fakeToolCallAnswer(request, [
        { id: 'call_read', name: 'artifact_read', input: { id: 'art_1' } },
        { id: 'call_log', name: 'read_log', input: { n: 2 } },
      ]);
    const { upstream, url } = await startTestProxy({ artifactTools: true }, script);
    const client = new OpenAI({ apiKey: 'sk-test', baseURL: `${url}/v1`, maxRetries: 0 });
    const stream = await client.chat.completions.create({
      model: 'gpt-x',
      tools: [readLog],
      messages: chat(bigLog('mixed')),
      stream: true,
    });
    const calls: OpenAI.ChatCompletionChunk.Choice.Delta.ToolCall[] = [];
    let finish: string | null = null;
    for await (const chunk of stream) {
      calls.push(...(chunk.choices[0]?.delta.tool_calls ?? []));
      finish = chunk.choices[0]?.finish_reason ?? finish;
    }
    expect(calls.every((call) => call.index === 0)).toBe(true);
    expect(calls.map((call) => call.function?.arguments ?? '').join('')).toBe('{"n":2}');
    expect(calls[0]).toMatchObject({ id: 'call_log', function: { name: 'read_log' } });
    expect(finish).toBe('tool_calls');

    const responses = await client.responses.create({
      model: 'gpt-x',
      input: [
        { role: 'user', content: 'Why did the nightly job fail?' },
        { type: 'function_call', call_id: 'call_1', name: 'read_log', arguments: '{}' },
        { type: 'function_call_output', call_id: 'call_1', output: bigLog('mixed responses') },
      ],
      stream: true,
    });
    const added: string[] = [];
    let output: OpenAI.Responses.ResponseOutputItem[] = [];
    for await (const event of responses) {
      if (event.type === 'response.output_item.added') {
        expect(event.output_index).toBe(0);
        added.push(event.item.type === 'function_call' ? event.item.name : event.item.type);
      }
      if (event.type === 'response.completed') output = event.response.output;
    }
    expect(added).toEqual(['read_log']);
    expect(
      output.map((item) => (item.type === 'function_call' ? item.call_id : item.type)),
    ).toEqual(['call_log']);
    expect(
      JSON.parse(upstream.requests[1]!.body).tools.map((tool: { name: string }) => tool.name),
    ).toEqual(OURS);
    expect(upstream.requests).toHaveLength(2);
  });

  it('leaves a client that offers artifact_read itself alone: no tools added, its calls reach it', async () => {
    const script = (request: RecordedRequest) =>
      fakeToolCallAnswer(request, [
        { id: 'call_own', name: 'artifact_read', input: { id: 'art_1' } },
      ]);
    const { upstream, url } = await startTestProxy({ artifactTools: true }, script);
    const client = new OpenAI({ apiKey: 'sk-test', baseURL: `${url}/v1`, maxRetries: 0 });
    const own: OpenAI.ChatCompletionTool = {
      type: 'function',
      function: { name: 'artifact_read', parameters: { type: 'object', properties: {} } },
    };
    const answer = await client.chat.completions.create({
      model: 'gpt-x',
      tools: [own],
      messages: chat(bigLog('own')),
    });
    expect(answer.choices[0]!.message.tool_calls?.[0]?.id).toBe('call_own');
    expect(JSON.parse(upstream.requests[0]!.body).tools).toEqual([own]);
    expect(upstream.requests).toHaveLength(1);
  });
});
