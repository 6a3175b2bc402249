import { mkdtemp, rm } from 'node:fs/promises';
import { request } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  createArtifactServer,
  openSessionTranscript,
  type RunningArtifactServer,
} from '@compaction/artifacts';
import { createArtifactMcpServer } from '@compaction/mcp';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../run-cli.js';
import { createMemoryIo } from '../test-support/memory-io.js';

// Issue 43, item 10: `limit=1001` was clamped by the CLI and the HTTP API and refused by the
// MCP server. One rule now: an integer above the maximum reads as the maximum, one below the
// minimum is refused.
const log = Array.from({ length: 1200 }, (_, i) => `line ${i + 1}`).join('\n');
let dir: string;
let id: string;
let http: RunningArtifactServer;
let client: Client;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'compaction-paging-'));
  const session = await openSessionTranscript({ path: join(dir, 'run.jsonl') });
  id = (await session.settleToolResult({ toolName: 'terminal', toolCallId: 'call_1', output: log }))
    .artifact!.id;
  http = await createArtifactServer({ dir }).listen();
  const server = createArtifactMcpServer({ dir });
  const [clientTransport, serverTransport] = InMemoryTransport.createLinkedPair();
  await server.connect(serverTransport);
  client = new Client({ name: 'test', version: '1.0.0' });
  await client.connect(clientTransport);
});
afterAll(async () => {
  await client.close();
  await http.close();
  await rm(dir, { recursive: true, force: true });
});

async function cli(limit: string) {
  const { io, stdout, stderr } = createMemoryIo({ cwd: dir });
  const code = await runCli(['read', id, '--session', 'run.jsonl', '--limit', limit, '--json'], io);
  return code === 0 ? { lines: JSON.parse(stdout()).count as number } : { refused: stderr() };
}

function httpGet(path: string) {
  const url = new URL(http.url);
  return new Promise<{ status: number; body: string }>((resolve, reject) => {
    const req = request({ host: url.hostname, port: url.port, path }, (response) => {
      let body = '';
      response.setEncoding('utf8');
      response.on('data', (chunk: string) => {
        body += chunk;
      });
      response.on('end', () => resolve({ status: response.statusCode!, body }));
    });
    req.on('error', reject);
    req.end();
  });
}

async function viaHttp(limit: string) {
  const { status, body } = await httpGet(`/api/artifacts/${id}?limit=${limit}`);
  return status === 200 ? { lines: JSON.parse(body).count as number } : { refused: body };
}

async function mcp(limit: number) {
  const result = await client.callTool({ name: 'artifact_read', arguments: { id, limit } });
  const text = (result.content as Array<{ text: string }>).map((part) => part.text).join('');
  if (result.isError) return { refused: text };
  return { lines: Number(/lines 1-(\d+) of 1200/.exec(text)![1]) };
}

describe('one paging rule for the CLI, the HTTP API and the MCP server (issue 43, item 10)', () => {
  it('reads a limit above the maximum as the maximum, everywhere', async () => {
    for (const limit of [1000, 1001, 5000]) {
      expect(await cli(String(limit)), `cli ${limit}`).toEqual({ lines: 1000 });
      expect(await viaHttp(String(limit)), `http ${limit}`).toEqual({ lines: 1000 });
      expect(await mcp(limit), `mcp ${limit}`).toEqual({ lines: 1000 });
    }
  });

  it('refuses a limit below the minimum, everywhere', async () => {
    expect(await cli('0')).toEqual({ refused: expect.stringContaining('limit') });
    expect(await viaHttp('0')).toEqual({
      refused: expect.stringContaining('limit must be at least 1'),
    });
    expect(await mcp(0)).toEqual({ refused: expect.stringContaining('limit must be at least 1') });
  });

  it('lists a session with the same rule over HTTP and MCP', async () => {
    const listed = await httpGet('/api/sessions/run/artifacts?limit=1001');
    expect(listed.status).toBe(200);
    expect(JSON.parse(listed.body)).toMatchObject({ total: 1, next: null });
    expect((await httpGet('/api/sessions/run/artifacts?limit=0')).status).toBe(400);
    const mcpList = await client.callTool({
      name: 'artifact_list',
      arguments: { sessionId: 'run', limit: 201 },
    });
    expect(mcpList.isError).toBeFalsy();
    const refused = await client.callTool({
      name: 'artifact_list',
      arguments: { sessionId: 'run', limit: 0 },
    });
    expect(refused.isError).toBe(true);
    expect((refused.content as Array<{ text: string }>)[0]!.text).toContain(
      'limit must be at least 1',
    );
  });
});
