import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { utf8ByteLength } from '@compaction/core';
import { createArtifactMode } from '@compaction/orchestration';
import { checkArtifactView } from '@compaction/orchestration/test';
import { createStructuralTrimmer } from '@compaction/trimmer';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import {
  CallToolResultSchema,
  ToolListChangedNotificationSchema,
} from '@modelcontextprotocol/sdk/types.js';
import { afterEach, describe, expect, it } from 'vitest';
import { createMcpProxy, type McpCompactedResult } from './create-mcp-proxy.js';
import { createDemoMcpServer } from './test/index.js';

const cleanups: Array<() => Promise<unknown>> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

/** Demo server ← upstream client | proxy ← the MCP client under test, all in process. */
async function start(options: { artifacts?: boolean; maxResultBytes?: number } = {}) {
  const demo = createDemoMcpServer();
  const [upstreamSide, demoSide] = InMemoryTransport.createLinkedPair();
  await demo.server.connect(demoSide);
  const upstream = new Client({ name: 'proxy', version: '1.0.0' });
  await upstream.connect(upstreamSide);
  const root = await mkdtemp(join(tmpdir(), 'mcp-proxy-'));
  const artifacts = createArtifactMode({ transcriptPath: join(root, 's1.jsonl') });
  const compacted: McpCompactedResult[] = [];
  const proxy = createMcpProxy({
    upstream,
    processor: options.artifacts === false ? createStructuralTrimmer() : artifacts.processor,
    ...(options.artifacts === false ? {} : { tools: artifacts.tools }),
    maxResultBytes: options.maxResultBytes ?? 16_384,
    onCompacted: (event) => compacted.push(event),
  });
  const [clientSide, proxySide] = InMemoryTransport.createLinkedPair();
  await proxy.connect(proxySide);
  const client = new Client({ name: 'test-client', version: '1.0.0' });
  await client.connect(clientSide);
  cleanups.push(
    () => rm(root, { recursive: true, force: true }),
    () => demo.server.close(),
    () => upstream.close(),
    () => proxy.close(),
    () => client.close(),
  );
  return { client, artifacts, compacted, stats: demo.stats };
}

function textOf(result: unknown): string {
  return (result as { content: Array<{ type: string; text?: string }> }).content
    .filter((part) => part.type === 'text')
    .map((part) => part.text)
    .join('\n');
}

describe('createMcpProxy in front of a real MCP server', () => {
  it('lists the upstream tools and the artifact tools, without output schemas', async () => {
    const { client } = await start();
    const { tools } = await client.listTools();
    expect(tools.map((tool) => tool.name)).toEqual([
      'list_pods',
      'echo',
      'count_slowly',
      'add_tool',
      'stats',
      'artifact_read',
      'artifact_search',
    ]);
    expect(tools.every((tool) => tool.outputSchema === undefined)).toBe(true);
    expect(client.getServerVersion()).toEqual({ name: 'demo-pods (compacted)', version: '1.0.0' });
    expect(client.getInstructions()).toBe('Pods of the prod cluster.');
  });

  it('a 2 MB JSON result reaches the client within budget, noted, with a pointer artifact_read resolves', async () => {
    const { client, artifacts, compacted } = await start();
    const result = await client.callTool({ name: 'list_pods', arguments: {} });
    const view = textOf(result);
    const report = await checkArtifactView(view, artifacts.tools);
    expect(report.bytes).toBeLessThanOrEqual(16_384);
    expect(report.notes.length).toBeGreaterThan(0);
    expect(view).toContain('checkout-7f9c');
    expect(result.structuredContent).toBeUndefined();
    expect(compacted).toEqual([
      {
        toolName: 'list_pods',
        originalBytes: expect.any(Number),
        outputBytes: report.bytes,
        contentLost: true,
      },
    ]);
    expect(compacted[0]!.originalBytes).toBeGreaterThan(2_000_000);
    const read = await client.callTool({
      name: 'artifact_read',
      arguments: { id: report.artifactId, offset: 1, limit: 100 },
    });
    expect(textOf(read)).toContain(`[artifact ${report.artifactId} (`);
    const found = await client.callTool({
      name: 'artifact_search',
      arguments: { id: report.artifactId, pattern: 'OOMKilled' },
    });
    expect(textOf(found)).toContain(': 1 match;');
    const bad = await client.callTool({ name: 'artifact_read', arguments: { id: '../x' } });
    expect(bad.isError).toBe(true);
  });

  it('passes small results, resources and prompts through unchanged', async () => {
    const { client, compacted } = await start();
    expect(await client.callTool({ name: 'echo', arguments: { text: 'héllo' } })).toEqual({
      content: [{ type: 'text', text: 'héllo' }],
    });
    expect((await client.listResources()).resources.map((r) => r.uri)).toEqual(['demo://readme']);
    expect(await client.readResource({ uri: 'demo://readme' })).toEqual({
      contents: [{ uri: 'demo://readme', text: 'prod cluster, 40 nodes' }],
    });
    const prompt = await client.getPrompt({ name: 'triage', arguments: { pod: 'web-1' } });
    expect(prompt.messages[0]!.content).toEqual({ type: 'text', text: 'Why is web-1 failing?' });
    await client.setLoggingLevel('info');
    expect(compacted).toEqual([]);
  });

  it('forwards progress, cancellation and list-changed notifications', async () => {
    const { client, stats } = await start();
    const progress: number[] = [];
    const counted = await client.callTool(
      { name: 'count_slowly', arguments: { to: 3 } },
      undefined,
      {
        onprogress: (event) => progress.push(event.progress),
      },
    );
    expect(textOf(counted)).toBe('counted to 3');
    expect(progress).toEqual([1, 2, 3]);

    const controller = new AbortController();
    const pending = client.request(
      { method: 'tools/call', params: { name: 'count_slowly', arguments: { to: 1000 } } },
      CallToolResultSchema,
      { signal: controller.signal },
    );
    setTimeout(() => controller.abort('user gave up'), 100);
    await expect(pending).rejects.toThrow();
    await expect.poll(() => stats.cancelled, { timeout: 5000 }).toBe(1);

    let changed = 0;
    client.setNotificationHandler(ToolListChangedNotificationSchema, async () => {
      changed++;
    });
    await client.callTool({ name: 'add_tool', arguments: {} });
    await expect.poll(() => changed, { timeout: 5000 }).toBeGreaterThan(0);
    expect((await client.listTools()).tools.map((tool) => tool.name)).toContain('extra');
  });

  it('without artifact tools it compacts in place and adds nothing', async () => {
    const { client } = await start({ artifacts: false, maxResultBytes: 4096 });
    const names = (await client.listTools()).tools.map((tool) => tool.name);
    expect(names).not.toContain('artifact_read');
    const view = textOf(await client.callTool({ name: 'list_pods', arguments: {} }));
    expect(utf8ByteLength(view)).toBeLessThanOrEqual(4096);
    expect(view).toContain('checkout-7f9c');
  });

  it('refuses a processor that is not one, or a bad budget', async () => {
    const upstream = new Client({ name: 'x', version: '1' });
    expect(() => createMcpProxy({ upstream, processor: {} as never })).toThrow(/processor/);
    expect(() =>
      createMcpProxy({ upstream, processor: createStructuralTrimmer(), maxResultBytes: -1 }),
    ).toThrow(/maxResultBytes/);
    expect(() => createMcpProxy({ upstream, processor: createStructuralTrimmer() })).toThrow(
      /connected/,
    );
  });
});
