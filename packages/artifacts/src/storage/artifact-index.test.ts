import { constants } from 'node:buffer';
import {
  appendFile,
  mkdtemp,
  open,
  readFile,
  rename,
  rm,
  truncate,
  writeFile,
} from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createFaultyArtifactFileSystem } from '../test/index.js';
import {
  ARTIFACT_INDEX_FILE,
  createArtifactIndex,
  MAX_INDEX_LINE_BYTES,
} from './artifact-index.js';
import type { ArtifactRecord } from './artifact-record.js';

let dir: string;
let file: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'artifact-index-'));
  file = join(dir, ARTIFACT_INDEX_FILE);
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

const record = (n: number, extra: Partial<ArtifactRecord> = {}): ArtifactRecord => ({
  id: `art_${n}`,
  sessionId: 's',
  kind: 'tool_output',
  title: `terminal run ${n}`,
  summary: `Ran step ${n}.`,
  preview: `step ${n} ok`,
  chars: 10,
  bytes: 10,
  digest: 'd'.repeat(64),
  path: `call_${n}.txt`,
  createdAt: n,
  ...extra,
});
const line = (value: ArtifactRecord) => `${JSON.stringify(value)}\n`;
const ids = async (index = createArtifactIndex({ dir })) => (await index.list()).map((r) => r.id);

describe('an over-long line in the index', () => {
  it('skips a 5 MiB garbage line between two records, as it skips any corrupt line', async () => {
    await writeFile(file, `${line(record(1))}${'x'.repeat(5 << 20)}\n${line(record(2))}`);
    const index = createArtifactIndex({ dir });
    expect(await ids(index)).toEqual(['art_1', 'art_2']);
    await index.add(record(3));
    expect(await ids(index)).toEqual(['art_1', 'art_2', 'art_3']);
    expect(await ids()).toEqual(['art_1', 'art_2', 'art_3']);
  });

  it('skips a line longer than a string can hold without holding it', async () => {
    // A sparse file: the NUL bytes between the two records take no disk space.
    const first = line(record(1));
    const handle = await open(file, 'w');
    try {
      await handle.write(first);
      await handle.write(`\n${line(record(2))}`, first.length + constants.MAX_STRING_LENGTH + 1);
    } finally {
      await handle.close();
    }
    expect(await ids()).toEqual(['art_1', 'art_2']);
  });

  it('reads a line of the longest length and skips one a byte longer, across chunk ends', async () => {
    const padded = (value: ArtifactRecord, bytes: number) => {
      const json = JSON.stringify(value);
      return `${json}${' '.repeat(bytes - Buffer.byteLength(json))}\n`;
    };
    await writeFile(
      file,
      line(record(1)) +
        padded(record(2), MAX_INDEX_LINE_BYTES) +
        padded(record(3), MAX_INDEX_LINE_BYTES + 1) +
        padded(record(4), MAX_INDEX_LINE_BYTES - 1) +
        line(record(5)),
    );
    expect(await ids()).toEqual(['art_1', 'art_2', 'art_4', 'art_5']);
  });

  it('keeps skipping an unfinished over-long last line across syncs; the next append starts clean', async () => {
    await writeFile(file, line(record(1)) + 'y'.repeat(MAX_INDEX_LINE_BYTES + 5));
    const index = createArtifactIndex({ dir });
    expect(await ids(index)).toEqual(['art_1']);
    // The garbage grows (another writer), still without a newline.
    await appendFile(file, 'y'.repeat(3 << 20));
    expect(await ids(index)).toEqual(['art_1']);
    await index.add(record(2));
    expect(await ids(index)).toEqual(['art_1', 'art_2']);
    expect(await ids()).toEqual(['art_1', 'art_2']);
    const text = await readFile(file, 'utf8');
    expect(text.endsWith(`y#\n${line(record(2))}`)).toBe(true);
    // Another process appends after it: this index reads that record too.
    await createArtifactIndex({ dir }).add(record(3));
    expect(await ids(index)).toEqual(['art_1', 'art_2', 'art_3']);
  });

  it('starts over when a file it was skipping a line of is truncated or replaced', async () => {
    await writeFile(file, line(record(1)) + 'z'.repeat(MAX_INDEX_LINE_BYTES * 2));
    const index = createArtifactIndex({ dir });
    expect(await ids(index)).toEqual(['art_1']);
    await truncate(file, line(record(1)).length);
    await appendFile(file, line(record(2)));
    expect(await ids(index)).toEqual(['art_1', 'art_2']);

    await writeFile(file, line(record(1)) + 'z'.repeat(MAX_INDEX_LINE_BYTES * 2));
    const again = createArtifactIndex({ dir });
    expect(await ids(again)).toEqual(['art_1']);
    const replacement = join(dir, 'replacement.jsonl');
    await writeFile(replacement, line(record(7)));
    await rename(replacement, file);
    expect(await ids(again)).toEqual(['art_7']);
  });

  it('refuses to add a record whose line would be too long to read back', async () => {
    const index = createArtifactIndex({ dir });
    await index.add(record(1));
    const huge = record(2, { preview: 'a\u0301'.repeat(MAX_INDEX_LINE_BYTES / 2) });
    await expect(index.add(huge)).rejects.toMatchObject({
      name: 'ArtifactError',
      code: 'artifact_store_failed',
    });
    expect(await readFile(file, 'utf8')).toBe(line(record(1)));
    expect(await ids(index)).toEqual(['art_1']);
  });
});

describe('issue 43 item 8: an index append that fails or is cut short', () => {
  it('reports a short write, keeps the record out, and the next append starts on a new line', async () => {
    let full = false;
    const fileSystem = createFaultyArtifactFileSystem({
      fault: (operation) => (full && operation === 'append' ? { shortWrite: 40 } : undefined),
    });
    const index = createArtifactIndex({ dir, fileSystem });
    await index.add(record(1));
    full = true;
    await expect(index.add(record(2))).rejects.toMatchObject({
      name: 'ArtifactError',
      code: 'artifact_store_failed',
      message: expect.stringMatching(/short write, 40 of \d+ bytes written/),
    });
    expect(await index.get('art_2')).toBeUndefined();
    full = false;
    await index.add(record(3));
    expect(await ids(index)).toEqual(['art_1', 'art_3']);
    expect(await ids()).toEqual(['art_1', 'art_3']);
    // A retry of the record that failed is written whole this time.
    await index.add(record(2));
    expect(await ids()).toEqual(['art_1', 'art_3', 'art_2']);
  });

  it('reports an append that fails outright (a full disk, a read-only index)', async () => {
    for (const code of ['ENOSPC', 'EACCES', 'EROFS']) {
      const fileSystem = createFaultyArtifactFileSystem({
        fault: (operation) => (operation === 'openForAppend' ? { code } : undefined),
      });
      const index = createArtifactIndex({ dir, fileSystem });
      await expect(index.add(record(9)), code).rejects.toMatchObject({
        name: 'ArtifactError',
        code: 'artifact_store_failed',
        message: expect.stringContaining(code),
      });
      await expect(index.remove(['call_9.txt']), code).rejects.toMatchObject({
        code: 'artifact_store_failed',
      });
      expect(await index.get('art_9')).toBeUndefined();
    }
  });
});
