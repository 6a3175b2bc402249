import http, { type IncomingMessage, type ServerResponse } from 'node:http';
import https from 'node:https';

// Headers of one connection, not of the request: never forwarded either way (RFC 9110 §7.6.1).
const HOP_BY_HOP = new Set([
  'connection',
  'keep-alive',
  'proxy-connection',
  'proxy-authenticate',
  'proxy-authorization',
  'te',
  'trailer',
  'transfer-encoding',
  'upgrade',
]);

/** The upstream URL of `path`: the upstream's own path is its prefix. */
export function upstreamTarget(upstream: URL, path: string): URL {
  return new URL(upstream.pathname.replace(/\/+$/, '') + path, upstream);
}

/** The client's request headers as sent upstream: hop-by-hop and `drop` ones left out. */
export function upstreamHeaders(
  req: IncomingMessage,
  drop: ReadonlySet<string>,
  body: Buffer | undefined,
): Record<string, string | string[]> {
  const headers: Record<string, string | string[]> = {};
  for (const [name, value] of Object.entries(req.headers)) {
    if (value === undefined || HOP_BY_HOP.has(name) || drop.has(name)) continue;
    if (name === 'host' || (body && name === 'content-length')) continue;
    headers[name] = value;
  }
  if (body) headers['content-length'] = String(body.length);
  return headers;
}

/** An answer's raw headers as sent to the client: hop-by-hop and `drop` ones (lowercase) left out. */
export function answerHeaders(rawHeaders: readonly string[], drop: ReadonlySet<string>): string[] {
  const raw: string[] = [];
  for (let i = 0; i < rawHeaders.length; i += 2) {
    const name = rawHeaders[i]!.toLowerCase();
    if (HOP_BY_HOP.has(name) || drop.has(name)) continue;
    raw.push(rawHeaders[i]!, rawHeaders[i + 1]!);
  }
  return raw;
}

/** Where a request goes and what it carries; see `forwardToUpstream`. */
export interface ForwardedRequest {
  /** The upstream base URL; its path is a prefix of every forwarded path. */
  upstream: URL;
  /** The request's path and query, as the client sent them (less the proxy's token prefix). */
  path: string;
  /** The body to send, or `undefined` to stream the client's own body through. */
  body: Buffer | undefined;
  /** Request headers that are the proxy's own and not forwarded (lowercase). */
  dropHeaders: ReadonlySet<string>;
  /** Keep-alive agents for http and https upstreams. */
  agents: { http: http.Agent; https: https.Agent };
  /** Called when the upstream cannot be reached, before anything was sent to the client. */
  onUnreachable(error: Error): void;
}

/**
 * Sends the client's request upstream (its method, headers save hop-by-hop ones, and `body` or
 * its own body) and streams the answer back as it arrives: status, headers (rate limits,
 * request ids) and body bytes unchanged, nothing buffered. A client that goes away cancels the
 * upstream request.
 */
export function forwardToUpstream(
  req: IncomingMessage,
  res: ServerResponse,
  forwarded: ForwardedRequest,
): void {
  const { body } = forwarded;
  const target = upstreamTarget(forwarded.upstream, forwarded.path);
  const headers = upstreamHeaders(req, forwarded.dropHeaders, body);
  const secure = target.protocol === 'https:';
  const upstreamRequest = (secure ? https : http).request(target, {
    method: req.method,
    headers,
    agent: secure ? forwarded.agents.https : forwarded.agents.http,
  });
  let answered = false;
  upstreamRequest.on('response', (answer) => {
    answered = true;
    res.writeHead(
      answer.statusCode ?? 502,
      answer.statusMessage,
      answerHeaders(answer.rawHeaders, new Set()),
    );
    // Server-sent events are flushed event by event: each write goes out as it comes.
    res.flushHeaders();
    answer.pipe(res);
    answer.on('error', () => res.destroy());
  });
  upstreamRequest.on('error', (error) => {
    if (!answered && !res.headersSent) forwarded.onUnreachable(error);
    else res.destroy(error);
  });
  res.on('close', () => {
    if (!res.writableFinished) upstreamRequest.destroy();
  });
  if (body) upstreamRequest.end(body);
  else req.pipe(upstreamRequest);
}
