import {
  appendFile,
  mkdir,
  mkdtemp,
  readdir,
  readFile,
  rename,
  rm,
  symlink,
  writeFile,
} from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { basename, dirname, join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createArtifactLibrary } from '../reading/artifact-library.js';
import { createFaultyArtifactFileSystem } from '../test/index.js';
import { createArtifactIndex, MAX_INDEX_LINE_BYTES } from './artifact-index.js';
import type { ArtifactRecord } from './artifact-record.js';

// Every byte read through `fs/promises` handles, by file: what a lookup costs, whatever the
// machine's speed.
const bytesRead = new Map<string, number>();
vi.mock('node:fs/promises', async (importOriginal) => {
  const actual = await importOriginal<typeof import('node:fs/promises')>();
  const open: typeof actual.open = async (path, ...rest) => {
    const handle = await actual.open(path, ...rest);
    const read = handle.read.bind(handle) as (...args: unknown[]) => Promise<{ bytesRead: number }>;
    (handle as { read: unknown }).read = async (...args: unknown[]) => {
      const result = await read(...args);
      bytesRead.set(String(path), (bytesRead.get(String(path)) ?? 0) + result.bytesRead);
      return result;
    };
    return handle;
  };
  return { ...actual, open };
});

/** Bytes read from a store's index and its lookup files (not from artifacts) by `run`. */
async function indexBytesReadBy(run: () => Promise<unknown>): Promise<number> {
  bytesRead.clear();
  await run();
  let total = 0;
  for (const [path, bytes] of bytesRead) {
    if (basename(path) === 'index.jsonl' || basename(dirname(path)) === 'index.lookup')
      total += bytes;
  }
  return total;
}

let root: string;
let dir: string;
beforeEach(async () => {
  root = await mkdtemp(join(tmpdir(), 'artifact-index-lookup-'));
  dir = join(root, 'run.artifacts');
  await mkdir(dir);
});
afterEach(async () => {
  await rm(root, { recursive: true, force: true });
});

const record = (n: number, extra: Partial<ArtifactRecord> = {}): ArtifactRecord => ({
  id: `art_${String(n).padStart(24, '0')}`,
  sessionId: 'run',
  toolCallId: `call_${n}`,
  toolName: 'terminal',
  kind: 'terminal_log',
  title: `terminal run ${n}`,
  summary: `Ran step ${n}.`,
  // A few hundred bytes, as a real record's preview is.
  preview: `step ${n} ok `.repeat(40),
  chars: 10,
  bytes: 10,
  digest: 'd'.repeat(64),
  path: `call_${n}-0123456789abcdef.txt`,
  createdAt: n,
  ...extra,
});

/** An index of `count` records written in one go, as an older writer left it. */
async function seed(count: number): Promise<number> {
  const text = Array.from({ length: count }, (_, n) => `${JSON.stringify(record(n))}\n`).join('');
  await writeFile(join(dir, 'index.jsonl'), text);
  return Buffer.byteLength(text);
}

describe('issue 43 item 12: a lookup in a fresh process does not read the whole index', () => {
  it('get, add and a miss read a bounded part of a 5 MB index, not all of it', async () => {
    const size = await seed(8000);
    expect(size).toBeGreaterThan(4_000_000);
    // The first process to look something up after an older writer migrates the index once.
    expect((await createArtifactIndex({ dir }).get(record(3).id))?.title).toBe('terminal run 3');

    const costs = {
      first: await indexBytesReadBy(async () => {
        expect((await createArtifactIndex({ dir }).get(record(1).id))?.path).toBe(record(1).path);
      }),
      last: await indexBytesReadBy(async () => {
        expect((await createArtifactIndex({ dir }).get(record(7999).id))?.createdAt).toBe(7999);
      }),
      miss: await indexBytesReadBy(async () => {
        expect(await createArtifactIndex({ dir }).get('art_missing')).toBeUndefined();
      }),
      add: await indexBytesReadBy(async () => {
        await createArtifactIndex({ dir }).add(record(8000));
      }),
      repeat: await indexBytesReadBy(async () => {
        // Already there: not appended twice.
        await createArtifactIndex({ dir }).add(record(8000, { title: 'again' }));
      }),
    };
    for (const [what, bytes] of Object.entries(costs)) {
      expect(bytes, what).toBeLessThan(size / 8);
    }
    const all = await createArtifactIndex({ dir }).list();
    expect(all).toHaveLength(8001);
    expect(all.at(-1)?.title).toBe('terminal run 8000');
  });

  it('a process that keeps looking up mirrors the index after a few lookups, and answers the same', async () => {
    await seed(2000);
    const index = createArtifactIndex({ dir, mirrorAfterLookups: 3 });
    for (let n = 0; n < 3; n++) {
      expect((await index.get(record(n).id))?.createdAt).toBe(n);
      expect(index.mirrored).toBe(false);
    }
    expect((await index.lookup('call_1999')).byOp.map((r) => r.createdAt)).toEqual([1999]);
    expect(index.mirrored).toBe(true);
    await index.add(record(2000));
    expect((await createArtifactIndex({ dir }).get(record(2000).id))?.createdAt).toBe(2000);
  });

  it('a page read by id, file name or operation id in a fresh library reads a bounded part', async () => {
    const size = await seed(8000);
    await writeFile(join(dir, record(4321).path), 'one\ntwo\nthree\n');
    await createArtifactLibrary({ root }).find(record(0).id, { sessionId: 'run' });
    for (const ref of [record(4321).id, record(4321).path, 'call_4321']) {
      const cost = await indexBytesReadBy(async () => {
        const page = await createArtifactLibrary({ root }).readPage(ref, {
          sessionId: 'run',
          offset: 2,
        });
        expect(page.text).toBe('two\nthree\n');
      });
      expect(cost, ref).toBeLessThan(size / 8);
    }
  });
});

