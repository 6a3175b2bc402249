import { mkdtemp, readdir, rm, utimes, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { artifactDirFor } from './artifact-dir-for.js';
import { createArtifactIndex } from './artifact-index.js';
import { createArtifactStore } from './artifact-store.js';
import { pruneArtifacts } from './prune-artifacts.js';
import { openSessionTranscript } from './session-transcript.js';

let root: string;
const DAY = 86_400_000;
const NOW = Date.UTC(2026, 10, 30);

beforeEach(async () => {
  root = await mkdtemp(join(tmpdir(), 'prune-'));
});
afterEach(async () => {
  await rm(root, { recursive: true, force: true });
});

async function settled(session: string, calls: string[], ageDays: number) {
  const path = join(root, `${session}.jsonl`);
  const transcript = await openSessionTranscript({ path, clock: () => NOW });
  for (const call of calls) {
    await transcript.settleToolResult({
      toolName: 'terminal',
      toolCallId: call,
      output: `${call}\n`.repeat(2000),
    });
    const time = new Date(NOW - ageDays * DAY);
    await utimes(join(artifactDirFor(path), `${call}.txt`), time, time);
  }
  return path;
}

describe('pruneArtifacts', () => {
  it('deletes nothing unless asked', async () => {
    await settled('s1', ['c1'], 30);
    await expect(pruneArtifacts({ root })).rejects.toThrow(/nothing is pruned by default/);
    expect(await readdir(join(root, 's1.artifacts'))).toContain('c1.txt');
  });

  it('removes by age and rewrites the index, never touching transcripts', async () => {
    await settled('s1', ['old1'], 30);
    await settled('s1', ['new1'], 1);
    const report = await pruneArtifacts({ root, olderThanMs: 7 * DAY, clock: () => NOW });
    expect(report.removed.map((r) => [r.path, r.reason])).toEqual([
      ['s1.artifacts/old1.txt', 'age'],
    ]);
    expect((await readdir(join(root, 's1.artifacts'))).sort()).toEqual(['index.jsonl', 'new1.txt']);
    expect(
      (await createArtifactIndex({ dir: join(root, 's1.artifacts') }).list()).map((r) => r.path),
    ).toEqual(['new1.txt']);
    expect(await readdir(root)).toContain('s1.jsonl');
  });

  it('removes the oldest files until under maxBytes', async () => {
    await settled('a', ['a1'], 10);
    await settled('b', ['b1'], 5);
    await settled('c', ['c1'], 1);
    const report = await pruneArtifacts({ root, maxBytes: 7000, clock: () => NOW, dryRun: true });
    expect(report.removed.map((r) => r.path)).toEqual(['a.artifacts/a1.txt', 'b.artifacts/b1.txt']);
    expect(report.keptBytes).toBe(6000);
    expect(await readdir(join(root, 'a.artifacts'))).toContain('a1.txt');
  });

  it('removes orphans: stores without a transcript, unnamed files and stale temp files', async () => {
    await settled('kept', ['k1'], 1);
    const gone = await settled('gone', ['g1'], 1);
    await rm(gone);
    const store = createArtifactStore({ dir: join(root, 'kept.artifacts') });
    await store.store('crashed_before_settle', 'x');
    const stale = join(root, 'kept.artifacts', '.k2.abc.tmp');
    await writeFile(stale, 'partial');
    await utimes(stale, new Date(NOW - DAY), new Date(NOW - DAY));
    const report = await pruneArtifacts({ root, orphans: true, clock: () => NOW });
    expect(report.removed.map((r) => r.path).sort()).toEqual([
      'gone.artifacts/g1.txt',
      'kept.artifacts/.k2.abc.tmp',
      'kept.artifacts/crashed_before_settle.txt',
    ]);
    expect((await readdir(join(root, 'kept.artifacts'))).sort()).toEqual(['index.jsonl', 'k1.txt']);
  });
});
