import http from 'node:http';
import type { AddressInfo } from 'node:net';

/** One request the fake upstream received. */
export interface RecordedRequest {
  method: string;
  path: string;
  headers: http.IncomingHttpHeaders;
  /** The body exactly as received. */
  body: string;
}

/** An answer the test scripts instead of the default one. */
export interface ScriptedAnswer {
  status: number;
  headers?: Record<string, string>;
  body: string;
}

const sse = (events: ReadonlyArray<[string | undefined, unknown]>) =>
  events
    .map(
      ([event, data]) =>
        `${event ? `event: ${event}\n` : ''}data: ${typeof data === 'string' ? data : JSON.stringify(data)}\n\n`,
    )
    .join('');

/** The answer of each API to `body`, a text reply of `text`, streamed when `body.stream`. */
function defaultAnswer(path: string, body: Record<string, unknown>, text: string) {
  const stream = body.stream === true;
  const model = typeof body.model === 'string' ? body.model : 'fake-model';
  if (path.endsWith('/count_tokens')) return { json: { input_tokens: 42 } };
  if (path.endsWith('/v1/messages')) {
    const message = {
      id: 'msg_fake',
      type: 'message',
      role: 'assistant',
      model,
      content: [{ type: 'text', text }],
      stop_reason: 'end_turn',
      stop_sequence: null,
      usage: { input_tokens: 10, output_tokens: 3 },
    };
    if (!stream) return { json: message };
    return {
      sse: sse([
        [
          'message_start',
          { type: 'message_start', message: { ...message, content: [], stop_reason: null } },
        ],
        [
          'content_block_start',
          { type: 'content_block_start', index: 0, content_block: { type: 'text', text: '' } },
        ],
        [
          'content_block_delta',
          { type: 'content_block_delta', index: 0, delta: { type: 'text_delta', text } },
        ],
        ['content_block_stop', { type: 'content_block_stop', index: 0 }],
        [
          'message_delta',
          {
            type: 'message_delta',
            delta: { stop_reason: 'end_turn', stop_sequence: null },
            usage: { output_tokens: 3 },
          },
        ],
        ['message_stop', { type: 'message_stop' }],
      ]),
    };
  }
  if (path.endsWith('/chat/completions')) {
    const base = { id: 'chatcmpl-fake', created: 1, model };
    if (!stream)
      return {
        json: {
          ...base,
          object: 'chat.completion',
          choices: [
            { index: 0, message: { role: 'assistant', content: text }, finish_reason: 'stop' },
          ],
          usage: { prompt_tokens: 10, completion_tokens: 3, total_tokens: 13 },
        },
      };
    const chunk = (delta: unknown, finish: string | null) => ({
      ...base,
      object: 'chat.completion.chunk',
      choices: [{ index: 0, delta, finish_reason: finish }],
    });
    return {
      sse: sse([
        [undefined, chunk({ role: 'assistant', content: '' }, null)],
        [undefined, chunk({ content: text }, null)],
        [undefined, chunk({}, 'stop')],
        [undefined, '[DONE]'],
      ]),
    };
  }
  if (path.endsWith('/responses')) {
    const item = {
      id: 'msg_fake',
      type: 'message',
      role: 'assistant',
      status: 'completed',
      content: [{ type: 'output_text', text, annotations: [] }],
    };
    const response = {
      id: 'resp_fake',
      object: 'response',
      created_at: 1,
      model,
      status: 'completed',
      output: [item],
      usage: { input_tokens: 10, output_tokens: 3, total_tokens: 13 },
    };
    if (!stream) return { json: response };
    let sequence = 0;
    const event = (type: string, data: object): [string, unknown] => [
      type,
      { type, sequence_number: sequence++, ...data },
    ];
    return {
      sse: sse([
        event('response.created', { response: { ...response, status: 'in_progress', output: [] } }),
        event('response.output_item.added', {
          output_index: 0,
          item: { ...item, status: 'in_progress', content: [] },
        }),
        event('response.output_text.delta', {
          item_id: 'msg_fake',
          output_index: 0,
          content_index: 0,
          delta: text,
        }),
        event('response.output_text.done', {
          item_id: 'msg_fake',
          output_index: 0,
          content_index: 0,
          text,
        }),
        event('response.output_item.done', { output_index: 0, item }),
        event('response.completed', { response }),
      ]),
    };
  }
  return { json: { object: 'list', data: [{ id: model, object: 'model' }] } };
}

