import { rm } from 'node:fs/promises';
import { request } from 'node:http';
import { connect } from 'node:net';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sha256Hex } from '../storage/sha256-hex.js';
import { makeSessionDir } from '../test-support/make-session-dir.js';
import { openSessionTranscript } from '../transcript/session-transcript.js';
import { createArtifactServer, type RunningArtifactServer } from './artifact-server.js';

let root: string;
let ids: { terminal: string; read: string; evil: string };
let open: RunningArtifactServer;
let locked: RunningArtifactServer;

beforeAll(async () => {
  const made = await makeSessionDir();
  root = made.root;
  const evil = await (
    await openSessionTranscript({ path: join(root, 'evil.jsonl') })
  ).settleToolResult({
    toolName: 'terminal',
    toolCallId: 'call_evil',
    output: `${'a'.repeat(34)}!\n`.repeat(2000),
  });
  ids = { ...made.ids, evil: evil.artifact!.id };
  open = await createArtifactServer({ dir: root }).listen();
  locked = await createArtifactServer({ dir: root, token: 's3cret' }).listen();
});
afterAll(async () => {
  await open.close();
  await locked.close();
  await rm(root, { recursive: true, force: true });
});

/** A raw GET so paths reach the server exactly as written (fetch would normalise `..`). */
function get(base: string, path: string, headers: Record<string, string> = {}) {
  const url = new URL(base);
  return new Promise<{ status: number; body: string; headers: Record<string, unknown> }>(
    (resolve, reject) => {
      const req = request({ host: url.hostname, port: url.port, path, headers }, (response) => {
        let body = '';
        response.setEncoding('utf8');
        response.on('data', (chunk: string) => {
          body += chunk;
        });
        response.on('end', () =>
          resolve({ status: response.statusCode!, body, headers: response.headers }),
        );
      });
      req.on('error', reject);
      req.end();
    },
  );
}

/** Sends `text` as it is (headers a client library would merge or refuse) and reads the answer. */
function rawRequest(port: number, text: string) {
  return new Promise<string>((resolve, reject) => {
    const socket = connect(port, '127.0.0.1', () => socket.write(text));
    let answer = '';
    socket.setEncoding('utf8');
    socket.on('data', (chunk: string) => {
      answer += chunk;
    });
    socket.on('end', () => resolve(answer));
    socket.on('error', reject);
  });
}

