import { timingSafeEqual } from 'node:crypto';
import http, { type IncomingMessage, type ServerResponse } from 'node:http';
import https from 'node:https';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import {
  assertSize,
  type ConversationBudgetOptions,
  estimateTokens,
  InvalidArgumentError,
  type ResultProcessor,
} from '@compaction/core';
import { answerArtifactCalls } from './answer-artifact-calls.js';
import { type CompactedBody, compactRequestBody } from './compact-request-body.js';
import { forwardToUpstream } from './forward-to-upstream.js';
import { isLoopbackHost } from './is-loopback-host.js';
import { createProxyConversations } from './proxy-conversations.js';
import type { ProxyConversationStats, ProxyRequestStats } from './proxy-request-stats.js';
import { anthropicMessagesFormat } from './wire/anthropic-messages-format.js';
import { openaiChatFormat } from './wire/openai-chat-format.js';
import { openaiResponsesFormat } from './wire/openai-responses-format.js';
import type { WireFormat } from './wire/wire-tool-result.js';

/** Settings of `createCompactionProxy`. */
export interface CompactionProxySettings {
  /** Interface to listen on. Default `127.0.0.1`; any other than loopback needs `token`. */
  host?: string;
  /** Port to listen on; 0 picks a free one. Default 8787. */
  port?: number;
  /**
   * A secret every request must carry: as the first path segments `/t/<token>` of the base URL
   * the client is given (`http://host:port/t/<token>`), or in an `x-compaction-proxy-token`
   * header. Required when `host` is not loopback. Default none.
   */
  token?: string;
  /** Where conversations' full tool results are stored. Default `<tmp>/compaction-proxy`. */
  dir?: string;
  /** The Anthropic API base URL. Default `https://api.anthropic.com`. */
  upstreamAnthropic?: string;
  /** The OpenAI-compatible API base URL (without `/v1`). Default `https://api.openai.com`. */
  upstreamOpenai?: string;
  /** Tool results larger than this many UTF-8 bytes get a view of at most this size. Default 65536. */
  maxResultBytes?: number;
  /** What the model sees of a stored result under its pointer line. Default the structural trimmer. */
  view?: ResultProcessor;
  /**
   * What pointer lines tell the model to read a stored result with: `'file'`, the file's
   * absolute path, for agents with their own file tools (Claude Code, Codex CLI, most coding
   * agents); `'artifact-tools'`, `artifact_read` / `artifact_search`, for a client that offers
   * those tools itself or is given them by `artifactTools`. Default `'artifact-tools'` when
   * `artifactTools` is on, else `'file'`.
   */
  pointTo?: 'file' | 'artifact-tools';
  /**
   * For a client without file tools: add `artifact_read` / `artifact_search` after the client's
   * own tools in each request that carries a stored or stepped-down result (and in every later
   * request of that conversation, so its tools block keeps its bytes), and answer the model's
   * calls of them in the proxy, calling the upstream again until the model is done; only the
   * last response reaches the client. A streamed answer is held until it ends (the client's
   * first byte waits for the whole turn). Clients that offer tools of those names themselves
   * are left alone. Default `false`.
   */
  artifactTools?: boolean;
  /**
   * Rounds of artifact tool calls the proxy answers for one client request before the response
   * goes to the client with those calls removed. Default 8.
   */
  maxArtifactToolRounds?: number;
  /**
   * The conversation budget on top of the `COMPACTION_CONVERSATION_*` variables (128 KiB of tool
   * results per request by default): older results step down to a small view, then a pointer
   * line. `false` turns it off. Default on.
   */
  conversation?: ConversationBudgetOptions | false;
  /** Environment to read `COMPACTION_CONVERSATION_*` from. Default `process.env`, read once here. */
  env?: Readonly<Record<string, string | undefined>>;
  /**
   * How long compacting one request may take, in milliseconds; past it the original request
   * goes upstream (and the log line says so). Default 10000.
   */
  deadlineMs?: number;
  /**
   * A body larger than this many bytes goes upstream untouched: streamed through unread when its
   * `content-length` says so, else read and sent as it came. Default 67108864 (64 MiB).
   */
  maxBodyBytes?: number;
  /**
   * Conversations whose views are kept in memory, least recently used dropped first (a dropped
   * one recomputes the same views from its files' results when it comes back). Default 32.
   */
  maxConversations?: number;
  /** Called once per request the proxy could rewrite (headers, and so keys, are never in it). */
  onRequest?: (stats: ProxyRequestStats) => void;
}