/** One tool call a scripted answer makes. */
export interface FakeToolCall {
  id: string;
  name: string;
  /** The arguments object. */
  input: Record<string, unknown>;
}

/**
 * The answer to `request` (Messages, Chat Completions or Responses) in which the model says
 * "Let me look." (Messages) and calls `calls`: server-sent events when the request asks to
 * stream, each call's arguments split over two deltas, else JSON. For a `startFakeUpstream`
 * script.
 */
export function fakeToolCallAnswer(
  request: RecordedRequest,
  calls: readonly FakeToolCall[],
): ScriptedAnswer {
  const path = request.path.split('?')[0]!;
  let stream = false;
  try {
    stream = JSON.parse(request.body).stream === true;
  } catch {}
  const answer = (json: unknown, events: ReadonlyArray<[string | undefined, unknown]>) =>
    stream
      ? {
          status: 200,
          headers: { 'content-type': 'text/event-stream', 'x-request-id': 'req_fake' },
          body: sse(events),
        }
      : {
          status: 200,
          headers: { 'content-type': 'application/json', 'x-request-id': 'req_fake' },
          body: JSON.stringify(json),
        };
  const halves = (input: Record<string, unknown>) => {
    const text = JSON.stringify(input);
    return [text.slice(0, text.length >> 1), text.slice(text.length >> 1)];
  };
  if (path.endsWith('/v1/messages')) {
    const message = {
      id: 'msg_fake_tools',
      type: 'message',
      role: 'assistant',
      model: 'fake-model',
      content: [
        { type: 'text', text: 'Let me look.' },
        ...calls.map((call) => ({
          type: 'tool_use',
          id: call.id,
          name: call.name,
          input: call.input,
        })),
      ],
      stop_reason: 'tool_use',
      stop_sequence: null,
      usage: { input_tokens: 10, output_tokens: 3 },
    };
    return answer(message, [
      [
        'message_start',
        { type: 'message_start', message: { ...message, content: [], stop_reason: null } },
      ],
      [
        'content_block_start',
        { type: 'content_block_start', index: 0, content_block: { type: 'text', text: '' } },
      ],
      [
        'content_block_delta',
        {
          type: 'content_block_delta',
          index: 0,
          delta: { type: 'text_delta', text: 'Let me look.' },
        },
      ],
      ['content_block_stop', { type: 'content_block_stop', index: 0 }],
      ...calls.flatMap(
        (call, i): Array<[string, unknown]> => [
          [
            'content_block_start',
            {
              type: 'content_block_start',
              index: i + 1,
              content_block: { type: 'tool_use', id: call.id, name: call.name, input: {} },
            },
          ],
          ...halves(call.input).map((partial): [string, unknown] => [
            'content_block_delta',
            {
              type: 'content_block_delta',
              index: i + 1,
              delta: { type: 'input_json_delta', partial_json: partial },
            },
          ]),
          ['content_block_stop', { type: 'content_block_stop', index: i + 1 }],
        ],
      ),
      [
        'message_delta',
        {
          type: 'message_delta',
          delta: { stop_reason: 'tool_use', stop_sequence: null },
          usage: { output_tokens: 3 },
        },
      ],
      ['message_stop', { type: 'message_stop' }],
    ]);
  }
  if (path.endsWith('/chat/completions')) {
    const base = { id: 'chatcmpl-fake-tools', created: 1, model: 'fake-model' };
    const toolCalls = calls.map((call) => ({
      id: call.id,
      type: 'function',
      function: { name: call.name, arguments: JSON.stringify(call.input) },
    }));
    const chunk = (delta: unknown, finish: string | null): [undefined, unknown] => [
      undefined,
      {
        ...base,
        object: 'chat.completion.chunk',
        choices: [{ index: 0, delta, finish_reason: finish }],
      },
    ];
    return answer(
      {
        ...base,
        object: 'chat.completion',
        choices: [
          {
            index: 0,
            message: { role: 'assistant', content: null, tool_calls: toolCalls },
            finish_reason: 'tool_calls',
          },
        ],
        usage: { prompt_tokens: 10, completion_tokens: 3, total_tokens: 13 },
      },
      [
        chunk({ role: 'assistant', content: null }, null),
        ...calls.flatMap((call, index) => {
          const [first, second] = halves(call.input);
          return [
            chunk(
              {
                tool_calls: [
                  {
                    index,
                    id: call.id,
                    type: 'function',
                    function: { name: call.name, arguments: first },
                  },
                ],
              },
              null,
            ),
            chunk({ tool_calls: [{ index, function: { arguments: second } }] }, null),
          ];
        }),
        chunk({}, 'tool_calls'),
        [undefined, '[DONE]'],
      ],
    );
  }
  const items = calls.map((call) => ({
    id: `fc_${call.id}`,
    type: 'function_call',
    status: 'completed',
    call_id: call.id,
    name: call.name,
    arguments: JSON.stringify(call.input),
  }));
  const response = {
    id: 'resp_fake_tools',
    object: 'response',
    created_at: 1,
    model: 'fake-model',
    status: 'completed',
    output: items,
    usage: { input_tokens: 10, output_tokens: 3, total_tokens: 13 },
  };
  let sequence = 0;
  const event = (type: string, data: object): [string, unknown] => [
    type,
    { type, sequence_number: sequence++, ...data },
  ];
  return answer(response, [
    event('response.created', { response: { ...response, status: 'in_progress', output: [] } }),
    ...items.flatMap((item, index) => [
      event('response.output_item.added', {
        output_index: index,
        item: { ...item, status: 'in_progress', arguments: '' },
      }),
      ...halves(calls[index]!.input).map((delta) =>
        event('response.function_call_arguments.delta', {
          item_id: item.id,
          output_index: index,
          delta,
        }),
      ),
      event('response.function_call_arguments.done', {
        item_id: item.id,
        output_index: index,
        arguments: item.arguments,
      }),
      event('response.output_item.done', { output_index: index, item }),
    ]),
    event('response.completed', { response }),
  ]);
}

