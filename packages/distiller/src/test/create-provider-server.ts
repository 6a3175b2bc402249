import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';

/** Which wire format a request used. */
export type ProviderWireFormat = 'openai' | 'anthropic';

/** One request as the server received it. */
export interface ProviderRequest {
  /** Wire format, from the path (`/v1/chat/completions` or `/v1/messages`). */
  format: ProviderWireFormat;
  /** The `model` field. */
  model: string;
  /** System instructions (OpenAI `system`/`developer` messages, Anthropic `system`). */
  system: string;
  /** The user message text. */
  prompt: string;
  /** `max_completion_tokens`, `max_tokens`, or undefined. */
  maxTokens: number | undefined;
  /** `temperature`, when sent. */
  temperature: number | undefined;
  /** UTF-8 bytes of the request body. */
  bodyBytes: number;
  /** The `authorization` or `x-api-key` header. */
  apiKey: string | undefined;
  /** Tool results sent back to the model (OpenAI `tool` messages, Anthropic `tool_result` blocks), in order. */
  toolResults: Array<{ toolCallId: string; content: string }>;
  /** Names of the tools the request offered. */
  toolNames: string[];
}

/** How the server answers one request. */
export interface ProviderReply {
  /** The assistant text. Default: a short deterministic summary of the prompt. */
  text?: string;
  /** Delay before answering, in milliseconds. Default: the server's `latencyMs`. */
  latencyMs?: number;
  /** Answer with this HTTP error status (429, 500, 404, …) instead of a completion. */
  status?: number;
  /** Never answer; the connection stays open until the client gives up or the server closes. */
  hang?: boolean;
  /** Answer 200 with a body that is not valid JSON. */
  malformed?: boolean;
  /** Token usage to report. Default: bytes / 4 of prompt and text. */
  usage?: { inputTokens: number; outputTokens: number };
  /** Ask the client to call these tools (with `text`, if any, before them). */
  toolCalls?: Array<{ id: string; name: string; arguments: Record<string, unknown> }>;
}

/** Decides the reply to a request; `index` counts requests from 0. */
export type ProviderHandler = (
  request: ProviderRequest,
  index: number,
) => ProviderReply | Promise<ProviderReply>;

/** Settings of `createProviderServer`. */
export interface ProviderServerSettings {
  /** Delay before each answer, in milliseconds. Default 0. */
  latencyMs?: number;
  /** Decides each reply. Default: a deterministic summary after `latencyMs`. */
  handler?: ProviderHandler;
  /** Loopback port. Default 0 (any free port). */
  port?: number;
}

/** A running provider-compatible server. */
export interface ProviderServer {
  /** `http://127.0.0.1:PORT`, the Anthropic base URL. */
  readonly url: string;
  /** `http://127.0.0.1:PORT/v1`, the OpenAI base URL. */
  readonly openaiBaseUrl: string;
  /** `url`, named for symmetry. */
  readonly anthropicBaseUrl: string;
  /** Every request received, in arrival order. */
  readonly requests: ProviderRequest[];
  /** Requests being handled right now. */
  readonly inFlight: number;
  /** Highest `inFlight` seen since start or the last `resetStats`. */
  readonly maxInFlight: number;
  /** Replaces the handler for later requests. */
  setHandler(handler: ProviderHandler): void;
  /** Clears `requests`, restarts the request index at 0 and resets `maxInFlight`. */
  resetStats(): void;
  /** Stops listening and drops open connections (hanging requests included). */
  close(): Promise<void>;
}

const ERROR_TYPES: Readonly<Record<number, string>> = {
  400: 'invalid_request_error',
  401: 'authentication_error',
  404: 'not_found_error',
  429: 'rate_limit_error',
  500: 'api_error',
  503: 'overloaded_error',
};

function textOf(content: unknown): string {
  if (typeof content === 'string') return content;
  if (Array.isArray(content)) {
    return content
      .map((part) => (part && typeof part === 'object' && 'text' in part ? String(part.text) : ''))
      .join('');
  }
  return '';
}