describe('createArtifactServer', () => {
  it("pages a session's artifacts with limit and cursor, and says what is left", async () => {
    const all = JSON.parse((await get(open.url, '/api/sessions/demo-session/artifacts')).body);
    expect(all.next).toBe(null);
    const seen: string[] = [];
    let cursor: string | null = '';
    let pages = 0;
    while (cursor !== null) {
      const path = `/api/sessions/demo-session/artifacts?limit=1${cursor ? `&cursor=${cursor}` : ''}`;
      const page = JSON.parse((await get(open.url, path)).body);
      expect(page.artifacts).toHaveLength(1);
      expect(page.total).toBe(all.artifacts.length);
      seen.push(page.artifacts[0].id);
      cursor = page.next;
      pages++;
    }
    expect(pages).toBe(all.artifacts.length);
    expect(seen).toEqual(all.artifacts.map((a: { id: string }) => a.id));
    const unknown = await get(open.url, '/api/sessions/demo-session/artifacts?cursor=art_nope');
    expect(unknown.status).toBe(400);
    expect(JSON.parse(unknown.body).error).toMatch(/unknown cursor/);
    for (const limit of ['0', '-1', 'x']) {
      const bad = await get(open.url, `/api/sessions/demo-session/artifacts?limit=${limit}`);
      expect(bad.status).toBe(400);
    }
    // Above the maximum reads as the maximum (`pagingValue`, shared with the CLI and MCP).
    const large = await get(open.url, '/api/sessions/demo-session/artifacts?limit=1001');
    expect(large.status).toBe(200);
    expect(JSON.parse(large.body)).toEqual(all);
  });

  it('binds to 127.0.0.1 by default', () => {
    expect(open.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/$/);
  });

  it('lists sessions and a session’s artifacts with title, kind, size and preview', async () => {
    const sessions = await get(open.url, '/api/sessions');
    expect(JSON.parse(sessions.body)).toEqual({ sessions: ['demo-session', 'evil'] });
    const list = JSON.parse((await get(open.url, '/api/sessions/demo-session/artifacts')).body);
    expect(list.artifacts.map((a: { id: string }) => a.id)).toEqual([ids.terminal, ids.read]);
    expect(list.artifacts[0]).toMatchObject({
      kind: 'terminal_log',
      title: 'terminal make test',
      createdAt: 1_750_000_000_000,
      path: expect.stringMatching(/^call_term_1-[0-9a-f]{16}\.txt$/),
    });
    expect(list.artifacts[1]).toMatchObject({
      kind: 'file_read',
      title: 'read_file src/values.ts',
    });
    expect(list.artifacts[1].preview.startsWith('export const value0')).toBe(true);
  });

  it('serves an artifact page by page', async () => {
    const page = JSON.parse(
      (await get(open.url, `/api/artifacts/${ids.terminal}?offset=11&limit=5`)).body,
    );
    expect(page).toMatchObject({
      line: 11,
      count: 5,
      totalLines: 1200,
      next: { line: 16, column: 1 },
    });
    expect(page.text.split('\n')[0]).toBe('line 11: step 10 ok ✓');
    const search = JSON.parse(
      (await get(open.url, `/api/artifacts/${ids.terminal}/search?pattern=quota`)).body,
    );
    expect(search.matches).toEqual([
      {
        line: 778,
        column: 13,
        length: 5,
        text: 'ERROR: disk quota exceeded on /var/lib/data (needle-777)',
      },
    ]);
    const tail = JSON.parse((await get(open.url, `/api/artifacts/${ids.terminal}?offset=-1`)).body);
    expect(tail).toMatchObject({ line: 1200, count: 1, next: null });
  });

  it('serves the raw bytes as a download with their sha256', async () => {
    const list = JSON.parse((await get(open.url, '/api/sessions/demo-session/artifacts')).body);
    const record = list.artifacts[0];
    const raw = await get(open.url, `/api/artifacts/${ids.terminal}/raw`);
    expect(raw.status).toBe(200);
    expect(raw.headers['content-disposition']).toBe(`attachment; filename="${record.path}"`);
    expect(raw.headers['x-artifact-sha256']).toBe(record.digest);
    expect(sha256Hex(raw.body)).toBe(record.digest);
  });

  it('answers other requests while a catastrophic regex search runs (issue 13, item 1)', async () => {
    const evil = ['(a|a)+$', '((a+))+$', '(\\w|[a-z])+$', '(a|aa)+$', '.*.*.*.*x'];
    const searches = evil.map((pattern) =>
      get(
        open.url,
        `/api/artifacts/${ids.evil}/search?regex=true&pattern=${encodeURIComponent(pattern)}`,
      ),
    );
    const sessions = await get(open.url, '/api/sessions');
    expect(sessions.status).toBe(200);
    const answers = await Promise.all(searches);
    for (const [i, answer] of answers.entries()) {
      expect(answer.status, evil[i]).toBe(200);
      const body = JSON.parse(answer.body);
      expect(body.matches, evil[i]).toEqual([]);
    }
  });

  it('refuses to bind beyond loopback without a token', () => {
    expect(() => createArtifactServer({ dir: root, host: '0.0.0.0' })).toThrow(/give a token/);
    expect(() => createArtifactServer({ dir: root, host: '0.0.0.0', token: 't' })).not.toThrow();
  });

  it('rejects every path traversal attempt', async () => {
    const attempts = [
      '/api/artifacts/..%2F..%2Fetc%2Fpasswd',
      '/api/artifacts/%2e%2e',
      '/api/artifacts/../../etc/passwd',
      '/api/sessions/..%2Fdemo-session/artifacts',
      '/api/sessions/%2e%2e/artifacts',
      '/api/sessions/demo-session%00/artifacts',
      '/api/sessions/demo-session.jsonl%2F..%2F/artifacts',
      '/api/artifacts/%252e%252e%252fetc',
      '/api/artifacts/art_x%5C..%5C..',
      '/api/artifacts/%E0%A4%A',
      '/api/artifacts/C:%5Cwindows',
      '/api/artifacts/..%2Fdemo-session.artifacts%2Findex.jsonl',
      '/api/artifacts/index.jsonl',
      '/api/sessions/..%2F..%2Fetc/artifacts',
    ];
    for (const path of attempts) {
      const response = await get(open.url, path);
      expect([400, 404], path).toContain(response.status);
      expect(response.body, path).not.toContain('root:');
    }
    expect((await get(open.url, '/api/artifacts/art_000000000000000000000000')).status).toBe(404);
    expect((await get(open.url, `/api/artifacts/${ids.read}?offset=1.5`)).status).toBe(400);
  });

  it('refuses requests for a non-loopback Host (DNS rebinding)', async () => {
    expect((await get(open.url, '/api/sessions', { host: 'evil.example' })).status).toBe(403);
  });

  it('refuses a request with two Host headers, whichever comes first (issue 43, item 10)', async () => {
    const hosts = [
      ['127.0.0.1', 'evil.example'],
      ['evil.example', '127.0.0.1'],
      ['127.0.0.1', '127.0.0.1'],
    ];
    for (const server of [open, locked]) {
      const { port } = new URL(server.url);
      for (const [first, second] of hosts) {
        const response = await rawRequest(
          Number(port),
          `GET /api/sessions HTTP/1.1\r\nHost: ${first}\r\nHost: ${second}\r\nAuthorization: Bearer s3cret\r\nConnection: close\r\n\r\n`,
        );
        expect(response, `${first}, ${second}`).toMatch(/^HTTP\/1\.1 400 /);
        expect(response).not.toContain('demo-session');
      }
      // One Host is served as before.
      const single = await rawRequest(
        Number(port),
        'GET /api/sessions HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer s3cret\r\nConnection: close\r\n\r\n',
      );
      expect(single).toMatch(/^HTTP\/1\.1 200 /);
    }
  });

  it('needs the bearer token when one is set, for the API only', async () => {
    expect((await get(locked.url, '/api/sessions')).status).toBe(401);
    expect((await get(locked.url, '/api/sessions', { authorization: 'Bearer wrong' })).status).toBe(
      401,
    );
    expect(
      (await get(locked.url, '/api/sessions', { authorization: 'Bearer s3cret' })).status,
    ).toBe(200);
    const page = await get(locked.url, '/');
    expect(page.status).toBe(200);
    expect(page.headers['content-security-policy']).toContain("default-src 'none'");
  });
});