/** A running `compaction proxy`. */
export interface CompactionProxy {
  /** The underlying server (not yet listening until `listen`). */
  readonly server: http.Server;
  /** Starts listening; resolves with the base URL clients use (token prefix included). */
  listen(): Promise<string>;
  /** Totals per conversation since the start (also served as JSON at `GET /compaction/stats`). */
  stats(): Record<string, ProxyConversationStats>;
  /** Stops listening and closes idle upstream connections. */
  close(): Promise<void>;
}

const STATS_PATH = '/compaction/stats';
const TOKEN_HEADER = 'x-compaction-proxy-token';

function upstreamUrl(value: string, argument: string): URL {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw new InvalidArgumentError({ argument, message: `${argument} must be an http(s) URL` });
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:')
    throw new InvalidArgumentError({ argument, message: `${argument} must be an http(s) URL` });
  return url;
}

/** The format a request is rewritten as, or `undefined` to forward it untouched. */
function formatOf(method: string | undefined, pathname: string, anthropic: boolean) {
  if (method !== 'POST') return undefined;
  if (anthropic)
    return /\/v1\/messages(\/count_tokens)?$/.test(pathname) ? anthropicMessagesFormat : undefined;
  if (pathname.endsWith('/chat/completions')) return openaiChatFormat;
  if (pathname.endsWith('/responses')) return openaiResponsesFormat;
  return undefined;
}

function errorBody(anthropic: boolean, status: number, message: string): string {
  return JSON.stringify(
    anthropic
      ? {
          type: 'error',
          error: { type: status === 401 ? 'authentication_error' : 'api_error', message },
        }
      : { error: { message, type: status === 401 ? 'invalid_request_error' : 'server_error' } },
  );
}

function readBody(req: IncomingMessage): Promise<Buffer> {
  return new Promise((done, fail) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => done(Buffer.concat(chunks)));
    req.on('error', fail);
  });
}

/**
 * A local HTTP proxy for the Anthropic Messages API and the OpenAI Chat Completions and
 * Responses APIs (issue 42). Point an agent's `ANTHROPIC_BASE_URL` or `OPENAI_BASE_URL` at it:
 * before each request goes upstream, the tool results in it (`tool_result` blocks, `role:
 * "tool"` messages, `function_call_output` items) are replaced by the library's per-result
 * views, held to the conversation budget, each oversized one stored whole under `dir` with a
 * pointer the model can follow. The rewrite is a function of the conversation alone, so earlier
 * messages are the same bytes on every request and the provider's prompt cache keeps hitting.
 * Every other request, and every answer, passes through unchanged and unbuffered; headers
 * (keys included) are forwarded and never logged. When compaction fails or passes
 * `deadlineMs`, the original request goes upstream and `onRequest` says why.
 */
