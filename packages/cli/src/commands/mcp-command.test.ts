import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openSessionTranscript } from '@compaction/artifacts';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { describe, expect, it } from 'vitest';
import { BINARY, binaryBuilt, runBinary } from '../test-support/run-binary.js';

describe.skipIf(!binaryBuilt())('compaction mcp (the built binary over stdio)', () => {
  it('serves the artifact tools to the MCP SDK client over a spawned stdio process', async () => {
    const root = await mkdtemp(join(tmpdir(), 'cli-mcp-'));
    const session = await openSessionTranscript({ path: join(root, 'run-1.jsonl') });
    const settled = await session.settleToolResult({
      toolName: 'read_file',
      toolCallId: 'call_1',
      args: { path: 'big.txt' },
      output: Array.from({ length: 5000 }, (_, i) => `row ${i}${i === 4321 ? ' NEEDLE' : ''}`).join(
        '\n',
      ),
    });
    await session.persist();
    const transport = new StdioClientTransport({
      command: process.execPath,
      args: [BINARY, 'mcp', '--dir', root],
      stderr: 'pipe',
    });
    const client = new Client({ name: 'cli-test', version: '1.0.0' });
    await client.connect(transport);
    try {
      const { tools } = await client.listTools();
      expect(tools.map((tool) => tool.name).sort()).toEqual([
        'artifact_list',
        'artifact_read',
        'artifact_search',
      ]);
      const found = await client.callTool({
        name: 'artifact_search',
        arguments: { id: settled.artifact!.id, pattern: 'NEEDLE' },
      });
      expect(JSON.stringify(found.content)).toContain('row 4321 NEEDLE');
      // Issue 13, item 1: a catastrophic pattern returns, and the next call is answered.
      const evil = await session.settleToolResult({
        toolName: 'terminal',
        toolCallId: 'call_evil',
        output: `${'a'.repeat(34)}!\n`.repeat(5000),
      });
      const searches = ['(a|a)+$', '((a+))+$', '(\\w|[a-z])+$', '(a|aa)+$', '.*.*.*.*x'].map(
        (pattern) =>
          client.callTool({
            name: 'artifact_search',
            arguments: { id: evil.artifact!.id, pattern, regex: true },
          }),
      );
      const listed = await client.callTool({
        name: 'artifact_list',
        arguments: { sessionId: 'run-1' },
      });
      expect(JSON.stringify(listed.content)).toContain(evil.artifact!.id);
      for (const result of await Promise.all(searches)) {
        expect(JSON.stringify(result.content)).toContain(': 0 matches;');
      }
    } finally {
      await client.close();
    }
  });

  it('exits 2 without --dir', () => {
    const { status, stderr } = runBinary(['mcp']);
    expect(status).toBe(2);
    expect(stderr).toContain('--dir DIR is required');
  });
});
