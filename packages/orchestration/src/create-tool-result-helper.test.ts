import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { trailingDisclosureNotes, utf8ByteLength } from '@compaction/core';
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
});
