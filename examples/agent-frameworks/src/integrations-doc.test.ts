import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { MCP_CLIENT_CONFIG } from './run-mcp-proxy-client.js';

const repo = fileURLToPath(new URL('../../../', import.meta.url));
const DOC = readFileSync(join(repo, 'docs/integrations.md'), 'utf8');
const EXAMPLE_FILES = [
  ...readdirSync(join(repo, 'examples/agent-frameworks/src'))
    .filter((file) => file.endsWith('.ts') && !file.endsWith('.test.ts'))
    .map((file) => join(repo, 'examples/agent-frameworks/src', file)),
  join(repo, 'examples/tool-loops/src/run-openai-tool-loop.ts'),
];

/** `<!-- snippet: NAME -->` followed by a fenced block, by name. */
function docSnippets(): Map<string, { lang: string; code: string }> {
  const snippets = new Map<string, { lang: string; code: string }>();
  for (const match of DOC.matchAll(/<!-- snippet: ([a-z-]+) -->\n```(\w+)\n([\s\S]*?)\n```/g)) {
    snippets.set(match[1]!, { lang: match[2]!, code: match[3]! });
  }
  return snippets;
}

/** The `// setup:start NAME` … `// setup:end` regions of the examples, each dedented, joined by name. */
function exampleRegions(): Map<string, string> {
  const regions = new Map<string, string[]>();
  for (const file of EXAMPLE_FILES) {
    const lines = readFileSync(file, 'utf8').split('\n');
    for (let i = 0; i < lines.length; i++) {
      const start = /^(\s*)\/\/ setup:start ([a-z-]+)$/.exec(lines[i]!);
      if (!start) continue;
      const indent = start[1]!.length;
      const end = lines.findIndex((line, j) => j > i && line.trim() === '// setup:end');
      expect(end, `${file}:${i + 1} has no // setup:end`).toBeGreaterThan(i);
      const body = lines.slice(i + 1, end).map((line) => line.slice(indent));
      regions.set(start[2]!, [...(regions.get(start[2]!) ?? []), ...body]);
      i = end;
    }
  }
  return new Map([...regions].map(([name, body]) => [name, body.join('\n')]));
}

const codeLines = (code: string) =>
  code.split('\n').filter((line) => line.trim() !== '' && !line.trim().startsWith('//'));

describe('docs/integrations.md against the examples', () => {
  const snippets = docSnippets();
  const regions = exampleRegions();

  it('shows every example setup, and every TypeScript setup it shows is an example’s, verbatim', () => {
    expect([...regions.keys()].sort()).toEqual(
      [...snippets]
        .filter(([, s]) => s.lang === 'ts')
        .map(([name]) => name)
        .sort(),
    );
    for (const [name, region] of regions) expect(snippets.get(name)?.code, name).toBe(region);
  });

  it('shows the MCP client configuration the example runs', () => {
    expect(JSON.parse(snippets.get('mcp-proxy')!.code)).toEqual(MCP_CLIENT_CONFIG);
  });

  it('keeps every setup to five lines or fewer', () => {
    for (const [name, region] of regions) {
      expect(codeLines(region).length, name).toBeGreaterThanOrEqual(2);
      expect(codeLines(region).length, name).toBeLessThanOrEqual(5);
    }
  });

  it('has a table row with an install line for every integration', () => {
    for (const name of ['ai-sdk', 'openai-agents', 'langchain']) {
      expect(DOC).toContain(`npm i @compaction/${name} @compaction/orchestration`);
    }
    expect(DOC).toContain('npx -y -p @compaction/cli compaction mcp-proxy -- <server>');
    expect(DOC).toContain('`createToolResultHelper`');
  });
});
