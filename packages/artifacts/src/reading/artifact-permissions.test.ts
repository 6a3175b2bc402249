import { chmod, rm } from 'node:fs/promises';
import { request } from 'node:http';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createArtifactServer } from '../serving/artifact-server.js';
import { makeSessionDir } from '../test-support/make-session-dir.js';
import { createArtifactLibrary } from './artifact-library.js';
import { createArtifactToolHandler } from './artifact-tools.js';

// Issue 43, item 10: a permission error read as "not found", and an unreadable store listed as
// an empty session. Tests run as root in CI, where chmod takes nothing away, so the errors are
// injected: `open` and `readdir` fail with EACCES for the paths in `denied`.
const denied = vi.hoisted(() => new Set<string>());
vi.mock('node:fs/promises', async (importOriginal) => {
  const actual = await importOriginal<typeof import('node:fs/promises')>();
  const refuse = (path: unknown, syscall: string) => {
    if (![...denied].some((prefix) => String(path).startsWith(prefix))) return;
    throw Object.assign(new Error(`EACCES: permission denied, ${syscall} '${String(path)}'`), {
      code: 'EACCES',
      syscall,
      path: String(path),
    });
  };
  const open = (async (path: Parameters<typeof actual.open>[0], ...rest: unknown[]) => {
    refuse(path, 'open');
    return (actual.open as (...args: unknown[]) => ReturnType<typeof actual.open>)(path, ...rest);
  }) as typeof actual.open;
  const readdir = (async (path: Parameters<typeof actual.readdir>[0], ...rest: unknown[]) => {
    refuse(path, 'scandir');
    return (actual.readdir as (...args: unknown[]) => unknown)(path, ...rest);
  }) as typeof actual.readdir;
  return { ...actual, open, readdir };
});

let root: string;
let ids: { terminal: string; read: string };
beforeEach(async () => {
  denied.clear();
  ({ root, ids } = await makeSessionDir());
});
afterEach(async () => {
  denied.clear();
  await rm(root, { recursive: true, force: true });
});

const store = () => join(root, 'demo-session.artifacts');
const permissionDenied = {
  name: 'ArtifactError',
  code: 'artifact_permission_denied',
  message: expect.stringContaining('permission denied'),
};

function get(base: string, path: string) {
  const url = new URL(base);
  return new Promise<{ status: number; body: string }>((resolve, reject) => {
    const req = request({ host: url.hostname, port: url.port, path }, (response) => {
      let body = '';
      response.setEncoding('utf8');
      response.on('data', (chunk: string) => {
        body += chunk;
      });
      response.on('end', () => resolve({ status: response.statusCode!, body }));
    });
    req.on('error', reject);
    req.end();
  });
}

describe('a permission error says "permission denied", never "not found" or empty', () => {
  it('an unreadable artifact file', async () => {
    const library = createArtifactLibrary({ root });
    const record = (await library.resolve(ids.terminal)).record;
    denied.add(join(store(), record.path));
    await expect(library.readPage(ids.terminal)).rejects.toMatchObject(permissionDenied);
    await expect(library.openRaw(ids.terminal)).rejects.toMatchObject(permissionDenied);
    // The other artifact of the session still reads.
    expect((await library.readPage(ids.read, { limit: 1 })).count).toBe(1);
  });

  it('an unreadable index: the session does not list as empty, and its ids do not read as unknown', async () => {
    denied.add(join(store(), 'index.jsonl'));
    const library = createArtifactLibrary({ root });
    await expect(library.list('demo-session')).rejects.toMatchObject(permissionDenied);
    await expect(library.resolve(ids.terminal)).rejects.toMatchObject(permissionDenied);
    await expect(
      library.resolve(ids.terminal, { sessionId: 'demo-session' }),
    ).rejects.toMatchObject(permissionDenied);
    expect(await library.find('art_000000000000000000000000').catch((e) => e)).toMatchObject(
      permissionDenied,
    );
  });

  it('an unreadable store folder, and an unreadable root', async () => {
    denied.add(`${store()}/`);
    const library = createArtifactLibrary({ root });
    await expect(library.list('demo-session')).rejects.toMatchObject(permissionDenied);
    await expect(library.readPage(ids.terminal)).rejects.toMatchObject(permissionDenied);
    denied.add(root);
    await expect(createArtifactLibrary({ root }).sessions()).rejects.toMatchObject(
      permissionDenied,
    );
  });

  it('over HTTP (403) and to the model tools', async () => {
    const library = createArtifactLibrary({ root });
    const tools = createArtifactToolHandler({ library });
    const server = await createArtifactServer({ dir: root }).listen();
    try {
      denied.add(join(store(), 'index.jsonl'));
      for (const path of [
        '/api/sessions/demo-session/artifacts',
        `/api/artifacts/${ids.terminal}`,
        `/api/artifacts/${ids.terminal}/raw`,
      ]) {
        const response = await get(server.url, path);
        expect(response.status, path).toBe(403);
        expect(JSON.parse(response.body)).toMatchObject({
          code: 'artifact_permission_denied',
          error: expect.stringContaining('permission denied'),
        });
        expect(response.body).not.toContain(root);
      }
      expect(await tools.call('artifact_read', { id: ids.terminal })).toMatch(
        /^error: artifact_permission_denied: .*permission denied/,
      );
    } finally {
      await server.close();
    }
  });

  it.skipIf(process.getuid?.() === 0)(
    'with real permission bits (skipped as root, which reads through them; the cases above inject the error)',
    async () => {
      await chmod(join(store(), 'index.jsonl'), 0o000);
      try {
        await expect(createArtifactLibrary({ root }).list('demo-session')).rejects.toMatchObject(
          permissionDenied,
        );
      } finally {
        await chmod(join(store(), 'index.jsonl'), 0o644);
      }
    },
  );
});
