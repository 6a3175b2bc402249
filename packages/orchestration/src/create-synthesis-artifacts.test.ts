import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { artifactPointerLine, parseArtifactPointerLine } from '@compaction/artifacts';
import { sha256Hex } from '@compaction/artifacts/internal';
import { type StepRecord, trailingDisclosureNotes } from '@compaction/core';
import { describe, expect, it } from 'vitest';
import { createCompaction } from './create-compaction.js';
import { createSynthesisArtifacts } from './create-synthesis-artifacts.js';

const bigLog = Array.from({ length: 20_000 }, (_, i) =>
  i === 15_000 ? 'ERROR disk full on /var/lib/postgres' : `line ${i} INFO ok`,
).join('\n');
const steps: StepRecord[] = [
  {
    id: 'step-1',
    status: 'succeeded',
    toolName: 'fetch_logs',
    task: 'logs of db-0',
    result: bigLog,
  },
  { id: 'step-2', status: 'succeeded', toolName: 'small', result: '{"ok":true}' },
];

describe('createCompaction with a transcript path', () => {
  it('stores results that cannot appear whole beside the transcript and marks their sections', async () => {
    const root = await mkdtemp(join(tmpdir(), 'orchestration-artifacts-'));
    try {
      const compaction = createCompaction({
        env: {},
        transcriptPath: join(root, 'run-7.jsonl'),
        config: { trim: { maxResultBytes: 8192, maxTotalBytes: 16_384 } },
      });
      const assembly = await compaction.assembleSynthesis(steps, { requestId: 'req-1' });
      const [logs, small] = assembly.sections;
      const marker = logs!.text.split('\n')[1]!;
      // The one pointer line every front end prints, naming the id and the file.
      const pointer = parseArtifactPointerLine(marker)!;
      expect(marker).toBe(artifactPointerLine({ id: pointer.id, path: pointer.file }));
      const id = pointer.id;
      // The file holds every byte, and its name carries the content digest.
      expect(pointer.file).toBe(`req-1-step-1-${sha256Hex(bigLog).slice(0, 16)}.txt`);
      const file = await readFile(join(root, 'run-7.artifacts', pointer.file), 'utf8');
      expect(file).toBe(bigLog);
      // The view keeps its disclosure note last, and the whole stays within budget.
      expect(trailingDisclosureNotes(logs!.text).length).toBe(1);
      expect(assembly.successBytes).toBeLessThanOrEqual(16_384);
      // Small results are neither stored nor marked.
      expect(small!.text).not.toContain('Full output');
      // The model can read the rest back through the session-scoped tools.
      const found = await compaction.artifacts!.tools.call('artifact_search', {
        id,
        pattern: 'disk full',
      });
      expect(found).toContain('ERROR disk full on /var/lib/postgres');
    } finally {
      await rm(root, { recursive: true, force: true });
    }
  });

  it('fails open when the store cannot be written: the view is still there and says so', async () => {
    const root = await mkdtemp(join(tmpdir(), 'orchestration-artifacts-'));
    try {
      // A file where the store directory should be makes every write fail.
      await writeFile(join(root, 'run-8.artifacts'), 'not a directory');
      const compaction = createCompaction({
        env: {},
        transcriptPath: join(root, 'run-8.jsonl'),
        config: { trim: { maxResultBytes: 8192, maxTotalBytes: 16_384 } },
      });
      const assembly = await compaction.assembleSynthesis(steps);
      const logs = assembly.sections[0]!;
      expect(logs.text.split('\n')[1]).toMatch(
        /^Full output not stored \(write failed: .+\); only this excerpt remains\.$/,
      );
      expect(logs.metadata!.contentLost).toBe(true);
    } finally {
      await rm(root, { recursive: true, force: true });
    }
  });
});

describe('createSynthesisArtifacts().storeStep', () => {
  it('says why a result was not stored, rejects on an abort, and takes a known digest', async () => {
    const root = await mkdtemp(join(tmpdir(), 'orchestration-store-step-'));
    try {
      const step = steps[0]!;
      const artifacts = createSynthesisArtifacts({ transcriptPath: join(root, 'run-9.jsonl') });
      const digest = sha256Hex(step.result!);
      const stored = await artifacts.storeStep(step, { contentDigest: digest });
      expect(stored.record?.digest).toBe(digest);
      expect(stored.line).toBe(artifactPointerLine(stored.record!));
      // An abort is the caller's decision, not a failed write: it rejects with the reason.
      await expect(
        artifacts.storeStep(step, { signal: AbortSignal.abort(new Error('user cancelled')) }),
      ).rejects.toThrow('user cancelled');
      await writeFile(join(root, 'run-10.artifacts'), 'not a directory');
      const broken = createSynthesisArtifacts({ transcriptPath: join(root, 'run-10.jsonl') });
      const failed = await broken.storeStep(step);
      expect(failed.record).toBeUndefined();
      expect(failed.line).toMatch(/^Full output not stored \(write failed: Could not store/);
    } finally {
      await rm(root, { recursive: true, force: true });
    }
  });
});