describe('the lookup sidecar answers as reading the whole index does', () => {
  const TAIL = 600;
  const refsOf = (n: number) => [record(n).id, record(n).path, `call_${n}`];
  /** What a fresh process that reads the whole index answers. */
  const mirror = (ref: string) =>
    createArtifactIndex({ dir, lookupTailBytes: Number.POSITIVE_INFINITY }).lookup(ref);
  const viaLookup = (ref: string) =>
    createArtifactIndex({ dir, lookupTailBytes: TAIL }).lookup(ref);
  const ids = (matches: Awaited<ReturnType<typeof mirror>>) => ({
    byId: matches.byId.map((r) => `${r.id}@${r.createdAt}`),
    byFile: matches.byFile.map((r) => `${r.id}@${r.createdAt}`),
    byOp: matches.byOp.map((r) => `${r.id}@${r.createdAt}`),
  });

  it('through adds, duplicates, removals, re-adds, torn lines and older writers (property)', async () => {
    const fc = await import('fast-check');
    const op = fc.oneof(
      fc.record({
        kind: fc.constant('add' as const),
        id: fc.integer({ min: 0, max: 7 }),
        file: fc.integer({ min: 0, max: 5 }),
        call: fc.integer({ min: 0, max: 4 }),
      }),
      fc.record({ kind: fc.constant('remove' as const), file: fc.integer({ min: 0, max: 5 }) }),
      fc.record({ kind: fc.constant('torn' as const), text: fc.string({ maxLength: 40 }) }),
      fc.record({ kind: fc.constant('look' as const), n: fc.integer({ min: 0, max: 7 }) }),
    );
    let run = 0;
    await fc.assert(
      fc.asyncProperty(fc.array(op, { minLength: 1, maxLength: 45 }), async (ops) => {
        dir = join(root, `p${run++}.artifacts`);
        await mkdir(dir);
        let clock = 0;
        for (const step of ops) {
          const index = createArtifactIndex({ dir, lookupTailBytes: TAIL });
          if (step.kind === 'add') {
            await index.add(
              record(step.id, {
                path: record(step.file).path,
                toolCallId: `call_${step.call}`,
                createdAt: clock++,
              }),
            );
          } else if (step.kind === 'remove') {
            await index.remove([record(step.file).path], { clock: () => clock++ });
          } else if (step.kind === 'torn') {
            // A crashed writer's bytes, without their newline; the next append ends them.
            await appendFile(join(dir, 'index.jsonl'), step.text.replace(/\n/g, ' '));
          } else {
            for (const ref of refsOf(step.n)) {
              expect(ids(await viaLookup(ref)), ref).toEqual(ids(await mirror(ref)));
            }
          }
        }
        for (let n = 0; n < 8; n++) {
          for (const ref of refsOf(n))
            expect(ids(await viaLookup(ref)), ref).toEqual(ids(await mirror(ref)));
          expect(
            await createArtifactIndex({ dir, lookupTailBytes: TAIL }).get(record(n).id),
          ).toEqual(
            await createArtifactIndex({ dir, lookupTailBytes: Number.POSITIVE_INFINITY }).get(
              record(n).id,
            ),
          );
        }
      }),
      { numRuns: 25 },
    );
  });

  it('ignores runs of an index that was replaced, and rebuilds them', async () => {
    await seed(40);
    expect((await viaLookup(record(5).id)).byId).toHaveLength(1);
    expect((await readdir(join(dir, 'index.lookup'))).length).toBeGreaterThan(0);
    // Same length, other records: every old pointer now lands on another record's line.
    const text = Array.from(
      { length: 40 },
      (_, n) => `${JSON.stringify(record(n + 100, { preview: record(n).preview }))}\n`,
    ).join('');
    await writeFile(join(dir, 'index.jsonl.new'), text);
    await rename(join(dir, 'index.jsonl.new'), join(dir, 'index.jsonl'));
    expect((await viaLookup(record(5).id)).byId).toEqual([]);
    expect((await viaLookup(record(105).id)).byId.map((r) => r.createdAt)).toEqual([105]);
    expect((await viaLookup('call_139')).byOp.map((r) => r.id)).toEqual([record(139).id]);
  });

  it('ignores a corrupt or truncated run file', async () => {
    const size = await seed(40);
    await mkdir(join(dir, 'index.lookup'));
    await writeFile(join(dir, 'index.lookup', `0-${size}.run`), 'not a run');
    expect((await viaLookup(record(7).id)).byId.map((r) => r.createdAt)).toEqual([7]);
    const runs = await readdir(join(dir, 'index.lookup'));
    expect(runs.length).toBeGreaterThan(0);
    for (const name of runs) {
      const path = join(dir, 'index.lookup', name);
      await writeFile(path, (await readFile(path)).subarray(0, 100));
    }
    expect((await viaLookup(record(9).path)).byFile.map((r) => r.createdAt)).toEqual([9]);
    expect((await viaLookup('call_39')).byOp.map((r) => r.createdAt)).toEqual([39]);
  });

  it('answers where no run can be written (a read-only store), by reading the index', async () => {
    await seed(40);
    const fileSystem = createFaultyArtifactFileSystem({
      fault: (operation, path) =>
        path.includes('index.lookup') && operation !== 'unlink' ? { code: 'EROFS' } : undefined,
    });
    const index = createArtifactIndex({ dir, fileSystem, lookupTailBytes: TAIL });
    expect((await index.lookup(record(3).id)).byId.map((r) => r.createdAt)).toEqual([3]);
    await index.add(record(40));
    expect((await index.get(record(40).id))?.createdAt).toBe(40);
    expect(
      (await createArtifactIndex({ dir, fileSystem, lookupTailBytes: TAIL }).get(record(40).id))
        ?.createdAt,
    ).toBe(40);
  });

  it('neither reads nor writes through a symbolic link in place of the sidecar', async () => {
    await seed(40);
    const elsewhere = join(root, 'elsewhere');
    await mkdir(elsewhere);
    await symlink(elsewhere, join(dir, 'index.lookup'));
    expect((await viaLookup(record(7).id)).byId.map((r) => r.createdAt)).toEqual([7]);
    expect((await viaLookup('call_39')).byOp.map((r) => r.createdAt)).toEqual([39]);
    expect(await readdir(elsewhere)).toEqual([]);
  });

  it('skips an over-long line and holds no unfinished one past the runs', async () => {
    await seed(20);
    await appendFile(join(dir, 'index.jsonl'), `${'x'.repeat(MAX_INDEX_LINE_BYTES + 10)}\n`);
    await appendFile(join(dir, 'index.jsonl'), `${JSON.stringify(record(20))}\n`);
    expect((await viaLookup(record(20).id)).byId.map((r) => r.createdAt)).toEqual([20]);
    await appendFile(join(dir, 'index.jsonl'), JSON.stringify(record(21)));
    // Its newline is not there yet: it may still be being written.
    expect((await viaLookup(record(21).id)).byId).toEqual([]);
    expect(await createArtifactIndex({ dir, lookupTailBytes: TAIL }).add(record(22))).toMatchObject(
      {
        createdAt: 22,
      },
    );
    expect((await viaLookup(record(22).id)).byId.map((r) => r.createdAt)).toEqual([22]);
    expect((await viaLookup(record(21).id)).byId).toEqual([]);
    expect((await createArtifactIndex({ dir }).list()).map((r) => r.createdAt)).toEqual([
      ...Array.from({ length: 21 }, (_, n) => n),
      22,
    ]);
  });
});