/** A fake Anthropic / OpenAI upstream; see `startFakeUpstream`. */
export interface FakeUpstream {
  /** Its base URL, `http://127.0.0.1:<port>`. */
  url: string;
  /** Every request received, in order. */
  requests: RecordedRequest[];
  /** Stops it. */
  close(): Promise<void>;
}

/**
 * A local server that speaks the Anthropic Messages, OpenAI Chat Completions and Responses wire
 * formats (JSON, or server-sent events when the request asks to stream) and records every
 * request it receives. `script` may answer a request itself.
 */
export async function startFakeUpstream(
  script: (request: RecordedRequest) => ScriptedAnswer | undefined = () => undefined,
  text = 'fake answer',
): Promise<FakeUpstream> {
  const requests: RecordedRequest[] = [];
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const recorded: RecordedRequest = {
        method: req.method ?? 'GET',
        path: req.url ?? '/',
        headers: req.headers,
        body: Buffer.concat(chunks).toString('utf8'),
      };
      requests.push(recorded);
      const scripted = script(recorded);
      if (scripted) {
        res.writeHead(scripted.status, scripted.headers ?? { 'content-type': 'application/json' });
        res.end(scripted.body);
        return;
      }
      let body: Record<string, unknown> = {};
      try {
        body = JSON.parse(recorded.body || '{}');
      } catch {}
      const answer = defaultAnswer(recorded.path.split('?')[0]!, body, text);
      if ('sse' in answer) {
        res.writeHead(200, { 'content-type': 'text/event-stream', 'x-request-id': 'req_fake' });
        res.end(answer.sse);
        return;
      }
      res.writeHead(200, { 'content-type': 'application/json', 'x-request-id': 'req_fake' });
      res.end(JSON.stringify(answer.json));
    });
  });
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    close: () =>
      new Promise((done) => {
        server.close(() => done());
        server.closeAllConnections();
      }),
  };
}
