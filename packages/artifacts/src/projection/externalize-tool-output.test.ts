import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { CONFIG_KNOBS, loadConfig } from '@compaction/core';
import { fixturesAvailable, readFixture } from '@compaction/fixtures';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createArtifactLibrary } from '../reading/artifact-library.js';
import { ARTIFACT_INDEX_FILE, createArtifactIndex } from '../storage/artifact-index.js';
import { createArtifactStore } from '../storage/artifact-store.js';
import { restoreJsonLayout } from '../storage/json-layout.js';
import { sha256Hex } from '../storage/sha256-hex.js';
import { createFaultyArtifactFileSystem } from '../test/index.js';
import { referenceCount, trickyText } from '../test-support/grapheme-arbitraries.js';
import { DEFAULT_PROJECTION_POLICIES } from './default-projection-policies.js';
import { parseExcerptMarker } from './excerpt-marker.js';
import { externalizeToolOutput, MIN_INLINE_LIMIT_CHARS } from './externalize-tool-output.js';

let root: string;
beforeAll(async () => {
  root = await mkdtemp(join(tmpdir(), 'externalize-'));
});
afterAll(async () => {
  await rm(root, { recursive: true, force: true });
});

const TOOLS = [
  'read_file',
  'terminal',
  'apply_patch',
  'search_files',
  'list_issues',
  'skill_view',
  'mystery_tool',
];

function markerOf(content: string) {
  const line = content.split('\n').find((candidate) => candidate.startsWith('[... elided'));
  return line === undefined ? undefined : parseExcerptMarker(line);
}

describe('externalizeToolOutput', () => {
  it('takes an inline limit from COMPACTION_ARTIFACT_INLINE_LIMIT below its minimum as the minimum', async () => {
    // The config raises it (with a warning) to the least the excerpt and marker need.
    const knob = CONFIG_KNOBS.find((k) => k.path === 'artifacts.inlineLimitChars')!;
    expect(knob.minimum).toBe(MIN_INLINE_LIMIT_CHARS);
    const { config } = loadConfig({ env: { COMPACTION_ARTIFACT_INLINE_LIMIT: '500' } });
    const store = createArtifactStore({ dir: join(root, 'min.artifacts') });
    const index = createArtifactIndex({ dir: store.dir });
    const result = await externalizeToolOutput(
      { toolName: 'bash', toolCallId: 'call_min', output: 'line\n'.repeat(400), args: {} },
      { sessionId: 'min', store, index, config, clock: () => 1 },
    );
    expect(result.content.length).toBeLessThanOrEqual(MIN_INLINE_LIMIT_CHARS);
    expect(result.contentLost).toBe(true);
    expect(markerOf(result.content)?.file).toBeDefined();
  });

  it('keeps every policy within the inline limit, with a marker naming the stored file', async () => {
    const store = createArtifactStore({ dir: join(root, 'p.artifacts') });
    const index = createArtifactIndex({ dir: store.dir });
    let n = 0;
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom(...TOOLS),
        fc.array(trickyText(40), { minLength: 50, maxLength: 400 }),
        fc.integer({ min: 1000, max: 3000 }),
        fc.boolean(),
        async (toolName, lines, limit, failed) => {
          const output = lines.join('\n');
          const result = await externalizeToolOutput(
            {
              toolName,
              toolCallId: `call_${n++}`,
              output,
              args: { path: 'a/b.ts', command: 'make', pattern: 'x' },
              isError: failed,
            },
            { sessionId: 'p', store, index, inlineLimitChars: limit, clock: () => 1 },
          );
          expect(referenceCount(result.content)).toBeLessThanOrEqual(limit);
          if (!result.contentLost) {
            expect(result.content).toBe(output);
            return;
          }
          expect(result.artifact?.path).toBe(result.stored?.file);
          expect(markerOf(result.content)).toMatchObject({
            file: result.stored!.file,
            digest: sha256Hex(output),
          });
          expect(result.content).toContain(`artifact_read("${result.artifact!.id}"`);
        },
      ),
      { numRuns: 60 },
    );
  });

  it('says so when there is no store', async () => {
    const output = 'row\n'.repeat(5000);
    const result = await externalizeToolOutput(
      { toolName: 'terminal', toolCallId: 'c1', output },
      { sessionId: 's' },
    );
    expect(result.content).toContain('Full output not stored (no session)');
    expect(markerOf(result.content)).toMatchObject({
      notStoredReason: 'no session',
      digest: sha256Hex(output),
    });
  });

  it('reports a file written but not indexed as an orphan and says not stored', async () => {
    const dir = join(root, 'orphan.artifacts');
    const store = createArtifactStore({
      dir,
      fileSystem: createFaultyArtifactFileSystem({
        fault: (operation, path) =>
          operation === 'append' && path.endsWith(ARTIFACT_INDEX_FILE)
            ? { code: 'ENOSPC' }
            : undefined,
      }),
    });
    const output = JSON.stringify({ rows: Array.from({ length: 2000 }, (_, i) => ({ i })) });
    const result = await externalizeToolOutput(
      { toolName: 'list_rows', toolCallId: 'c7', output },
      { sessionId: 'orphan', store },
    );
    expect(result.artifact).toBeUndefined();
    expect(result.stored).toBeUndefined();
    expect(result.failure?.message).toMatch(/^Could not index the stored result of "c7"/);
    // The laid-out file is on disk; the content describes the output as returned.
    expect(restoreJsonLayout(await readFile(join(dir, result.orphan!.file), 'utf8'))).toBe(output);
    expect(result.content).toContain('Full output not stored (write failed)');
    expect(markerOf(result.content)).toMatchObject({
      notStoredReason: 'write failed',
      digest: sha256Hex(output),
    });
  });

  it('refuses an inline limit too small for the pointer and the marker', async () => {
    await expect(
      externalizeToolOutput(
        { toolName: 't', toolCallId: 'c', output: 'x' },
        { sessionId: 's', inlineLimitChars: 200 },
      ),
    ).rejects.toThrow(/inlineLimitChars must be an integer ≥ 1000/);
  });

  it('matches seed 001 tools to their policies', () => {
    const pick = (tool: string) =>
      DEFAULT_PROJECTION_POLICIES.find((policy) => policy.matches(tool))!.name;
    expect(TOOLS.map(pick)).toEqual([
      'file-read',
      'terminal',
      'diff',
      'search',
      'list',
      'doc',
      'tool-output',
    ]);
  });
});

