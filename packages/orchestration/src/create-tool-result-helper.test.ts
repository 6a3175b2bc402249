import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { createArtifactLibrary } from '@compaction/artifacts';
import { sha256Hex } from '@compaction/artifacts/internal';
import {
  type ConversationReport,
  disclosureNoteKind,
  trailingDisclosureNotes,
  utf8ByteLength,
} from '@compaction/core';
import { createStructuralTrimmer } from '@compaction/trimmer';
import { afterEach, describe, expect, it } from 'vitest';
import { createToolResultHelper } from './create-tool-result-helper.js';

const output = Array.from({ length: 8000 }, (_, i) =>
  i === 6000 ? 'FATAL: out of memory' : `ok ${i}`,
).join('\n');
const roots: string[] = [];
afterEach(async () => {
  for (const root of roots.splice(0)) await rm(root, { recursive: true, force: true });
});
async function transcript() {
  const root = await mkdtemp(join(tmpdir(), 'tool-helper-'));
  roots.push(root);
  return join(root, 'chat.jsonl');
}

describe('createToolResultHelper', () => {
  it('refuses a missing transcriptPath with an error naming it', () => {
    expect(() =>
      createToolResultHelper({} as Parameters<typeof createToolResultHelper>[0]),
    ).toThrow(/^createToolResultHelper: transcriptPath is required/);
  });

  it('keeps small outputs inline and stores large ones with an excerpt the model can page from', async () => {
    const helper = createToolResultHelper({ transcriptPath: await transcript(), env: {} });
    expect(
      await helper.content({ toolCallId: 'c0', toolName: 'terminal', output: 'short' }),
    ).toEqual({
      content: 'short',
      contentLost: false,
    });
    const big = await helper.content({
      toolCallId: 'c1',
      toolName: 'terminal',
      args: { command: 'make' },
      output,
      exitCode: 1,
    });
    expect(big.contentLost).toBe(true);
    expect([...big.content].length).toBeLessThanOrEqual(4000);
    expect(big.content).toContain(big.artifactId!);
    expect(helper.handles('artifact_read')).toBe(true);
    expect(helper.handles('terminal')).toBe(false);
    const found = await helper.dispatch(
      'artifact_search',
      JSON.stringify({ id: big.artifactId, pattern: 'FATAL' }),
    );
    expect(found).toContain('6001');
    expect(helper.openaiTools.map((tool) => tool.function.name)).toEqual([
      'artifact_read',
      'artifact_search',
    ]);
  });

  it('with a processor: its view within the budget, under the artifact marker', async () => {
    const helper = createToolResultHelper({
      transcriptPath: await transcript(),
      env: {},
      processor: createStructuralTrimmer(),
      maxResultBytes: 2048,
    });
    const view = await helper.content(
      { toolCallId: 'c2', toolName: 'logs', output },
      { userQuery: 'out of memory?' },
    );
    expect(utf8ByteLength(view.content)).toBeLessThanOrEqual(2048);
    expect(view.content.split('\n')[0]).toContain(`artifact ${view.artifactId}`);
    expect(view.content).toContain('FATAL: out of memory');
    expect(trailingDisclosureNotes(view.content).length).toBe(1);
  });

  it("takes the processor view's budget from the knob table (16384, COMPACTION_ARTIFACT_VIEW_MAX_BYTES)", async () => {
    const big = Array.from({ length: 40_000 }, (_, i) => `ok ${i} ${'x'.repeat(i % 7)}`).join('\n');
    const sizes: number[] = [];
    for (const env of [{}, { COMPACTION_ARTIFACT_VIEW_MAX_BYTES: '4096' }]) {
      const helper = createToolResultHelper({
        transcriptPath: await transcript(),
        env,
        processor: createStructuralTrimmer(),
      });
      const view = await helper.content({ toolCallId: 'c3', toolName: 'logs', output: big });
      sizes.push(utf8ByteLength(view.content));
    }
    expect(sizes[0]).toBeLessThanOrEqual(16_384);
    expect(sizes[0]).toBeGreaterThan(8192);
    expect(sizes[1]).toBeLessThanOrEqual(4096);
  });

  it('holds a whole loop to the conversation budget, each pointer resolving, artifact reads whole', async () => {
    const path = await transcript();
    const settings = {
      transcriptPath: path,
      env: {},
      processor: createStructuralTrimmer(),
      maxResultBytes: 8192,
      conversation: { maxBytes: 40_000, keepLast: 2 },
      onConversation: (report: ConversationReport) => reports.push(report),
    };
    const reports: ConversationReport[] = [];
    const helper = createToolResultHelper(settings);
    const outputs = Array.from({ length: 60 }, (_, i) => ({
      toolCallId: `call_${i}`,
      toolName: i % 2 ? 'terminal' : 'read_file',
      output: Array.from({ length: 100 + ((i * 53) % 700) }, (_, k) =>
        k % 41 === 7 ? `ERROR step ${i} line ${k}` : `INFO step ${i} line ${k}`,
      ).join('\n'),
      isError: i % 9 === 4,
      turn: i,
    }));
    outputs[30] = {
      toolCallId: 'call_30',
      toolName: 'artifact_read',
      output: 'p'.repeat(20_000),
      isError: false,
      turn: 30,
    };
    let previous: string[] = [];
    let breaks = 0;
    for (let n = 1; n <= outputs.length; n++) {
      const contents = await helper.conversation(outputs.slice(0, n), {
        userQuery: 'what failed?',
      });
      const texts = contents.map((c) => c.content);
      expect(texts.reduce((sum, t) => sum + utf8ByteLength(t), 0)).toBeLessThanOrEqual(40_000);
      if (n === 31) expect(texts[30]).toBe(outputs[30]!.output);
      if (previous.some((text, i) => texts[i] !== text)) breaks++;
      previous = texts;
    }
    // Each break leaves 40% of the budget free (its note included): about one per two calls
    // here, where each call adds about 8 KB of views.
    expect(breaks).toBeGreaterThan(0);
    expect(reports.at(-1)!.stepDowns).toBe(breaks);
    expect(breaks).toBeLessThanOrEqual(Math.ceil(reports.at(-1)!.viewsTotal / (16_000 - 400)));
    // The same conversation in a fresh helper (a restarted process): the same contents.
    const again = await createToolResultHelper(settings).conversation(outputs, {
      userQuery: 'what failed?',
    });
    expect(again.map((c) => c.content)).toEqual(previous);
    const library = createArtifactLibrary({ root: dirname(path) });
    let pointers = 0;
    let short = 0;
    for (const [i, text] of previous.entries()) {
      const line = text.split('\n')[0]!;
      if (disclosureNoteKind(line) !== 'stepped-down') continue;
      pointers++;
      expect(again[i]!.contentLost).toBe(true);
      const [, sha, id] = /(?:sha256 ([0-9a-f]{64}), )?stored as (art_[0-9a-f]{24})/.exec(line)!;
      expect(again[i]!.artifactId).toBe(id);
      const found = await library.resolve(id!);
      const bytes = await readFile(join(found.dir, found.record.path));
      // A short line names no SHA-256: the index record it resolves to does.
      expect(sha256Hex(bytes)).toBe(sha ?? found.record.digest);
      if (!sha) short++;
      expect(bytes.toString('utf8')).toBe(outputs[i]!.output);
    }
    expect(pointers).toBeGreaterThan(20);
    // Pointer lines of earlier step-downs are in their short form.
    expect(short).toBeGreaterThan(0);
  });

  it('refuses results without a turn', async () => {
    const helper = createToolResultHelper({ transcriptPath: await transcript(), env: {} });
    await expect(
      helper.conversation([{ toolCallId: 'a', toolName: 't', output: 'x' } as never]),
    ).rejects.toThrow(/turn/);
  });
});
