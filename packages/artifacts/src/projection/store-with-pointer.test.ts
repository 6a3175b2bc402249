import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ArtifactError } from '../artifact-error.js';
import { ARTIFACT_INDEX_FILE } from '../storage/artifact-index.js';
import { createArtifactStore } from '../storage/artifact-store.js';
import { sha256Hex } from '../storage/sha256-hex.js';
import { type ArtifactFileOperation, createFaultyArtifactFileSystem } from '../test/index.js';
import { artifactPointerLine } from './artifact-pointer-line.js';
import { storeWithPointer } from './store-with-pointer.js';

const content = Array.from({ length: 200 }, (_, i) => `line ${i} ✓`).join('\n');
const record = { sessionId: 's', toolCallId: 'call_1', toolName: 'terminal', preview: 'line 0' };

let root: string;
beforeEach(async () => {
  root = await mkdtemp(join(tmpdir(), 'store-with-pointer-'));
});
afterEach(async () => {
  await rm(root, { recursive: true, force: true });
});

/** A store whose writes fail at `operation` on the artifact file (`file`) or the index (`index`). */
function faultyStore(target: 'file' | 'index', operation: ArtifactFileOperation) {
  const dir = join(root, 's.artifacts');
  const fileSystem = createFaultyArtifactFileSystem({
    fault: (op, path) =>
      op === operation && path.endsWith(ARTIFACT_INDEX_FILE) === (target === 'index')
        ? { code: 'ENOSPC' }
        : undefined,
  });
  return { dir, store: createArtifactStore({ dir, fileSystem }) };
}

describe('storeWithPointer', () => {
  it('stores, records, and returns the pointer line of the record the index holds', async () => {
    const store = createArtifactStore({ dir: join(root, 's.artifacts') });
    const outcome = await storeWithPointer({ store, opId: 'call_1', content, record });
    expect(outcome.failure).toBeUndefined();
    expect(outcome.line).toBe(artifactPointerLine(outcome.record!));
    expect(await store.index.get(outcome.record!.id)).toEqual(outcome.record);
    expect(await readFile(store.pathOf(outcome.stored!.file), 'utf8')).toBe(content);
  });

  it('trusts a digest the caller computed over the same bytes, and hashes without one', async () => {
    const store = createArtifactStore({ dir: join(root, 's.artifacts') });
    const digest = sha256Hex(content);
    const trusted = await storeWithPointer({
      store,
      opId: 'call_1',
      content,
      record,
      contentDigest: digest,
    });
    expect(trusted.stored?.digest).toBe(digest);
    // Trusted, not checked: a (wrong) digest names the file as given.
    const wrong = 'a'.repeat(64);
    const lied = await storeWithPointer({
      store,
      opId: 'call_2',
      content,
      record,
      contentDigest: wrong,
    });
    expect(lied.stored?.digest).toBe(wrong);
    // Not shaped like a digest: ignored, the content is hashed.
    const ignored = await storeWithPointer({
      store,
      opId: 'call_3',
      content,
      record,
      contentDigest: 'nope',
    });
    expect(ignored.stored?.digest).toBe(digest);
  });

  it('rethrows an abort, even once the file is written', async () => {
    const store = createArtifactStore({ dir: join(root, 's.artifacts') });
    const before = new AbortController();
    before.abort(new Error('user cancelled'));
    await expect(
      storeWithPointer({ store, opId: 'call_1', content, record, signal: before.signal }),
    ).rejects.toThrow('user cancelled');
    // Aborted between the write and the record: not a "not stored" outcome, the reason.
    const between = new AbortController();
    await expect(
      storeWithPointer({
        store,
        opId: 'call_1',
        content,
        record: () => {
          between.abort(new Error('stopped after the write'));
          return record;
        },
        signal: between.signal,
      }),
    ).rejects.toThrow('stopped after the write');
  });

  it('turns a failed write into a not-stored outcome that says why', async () => {
    const { store, dir } = faultyStore('file', 'openForWrite');
    const outcome = await storeWithPointer({ store, opId: 'call_1', content, record });
    expect(outcome.record).toBeUndefined();
    expect(outcome.orphan).toBeUndefined();
    expect(ArtifactError.isInstance(outcome.failure) && outcome.failure.code).toBe(
      'artifact_store_failed',
    );
    expect(outcome.line).toMatch(
      /^Full output not stored \(write failed: Could not store the full result of "call_1": ENOSPC.*\); only this excerpt remains\.$/,
    );
    expect(outcome.failure && 'reason' in outcome ? outcome.reason : '').toBe('write failed');
    expect((await readdir(dir)).filter((name) => name.endsWith('.txt'))).toEqual([]);
  });

  it('reports a file written but not indexed as an orphan, not stored', async () => {
    const { store, dir } = faultyStore('index', 'append');
    const outcome = await storeWithPointer({ store, opId: 'call_1', content, record });
    expect(outcome.record).toBeUndefined();
    expect(outcome.failure?.code).toBe('artifact_store_failed');
    expect(outcome.failure?.message).toMatch(/^Could not index the stored result of "call_1"/);
    expect(outcome.line).toMatch(/^Full output not stored \(write failed: Could not index/);
    // The orphan is on disk, whole, and nothing names it.
    expect(outcome.orphan?.digest).toBe(sha256Hex(content));
    expect(await readFile(join(dir, outcome.orphan!.file), 'utf8')).toBe(content);
    expect(await store.index.lookup('call_1')).toMatchObject({ byId: [], byFile: [], byOp: [] });
  });
});
