import { rm } from 'node:fs/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeSessionDir } from '../test-support/make-session-dir.js';
import { createArtifactLibrary } from './artifact-library.js';
import {
  ANTHROPIC_ARTIFACT_TOOLS,
  ARTIFACT_TOOL_TEXT,
  createArtifactToolHandler,
  OPENAI_ARTIFACT_TOOLS,
} from './artifact-tools.js';

let root: string;
let ids: { terminal: string; read: string };
beforeAll(async () => {
  ({ root, ids } = await makeSessionDir());
});
afterAll(async () => {
  await rm(root, { recursive: true, force: true });
});

describe('artifact tools', () => {
  it('define artifact_read and artifact_search for OpenAI and Anthropic, every parameter described', () => {
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
    // Issue 43 item 19: a model is told that JSON pages by lines and a long line by columns.
    expect(ARTIFACT_TOOL_TEXT.read.description).toMatch(/JSON result is stored one value per line/);
    expect(ARTIFACT_TOOL_TEXT.search.description).toMatch(
      /JSON result is stored one value per line/,
    );
    expect(ARTIFACT_TOOL_TEXT.search.description).toMatch(/column=column/);
    for (const tool of OPENAI_ARTIFACT_TOOLS) {
      expect(tool.function.description).toMatch(/count(ing)? from 1/);
      for (const [name, schema] of Object.entries(tool.function.parameters.properties)) {
        expect((schema as { description?: string }).description, name).toMatch(/\w{3,}/);
      }
    }
  });

  it('page by 1-based lines, continuing at the offset the header gives', async () => {
    const tools = createArtifactToolHandler({
      library: createArtifactLibrary({ root }),
      sessionId: 'demo-session',
    });
    const first = await tools.call('artifact_read', { id: ids.terminal, offset: 1, limit: 3 });
    expect(first).toMatch(
      new RegExp(
        `^\\[artifact ${ids.terminal} \\(call_term_1-[0-9a-f]{16}\\.txt\\): lines 1-3 of 1200; next: offset=4\\]\\n`,
      ),
    );
    expect(first.split('\n').slice(1)).toEqual([
      'line 1: step 0 ok ✓',
      'line 2: step 1 ok ✓',
      'line 3: step 2 ok ✓',
      '',
    ]);
    const next = await tools.call('artifact_read', { id: ids.terminal, offset: 4, limit: 1 });
    expect(next.split('\n')[1]).toBe('line 4: step 3 ok ✓');
    const last = await tools.call(
      'artifact_read',
      JSON.stringify({ id: ids.terminal, offset: 1199, limit: 10 }),
    );
    expect(last).toContain('lines 1199-1200 of 1200; end of artifact');
    expect(last.endsWith('line 1200: step 1199 ok ✓')).toBe(true);
  });

  it('reads from a column: the header tells what the text holds, and a column past the line is refused', async () => {
    const tools = createArtifactToolHandler({ library: createArtifactLibrary({ root }) });
    // A short line read from column 3 with the next line after it: not "a long line".
    const two = await tools.call('artifact_read', {
      id: ids.terminal,
      offset: 10,
      column: 3,
      limit: 2,
    });
    expect(two).toContain(': lines 10-11 of 1200, from column 3 of line 10; next: offset=12]');
    expect(two.split('\n').slice(1, 3)).toEqual(['ne 10: step 9 ok ✓', 'line 11: step 10 ok ✓']);
    const one = await tools.call('artifact_read', {
      id: ids.terminal,
      offset: 10,
      column: 3,
      limit: 1,
    });
    expect(one).toContain(': line 10 of 1200, columns 3-20 of 20; next: offset=11]');
    expect(one).not.toContain('long line');
    expect(
      await tools.call('artifact_read', { id: ids.terminal, offset: 10, column: 999 }),
    ).toMatch(/column 999 is past the end of line 10 \(20 characters\)/);
  });

  it('reads from the end with a negative offset', async () => {
    const tools = createArtifactToolHandler({ library: createArtifactLibrary({ root }) });
    const tail = await tools.call('artifact_read', { id: ids.terminal, offset: -2 });
    expect(tail).toContain('lines 1199-1200 of 1200; end of artifact');
    expect(tail.split('\n').slice(1)).toEqual([
      'line 1199: step 1198 ok ✓',
      'line 1200: step 1199 ok ✓',
    ]);
  });

  it('search answers line:column with the same numbering artifact_read takes', async () => {
    const tools = createArtifactToolHandler({ library: createArtifactLibrary({ root }) });
    const found = await tools.call('artifact_search', { id: ids.terminal, pattern: 'needle-777' });
    expect(found.split('\n')).toEqual([
      expect.stringMatching(/^\[artifact art_\w+ \(call_term_1-\w+\.txt\): 1 match; 1200 lines\]$/),
      '778:46: ERROR: disk quota exceeded on /var/lib/data (needle-777)',
    ]);
    const page = await tools.call('artifact_read', { id: ids.terminal, offset: 778, limit: 1 });
    expect(page.split('\n')[1]).toBe('ERROR: disk quota exceeded on /var/lib/data (needle-777)');
    const literal = await tools.call('artifact_search', {
      id: ids.terminal,
      pattern: 'step .* ok',
    });
    expect(literal).toContain(': 0 matches');
    const regex = await tools.call('artifact_search', {
      id: ids.terminal,
      pattern: 'step 11\\d ok',
      regex: true,
    });
    expect(regex).toContain(': 10 matches');
  });

  it('pages through more matches than max_matches with from_line', async () => {
    const tools = createArtifactToolHandler({ library: createArtifactLibrary({ root }) });
    const first = await tools.call('artifact_search', {
      id: ids.terminal,
      pattern: 'ok',
      max_matches: 3,
    });
    expect(first).toContain('3+ matches');
    expect(first).toContain('[more matches: search again with from_line=4 from_column=16]');
    const second = await tools.call('artifact_search', {
      id: ids.terminal,
      pattern: 'ok',
      max_matches: 2,
      from_line: 4,
    });
    expect(
      second
        .split('\n')
        .slice(1, 3)
        .map((line) => line.split(':')[0]),
    ).toEqual(['4', '5']);
  });

  it('answers bad patterns, unknown ids, other sessions and bad JSON with an error line', async () => {
    const tools = createArtifactToolHandler({
      library: createArtifactLibrary({ root }),
      sessionId: 'other',
    });
    expect(await tools.call('artifact_read', { id: ids.terminal })).toMatch(
      /^error: artifact_not_found/,
    );
    const open = createArtifactToolHandler({ library: createArtifactLibrary({ root }) });
    expect(
      await open.call('artifact_search', { id: ids.terminal, pattern: '(x|x)*y\\1', regex: true }),
    ).toMatch(/^error: artifact_pattern_unsupported: regex refused/);
    expect(
      await open.call('artifact_search', { id: ids.terminal, pattern: 'a(?=b)', regex: true }),
    ).toMatch(/^error: artifact_pattern_unsupported/);
    expect(
      await open.call('artifact_search', { id: ids.terminal, pattern: '(unclosed', regex: true }),
    ).toMatch(/^error: artifact_pattern_invalid/);
    for (const id of [
      '../demo-session.jsonl',
      '..',
      'a/b',
      '%2e%2e',
      '',
      'art_000000000000000000000000',
    ]) {
      expect(await open.call('artifact_read', { id }), id).toMatch(
        /^error: artifact_(not_found|invalid_id)/,
      );
    }
    expect(await open.call('artifact_read', '{not json')).toBe(
      'error: artifact_invalid_argument: arguments are not valid JSON',
    );
    expect(await open.call('artifact_read', { id: ids.terminal, offset: 5000 })).toMatch(
      /past the last line \(1200\)/,
    );
  });
});
