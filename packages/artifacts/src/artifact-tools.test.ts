import { rm } from 'node:fs/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createArtifactLibrary } from './artifact-library.js';
import {
  ANTHROPIC_ARTIFACT_TOOLS,
  createArtifactToolHandler,
  OPENAI_ARTIFACT_TOOLS,
} from './artifact-tools.js';
import { makeSessionDir } from './test-support/make-session-dir.js';

let root: string;
let ids: { terminal: string; read: string };
beforeAll(async () => {
  ({ root, ids } = await makeSessionDir());
});
afterAll(async () => {
  await rm(root, { recursive: true, force: true });
});

describe('artifact tools', () => {
  it('define artifact_read and artifact_search for OpenAI and Anthropic', () => {
    expect(OPENAI_ARTIFACT_TOOLS.map((tool) => tool.function.name)).toEqual([
      'artifact_read',
      'artifact_search',
    ]);
    expect(ANTHROPIC_ARTIFACT_TOOLS.map((tool) => tool.name)).toEqual([
      'artifact_read',
      'artifact_search',
    ]);
    expect(ANTHROPIC_ARTIFACT_TOOLS[0].input_schema).toBe(
      OPENAI_ARTIFACT_TOOLS[0].function.parameters,
    );
    expect(OPENAI_ARTIFACT_TOOLS[0].function.parameters.required).toEqual(['id']);
  });

  it('page by lines from the store, continuing at nextOffset', async () => {
    const tools = createArtifactToolHandler({
      library: createArtifactLibrary({ root }),
      sessionId: 'demo-session',
    });
    const first = await tools.call('artifact_read', { id: ids.terminal, offset: 0, limit: 3 });
    expect(first).toBe(
      `[artifact ${ids.terminal} lines 0-3; next offset 3]\nline 1: step 0 ok ✓\nline 2: step 1 ok ✓\nline 3: step 2 ok ✓\n`,
    );
    const last = await tools.call(
      'artifact_read',
      JSON.stringify({ id: ids.terminal, offset: 1198, limit: 10 }),
    );
    expect(last).toContain('end of artifact');
    expect(last.endsWith('line 1200: step 1199 ok ✓')).toBe(true);
  });

  it('page by chars without splitting a surrogate pair', async () => {
    const library = createArtifactLibrary({ root });
    const page = await library.readPage(ids.read, { unit: 'chars', offset: 0, limit: 36 });
    expect(page.text).toBe('export const value0 = 0; // 🧪 e\u0301\nex'.slice(0, page.count));
    expect(page.nextOffset).toBe(page.count);
    for (let limit = 28; limit < 34; limit++) {
      const cut = await library.readPage(ids.read, { unit: 'chars', offset: 0, limit });
      const last = cut.text.charCodeAt(cut.text.length - 1);
      expect(last >= 0xd800 && last <= 0xdbff).toBe(false);
    }
  });

  it('search returns matching lines with their numbers; literal by default', async () => {
    const tools = createArtifactToolHandler({ library: createArtifactLibrary({ root }) });
    const found = await tools.call('artifact_search', { id: ids.terminal, pattern: 'needle-777' });
    expect(found).toBe(
      `[artifact ${ids.terminal}: 1 matching lines]\n778: ERROR: disk quota exceeded on /var/lib/data (needle-777)`,
    );
    const literal = await tools.call('artifact_search', {
      id: ids.terminal,
      pattern: 'step .* ok',
    });
    expect(literal).toContain(': 0 matching lines');
    const regex = await tools.call('artifact_search', {
      id: ids.terminal,
      pattern: 'step 11\\d ok',
      regex: true,
    });
    expect(regex).toContain(': 10 matching lines');
  });

  it('refuses catastrophic regexes, unsafe ids and other sessions with an error line', async () => {
    const tools = createArtifactToolHandler({
      library: createArtifactLibrary({ root }),
      sessionId: 'other',
    });
    const scoped = await tools.call('artifact_read', { id: ids.terminal });
    expect(scoped).toBe(`error: No artifact ${ids.terminal}`);
    const open = createArtifactToolHandler({ library: createArtifactLibrary({ root }) });
    expect(
      await open.call('artifact_search', { id: ids.terminal, pattern: '(a+)+$', regex: true }),
    ).toMatch(/^error: search pattern refused/);
    expect(
      await open.call('artifact_search', { id: ids.terminal, pattern: '(x|x)*y\\1', regex: true }),
    ).toMatch(/^error: search pattern refused/);
    for (const id of ['../demo-session.jsonl', '..', 'a/b', '%2e%2e', '']) {
      expect(await open.call('artifact_read', { id })).toMatch(/^error: Invalid artifact id/);
    }
    expect(await open.call('artifact_read', '{not json')).toBe(
      'error: arguments are not valid JSON',
    );
  });
});