function parseRequest(
  format: ProviderWireFormat,
  body: Record<string, unknown>,
  bodyBytes: number,
  apiKey: string | undefined,
): ProviderRequest {
  const messages = Array.isArray(body.messages)
    ? (body.messages as Array<{ role?: string; content?: unknown }>)
    : [];
  const system =
    format === 'anthropic'
      ? textOf(body.system)
      : messages
          .filter((m) => m.role === 'system' || m.role === 'developer')
          .map((m) => textOf(m.content))
          .join('\n');
  const prompt = messages
    .filter((m) => m.role === 'user')
    .map((m) => textOf(m.content))
    .join('\n');
  const maxTokens = body.max_completion_tokens ?? body.max_tokens;
  const toolResults: ProviderRequest['toolResults'] = [];
  for (const message of messages as Array<{
    role?: string;
    content?: unknown;
    tool_call_id?: string;
  }>) {
    if (format === 'openai' && message.role === 'tool') {
      toolResults.push({
        toolCallId: String(message.tool_call_id ?? ''),
        content: textOf(message.content),
      });
    }
    if (format === 'anthropic' && message.role === 'user' && Array.isArray(message.content)) {
      for (const block of message.content as Array<{
        type?: string;
        tool_use_id?: string;
        content?: unknown;
      }>) {
        if (block?.type === 'tool_result') {
          toolResults.push({
            toolCallId: String(block.tool_use_id ?? ''),
            content: textOf(block.content),
          });
        }
      }
    }
  }
  const tools = Array.isArray(body.tools)
    ? (body.tools as Array<{ name?: string; function?: { name?: string } }>)
    : [];
  const toolNames = tools.map((tool) => String(tool.function?.name ?? tool.name ?? ''));
  return {
    toolResults,
    toolNames,
    format,
    model: typeof body.model === 'string' ? body.model : '',
    system,
    prompt,
    maxTokens: typeof maxTokens === 'number' ? maxTokens : undefined,
    temperature: typeof body.temperature === 'number' ? body.temperature : undefined,
    bodyBytes,
    apiKey,
  };
}

/** The default answer: a short summary that names the prompt size and echoes its first line. */
export function defaultProviderText(request: ProviderRequest): string {
  const firstLine = request.prompt.split('\n').find((line) => line.trim() !== '') ?? '';
  return `Summary of ${Buffer.byteLength(request.prompt, 'utf8')} prompt bytes: ${firstLine.slice(0, 120)}`;
}

function completionBody(
  format: ProviderWireFormat,
  request: ProviderRequest,
  text: string,
  usage: { inputTokens: number; outputTokens: number },
  id: number,
  toolCalls: NonNullable<ProviderReply['toolCalls']> = [],
): unknown {
  if (format === 'anthropic') {
    return {
      id: `msg_${id}`,
      type: 'message',
      role: 'assistant',
      model: request.model,
      content: [
        ...(text || toolCalls.length === 0 ? [{ type: 'text', text }] : []),
        ...toolCalls.map((call) => ({
          type: 'tool_use',
          id: call.id,
          name: call.name,
          input: call.arguments,
        })),
      ],
      stop_reason: toolCalls.length > 0 ? 'tool_use' : 'end_turn',
      stop_sequence: null,
      usage: { input_tokens: usage.inputTokens, output_tokens: usage.outputTokens },
    };
  }
  return {
    id: `chatcmpl-${id}`,
    object: 'chat.completion',
    created: Math.floor(Date.now() / 1000),
    model: request.model,
    choices: [
      {
        index: 0,
        message: {
          role: 'assistant',
          content: toolCalls.length > 0 && !text ? null : text,
          ...(toolCalls.length > 0
            ? {
                tool_calls: toolCalls.map((call) => ({
                  id: call.id,
                  type: 'function',
                  function: { name: call.name, arguments: JSON.stringify(call.arguments) },
                })),
              }
            : {}),
        },
        finish_reason: toolCalls.length > 0 ? 'tool_calls' : 'stop',
      },
    ],
    usage: {
      prompt_tokens: usage.inputTokens,
      completion_tokens: usage.outputTokens,
      total_tokens: usage.inputTokens + usage.outputTokens,
    },
  };
}

function errorBody(format: ProviderWireFormat, status: number): unknown {
  const type = ERROR_TYPES[status] ?? 'api_error';
  const message = `injected HTTP ${status}`;
  return format === 'anthropic'
    ? { type: 'error', error: { type, message } }
    : { error: { message, type, code: String(status) } };
}

function delay(ms: number, signal: AbortSignal): Promise<void> {
  if (ms <= 0) return Promise.resolve();
  return new Promise((resolve) => {
    const timer = setTimeout(done, ms);
    function done() {
      clearTimeout(timer);
      signal.removeEventListener('abort', done);
      resolve();
    }
    signal.addEventListener('abort', done, { once: true });
  });
}

/**
 * A local HTTP server that speaks the OpenAI chat-completions and Anthropic messages JSON
 * formats, so the real `openai` and `@anthropic-ai/sdk` clients can be tested end to end. It
 * injects latency, error statuses, hangs and malformed bodies per request, and records every
 * request and the highest number handled at once.
 */
