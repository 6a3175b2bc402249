import { createHash } from 'node:crypto';
import { appendFile, mkdir, mkdtemp, open, rm, utimes, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { sha256Hex } from '../storage/sha256-hex.js';
import { countGraphemes } from '../text/count-graphemes.js';
import { createArtifactLibrary } from './artifact-library.js';
import { createArtifactToolHandler } from './artifact-tools.js';

let root: string;
beforeEach(async () => {
  root = await mkdtemp(join(tmpdir(), 'library-'));
});
afterEach(async () => {
  vi.restoreAllMocks();
  await rm(root, { recursive: true, force: true });
});

/** A file in store `s` that no index record names, as a crash before the record leaves it. */
async function orphanPath(file: string): Promise<string> {
  await mkdir(join(root, 's.artifacts'), { recursive: true });
  return join(root, 's.artifacts', file);
}

describe('a stored file without its index record', () => {
  it('over 512 MiB (longer than a string can be) is described, read and searched by page', async () => {
    // Slow-ish: about 600 MiB written, then hashed, counted and indexed once each.
    const file = 'call_big-0123456789abcdef.txt';
    const path = await orphanPath(file);
    const line = `orphan line ✓ ${'x'.repeat(100)}\n`;
    const block = Buffer.alloc(Buffer.byteLength(line) * 580_000, line);
    const blocks = 9;
    const head = 'head needle-0\nhead needle-1\n';
    const tail = 'tail needle-2\ntail line 2\ntail line 3 the end\n';
    const hash = createHash('sha256');
    const handle = await open(path, 'w');
    try {
      for (const part of [Buffer.from(head), ...Array(blocks).fill(block), Buffer.from(tail)]) {
        await handle.write(part);
        hash.update(part);
      }
    } finally {
      await handle.close();
    }
    const bytes = Buffer.byteLength(head) + block.byteLength * blocks + Buffer.byteLength(tail);
    const units = head.length + line.length * 580_000 * blocks + tail.length;
    // More than the longest string V8 makes (2^29 - 24 units): the whole file cannot be one.
    expect(units).toBeGreaterThan(2 ** 29);
    const totalLines = 2 + 580_000 * blocks + 3;

    const library = createArtifactLibrary({ root });
    const { record } = await library.resolve(file);
    expect(record).toMatchObject({
      path: file,
      bytes,
      digest: hash.digest('hex'),
      chars: countGraphemes(head) + countGraphemes(line) * 580_000 * blocks + countGraphemes(tail),
      sessionId: 's',
    });
    expect(record.preview).toBe(`${head}${line.repeat(4)}`.slice(0, 400));

    const tools = createArtifactToolHandler({ library, sessionId: 's' });
    const first = await tools.call('artifact_read', { id: file, offset: 1, limit: 3 });
    expect(first).toBe(
      `[artifact ${record.id} (${file}): lines 1-3 of ${totalLines}; next: offset=4]\n` +
        `head needle-0\nhead needle-1\n${line}`,
    );
    const last = await tools.call('artifact_read', { id: file, offset: -2 });
    expect(last).toBe(
      `[artifact ${record.id} (${file}): lines ${totalLines - 1}-${totalLines} of ${totalLines}; end of artifact]\n` +
        'tail line 2\ntail line 3 the end\n',
    );
    const found = await tools.call('artifact_search', {
      id: file,
      pattern: 'NEEDLE-',
      max_matches: 1,
    });
    // The head holds the next match too, so the search stops there, not at the time budget.
    expect(found).toBe(
      `[artifact ${record.id} (${file}): 1+ matches; ${totalLines} lines]\n` +
        '1:6: head needle-0\n[more matches: search again with from_line=2 from_column=6]',
    );
    const late = await tools.call('artifact_search', {
      id: file,
      pattern: 'needle',
      from_line: totalLines - 5,
    });
    expect(late).toBe(
      `[artifact ${record.id} (${file}): 1 match; ${totalLines} lines]\n` +
        `${totalLines - 2}:6: tail needle-2`,
    );
  }, 120_000);

  it('is described once per version of the file: a rewrite of the same size and time is not read again', async () => {
    const file = 'call_1-00000000000000aa.txt';
    const path = await orphanPath(file);
    const first = 'first version, line 1\nline 2 ✓ e\u0301\n';
    const second = 'other version, line 1\nline 2 ✓ e\u0301\n';
    expect(Buffer.byteLength(second)).toBe(Buffer.byteLength(first));
    // Whole seconds, so the modification time reads back exactly the same.
    const time = new Date(1_750_000_000_000);
    await writeFile(path, first);
    await utimes(path, time, time);
    const library = createArtifactLibrary({ root });
    const described = (await library.resolve(file)).record;
    expect(described.digest).toBe(sha256Hex(first));
    expect(described.chars).toBe(countGraphemes(first));

    // Same inode, size and time: the cached description answers, the new bytes unread.
    await writeFile(path, second);
    await utimes(path, time, time);
    expect((await library.resolve(file)).record).toEqual(described);
    expect((await library.readPage(file, { limit: 1 })).id).toBe(described.id);
    // A library without the cache reads the new bytes, so the answer above was the cache's.
    expect((await createArtifactLibrary({ root }).resolve(file)).record.digest).toBe(
      sha256Hex(second),
    );

    // Another size is another version: described afresh.
    await appendFile(path, 'line 3\n');
    await utimes(path, time, time);
    const grown = (await library.resolve(file)).record;
    expect(grown.digest).toBe(sha256Hex(`${second}line 3\n`));
    expect(grown.bytes).toBe(Buffer.byteLength(second) + 7);
  });

  it('is described under the signal of the request: an abort stops the reading, and caches nothing', async () => {
    const file = 'call_2-00000000000000bb.txt';
    const path = await orphanPath(file);
    const data = Buffer.alloc(8 << 20, 'abc ✓\n');
    await writeFile(path, data);
    const library = createArtifactLibrary({ root });
    // Every read of a FileHandle aborts the request: only the describing reads this store
    // (it has no index file), so one read then a stop means the signal reached it.
    const probe = await open(path);
    const prototype = Object.getPrototypeOf(probe) as { read: (...args: unknown[]) => unknown };
    await probe.close();
    const controller = new AbortController();
    const read = prototype.read;
    let reads = 0;
    vi.spyOn(prototype, 'read').mockImplementation(function (this: unknown, ...args: unknown[]) {
      reads++;
      controller.abort();
      return read.apply(this, args);
    });
    await expect(library.resolve(file, { signal: controller.signal })).rejects.toMatchObject({
      name: 'AbortError',
    });
    expect(reads).toBe(1);
    vi.restoreAllMocks();
    const { record } = await library.resolve(file);
    expect(record).toMatchObject({ bytes: data.byteLength, digest: sha256Hex(data) });
  });
});
