import { createHash, timingSafeEqual } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { pipeline } from 'node:stream/promises';
import { InvalidArgumentError } from '@compaction/core';
import { ArtifactError, type ArtifactErrorCode } from '../artifact-error.js';
import { createArtifactLibrary } from '../reading/artifact-library.js';
import { pagingValue } from '../reading/paging-value.js';
import { INSPECTOR_PAGE } from './inspector-page.js';

/** Settings of `createArtifactServer`. */
export interface ArtifactServerSettings {
  /** Directory holding `<session>.jsonl` transcripts and `<session>.artifacts/` stores. Required. */
  dir: string;
  /** Interface to bind. Default `127.0.0.1` (loopback only). Any other needs `token`. */
  host?: string;
  /** Port; 0 picks a free one. Default 0. */
  port?: number;
  /** When set, every `/api/` request needs `Authorization: Bearer <token>`. Default none; required beyond loopback. */
  token?: string;
  /** Wall-clock budget of one search in ms. Default 5000. */
  searchTimeMs?: number;
}

/** A running server. */
export interface RunningArtifactServer {
  /** Base URL, such as `http://127.0.0.1:43117/`. */
  url: string;
  /** Stops accepting connections and closes open ones. */
  close(): Promise<void>;
}

/** The inspector's HTTP server. */
export interface ArtifactServer {
  /** The underlying `node:http` server. */
  readonly server: Server;
  /** Starts listening; aborting `signal` closes the server. */
  listen(options?: { signal?: AbortSignal }): Promise<RunningArtifactServer>;
}

const LOOPBACK = new Set(['127.0.0.1', '::1', 'localhost']);
const SECURITY_HEADERS = {
  'x-content-type-options': 'nosniff',
  'referrer-policy': 'no-referrer',
  'cache-control': 'no-store',
};

function send(response: ServerResponse, status: number, body: unknown): void {
  const text = JSON.stringify(body);
  response.writeHead(status, {
    ...SECURITY_HEADERS,
    'content-type': 'application/json; charset=utf-8',
    'content-length': Buffer.byteLength(text),
  });
  response.end(text);
}

/** How many `Host` headers the request carries (`rawHeaders` keeps every one, in pairs). */
function hostHeaders(request: IncomingMessage): number {
  let count = 0;
  for (let i = 0; i < request.rawHeaders.length; i += 2) {
    if (request.rawHeaders[i]!.toLowerCase() === 'host') count++;
  }
  return count;
}

function digest(text: string): Buffer {
  return createHash('sha256').update(text).digest();
}

/** Path segments, each percent-decoded after splitting, so `%2F` can never make a separator. */
function segments(pathname: string): string[] | undefined {
  try {
    return pathname
      .split('/')
      .filter(Boolean)
      .map((part) => decodeURIComponent(part));
  } catch {
    return undefined;
  }
}

function integer(value: string | null, name: string): number | undefined {
  if (value === null || value === '') return undefined;
  if (!/^-?\d{1,15}$/.test(value))
    throw new ArtifactError({
      code: 'artifact_invalid_argument',
      message: `${name} must be an integer`,
    });
  return Number(value);
}

const STATUS: Partial<Record<ArtifactErrorCode, number>> = {
  artifact_not_found: 404,
  artifact_permission_denied: 403,
  artifact_ambiguous: 409,
};

const MAX_SEGMENT = 1024;

/**
 * Paging of `GET /api/sessions/:sessionId/artifacts`: without `limit` the whole list; a larger
 * `limit` reads as `max` (`pagingValue`).
 */
export const ARTIFACT_LIST_PAGE = { max: 1000 } as const;

/**
 * `GET /` (the inspector), `GET /api/sessions`, `GET /api/sessions/:sessionId/artifacts?limit&cursor`,
 * `GET /api/sessions/:sessionId/model-calls`, `GET /api/artifacts/:ref?offset&column&limit`,
 * `GET /api/artifacts/:ref/search?pattern&regex&case&max&from_line&from_column` and
 * `GET /api/artifacts/:ref/raw` (the stored bytes, as a download); `?session=` limits a
 * lookup to one session. Session ids and artifact references are only ever looked up among the
 * stores found in `dir`, never joined into a path, so nothing outside can be named. Bound to
 * loopback by default, where it also refuses requests whose Host is not a loopback name (DNS
 * rebinding); a request with more than one Host header is refused (400) wherever it is bound;
 * binding anywhere else without a `token` is refused. Every request gets its own
 * abort signal (fired when the client goes away or the server closes), and searches yield and
 * stop at their time budget, so no request holds up another.
 */
