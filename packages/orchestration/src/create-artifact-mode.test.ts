import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import {
  createArtifactLibrary,
  createArtifactToolHandler,
  fileReadPolicy,
} from '@compaction/artifacts';
import { sha256Hex } from '@compaction/artifacts/internal';
import {
  ARTIFACT_TOOL_NAMES,
  createToolResultViews,
  InvalidArgumentError,
  type ResultProcessor,
  utf8ByteLength,
} from '@compaction/core';
import { bigJsonResult } from '@compaction/core/test';
import { afterEach, describe, expect, it } from 'vitest';
import { createArtifactMode } from './create-artifact-mode.js';
import { checkArtifactView } from './test/index.js';

const roots: string[] = [];
afterEach(async () => {
  for (const root of roots.splice(0)) await rm(root, { recursive: true, force: true });
});
async function transcript() {
  const root = await mkdtemp(join(tmpdir(), 'artifact-mode-'));
  roots.push(root);
  return join(root, 's1.jsonl');
}

describe('createArtifactMode', () => {
  it('stores an output over the per-tool inline limit even within the adapter budget (seed 001)', async () => {
    const transcriptPath = await transcript();
    const file = Array.from({ length: 300 }, (_, i) => `${i}: const value = compute(${i});`);
    const text = file.join('\n');
    const input = { toolCallId: 'call-1', toolName: 'read_file', text };
    const mode = createArtifactMode({ transcriptPath, env: {} });
    const views = createToolResultViews({ processor: mode.processor, maxResultBytes: 65_536 });
    const viewed = (await views.view(input))!.processed.text;
    expect(utf8ByteLength(viewed)).toBeLessThanOrEqual(4000);
    const report = await checkArtifactView(viewed, mode.tools, mode.dir);
    expect(report.resolved).toMatchObject({ sameByFile: true, digestMatches: true });
    // An artifact page is never stored again; the limit is configurable and can be turned off.
    expect(await views.view({ ...input, toolName: 'artifact_read' })).toBeUndefined();
    for (const settings of [
      { inlineLimitChars: false as const },
      { env: { COMPACTION_ARTIFACT_INLINE_LIMIT: '20000' } },
      { policies: [{ ...fileReadPolicy, keepInline: () => true }] },
    ]) {
      const other = createArtifactMode({ transcriptPath, env: {}, ...settings });
      const otherViews = createToolResultViews({ processor: other.processor });
      expect(await otherViews.view(input)).toBeUndefined();
    }
  });

  it.each([
    ['no settings', {}],
    ['an empty path', { transcriptPath: '' }],
    ['a path that is no string', { transcriptPath: 42 }],
  ])('refuses %s with an error naming transcriptPath, not a raw path error', (_, settings) => {
    let error: unknown;
    try {
      createArtifactMode(settings as Parameters<typeof createArtifactMode>[0]);
    } catch (caught) {
      error = caught;
    }
    expect(InvalidArgumentError.isInstance(error)).toBe(true);
    expect(error).toMatchObject({ argument: 'transcriptPath', code: 'invalid_argument' });
    expect((error as Error).message).toMatch(
      /^createArtifactMode: transcriptPath is required: the session transcript's path/,
    );
  });

  it("with pointTo 'file' names the stored file's absolute path, which holds the full result", async () => {
    const mode = createArtifactMode({ transcriptPath: await transcript(), pointTo: 'file' });
    const result = Array.from({ length: 4000 }, (_, i) => `line ${i} of the log`).join('\n');
    const view = await mode.processor.process(result, 4096, {
      stepId: 'toolu_1',
      toolName: 'Bash',
    });
    const first = view.text.split('\n')[0]!;
    const path = / in the file (\/\S+) \(/.exec(first)?.[1];
    expect(path?.startsWith(mode.dir)).toBe(true);
    expect(await readFile(path!, 'utf8')).toBe(result);
    expect(first).not.toContain('artifact_read');
    expect(view.text.length).toBeLessThanOrEqual(4096);
  });

  it('stores 2 MB of JSON whole and gives the model a pointer and a noted view within the budget', async () => {
    const mode = createArtifactMode({ transcriptPath: await transcript(), clock: () => 0 });
    const result = bigJsonResult();
    const view = await mode.processor.process(result, 16_384, {
      stepId: 'call_1',
      toolName: 'list_pods',
      userQuery: 'which pod failed?',
    });
    const report = await checkArtifactView(view.text, mode.tools, mode.dir);
    // The one pointer line of @compaction/artifacts, followed as `compaction read` does.
    expect(report.pointer?.id).toBe(report.artifactId);
    expect(report.resolved).toMatchObject({ sameByFile: true, digestMatches: true });
    expect(report.resolved!.page.length).toBeGreaterThan(0);
    expect(report.bytes).toBeLessThanOrEqual(16_384);
    expect(report.notes.length).toBeGreaterThan(0);
    expect(view.metadata.contentLost).toBe(true);
    expect(view.metadata.outputBytes).toBe(report.bytes);
    expect(view.text).toContain('checkout-7f9c');
    expect(report.read?.split('\n')[0]).toMatch(
      new RegExp(`^\\[artifact ${report.artifactId} \\(call_1-[0-9a-f]{16}\\.txt\\): line`),
    );
    const searched = await mode.tools.call('artifact_search', {
      id: report.artifactId,
      pattern: '18446744073709551615',
    });
    expect(searched).toContain(': 1 match;');
    expect(
      await readFile(join(mode.dir, `call_1-${sha256Hex(result).slice(0, 16)}.txt`), 'utf8'),
    ).toBe(result);
    expect(mode.tools.definitions.map((tool) => tool.name)).toEqual([
      'artifact_read',
      'artifact_search',
    ]);
    // Adapters not given the toolset recognise its answers by these names.
    expect(mode.tools.definitions.map((tool) => tool.name)).toEqual(ARTIFACT_TOOL_NAMES);
  });

  it("gives a conversation budget an archive whose ids are the processor's, and the trimmer's digest", async () => {
    const mode = createArtifactMode({ transcriptPath: await transcript(), clock: () => 0 });
    const result = bigJsonResult();
    const view = await mode.processor.process(result, 16_384, {
      stepId: 'call_1',
      toolName: 'list_pods',
    });
    const archived = await mode.conversation.archive!.archive({
      toolCallId: 'call_1',
      toolName: 'list_pods',
      text: result,
    });
    expect(archived).toEqual({
      artifactId: (await checkArtifactView(view.text, mode.tools, mode.dir)).artifactId,
      sha256: sha256Hex(result),
      bytes: Buffer.byteLength(result),
    });
    const found = await createArtifactLibrary({ root: dirname(mode.dir) }).resolve(
      archived!.artifactId,
    );
    expect(await readFile(join(found.dir, found.record.path), 'utf8')).toBe(result);
    expect(mode.conversation.describe!(result)).toMatch(/^JSON object \{.*\d+ records at /);
  });

  it('an archive that cannot write resolves to nothing, so the pointer says not stored', async () => {
    const path = await transcript();
    const mode = createArtifactMode({ transcriptPath: path });
    // A file where the store directory should be: every write fails.
    await rm(mode.dir, { recursive: true, force: true });
    await import('node:fs/promises').then((fs) => fs.writeFile(mode.dir, 'in the way'));
    expect(
      await mode.conversation.archive!.archive({
        toolCallId: 'c',
        toolName: 't',
        text: 'x'.repeat(5000),
      }),
    ).toBeUndefined();
  });

  it('searching a one-line 2 MB JSON reports the match honestly: its count, a line and column artifact_read takes, a window holding it', async () => {
    const mode = createArtifactMode({ transcriptPath: await transcript() });
    const text = JSON.stringify(JSON.parse(bigJsonResult()));
    expect(text.includes('\n')).toBe(false);
    const view = await mode.processor.process(text, 8192, { stepId: 'c1', toolName: 'list_pods' });
    const id = /art_[0-9a-f]{24}/.exec(view.text)![0];
    // The same tools over the same store, with a time budget no loaded machine runs out of
    // (running out is answered honestly too, with the line to continue from).
    const tools = createArtifactToolHandler({
      library: createArtifactLibrary({ root: dirname(mode.dir), searchTimeMs: 600_000 }),
    });
    const found = await tools.call('artifact_search', { id, pattern: 'OOMKilled' });
    const [header, hit] = found.split('\n');
    expect(header).toMatch(/: 1 match; 1 lines\]$/);
    const [, line, column, window] = /^(\d+):(\d+): (.*)$/.exec(hit!)!;
    expect(Number(line)).toBe(1);
    expect(Number(column)).toBe(text.indexOf('OOMKilled') + 1);
    expect(window).toContain('OOMKilled');
    const read = await tools.call('artifact_read', {
      id,
      offset: Number(line),
      column: Number(column),
      limit: 1,
    });
    expect(read.split('\n')[1]!.startsWith('OOMKilled')).toBe(true);
  });

  it('passes results that fit through untouched and stores nothing', async () => {
    const mode = createArtifactMode({ transcriptPath: await transcript() });
    const view = await mode.processor.process('{"ok":true}', 1024, { stepId: 'c1' });
    expect(view).toEqual({
      text: '{"ok":true}',
      metadata: { contentLost: false, originalBytes: 11, outputBytes: 11, strategy: 'unchanged' },
    });
  });

  it('finds a result by the tool call id it was settled under, whatever its shape', async () => {
    const mode = createArtifactMode({ transcriptPath: await transcript() });
    const library = createArtifactLibrary({ root: dirname(mode.dir) });
    for (const stepId of ['functions.bash:0', 'call|abc', 'toolu_01A/B', 'x'.repeat(200)]) {
      const view = await mode.processor.process(`${stepId}\n${'y'.repeat(50_000)}`, 4096, {
        stepId,
      });
      const { record } = await library.resolve(stepId);
      expect(view.text.split('\n', 1)[0]).toContain(record.id);
      expect(record.toolCallId).toBe(stepId);
    }
  });

  it('keeps an unsafe tool call id out of the file system and still points at the stored result', async () => {
    const mode = createArtifactMode({ transcriptPath: await transcript() });
    const view = await mode.processor.process('x'.repeat(50_000), 4096, { stepId: '../../etc' });
    const report = await checkArtifactView(view.text, mode.tools, mode.dir);
    // The one pointer line of @compaction/artifacts, followed as `compaction read` does.
    expect(report.pointer?.id).toBe(report.artifactId);
    expect(report.resolved).toMatchObject({ sameByFile: true, digestMatches: true });
    expect(report.resolved!.page.length).toBeGreaterThan(0);
    expect(report.bytes).toBeLessThanOrEqual(4096);
    expect(report.read).toContain(`[artifact ${report.artifactId}`);
  });

  it('gives the view alone when the budget cannot hold the pointer line as well', async () => {
    const calls: number[] = [];
    const view: ResultProcessor = {
      async process(_result, maxBytes) {
        calls.push(maxBytes);
        return {
          text: 'v'.repeat(Math.min(maxBytes, 10)),
          metadata: { contentLost: true, originalBytes: 1, outputBytes: 1, strategy: 'bytes' },
        };
      },
    };
    const mode = createArtifactMode({ transcriptPath: await transcript(), view });
    const out = await mode.processor.process('y'.repeat(10_000), 300, { stepId: 'c2' });
    expect(calls).toEqual([300]);
    expect(out.text).toBe('vvvvvvvvvv');
  });
});
