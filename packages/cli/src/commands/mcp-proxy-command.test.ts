import { existsSync } from 'node:fs';
import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { trailingDisclosureNotes, utf8ByteLength } from '@compaction/core';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { describe, expect, it } from 'vitest';
import { BINARY, binaryBuilt, runBinary } from '../test-support/run-binary.js';

// The demo MCP server of @compaction/mcp/test, built, run as its own process.
const DEMO_SERVER = fileURLToPath(
  new URL('../../../mcp/dist/test/demo-mcp-server-main.js', import.meta.url),
);

function textOf(result: unknown): string {
  return (result as { content: Array<{ type: string; text?: string }> }).content
    .filter((part) => part.type === 'text')
    .map((part) => part.text)
    .join('\n');
}

describe.skipIf(!binaryBuilt())('compaction mcp-proxy (the built binary over stdio)', () => {
  it('fronts a real MCP server process for the SDK client: 2 MB in, the budget out, the artifact readable', async () => {
    expect(existsSync(DEMO_SERVER)).toBe(true);
    const root = await mkdtemp(join(tmpdir(), 'cli-mcp-proxy-'));
    const transport = new StdioClientTransport({
      command: process.execPath,
      args: [
        BINARY,
        'mcp-proxy',
        '--dir',
        root,
        '--session',
        's1',
        '--max-bytes',
        '8192',
        '--',
        process.execPath,
        DEMO_SERVER,
      ],
      env: { PATH: process.env.PATH ?? '' },
      stderr: 'pipe',
    });
    let stderr = '';
    transport.stderr?.on('data', (chunk) => {
      stderr += String(chunk);
    });
    const client = new Client({ name: 'cli-test', version: '1.0.0' });
    await client.connect(transport);
    try {
      const names = (await client.listTools()).tools.map((tool) => tool.name);
      expect(names).toContain('list_pods');
      expect(names).toContain('artifact_read');
      const view = textOf(await client.callTool({ name: 'list_pods', arguments: {} }));
      expect(utf8ByteLength(view)).toBeLessThanOrEqual(8192);
      expect(trailingDisclosureNotes(view).length).toBeGreaterThan(0);
      const id = /art_[0-9a-f]{24}/.exec(view)?.[0];
      const read = await client.callTool({
        name: 'artifact_read',
        arguments: { id, limit: 50 },
      });
      expect(textOf(read)).toContain(`[artifact ${id} (`);
      expect(textOf(await client.callTool({ name: 'echo', arguments: { text: 'hi' } }))).toBe('hi');
      expect(
        (await readdir(join(root, 's1.artifacts'))).some((file) =>
          /^call-1-list_pods-[0-9a-f]{16}\.txt$/.test(file),
        ),
      ).toBe(true);
      expect(stderr).toMatch(/list_pods: \d+ → \d+ bytes/);
    } finally {
      await client.close();
      await rm(root, { recursive: true, force: true });
    }
  });

  it('exits 2 without a server command, and 1 when the command cannot start', () => {
    const missing = runBinary(['mcp-proxy', '--max-bytes', '4096']);
    expect(missing.status).toBe(2);
    expect(missing.stderr).toContain('the server command goes after --');
    const broken = runBinary(['mcp-proxy', '--', join(tmpdir(), 'no-such-server-binary')], {
      input: '',
    });
    expect(broken.status).toBe(1);
    expect(broken.stderr).toContain('could not start');
  });
});