describe.skipIf(!fixturesAvailable())('externalizeToolOutput on real payloads', () => {
  const cases: Array<[string, string, Record<string, unknown>, string]> = [
    ['diff/troubleshoot-deps-bump.patch', 'apply_patch', {}, '54 files changed'],
    ['github-api/octokit-paginate-issues-recorded.json', 'list_issues', {}, 'items'],
    [
      'logs/agent-pod-logs-ansi-python.txt',
      'terminal',
      { command: 'kubectl logs pod' },
      '$ kubectl logs pod',
    ],
    ['unicode/emoji-zwj-sequences.txt', 'read_file', { path: 'emoji.txt' }, 'Read emoji.txt'],
  ];
  for (const [path, toolName, args, expected] of cases) {
    it(`projects ${path} as ${toolName}`, async () => {
      const output = readFixture(path);
      const store = createArtifactStore({ dir: join(root, 'f.artifacts') });
      const result = await externalizeToolOutput(
        { toolName, toolCallId: `fx_${toolName}`, output, args },
        { sessionId: 'f', store, index: createArtifactIndex({ dir: store.dir }) },
      );
      expect(result.content).toContain(expected);
      expect(referenceCount(result.content)).toBeLessThanOrEqual(4000);
      expect(markerOf(result.content)?.digest).toBe(sha256Hex(output));
    });
  }
});

describe('issue 43 item 19: a JSON result is stored so that its lines mean something', () => {
  const issues = Array.from({ length: 3000 }, (_, i) => ({
    id: i,
    title: `Issue ${i}: crash when "quoted" path has \\ and 日本`,
    labels: i % 2 ? ['bug', 'p1'] : [],
    meta: {},
  }));
  // As an API returns it: one line, numbers beyond 2^53 written exactly.
  const output = JSON.stringify({ total: 3000, items: issues, needle_key: 'the needle' }).replace(
    /"id":(\d+)/g,
    (_, id: string) => `"id":9007199254740993${id.padStart(4, '0')}`,
  );

  it('search answers a line near the value and read pages it; the original stays verifiable', async () => {
    expect(output.length).toBeGreaterThan(200_000);
    expect(output).not.toContain('\n');
    const store = createArtifactStore({ dir: join(root, 'json-run.artifacts') });
    const result = await externalizeToolOutput(
      { toolName: 'list_issues', toolCallId: 'call_json', output },
      { sessionId: 'json-run', store },
    );
    const library = createArtifactLibrary({ root });
    const found = await library.search(result.artifact!.id, 'the needle');
    expect(found.matches).toHaveLength(1);
    const [match] = found.matches;
    expect(match!.line).toBeGreaterThan(1000);
    expect(match!.column).toBeLessThan(40);
    expect(match!.text.trim()).toBe('"needle_key":"the needle"');
    const page = await library.readPage(result.artifact!.id, { offset: match!.line - 5, limit: 6 });
    expect(page.text).toContain('"needle_key":"the needle"');
    expect(page.window).toBeUndefined();
    // Every line is short: read pages lines, never columns.
    const raw = await library.openRaw(result.artifact!.id);
    const stored = (await raw.handle.readFile()).toString('utf8');
    await raw.handle.close();
    expect(Math.max(...stored.split('\n').map((line) => line.length))).toBeLessThan(200);
    // The file is what the record and the marker say; the original is what the tool returned.
    expect(sha256Hex(stored)).toBe(result.artifact!.digest);
    expect(markerOf(result.content)?.digest).toBe(result.artifact!.digest);
    expect(result.artifact!.original).toEqual({
      layout: 'json-lines',
      digest: sha256Hex(output),
      bytes: Buffer.byteLength(output),
    });
    expect(restoreJsonLayout(stored)).toBe(output);
    expect(stored).toContain('\n      "id":90071992547409930000,\n');
  });
});
