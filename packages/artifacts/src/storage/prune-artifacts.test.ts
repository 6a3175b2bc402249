import { mkdtemp, readdir, readFile, rm, utimes, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createArtifactProcessor } from '../projection/create-artifact-processor.js';
import { createArtifactLibrary } from '../reading/artifact-library.js';
import { openSessionTranscript } from '../transcript/session-transcript.js';
import { artifactDirFor } from './artifact-dir-for.js';
import { createArtifactIndex } from './artifact-index.js';
import { createArtifactStore } from './artifact-store.js';
import { pruneArtifacts } from './prune-artifacts.js';

let root: string;
const DAY = 86_400_000;
const NOW = Date.UTC(2026, 10, 30);

beforeEach(async () => {
  root = await mkdtemp(join(tmpdir(), 'prune-'));
});
afterEach(async () => {
  await rm(root, { recursive: true, force: true });
});

/** Settles one output per call id and ages its file; returns the file names by call id. */
async function settled(session: string, calls: string[], ageDays: number) {
  const path = join(root, `${session}.jsonl`);
  const transcript = await openSessionTranscript({ path, clock: () => NOW });
  const files: Record<string, string> = {};
  for (const call of calls) {
    const { artifact } = await transcript.settleToolResult({
      toolName: 'terminal',
      toolCallId: call,
      output: `${call}\n`.repeat(2000),
    });
    files[call] = artifact!.path;
    const time = new Date(NOW - ageDays * DAY);
    await utimes(join(artifactDirFor(path), artifact!.path), time, time);
  }
  return files;
}