export function createArtifactServer(settings: ArtifactServerSettings): ArtifactServer {
  const host = settings.host ?? '127.0.0.1';
  const loopbackOnly = LOOPBACK.has(host);
  if (!loopbackOnly && !settings.token) {
    throw new InvalidArgumentError({
      argument: 'token',
      message: `binding ${host} exposes every stored result to the network: give a token (every /api/ request then needs "Authorization: Bearer <token>") or bind 127.0.0.1`,
    });
  }
  if (settings.token !== undefined && settings.token.trim() === '') {
    throw new InvalidArgumentError({ argument: 'token', message: 'token must not be empty' });
  }
  const library = createArtifactLibrary({
    root: settings.dir,
    ...(settings.searchTimeMs === undefined ? {} : { searchTimeMs: settings.searchTimeMs }),
  });
  const expected = settings.token ? digest(`Bearer ${settings.token}`) : undefined;
  const closing = new AbortController();

  async function handle(
    request: IncomingMessage,
    response: ServerResponse,
    signal: AbortSignal,
  ): Promise<void> {
    if (request.method !== 'GET' && request.method !== 'HEAD') {
      send(response, 405, { error: 'only GET is supported' });
      return;
    }
    // Node keeps the first of several Host headers; a proxy in front may route by another.
    // HTTP/1.1 says a request with more than one is refused (RFC 9112, section 3.2).
    if (hostHeaders(request) > 1) {
      send(response, 400, { error: 'more than one Host header' });
      return;
    }
    if (loopbackOnly) {
      const hostname = (request.headers.host ?? '')
        .replace(/:\d+$/, '')
        .replace(/^\[(.*)\]$/, '$1');
      if (!LOOPBACK.has(hostname)) {
        send(response, 403, { error: 'host not allowed' });
        return;
      }
    }
    const url = new URL(request.url ?? '/', 'http://localhost');
    const rawPath = (request.url ?? '/').split('?')[0]!;
    const parts = segments(rawPath);
    if (!parts || parts.some((part) => part.length > MAX_SEGMENT || part.includes('\0'))) {
      send(response, 400, { error: 'malformed path' });
      return;
    }
    if (parts.length === 0) {
      response.writeHead(200, {
        ...SECURITY_HEADERS,
        'content-type': 'text/html; charset=utf-8',
        'content-security-policy':
          "default-src 'none'; script-src 'unsafe-inline'; style-src 'unsafe-inline'; connect-src 'self'; img-src 'self' data:; base-uri 'none'; form-action 'none'; frame-ancestors 'none'",
      });
      response.end(INSPECTOR_PAGE);
      return;
    }
    if (parts[0] !== 'api') {
      send(response, 404, { error: 'not found' });
      return;
    }
    if (expected) {
      const given = digest(request.headers.authorization ?? '');
      if (!timingSafeEqual(given, expected)) {
        response.setHeader('www-authenticate', 'Bearer');
        send(response, 401, { error: 'missing or wrong bearer token' });
        return;
      }
    }
    const [, resource, id, tail, ...rest] = parts;
    if (rest.length > 0) {
      send(response, 404, { error: 'not found' });
      return;
    }
    const query = url.searchParams;
    const session = query.get('session') ?? undefined;
    const scope = { ...(session === undefined ? {} : { sessionId: session }), signal };
    if (resource === 'sessions' && id === undefined) {
      send(response, 200, { sessions: await library.sessions({ signal }) });
      return;
    }
    if (resource === 'sessions' && id !== undefined && tail === 'model-calls') {
      send(response, 200, { sessionId: id, calls: await library.modelCalls(id, { signal }) });
      return;
    }
    if (resource === 'sessions' && id !== undefined && tail === 'artifacts') {
      const asked = integer(query.get('limit'), 'limit');
      const limit =
        asked === undefined
          ? undefined
          : pagingValue(asked, 'limit', {
              default: ARTIFACT_LIST_PAGE.max,
              min: 1,
              max: ARTIFACT_LIST_PAGE.max,
            });
      const records = await library.list(id, { signal });
      const cursor = query.get('cursor') || undefined;
      const start = cursor === undefined ? 0 : records.findIndex((r) => r.id === cursor) + 1;
      if (start === 0 && cursor !== undefined) {
        throw new ArtifactError({
          code: 'artifact_invalid_argument',
          message: `unknown cursor ${JSON.stringify(cursor.slice(0, 200))}; list again without it`,
        });
      }
      const artifacts = records.slice(start, limit === undefined ? undefined : start + limit);
      const more = start + artifacts.length < records.length;
      send(response, 200, {
        sessionId: id,
        artifacts,
        total: records.length,
        next: more ? artifacts.at(-1)!.id : null,
      });
      return;
    }
    if (resource === 'artifacts' && id !== undefined && tail === undefined) {
      const page = await library.readPage(id, {
        ...scope,
        offset: integer(query.get('offset'), 'offset'),
        column: integer(query.get('column'), 'column'),
        limit: integer(query.get('limit'), 'limit'),
        maxChars: integer(query.get('max_chars'), 'max_chars'),
      });
      send(response, 200, page);
      return;
    }
    if (resource === 'artifacts' && id !== undefined && tail === 'search') {
      const result = await library.search(id, query.get('pattern') ?? '', {
        ...scope,
        regex: query.get('regex') === 'true',
        caseSensitive: query.get('case') === 'true',
        maxMatches: integer(query.get('max'), 'max'),
        fromLine: integer(query.get('from_line'), 'from_line'),
        fromColumn: integer(query.get('from_column'), 'from_column'),
      });
      send(response, 200, result);
      return;
    }
    if (resource === 'artifacts' && id !== undefined && tail === 'raw') {
      const raw = await library.openRaw(id, scope);
      response.writeHead(200, {
        ...SECURITY_HEADERS,
        'content-type': 'text/plain; charset=utf-8',
        'content-length': raw.bytes,
        'content-disposition': `attachment; filename="${raw.record.path}"`,
        'x-artifact-sha256': raw.record.digest,
      });
      if (request.method === 'HEAD') {
        await raw.handle.close();
        response.end();
        return;
      }
      const stream = raw.handle.createReadStream({ autoClose: true });
      await pipeline(stream, response, { signal }).catch(() => response.destroy());
      return;
    }
    send(response, 404, { error: 'not found' });
  }

  const server = createServer((request, response) => {
    const controller = new AbortController();
    const signal = AbortSignal.any([controller.signal, closing.signal]);
    response.once('close', () => controller.abort(new Error('the client went away')));
    handle(request, response, signal).catch((error: unknown) => {
      if (response.headersSent) {
        response.destroy();
        return;
      }
      if (ArtifactError.isInstance(error)) {
        send(response, STATUS[error.code as ArtifactErrorCode] ?? 400, {
          error: error.message,
          code: error.code,
        });
        return;
      }
      if (signal.aborted) {
        response.destroy();
        return;
      }
      send(response, 500, { error: 'internal error' });
    });
  });

  return {
    server,
    listen(options = {}) {
      return new Promise((resolve, reject) => {
        options.signal?.throwIfAborted();
        server.once('error', reject);
        server.listen(settings.port ?? 0, host, () => {
          server.off('error', reject);
          const address = server.address() as AddressInfo;
          const shownHost = address.family === 'IPv6' ? `[${address.address}]` : address.address;
          const close = () =>
            new Promise<void>((done) => {
              closing.abort(new Error('the server is closing'));
              server.close(() => done());
              server.closeAllConnections();
            });
          options.signal?.addEventListener('abort', () => void close(), { once: true });
          resolve({ url: `http://${shownHost}:${address.port}/`, close });
        });
      });
    },
  };
}
