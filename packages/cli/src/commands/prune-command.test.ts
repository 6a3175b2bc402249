import { mkdtemp, readdir, rm, utimes } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { runCli } from '../run-cli.js';
import { createMemoryIo } from '../test-support/memory-io.js';

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'compaction-prune-'));
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

/** Stores one result per call id, its file last written 30 days ago. */
async function storeOld(...calls: string[]) {
  for (const call of calls) {
    const { io } = createMemoryIo({ stdin: `${call}\n`.repeat(100), cwd: dir });
    expect(await runCli(['store', '--session', 'run.jsonl', '--id', call, '-'], io)).toBe(0);
  }
  const store = join(dir, 'run.artifacts');
  const old = new Date(Date.now() - 30 * 86_400_000);
  for (const file of await readdir(store))
    if (file.endsWith('.txt')) await utimes(join(store, file), old, old);
}

async function prune(...args: string[]) {
  const { io, stdout } = createMemoryIo({ cwd: dir });
  expect(await runCli(['prune', '--dir', '.', '--older-than', '7d', ...args], io)).toBe(0);
  return stdout().trimEnd().split('\n');
}

describe('compaction prune', () => {
  it('says what would be removed on a dry run, in a sentence', async () => {
    await storeOld('call_1', 'call_2');
    const lines = await prune('--dry-run');
    expect(lines.slice(0, 2)).toEqual([
      expect.stringMatching(
        /^would remove run\.artifacts\/call_1-[0-9a-f]{16}\.txt \(\d+ bytes, age\)$/,
      ),
      expect.stringMatching(/^would remove run\.artifacts\/call_2-/),
    ]);
    expect(lines[2]).toMatch(/^2 files would be removed; \d+ bytes would be kept$/);
    expect(
      (await readdir(join(dir, 'run.artifacts'))).filter((f) => f.endsWith('.txt')),
    ).toHaveLength(2);
  });

  it('says what was removed, one file in the singular', async () => {
    await storeOld('call_1');
    const lines = await prune();
    expect(lines[0]).toMatch(
      /^removed run\.artifacts\/call_1-[0-9a-f]{16}\.txt \(\d+ bytes, age\)$/,
    );
    expect(lines[1]).toMatch(/^1 file removed; \d+ bytes kept$/);
  });

  it('says when nothing is removed', async () => {
    expect(await prune('--dry-run')).toEqual(['0 files would be removed; 0 bytes would be kept']);
  });
});
