import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openSessionTranscript } from '@compaction/artifacts';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createArtifactMcpServer } from './create-artifact-mcp-server.js';

let root: string;
let logId: string;

beforeAll(async () => {
  root = await mkdtemp(join(tmpdir(), 'mcp-artifacts-'));
  const session = await openSessionTranscript({
    path: join(root, 'incident-42.jsonl'),
    clock: () => 1_750_000_000_000,
  });
  const log = Array.from({ length: 3000 }, (_, i) =>
    i === 2222 ? 'ERROR payments: connection pool exhausted txn=txn_777' : `line ${i} INFO ok`,
  ).join('\n');
  const settled = await session.settleToolResult({
    toolName: 'terminal',
    toolCallId: 'call_1',
    args: { command: 'kubectl logs payments' },
    output: log,
    exitCode: 1,
    isError: true,
  });
  await session.persist();
  logId = settled.artifact!.id;
});

const clients: Client[] = [];
afterEach(async () => {
  for (const client of clients.splice(0)) await client.close();
});

async function connect(settings: { sessionId?: string } = {}) {
  const server = createArtifactMcpServer({ dir: root, ...settings });
  const [clientTransport, serverTransport] = InMemoryTransport.createLinkedPair();
  await server.connect(serverTransport);
  const client = new Client({ name: 'test', version: '1.0.0' });
  await client.connect(clientTransport);
  clients.push(client);
  return client;
}

function textOf(result: Awaited<ReturnType<Client['callTool']>>): string {
  return (result.content as Array<{ type: string; text: string }>)
    .map((part) => part.text)
    .join('');
}

describe('the artifact MCP server with the SDK client', () => {
  it('lists its three read-only tools', async () => {
    const client = await connect();
    const { tools } = await client.listTools();
    expect(tools.map((tool) => tool.name).sort()).toEqual([
      'artifact_list',
      'artifact_read',
      'artifact_search',
    ]);
    expect(tools.every((tool) => tool.annotations?.readOnlyHint)).toBe(true);
  });

  it('lists sessions, then a session’s artifacts', async () => {
    const client = await connect();
    expect(textOf(await client.callTool({ name: 'artifact_list', arguments: {} }))).toBe(
      'incident-42',
    );
    const listing = textOf(
      await client.callTool({ name: 'artifact_list', arguments: { sessionId: 'incident-42' } }),
    );
    expect(listing).toContain(logId);
    expect(listing).toContain('terminal_log');
  });

  it('searches and pages through an artifact', async () => {
    const client = await connect();
    const found = textOf(
      await client.callTool({
        name: 'artifact_search',
        arguments: { id: logId, pattern: 'pool exhausted' },
      }),
    );
    expect(found).toContain('2223');
    expect(found).toContain('txn=txn_777');
    const page = textOf(
      await client.callTool({
        name: 'artifact_read',
        arguments: { id: logId, offset: 2220, limit: 5 },
      }),
    );
    expect(page).toContain('ERROR payments: connection pool exhausted');
    expect(page).toContain('lines 2220-2224 of 3000; next: offset=2225');
    expect(page.split('\n')[4]).toBe('ERROR payments: connection pool exhausted txn=txn_777');
  });

  it('describes every parameter of every tool', async () => {
    const client = await connect();
    const { tools } = await client.listTools();
    for (const tool of tools) {
      for (const [name, schema] of Object.entries(tool.inputSchema.properties ?? {})) {
        expect((schema as { description?: string }).description, `${tool.name}.${name}`).toMatch(
          /\w{3,}/,
        );
      }
    }
  });

  it('pages artifact_list past any page size with a cursor, newest first, filtered', async () => {
    const session = await openSessionTranscript({
      path: join(root, 'many.jsonl'),
      clock: (() => {
        let t = 1_750_000_000_000;
        return () => t++;
      })(),
    });
    for (let i = 0; i < 230; i++) {
      await session.settleToolResult({
        toolName: i % 2 ? 'read_file' : 'terminal',
        toolCallId: `call_${i}`,
        output: `result ${i}\n`.repeat(600),
      });
    }
    const client = await connect();
    const seen: string[] = [];
    let cursor: string | undefined;
    for (let pages = 0; pages < 10; pages++) {
      const answer = textOf(
        await client.callTool({
          name: 'artifact_list',
          arguments: { sessionId: 'many', limit: 100, ...(cursor ? { cursor } : {}) },
        }),
      );
      const ids = answer
        .split('\n')
        .filter((line) => line.startsWith('art_'))
        .map((line) => line.split('\t')[0]!);
      seen.push(...ids);
      cursor = /pass cursor (art_\w+)/.exec(answer)?.[1];
      if (!cursor) break;
    }
    expect(seen).toHaveLength(230);
    expect(new Set(seen).size).toBe(230);
    const newest = textOf(
      await client.callTool({ name: 'artifact_list', arguments: { sessionId: 'many', limit: 1 } }),
    );
    expect(newest).toContain('\tread_file\t');
    expect(newest).toContain('pass cursor');
    const terminals = textOf(
      await client.callTool({
        name: 'artifact_list',
        arguments: { sessionId: 'many', tool: 'terminal', limit: 200 },
      }),
    );
    expect(terminals.split('\n').filter((line) => line.startsWith('art_'))).toHaveLength(115);
    const bad = await client.callTool({
      name: 'artifact_list',
      arguments: { sessionId: 'many', cursor: 'art_nope' },
    });
    expect(bad.isError).toBe(true);
  });

  it('answers bad ids, traversal attempts and other sessions with tool errors', async () => {
    const client = await connect({ sessionId: 'incident-42' });
    for (const id of ['../../etc/passwd', 'art_doesnotexist', '']) {
      const result = await client.callTool({ name: 'artifact_read', arguments: { id } });
      expect(result.isError).toBe(true);
      expect(textOf(result)).toMatch(/^(error: |MCP error -32602: Input validation)/);
    }
    const other = await client.callTool({
      name: 'artifact_list',
      arguments: { sessionId: 'someone-else' },
    });
    expect(other.isError).toBe(true);
    const traversal = await connect();
    const escaped = await traversal.callTool({
      name: 'artifact_list',
      arguments: { sessionId: '../..' },
    });
    expect(escaped.isError).toBe(true);
  });
});