export async function createProviderServer(
  settings: ProviderServerSettings = {},
): Promise<ProviderServer> {
  const latencyMs = settings.latencyMs ?? 0;
  let handler: ProviderHandler = settings.handler ?? (() => ({}));
  const requests: ProviderRequest[] = [];
  const sockets = new Set<Socket>();
  const closing = new AbortController();
  let inFlight = 0;
  let maxInFlight = 0;
  let counter = 0;

  const send = (response: ServerResponse, status: number, body: string, extra = {}) => {
    if (response.destroyed) return;
    response.writeHead(status, {
      'content-type': 'application/json',
      'content-length': Buffer.byteLength(body),
      // Lets the SDKs retry at once instead of backing off for seconds.
      'retry-after-ms': '1',
      ...extra,
    });
    response.end(body);
  };

  const handle = async (request: IncomingMessage, response: ServerResponse) => {
    const path = (request.url ?? '').split('?')[0];
    const format: ProviderWireFormat | undefined =
      path === '/v1/chat/completions'
        ? 'openai'
        : path === '/v1/messages'
          ? 'anthropic'
          : undefined;
    const chunks: Buffer[] = [];
    for await (const chunk of request) chunks.push(chunk as Buffer);
    if (!format || request.method !== 'POST') {
      send(response, 404, JSON.stringify({ error: { message: `no route ${path}` } }));
      return;
    }
    const raw = Buffer.concat(chunks);
    let body: Record<string, unknown>;
    try {
      body = JSON.parse(raw.toString('utf8')) as Record<string, unknown>;
    } catch {
      send(response, 400, JSON.stringify(errorBody(format, 400)));
      return;
    }
    const apiKey =
      (request.headers['x-api-key'] as string | undefined) ??
      request.headers.authorization?.replace(/^Bearer\s+/i, '');
    const parsed = parseRequest(format, body, raw.length, apiKey);
    const index = counter++;
    requests.push(parsed);
    const reply = await handler(parsed, index);
    const aborted = new AbortController();
    response.once('close', () => aborted.abort());
    const stop = AbortSignal.any([aborted.signal, closing.signal]);
    if (reply.hang) {
      await new Promise<void>((resolve) => {
        if (stop.aborted) resolve();
        stop.addEventListener('abort', () => resolve(), { once: true });
      });
      return;
    }
    await delay(reply.latencyMs ?? latencyMs, stop);
    if (stop.aborted) return;
    if (reply.status !== undefined && reply.status !== 200) {
      send(response, reply.status, JSON.stringify(errorBody(format, reply.status)), {
        'x-should-retry': reply.status === 429 || reply.status >= 500 ? 'true' : 'false',
      });
      return;
    }
    if (reply.malformed) {
      send(response, 200, '{"choices": [{"message": {"content": "unterminated');
      return;
    }
    const text = reply.text ?? (reply.toolCalls?.length ? '' : defaultProviderText(parsed));
    const usage = reply.usage ?? {
      inputTokens: Math.ceil(parsed.bodyBytes / 4),
      outputTokens: Math.ceil(Buffer.byteLength(text) / 4),
    };
    send(
      response,
      200,
      JSON.stringify(completionBody(format, parsed, text, usage, index, reply.toolCalls)),
    );
  };

  const server = createServer((request, response) => {
    inFlight++;
    maxInFlight = Math.max(maxInFlight, inFlight);
    let settled = false;
    const finish = () => {
      if (settled) return;
      settled = true;
      inFlight--;
    };
    response.once('close', finish);
    handle(request, response).catch(() => {
      if (!response.headersSent) send(response, 500, '{"error":{"message":"handler failed"}}');
      else response.destroy();
    });
  });
  server.on('connection', (socket) => {
    sockets.add(socket);
    socket.once('close', () => sockets.delete(socket));
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(settings.port ?? 0, '127.0.0.1', () => resolve());
  });
  const { port } = server.address() as AddressInfo;
  const url = `http://127.0.0.1:${port}`;

  return {
    url,
    openaiBaseUrl: `${url}/v1`,
    anthropicBaseUrl: url,
    requests,
    get inFlight() {
      return inFlight;
    },
    get maxInFlight() {
      return maxInFlight;
    },
    setHandler(next) {
      handler = next;
    },
    resetStats() {
      requests.length = 0;
      counter = 0;
      maxInFlight = inFlight;
    },
    async close() {
      closing.abort();
      const closed = new Promise<void>((resolve) => server.close(() => resolve()));
      for (const socket of sockets) socket.destroy();
      await closed;
    },
  };
}
