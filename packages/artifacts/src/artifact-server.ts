import { createHash, timingSafeEqual } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { ArtifactError } from './artifact-error.js';
import { createArtifactLibrary } from './artifact-library.js';
import { INSPECTOR_PAGE } from './inspector-page.js';
import { isSafeId } from './safe-id.js';

/** Settings of `createArtifactServer`. */
export interface ArtifactServerSettings {
  /** Directory holding `<session>.jsonl` transcripts and `<session>.artifacts/` stores. Required. */
  dir: string;
  /** Interface to bind. Default `127.0.0.1` (loopback only). */
  host?: string;
  /** Port; 0 picks a free one. Default 0. */
  port?: number;
  /** When set, every `/api/` request needs `Authorization: Bearer <token>`. Default none. */
  token?: string;
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

function integer(value: string | null): number | undefined {
  if (value === null || value === '') return undefined;
  if (!/^\d{1,15}$/.test(value))
    throw new ArtifactError({
      code: 'artifact_invalid_id',
      message: 'offset and limit must be non-negative integers',
    });
  return Number(value);
}

/**
 * `GET /` (the inspector), `GET /api/sessions`, `GET /api/sessions/:sessionId/artifacts`,
 * `GET /api/artifacts/:artifactId?offset&limit&unit` and
 * `GET /api/artifacts/:artifactId/search?pattern&regex`. Bound to loopback by default, where it
 * also refuses requests whose Host is not a loopback name (DNS rebinding). Every id is checked
 * against `isSafeId` after decoding; nothing outside `dir` can be named.
 */
export function createArtifactServer(settings: ArtifactServerSettings): ArtifactServer {
  const host = settings.host ?? '127.0.0.1';
  const library = createArtifactLibrary({ root: settings.dir });
  const expected = settings.token ? digest(`Bearer ${settings.token}`) : undefined;
  const loopbackOnly = LOOPBACK.has(host);

  async function handle(request: IncomingMessage, response: ServerResponse): Promise<void> {
    if (request.method !== 'GET' && request.method !== 'HEAD') {
      send(response, 405, { error: 'only GET is supported' });
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
    if (!parts) {
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
    if (rest.length > 0 || (id !== undefined && !isSafeId(id))) {
      send(response, 400, { error: 'invalid id' });
      return;
    }
    if (resource === 'sessions' && id === undefined) {
      send(response, 200, { sessions: await library.sessions() });
      return;
    }
    if (resource === 'sessions' && id !== undefined && tail === 'model-calls') {
      send(response, 200, { sessionId: id, calls: await library.modelCalls(id) });
      return;
    }
    if (resource === 'sessions' && id !== undefined && tail === 'artifacts') {
      send(response, 200, { sessionId: id, artifacts: await library.list(id) });
      return;
    }
    if (resource === 'artifacts' && id !== undefined && tail === undefined) {
      const unit = url.searchParams.get('unit') ?? 'lines';
      if (unit !== 'lines' && unit !== 'chars') {
        send(response, 400, { error: 'unit must be lines or chars' });
        return;
      }
      const page = await library.readPage(id, {
        offset: integer(url.searchParams.get('offset')),
        limit: integer(url.searchParams.get('limit')),
        unit,
      });
      send(response, 200, page);
      return;
    }
    if (resource === 'artifacts' && id !== undefined && tail === 'search') {
      const result = await library.search(id, url.searchParams.get('pattern') ?? '', {
        regex: url.searchParams.get('regex') === 'true',
      });
      send(response, 200, result);
      return;
    }
    send(response, 404, { error: 'not found' });
  }

  const server = createServer((request, response) => {
    handle(request, response).catch((error: unknown) => {
      if (ArtifactError.isInstance(error)) {
        send(response, error.code === 'artifact_not_found' ? 404 : 400, { error: error.message });
        return;
      }
      if (!response.headersSent) send(response, 500, { error: 'internal error' });
      else response.destroy();
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
