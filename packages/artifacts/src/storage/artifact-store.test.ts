import { mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { parseExcerptMarker } from '../projection/excerpt-marker.js';
import { createFaultyArtifactFileSystem } from '../test/index.js';
import { referenceCount, trickyText } from '../test-support/grapheme-arbitraries.js';
import { artifactDirFor } from './artifact-dir-for.js';
import type { ArtifactFileSystem } from './artifact-file-system.js';
import { nodeArtifactFileSystem } from './artifact-file-system.js';
import { createArtifactStore } from './artifact-store.js';
import { recordStoredArtifact } from './record-stored-artifact.js';
import { isSafeId } from './safe-id.js';
import { sha256Hex } from './sha256-hex.js';
import { excerptStream } from './store-stream-excerpt.js';

let root: string;
beforeEach(async () => {
  root = await mkdtemp(join(tmpdir(), 'artifact-store-'));
});
afterEach(async () => {
  await rm(root, { recursive: true, force: true });
});

describe('createArtifactStore', () => {
  it('writes <op>.txt in <transcript-stem>.artifacts/ with digest, bytes and chars', async () => {
    const transcript = join(root, 'run-42.jsonl');
    const store = createArtifactStore({ transcriptPath: transcript });
    expect(store.dir).toBe(join(root, 'run-42.artifacts'));
    const content = 'héllo\r\nwörld 👨‍👩‍👧\n';
    const stored = await store.store('call_01', content);
    const file = `call_01-${sha256Hex(content).slice(0, 16)}.txt`;
    expect(stored).toEqual({
      file,
      digest: sha256Hex(content),
      bytes: Buffer.byteLength(content),
      chars: referenceCount(content),
      lines: 2,
    });
    const onDisk = await readFile(join(artifactDirFor(transcript), file));
    expect(sha256Hex(onDisk)).toBe(stored.digest);
    expect(onDisk.byteLength).toBe(stored.bytes);
    expect(await readdir(store.dir)).toEqual([file]);
  });

  it("takes the caller's digest of the same bytes instead of hashing, and refuses a malformed one", async () => {
    const store = createArtifactStore({ dir: join(root, 's.artifacts') });
    const content = 'one result ✓\n'.repeat(100);
    const digest = sha256Hex(content);
    const stored = await store.store('call_d', content, { digest });
    expect(stored).toMatchObject({ digest, file: `call_d-${digest.slice(0, 16)}.txt`, lines: 100 });
    expect(sha256Hex(await readFile(store.pathOf(stored.file)))).toBe(digest);
    await expect(
      store.store('call_d', content, { digest: digest.toUpperCase() }),
    ).rejects.toMatchObject({ code: 'invalid_argument' });
  });

  it('never overwrites: a reused operation id gets a second file, the same bytes reuse the first', async () => {
    const store = createArtifactStore({ dir: join(root, 's.artifacts') });
    const a = await store.store('call_0', 'first result\n');
    const b = await store.store('call_0', 'second result\n');
    const again = await store.store('call_0', 'first result\n');
    expect(a.file).not.toBe(b.file);
    expect(again.file).toBe(a.file);
    expect(await readFile(join(store.dir, a.file), 'utf8')).toBe('first result\n');
    expect(await readFile(join(store.dir, b.file), 'utf8')).toBe('second result\n');
    expect((await readdir(store.dir)).sort()).toEqual([a.file, b.file].sort());
  });

  it('accepts operation ids of any shape and maps them to safe names inside the directory', async () => {
    const store = createArtifactStore({ dir: join(root, 's.artifacts') });
    const attempts = [
      'functions.bash:0',
      'call|abc',
      'toolu_01A/B',
      'a'.repeat(300),
      '../escape',
      '..',
      '.',
      '',
      'a/b',
      'a\\b',
      '/etc/passwd',
      'x/../../y',
      'nul\u0000byte',
      '%2e%2e%2fetc',
      '.hidden',
      'ｆｕｌｌ',
      'résumé 🚀',
    ];
    const files = new Set<string>();
    for (const [i, id] of attempts.entries()) {
      const stored = await store.store(id, `result ${i}\n`);
      expect(isSafeId(stored.file), `${JSON.stringify(id)} -> ${stored.file}`).toBe(true);
      expect(await readFile(join(store.dir, stored.file), 'utf8')).toBe(`result ${i}\n`);
      files.add(stored.file);
    }
    expect(files.size).toBe(attempts.length);
    expect(await readdir(root)).toEqual(['s.artifacts']);
    expect((await readdir(store.dir)).sort()).toEqual([...files].sort());
    expect(() => store.pathOf('../s.jsonl')).toThrow(/Invalid artifact file/);
  });

  it('fails with artifact_store_failed when a file sits where the directory should be', async () => {
    const transcript = join(root, 'blocked.jsonl');
    await writeFile(artifactDirFor(transcript), 'not a directory');
    const store = createArtifactStore({ transcriptPath: transcript });
    await expect(store.store('call_1', 'data')).rejects.toMatchObject({
      code: 'artifact_store_failed',
    });
  });

  it('leaves no file under the final name when the write fails midway', async () => {
    const failing: ArtifactFileSystem = {
      ...nodeArtifactFileSystem,
      async openForWrite(path) {
        const handle = await nodeArtifactFileSystem.openForWrite(path);
        return {
          ...handle,
          async write() {
            throw Object.assign(new Error('ENOSPC: no space left on device'), { code: 'ENOSPC' });
          },
        };
      },
    };
    const store = createArtifactStore({ dir: join(root, 'full.artifacts'), fileSystem: failing });
    await expect(store.store('call_1', 'x'.repeat(1000))).rejects.toThrow(/no space left/);
    expect(await readdir(store.dir)).toEqual([]);
  });

  it('detects a short write the device reported as whole, and stores nothing under a false digest', async () => {
    const lying = createFaultyArtifactFileSystem({
      fault: (operation) => (operation === 'write' ? { shortWrite: 100 } : undefined),
    });
    const store = createArtifactStore({ dir: join(root, 'lying.artifacts'), fileSystem: lying });
    await expect(store.store('call_1', 'x'.repeat(1000))).rejects.toMatchObject({
      code: 'artifact_store_failed',
      message: expect.stringContaining('short write, 100 of 1000 bytes'),
    });
    const streamed = await store.storeStream(
      'call_2',
      generated(100, (i) => `row ${i}\n`),
      {
        budgetChars: 500,
      },
    );
    expect(streamed.stored).toBeUndefined();
    expect(streamed.excerpt.marker).toContain('full result not stored (write failed)');
    expect(await readdir(store.dir)).toEqual([]);
  });

  it('honours an aborted signal', async () => {
    const store = createArtifactStore({ dir: join(root, 'a.artifacts') });
    await expect(
      store.store('call_1', 'x', { signal: AbortSignal.abort(new Error('stop')) }),
    ).rejects.toThrow('stop');
  });
});

async function* generated(lines: number, line: (i: number) => string) {
  let batch = '';
  for (let i = 0; i < lines; i++) {
    batch += line(i);
    if (batch.length > 60_000) {
      yield batch;
      batch = '';
    }
  }
  if (batch) yield batch;
}

describe('storeStream', () => {
  it('stores a ~50 MB stream while hashing it and excerpts its two ends', async () => {
    const store = createArtifactStore({ dir: join(root, 'big.artifacts') });
    const line = (i: number) =>
      `${String(i).padStart(8, '0')} build step ok — ✓ ${'·'.repeat(30)}\n`;
    const { stored, excerpt, description } = await store.storeStream(
      'call_big',
      generated(800_000, line),
      { budgetChars: 4000 },
    );
    expect(stored).toBeDefined();
    const onDisk = await readFile(join(store.dir, stored!.file));
    expect(onDisk.byteLength).toBeGreaterThan(50_000_000);
    expect(sha256Hex(onDisk)).toBe(stored!.digest);
    expect(stored!.bytes).toBe(onDisk.byteLength);
    expect(description.chars).toBe(800_000 * line(0).length);
    expect(excerpt.text.length).toBeLessThanOrEqual(4000);
    expect(excerpt.head.startsWith(line(0))).toBe(true);
    expect(excerpt.tail.endsWith(line(799_999))).toBe(true);
    const marker = parseExcerptMarker(excerpt.marker!);
    expect(marker).toMatchObject({ file: stored!.file, digest: stored!.digest });
    expect(stored!.file).toBe(`call_big-${stored!.digest.slice(0, 16)}.txt`);
    expect(marker!.elidedChars).toBe(description.chars - excerpt.headChars - excerpt.tailChars);
  });

  it('gives the same excerpt as the in-memory path for any chunking of a Unicode stream', async () => {
    const text = `${'👩🏽‍💻 e\u0301 🇯🇵\r\n'.repeat(3000)}END ✓`;
    const store = createArtifactStore({ dir: join(root, 'u.artifacts') });
    for (const size of [1, 5, 4096, 65_536]) {
      const bytes = Buffer.from(text);
      const chunks: Buffer[] = [];
      for (let i = 0; i < bytes.length; i += size) chunks.push(bytes.subarray(i, i + size));
      const result = await store.storeStream(`chunk-${size}`, Readable.from(chunks), {
        budgetChars: 300,
      });
      expect(result.description).toEqual({
        bytes: bytes.byteLength,
        chars: 3000 * 6 + 5,
        digest: sha256Hex(bytes),
      });
      expect(referenceCount(result.excerpt.text)).toBeLessThanOrEqual(300);
      expect(text.startsWith(result.excerpt.head)).toBe(true);
      expect(text.endsWith(result.excerpt.tail)).toBe(true);
      expect(result.excerpt.tail.endsWith('END ✓')).toBe(true);
    }
  });

  it('fails open: a write that breaks midway still yields the excerpt, marked not stored', async () => {
    let writes = 0;
    const flaky: ArtifactFileSystem = {
      ...nodeArtifactFileSystem,
      async openForWrite(path) {
        const handle = await nodeArtifactFileSystem.openForWrite(path);
        return {
          ...handle,
          async write(data) {
            if (++writes > 3) throw new Error('EIO: i/o error');
            await handle.write(data);
          },
        };
      },
    };
    const store = createArtifactStore({ dir: join(root, 'flaky.artifacts'), fileSystem: flaky });
    const result = await store.storeStream(
      'call_x',
      generated(50_000, (i) => `row ${i}\n`),
      {
        budgetChars: 500,
      },
    );
    expect(result.stored).toBeUndefined();
    expect(result.failure?.code).toBe('artifact_store_failed');
    expect(result.excerpt.marker).toContain('full result not stored (write failed)');
    expect(result.excerpt.tail.endsWith('row 49999\n')).toBe(true);
    expect(await readdir(store.dir)).toEqual([]);
  });

  it('records the stored file before the excerpt is cut, and fails open when the record cannot be written', async () => {
    const store = createArtifactStore({ dir: join(root, 'indexed.artifacts') });
    const rows = () => generated(5000, (i) => `row ${i}\n`);
    const recorded = await store.storeStream('call_r', rows(), {
      budgetChars: 500,
      record: (stored, preview) =>
        recordStoredArtifact({ index: store.index, sessionId: 's', stored, preview }),
    });
    expect(recorded.artifact).toMatchObject({ path: recorded.stored!.file, lines: 5000 });
    expect(recorded.artifact!.preview.startsWith('row 0\nrow 1\n')).toBe(true);
    expect(await store.index.get(recorded.artifact!.id)).toEqual(recorded.artifact);

    const failed = await store.storeStream('call_f', rows(), {
      budgetChars: 500,
      record: async () => {
        throw Object.assign(new Error('ENOSPC: no space left on device'), { code: 'ENOSPC' });
      },
    });
    expect(failed.stored).toBeUndefined();
    expect(failed.artifact).toBeUndefined();
    expect(failed.failure).toMatchObject({
      code: 'artifact_store_failed',
      message: expect.stringMatching(/^Could not index the full result of "call_f".*ENOSPC/),
    });
    expect(failed.excerpt.marker).toContain('full result not stored (write failed)');
    expect(failed.excerpt.text.length).toBeLessThanOrEqual(500);
  });

  it('without a store, says the full result was not stored', async () => {
    const result = await excerptStream(
      generated(10_000, (i) => `x${i}\n`),
      { budgetChars: 400 },
    );
    expect(result.excerpt.marker).toMatch(/not stored \(no session\), sha256 [0-9a-f]{64}/);
    expect(result.stored).toBeUndefined();
  });

  it('returns a small stream whole', async () => {
    const result = await excerptStream(Readable.from([Buffer.from('short ✓')]), {
      budgetChars: 400,
    });
    expect(result.excerpt).toMatchObject({ text: 'short ✓', contentLost: false });
  });
});

describe('storeStream with clusters larger than its windows', () => {
  it('returns whole a text that fits in chars when its two windows together hold it', async () => {
    const family = '👨‍👩‍👧‍👦'; // 11 code units, 25 bytes, one char
    const text = `${family.repeat(700)}END`;
    const result = await excerptStream(Readable.from([Buffer.from(text)]), { budgetChars: 1000 });
    expect(result.description.chars).toBe(703);
    expect(result.excerpt).toMatchObject({ text, contentLost: false });
  });

  it('never repeats content when a text that fits in chars does not fit the byte windows', async () => {
    const accented = `e${'\u0301'.repeat(20)}`; // 21 code units, 41 bytes, one char
    const text = `${accented.repeat(900)}END`;
    const result = await excerptStream(Readable.from([Buffer.from(text)]), { budgetChars: 1000 });
    expect(result.description.chars).toBe(903);
    expect(result.excerpt.contentLost).toBe(true);
    expect(referenceCount(result.excerpt.text)).toBeLessThanOrEqual(1000);
    expect(result.excerpt.headChars + result.excerpt.tailChars).toBeLessThan(903);
    expect(text.startsWith(result.excerpt.head)).toBe(true);
    expect(text.endsWith(result.excerpt.tail)).toBe(true);
  });
});

describe('excerptStream on arbitrary byte chunking', () => {
  it('counts and hashes exactly however the bytes are cut, ASCII chunks included', async () => {
    const { default: fc } = await import('fast-check');
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.oneof(trickyText(20), fc.constant('plain ascii run\n')), { maxLength: 30 }),
        fc.array(fc.nat(), { maxLength: 20 }),
        async (parts, cuts) => {
          const text = parts.join('');
          const bytes = Buffer.from(text);
          const points = [...new Set(cuts.map((cut) => cut % (bytes.length + 1)))].sort(
            (a, b) => a - b,
          );
          const chunks: Buffer[] = [];
          let from = 0;
          for (const point of [...points, bytes.length]) {
            chunks.push(bytes.subarray(from, point));
            from = point;
          }
          const decoded = bytes.toString('utf8');
          const result = await excerptStream(Readable.from(chunks), { budgetChars: 200 });
          expect(result.description).toEqual({
            bytes: bytes.byteLength,
            chars: referenceCount(decoded),
            digest: sha256Hex(bytes),
          });
        },
      ),
      { numRuns: 300 },
    );
  });
});