describe('pruneArtifacts', () => {
  it('deletes nothing unless asked', async () => {
    const files = await settled('s1', ['c1'], 30);
    await expect(pruneArtifacts({ root })).rejects.toThrow(/nothing is pruned by default/);
    expect(await readdir(join(root, 's1.artifacts'))).toContain(files.c1);
  });

  it('removes by age and appends a removal line to the index, never touching transcripts', async () => {
    const old = await settled('s1', ['old1'], 30);
    const fresh = await settled('s1', ['new1'], 1);
    const indexBefore = await readFile(join(root, 's1.artifacts', 'index.jsonl'), 'utf8');
    const report = await pruneArtifacts({ root, olderThanMs: 7 * DAY, clock: () => NOW });
    expect(report.removed.map((r) => [r.path, r.reason])).toEqual([
      [`s1.artifacts/${old.old1}`, 'age'],
    ]);
    expect((await readdir(join(root, 's1.artifacts'))).sort()).toEqual(
      ['index.jsonl', fresh.new1].sort(),
    );
    const indexAfter = await readFile(join(root, 's1.artifacts', 'index.jsonl'), 'utf8');
    expect(indexAfter.startsWith(indexBefore)).toBe(true);
    expect(
      (await createArtifactIndex({ dir: join(root, 's1.artifacts') }).list()).map((r) => r.path),
    ).toEqual([fresh.new1]);
    expect(await readdir(root)).toContain('s1.jsonl');
  });

  it('removes the oldest files until under maxBytes', async () => {
    const a = await settled('a', ['a1'], 10);
    const b = await settled('b', ['b1'], 5);
    await settled('c', ['c1'], 1);
    const report = await pruneArtifacts({ root, maxBytes: 7000, clock: () => NOW, dryRun: true });
    expect(report.removed.map((r) => r.path)).toEqual([
      `a.artifacts/${a.a1}`,
      `b.artifacts/${b.b1}`,
    ]);
    expect(report.keptBytes).toBe(6000);
    expect(await readdir(join(root, 'a.artifacts'))).toContain(a.a1);
  });

  it('removes only what nothing names: unindexed files and stale temp files', async () => {
    const kept = await settled('kept', ['k1'], 1);
    const gone = await settled('gone', ['g1'], 1);
    await rm(join(root, 'gone.jsonl'));
    const crashed = await createArtifactStore({ dir: join(root, 'kept.artifacts') }).store(
      'crashed_before_index',
      'x',
    );
    await utimes(
      join(root, 'kept.artifacts', crashed.file),
      new Date(NOW - DAY),
      new Date(NOW - DAY),
    );
    const stale = join(root, 'kept.artifacts', '.k2.abc.tmp');
    await writeFile(stale, 'partial');
    await utimes(stale, new Date(NOW - DAY), new Date(NOW - DAY));
    const report = await pruneArtifacts({ root, orphans: true, clock: () => NOW });
    expect(report.removed.map((r) => r.path).sort()).toEqual(
      ['kept.artifacts/.k2.abc.tmp', `kept.artifacts/${crashed.file}`].sort(),
    );
    expect((await readdir(join(root, 'kept.artifacts'))).sort()).toEqual(
      ['index.jsonl', kept.k1].sort(),
    );
    // The transcript is gone, but the index still names g1: it stays (issue 13, item 11).
    expect(await readdir(join(root, 'gone.artifacts'))).toContain(gone.g1);
  });

  it('never takes a file settled while it runs for an orphan', async () => {
    // A prune in the window between a settle's file and its index record (a cron job beside a
    // running agent) used to delete the file and append a removal line for it.
    const store = createArtifactStore({ dir: join(root, 'run.artifacts') });
    const add = store.index.add.bind(store.index);
    const reports: Array<Awaited<ReturnType<typeof pruneArtifacts>>> = [];
    store.index.add = async (...args: Parameters<typeof add>) => {
      reports.push(await pruneArtifacts({ root, orphans: true }));
      return add(...args);
    };
    const session = await openSessionTranscript({ path: join(root, 'run.jsonl'), store });
    const { artifact } = await session.settleToolResult({
      toolName: 'terminal',
      toolCallId: 'call_1',
      output: 'line\n'.repeat(5000),
    });
    expect(reports.map((report) => report.removed)).toEqual([[]]);
    const library = createArtifactLibrary({ root });
    expect((await library.readPage(artifact!.id, { offset: -1 })).text).toBe('line\n');
    // An hour later, a file nothing names is an orphan.
    const crashed = await store.store('crashed_before_index', 'x');
    const later = Date.now() + 2 * 3_600_000;
    const report = await pruneArtifacts({ root, orphans: true, clock: () => later });
    expect(report.removed.map((removed) => removed.path)).toEqual([
      `run.artifacts/${crashed.file}`,
    ]);
  });

  it('keeps what the processor path and tool loops stored without any transcript', async () => {
    const store = createArtifactStore({ dir: join(root, 'tool-loop.artifacts') });
    const processor = createArtifactProcessor({ store });
    await processor.process('payload ✓\n'.repeat(2000), 1000, { stepId: 'call_1' });
    const before = await readdir(store.dir);
    const report = await pruneArtifacts({ root, orphans: true, clock: () => NOW });
    expect(report.removed).toEqual([]);
    expect(await readdir(store.dir)).toEqual(before);
  });

  it('keeps a file the transcript names even when the index lost its record', async () => {
    const files = await settled('s', ['c1'], 1);
    await writeFile(join(root, 's.artifacts', 'index.jsonl'), '');
    const report = await pruneArtifacts({ root, orphans: true, clock: () => NOW });
    expect(report.removed).toEqual([]);
    expect(await readdir(join(root, 's.artifacts'))).toContain(files.c1);
  });

  it('keeps the files of a session whose transcript has a line it cannot read', async () => {
    const files = await settled('s', ['c1'], 1);
    await writeFile(join(root, 's.artifacts', 'index.jsonl'), '');
    // The settle line naming the file torn apart: loading skips it, so no one knows what it named.
    const path = join(root, 's.jsonl');
    const text = await readFile(path, 'utf8');
    await writeFile(path, text.replace('"type":"tool_settled"', '"type":"tool_sett'));
    const report = await pruneArtifacts({ root, orphans: true, clock: () => NOW });
    expect(report.removed).toEqual([]);
    expect(await readdir(join(root, 's.artifacts'))).toContain(files.c1);
  });

  it('a library already open stops listing what was pruned, and reads what is left', async () => {
    const files = await settled('s', ['old', 'new'], 1);
    const library = createArtifactLibrary({ root });
    expect(await library.list('s')).toHaveLength(2);
    const time = new Date(NOW - 30 * DAY);
    await utimes(join(root, 's.artifacts', files.old!), time, time);
    await pruneArtifacts({ root, olderThanMs: 7 * DAY, clock: () => NOW });
    expect((await library.list('s')).map((record) => record.path)).toEqual([files.new]);
    await expect(library.readPage('old')).rejects.toMatchObject({ code: 'artifact_not_found' });
    expect((await library.readPage('new', { limit: 1 })).text).toBe('new\n');
  });
});