export function createCompactionProxy(settings: CompactionProxySettings = {}): CompactionProxy {
  const host = settings.host ?? '127.0.0.1';
  const port = assertSize(settings.port ?? 8787, 'port');
  if (port > 65_535)
    throw new InvalidArgumentError({ argument: 'port', message: 'port must be at most 65535' });
  const token = settings.token === '' ? undefined : settings.token;
  if (!isLoopbackHost(host) && token === undefined) {
    throw new InvalidArgumentError({
      argument: 'token',
      message: `listening on ${host}, beyond loopback, needs a token: anyone who reaches the port could spend the keys its clients send`,
    });
  }
  if (token !== undefined && !/^[A-Za-z0-9._~-]{16,}$/.test(token)) {
    throw new InvalidArgumentError({
      argument: 'token',
      message: 'token must be at least 16 characters of A-Z, a-z, 0-9, ".", "_", "~" or "-"',
    });
  }
  const anthropicUpstream = upstreamUrl(
    settings.upstreamAnthropic ?? 'https://api.anthropic.com',
    'upstreamAnthropic',
  );
  const openaiUpstream = upstreamUrl(
    settings.upstreamOpenai ?? 'https://api.openai.com',
    'upstreamOpenai',
  );
  const deadlineMs = assertSize(settings.deadlineMs ?? 10_000, 'deadlineMs', { min: 1 });
  const maxBodyBytes = assertSize(settings.maxBodyBytes ?? 64 * 1024 * 1024, 'maxBodyBytes');
  const artifactTools = settings.artifactTools === true;
  const maxArtifactToolRounds = assertSize(
    settings.maxArtifactToolRounds ?? 8,
    'maxArtifactToolRounds',
  );
  const conversations = createProxyConversations({
    dir: resolve(settings.dir ?? join(tmpdir(), 'compaction-proxy')),
    maxResultBytes: assertSize(settings.maxResultBytes ?? 65_536, 'maxResultBytes', { min: 512 }),
    pointTo: settings.pointTo ?? (artifactTools ? 'artifact-tools' : 'file'),
    conversation: settings.conversation ?? {},
    env: settings.env ?? process.env,
    maxConversations: assertSize(settings.maxConversations ?? 32, 'maxConversations', { min: 1 }),
    ...(settings.view ? { view: settings.view } : {}),
  });
  const agents = {
    http: new http.Agent({ keepAlive: true }),
    https: new https.Agent({ keepAlive: true }),
  };
  const totals: Record<string, ProxyConversationStats> = {};
  const tokenPrefix = token === undefined ? undefined : `/t/${token}`;
  const tokenBytes = token === undefined ? undefined : Buffer.from(token);
  const dropHeaders = new Set([TOKEN_HEADER]);

  /** The request's path with the token prefix removed, or `undefined` when it lacks the token. */
  const authorized = (req: IncomingMessage): string | undefined => {
    const url = req.url ?? '/';
    if (!tokenPrefix || !tokenBytes) return url;
    const header = req.headers[TOKEN_HEADER];
    if (typeof header === 'string') {
      const given = Buffer.from(header);
      if (given.length === tokenBytes.length && timingSafeEqual(given, tokenBytes)) return url;
    }
    const segment = url.slice(0, tokenPrefix.length);
    const rest = url.slice(tokenPrefix.length);
    const given = Buffer.from(segment);
    if (
      given.length === tokenBytes.length + 3 &&
      timingSafeEqual(given, Buffer.from(tokenPrefix)) &&
      (rest === '' || rest.startsWith('/') || rest.startsWith('?'))
    )
      return rest === '' ? '/' : rest;
    return undefined;
  };

  const record = (stats: ProxyRequestStats) => {
    if (stats.conversationId) {
      const total = totals[stats.conversationId] ?? {
        requests: 0,
        bytesIn: 0,
        bytesOut: 0,
        tokensIn: 0,
        tokensOut: 0,
      };
      totals[stats.conversationId] = total;
      total.requests++;
      total.bytesIn += stats.bytesIn;
      total.bytesOut += stats.bytesOut;
      total.tokensIn += stats.tokensIn;
      total.tokensOut += stats.tokensOut;
    }
    settings.onRequest?.(stats);
  };

  const compact = async (
    req: IncomingMessage,
    res: ServerResponse,
    raw: Buffer,
    format: WireFormat,
    pathname: string,
  ): Promise<{ body: Buffer; stats: ProxyRequestStats; outcome?: CompactedBody }> => {
    const started = performance.now();
    const deadline = AbortSignal.timeout(deadlineMs);
    const gone = new AbortController();
    // Before the answer starts, the response closing means the client went away.
    const onClose = () => gone.abort(new Error('the client went away'));
    res.once('close', onClose);
    const signal = AbortSignal.any([deadline, gone.signal]);
    const base = {
      format: format.name,
      path: pathname,
      bytesIn: raw.length,
      tokensIn: estimateTokens(raw.length),
    };
    let outcome: CompactedBody | undefined;
    let failure: string | undefined;
    try {
      const contentEncoding = req.headers['content-encoding'];
      if (contentEncoding && contentEncoding !== 'identity')
        failure = `the body is ${contentEncoding}-encoded`;
      else if (raw.length > maxBodyBytes)
        failure = `the body is over ${maxBodyBytes} bytes (maxBodyBytes)`;
      else {
        const aborted = new Promise<never>((_, reject) => {
          signal.addEventListener('abort', () => reject(signal.reason), { once: true });
        });
        aborted.catch(() => {});
        outcome = await Promise.race([
          compactRequestBody(raw, format, conversations, {
            addArtifactTools: artifactTools,
            signal,
          }),
          aborted,
        ]);
      }
    } catch (error) {
      failure =
        deadline.aborted && !gone.signal.aborted
          ? `compaction passed its deadline of ${deadlineMs} ms`
          : error instanceof Error
            ? error.message.split('\n')[0]!
            : String(error);
    } finally {
      res.off('close', onClose);
    }
    const body = outcome?.body ?? raw;
    const stats: ProxyRequestStats = {
      ...base,
      ...(outcome?.conversationId ? { conversationId: outcome.conversationId } : {}),
      toolResults: outcome?.toolResults ?? 0,
      rewritten: outcome?.rewritten ?? 0,
      bytesOut: body.length,
      tokensOut: estimateTokens(body.length),
      compactMs: Math.round((performance.now() - started) * 10) / 10,
      ...(failure === undefined ? {} : { failedOpen: failure }),
    };
    return { body, stats, ...(outcome ? { outcome } : {}) };
  };

  const handle = async (req: IncomingMessage, res: ServerResponse) => {
    const path = authorized(req);
    const anthropic =
      req.headers['anthropic-version'] !== undefined ||
      (path ?? '').startsWith('/v1/messages') ||
      (path ?? '').startsWith('/v1/complete');
    const refuse = (status: number, message: string) => {
      res.writeHead(status, { 'content-type': 'application/json' });
      res.end(errorBody(anthropic, status, `compaction proxy: ${message}`));
    };
    const onUnreachable = (error: Error) =>
      refuse(502, `the upstream could not be reached (${error.message.split('\n')[0]})`);
    if (path === undefined) {
      refuse(401, 'this proxy needs its token: use the base URL it printed');
      return;
    }
    const pathname = path.split('?')[0]!;
    if (req.method === 'GET' && pathname === STATS_PATH) {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ conversations: totals }));
      return;
    }
    const format = formatOf(req.method, pathname, anthropic);
    const declared = Number(req.headers['content-length'] ?? 0);
    let body: Buffer | undefined;
    if (format && declared > maxBodyBytes) {
      record({
        format: format.name,
        path: pathname,
        toolResults: 0,
        rewritten: 0,
        bytesIn: declared,
        bytesOut: declared,
        tokensIn: estimateTokens(declared),
        tokensOut: estimateTokens(declared),
        compactMs: 0,
        failedOpen: `the body is over ${maxBodyBytes} bytes (maxBodyBytes)`,
      });
    } else if (format) {
      const compacted = await compact(req, res, await readBody(req), format, pathname);
      const added = compacted.outcome?.artifactTools;
      // count_tokens gets the tools (they count) but has no calls to answer.
      if (added && !pathname.endsWith('/count_tokens')) {
        const answered = await answerArtifactCalls(req, res, {
          upstream: anthropic ? anthropicUpstream : openaiUpstream,
          path,
          body: added.body,
          bytes: compacted.body,
          format,
          tools: added.tools,
          maxRounds: maxArtifactToolRounds,
          dropHeaders,
          agents,
          onUnreachable,
        });
        record({ ...compacted.stats, artifactToolCalls: answered.answered });
        return;
      }
      record(added ? { ...compacted.stats, artifactToolCalls: 0 } : compacted.stats);
      body = compacted.body;
    }
    forwardToUpstream(req, res, {
      upstream: anthropic ? anthropicUpstream : openaiUpstream,
      path,
      body,
      dropHeaders,
      agents,
      onUnreachable,
    });
  };

  const server = http.createServer((req, res) => {
    handle(req, res).catch((error: unknown) => {
      if (!res.headersSent) {
        res.writeHead(500, { 'content-type': 'application/json' });
        res.end(errorBody(false, 500, `compaction proxy: ${String(error)}`));
      } else res.destroy();
    });
  });
  // Streamed answers may take minutes; Node's default request timeout (5 min) would cut them.
  server.requestTimeout = 0;

  return {
    server,
    stats: () => structuredClone(totals),
    listen: () =>
      new Promise((done, fail) => {
        server.once('error', fail);
        server.listen(port, host, () => {
          server.off('error', fail);
          const address = server.address() as AddressInfo;
          const shown = address.family === 'IPv6' ? `[${address.address}]` : address.address;
          done(`http://${shown}:${address.port}${tokenPrefix ?? ''}`);
        });
      }),
    close: () =>
      new Promise((done) => {
        agents.http.destroy();
        agents.https.destroy();
        server.close(() => done());
        server.closeAllConnections();
      }),
  };
}
