import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { utf8ByteLength } from '@compaction/core';
import { createArtifactMode } from '@compaction/orchestration';
import { checkArtifactView } from '@compaction/orchestration/test';
import { createStructuralTrimmer } from '@compaction/trimmer';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import {
  type CallToolResult,
  CallToolResultSchema,
  CreateMessageRequestSchema,
  ElicitRequestSchema,
  ErrorCode,
  type JSONRPCMessage,
  ListRootsRequestSchema,
  LoggingMessageNotificationSchema,
  McpError,
  type ReadResourceResult,
  ToolListChangedNotificationSchema,
} from '@modelcontextprotocol/sdk/types.js';
import { afterEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { createDemoMcpServer } from '../test/index.js';
import { createMcpProxy, mcpProxyClientCapabilities } from './create-mcp-proxy.js';
import type { McpCompactedResult } from './mcp-compacted-result.js';

const cleanups: Array<() => Promise<unknown>> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

/** Demo server ← upstream client | proxy ← the MCP client under test, all in process. */
async function start(
  options: {
    artifacts?: boolean;
    maxResultBytes?: number;
    timeoutMs?: number;
    client?: Client;
  } = {},
) {
  const demo = createDemoMcpServer();
  const [upstreamSide, demoSide] = InMemoryTransport.createLinkedPair();
  await demo.server.connect(demoSide);
  const upstream = new Client(
    { name: 'proxy', version: '1.0.0' },
    { capabilities: mcpProxyClientCapabilities },
  );
  await upstream.connect(upstreamSide);
  const root = await mkdtemp(join(tmpdir(), 'mcp-proxy-'));
  const artifacts = createArtifactMode({ transcriptPath: join(root, 's1.jsonl') });
  const compacted: McpCompactedResult[] = [];
  const proxy = createMcpProxy({
    upstream,
    processor: options.artifacts === false ? createStructuralTrimmer() : artifacts.processor,
    ...(options.artifacts === false ? {} : { tools: artifacts.tools }),
    maxResultBytes: options.maxResultBytes ?? 16_384,
    ...(options.timeoutMs === undefined ? {} : { timeoutMs: options.timeoutMs }),
    onCompacted: (event) => compacted.push(event),
  });
  const [clientSide, proxySide] = InMemoryTransport.createLinkedPair();
  await proxy.connect(proxySide);
  const client = options.client ?? new Client({ name: 'test-client', version: '1.0.0' });
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

/** A client connected to the demo server, for settings checks. */
async function connectedUpstream() {
  const demo = createDemoMcpServer();
  const [upstreamSide, demoSide] = InMemoryTransport.createLinkedPair();
  await demo.server.connect(demoSide);
  const upstream = new Client({ name: 'proxy', version: '1.0.0' });
  await upstream.connect(upstreamSide);
  cleanups.push(
    () => demo.server.close(),
    () => upstream.close(),
  );
  return { upstream };
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
      'ask_model',
      'ask_model_briefly',
      'list_roots',
      'ask_user',
      'log',
      'pods_log',
      'artifact_read',
      'artifact_search',
    ]);
    expect(tools.every((tool) => tool.outputSchema === undefined)).toBe(true);
    expect(client.getInstructions()).toBe('Pods of the prod cluster.');
  });

  it('a 2 MB JSON result reaches the client within budget, noted, with a pointer artifact_read resolves', async () => {
    const { client, artifacts, compacted } = await start();
    const result = await client.callTool({ name: 'list_pods', arguments: {} });
    const view = textOf(result);
    const report = await checkArtifactView(view, artifacts.tools, artifacts.dir);
    // The one pointer line of @compaction/artifacts, followed as `compaction read` does.
    expect(report.pointer?.id).toBe(report.artifactId);
    expect(report.resolved).toMatchObject({ sameByFile: true, digestMatches: true });
    expect(report.resolved!.page.length).toBeGreaterThan(0);
    expect(report.bytes).toBeLessThanOrEqual(16_384);
    expect(report.notes.length).toBeGreaterThan(0);
    expect(view).toContain('checkout-7f9c');
    expect(result.structuredContent).toBeUndefined();
    expect(wireBytes(result)).toBeLessThanOrEqual(16_384);
    expect(compacted).toEqual([
      {
        toolName: 'list_pods',
        originalBytes: expect.any(Number),
        outputBytes: wireBytes(result),
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
    expect((await client.listResources()).resources.map((r) => r.uri)).toEqual([
      'demo://pods.log',
      'demo://readme',
    ]);
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

  it('relays what the server asks the client: sampling with progress, roots, elicitation, cancellation', async () => {
    const client = new Client(
      { name: 'desktop', version: '1.0.0' },
      { capabilities: { sampling: {}, roots: { listChanged: true }, elicitation: {} } },
    );
    let samplingCancelled = 0;
    client.setRequestHandler(CreateMessageRequestSchema, async (request, extra) => {
      const question = request.params.messages[0]!.content as { type: string; text?: string };
      if (question.type === 'text' && question.text === 'wait') {
        await new Promise((resolve) => extra.signal.addEventListener('abort', resolve));
        samplingCancelled++;
        throw new Error('cancelled');
      }
      const token = request.params._meta?.progressToken;
      if (token !== undefined) {
        for (const progress of [1, 2]) {
          await extra.sendNotification({
            method: 'notifications/progress',
            params: { progressToken: token, progress, total: 2 },
          });
        }
        // The SDK drops a progress notification read in the same chunk as its request's
        // answer (the answer removes the progress handler first), so the model takes a moment.
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
      return {
        role: 'assistant',
        model: 'local-model',
        content: {
          type: 'text',
          text: `an answer to ${question.type === 'text' ? question.text : '?'}`,
        },
      };
    });
    client.setRequestHandler(ListRootsRequestSchema, async () => ({
      roots: [{ uri: 'file:///srv/logs', name: 'logs' }],
    }));
    client.setRequestHandler(ElicitRequestSchema, async (request) => ({
      action: 'accept',
      content: { ok: request.params.message === 'Restart checkout?' },
    }));
    const { stats } = await start({ client });
    expect(
      textOf(await client.callTool({ name: 'ask_model', arguments: { question: 'why?' } })),
    ).toBe('local-model: an answer to why? (progress 1,2)');
    expect(textOf(await client.callTool({ name: 'list_roots', arguments: {} }))).toBe(
      'file:///srv/logs',
    );
    expect(textOf(await client.callTool({ name: 'ask_user', arguments: {} }))).toBe(
      'accept {"ok":true}',
    );
    // The server gives up on its sampling request; the client's handler sees the cancellation.
    expect(textOf(await client.callTool({ name: 'ask_model_briefly', arguments: {} }))).toBe(
      'gave up',
    );
    await expect.poll(() => samplingCancelled, { timeout: 5000 }).toBe(1);
    await client.sendRootsListChanged();
    await expect.poll(() => stats.rootsChanged, { timeout: 5000 }).toBe(1);
  });

  it("relays the client's answer when it cannot do what the server asks", async () => {
    const { client } = await start();
    const asked = await client.callTool({ name: 'ask_model', arguments: { question: 'why?' } });
    expect(asked.isError).toBe(true);
    expect(textOf(asked)).toMatch(/-32601.*Method not found/);
    expect(textOf(asked)).not.toMatch(/MCP error -32601: MCP error/);
  });

  it('forwards the logging level and the log messages', async () => {
    const { client } = await start();
    const messages: unknown[] = [];
    client.setNotificationHandler(LoggingMessageNotificationSchema, async (notification) => {
      messages.push(notification.params.data);
    });
    await client.setLoggingLevel('info');
    await client.callTool({ name: 'log', arguments: {} });
    await expect.poll(() => messages.length, { timeout: 5000 }).toBe(2);
    expect(messages).toEqual(['info message', 'error message']);
  });

  it('compacts a large embedded resource and a large resources/read, storing each whole', async () => {
    const { client, artifacts, compacted } = await start({ maxResultBytes: 8192 });
    const result = await client.callTool({ name: 'pods_log', arguments: {} });
    const parts = result.content as Array<{
      type: string;
      text?: string;
      resource?: { uri: string; text?: string; mimeType?: string };
    }>;
    expect(parts.map((part) => part.type)).toEqual(['text', 'resource']);
    expect(parts[0]!.text).toBe('The pod log:');
    const embedded = parts[1]!.resource!;
    expect(embedded.uri).toBe('demo://pods.log');
    const report = await checkArtifactView(embedded.text!, artifacts.tools, artifacts.dir);
    // The one pointer line of @compaction/artifacts, followed as `compaction read` does.
    expect(report.pointer?.id).toBe(report.artifactId);
    expect(report.resolved).toMatchObject({ sameByFile: true, digestMatches: true });
    expect(report.resolved!.page.length).toBeGreaterThan(0);
    expect(utf8ByteLength('The pod log:') + report.bytes).toBeLessThanOrEqual(8192);
    expect(report.notes.length).toBeGreaterThan(0);
    const found = await client.callTool({
      name: 'artifact_search',
      arguments: { id: report.artifactId, pattern: 'OOMKilled' },
    });
    expect(textOf(found)).toContain(': 1 match;');

    const read = await client.readResource({ uri: 'demo://pods.log' });
    expect(read.contents).toHaveLength(1);
    const content = read.contents[0] as { uri: string; text: string };
    expect(content.uri).toBe('demo://pods.log');
    const readReport = await checkArtifactView(content.text, artifacts.tools, artifacts.dir);
    // The one pointer line of @compaction/artifacts, followed as `compaction read` does.
    expect(readReport.pointer?.id).toBe(readReport.artifactId);
    expect(readReport.resolved).toMatchObject({ sameByFile: true, digestMatches: true });
    expect(readReport.resolved!.page.length).toBeGreaterThan(0);
    expect(readReport.bytes).toBeLessThanOrEqual(8192);
    expect(readReport.artifactId).not.toBe(report.artifactId);
    expect(compacted.map((event) => event.toolName)).toEqual([
      'pods_log',
      'resources/read demo://pods.log',
    ]);
    // Small resources still pass unchanged.
    expect(await client.readResource({ uri: 'demo://readme' })).toEqual({
      contents: [{ uri: 'demo://readme', text: 'prod cluster, 40 nodes' }],
    });
  });

  it('without artifact tools it compacts in place and adds nothing', async () => {
    const { client } = await start({ artifacts: false, maxResultBytes: 4096 });
    const names = (await client.listTools()).tools.map((tool) => tool.name);
    expect(names).not.toContain('artifact_read');
    const view = textOf(await client.callTool({ name: 'list_pods', arguments: {} }));
    expect(utf8ByteLength(view)).toBeLessThanOrEqual(4096);
    expect(view).toContain('checkout-7f9c');
  });

  it('proxies a server that offers only tools, as the filesystem server does', async () => {
    // No resources, prompts or logging: the proxy declared what the upstream had and then
    // registered resources/read anyway, which the SDK refuses, so it never started.
    const tools = new McpServer({ name: 'tools-only', version: '1.0.0' });
    tools.registerTool('read_log', { description: 'A big log.' }, async () => ({
      content: [{ type: 'text', text: 'INFO request served\n'.repeat(20_000) }],
    }));
    const [upstreamSide, toolsSide] = InMemoryTransport.createLinkedPair();
    await tools.connect(toolsSide);
    const upstream = new Client(
      { name: 'proxy', version: '1.0.0' },
      { capabilities: mcpProxyClientCapabilities },
    );
    await upstream.connect(upstreamSide);
    expect(upstream.getServerCapabilities()?.resources).toBeUndefined();
    const proxy = createMcpProxy({
      upstream,
      processor: createStructuralTrimmer(),
      maxResultBytes: 4096,
    });
    const [clientSide, proxySide] = InMemoryTransport.createLinkedPair();
    await proxy.connect(proxySide);
    const client = new Client({ name: 'test-client', version: '1.0.0' });
    await client.connect(clientSide);
    cleanups.push(
      () => tools.close(),
      () => upstream.close(),
      () => proxy.close(),
      () => client.close(),
    );
    expect(client.getServerCapabilities()?.resources).toBeUndefined();
    const result = await client.callTool({ name: 'read_log', arguments: {} });
    expect(utf8ByteLength(textOf(result))).toBeLessThanOrEqual(4096);
    expect(textOf(result)).toMatch(/\n\[(trimmed|severely reduced): /);
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

/**
 * A server whose tools misbehave, fronted by the proxy in process: `never` never answers,
 * `echo` answers; `transform` rewrites what the server sends (to answer with a wrong id).
 */
async function startFaulty(
  options: { timeoutMs?: number; transform?: (message: JSONRPCMessage) => JSONRPCMessage } = {},
) {
  const faulty = new McpServer({ name: 'faulty', version: '1.0.0' });
  let started = 0;
  faulty.registerTool('never', { description: 'Never answers.' }, () => {
    started++;
    return new Promise<never>(() => {});
  });
  faulty.registerTool('echo', { inputSchema: { text: z.string() } }, async ({ text }) => ({
    content: [{ type: 'text', text }],
  }));
  const [upstreamSide, faultySide] = InMemoryTransport.createLinkedPair();
  const send = faultySide.send.bind(faultySide);
  faultySide.send = (message, sendOptions) =>
    send(options.transform ? options.transform(message) : message, sendOptions);
  await faulty.connect(faultySide);
  const upstream = new Client(
    { name: 'proxy', version: '1.0.0' },
    { capabilities: mcpProxyClientCapabilities },
  );
  await upstream.connect(upstreamSide);
  const proxy = createMcpProxy({
    upstream,
    processor: createStructuralTrimmer(),
    maxResultBytes: 4096,
    ...(options.timeoutMs === undefined ? {} : { timeoutMs: options.timeoutMs }),
  });
  let proxyClosed = false;
  proxy.onclose = () => {
    proxyClosed = true;
  };
  const [clientSide, proxySide] = InMemoryTransport.createLinkedPair();
  await proxy.connect(proxySide);
  const client = new Client({ name: 'test-client', version: '1.0.0' });
  await client.connect(clientSide);
  cleanups.push(
    () => faulty.close(),
    () => upstream.close(),
    () => proxy.close(),
    () => client.close(),
  );
  return {
    client,
    crash: () => faultySide.close(),
    started: () => started,
    proxyClosed: () => proxyClosed,
  };
}

describe('createMcpProxy: every forwarded call ends', () => {
  it('answers a call the server never answers with a timeout error at the deadline', async () => {
    const { client, started } = await startFaulty({ timeoutMs: 200 });
    const error = await client.callTool({ name: 'never', arguments: {} }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(McpError);
    expect((error as McpError).code).toBe(ErrorCode.RequestTimeout);
    expect((error as McpError).message).toMatch(
      /the MCP server did not answer tools\/call within 200 ms/,
    );
    expect((error as McpError).data).toEqual({ timeoutMs: 200 });
    expect(started()).toBe(1);
    // The proxy and the server are still there.
    expect(textOf(await client.callTool({ name: 'echo', arguments: { text: 'up' } }))).toBe('up');
  });

  it('answers a call whose answer comes back under another id at the deadline', async () => {
    const { client } = await startFaulty({
      timeoutMs: 200,
      transform: (message) =>
        'result' in message && 'content' in (message.result as object)
          ? { ...message, id: 424242 }
          : message,
    });
    const error = await client
      .callTool({ name: 'echo', arguments: { text: 'x' } })
      .catch((e: unknown) => e);
    expect((error as McpError).code).toBe(ErrorCode.RequestTimeout);
  });

  it('a deadline restarts with each progress notification, so a slow call that reports progress finishes', async () => {
    const { client } = await start({ timeoutMs: 500 });
    const progress: number[] = [];
    const counted = await client.callTool(
      { name: 'count_slowly', arguments: { to: 60 } },
      undefined,
      { onprogress: (event) => progress.push(event.progress) },
    );
    expect(textOf(counted)).toBe('counted to 60');
    expect(progress).toHaveLength(60);
  });

  it('answers every pending call with an error when the server goes away, then closes', async () => {
    const { client, crash, started, proxyClosed } = await startFaulty();
    const pending = [1, 2].map(() =>
      client.callTool({ name: 'never', arguments: {} }).catch((e: unknown) => e),
    );
    await expect.poll(started, { timeout: 5000 }).toBe(2);
    await crash();
    for (const error of await Promise.all(pending)) {
      expect(error).toBeInstanceOf(McpError);
      expect((error as McpError).code).toBe(ErrorCode.ConnectionClosed);
      expect((error as McpError).message).toMatch(
        /the MCP server closed the connection before answering tools\/call/,
      );
    }
    await expect.poll(proxyClosed, { timeout: 5000 }).toBe(true);
  });

  it('refuses a deadline that is not a duration', async () => {
    const { upstream } = await connectedUpstream();
    expect(() =>
      createMcpProxy({ upstream, processor: createStructuralTrimmer(), timeoutMs: -1 }),
    ).toThrow(/timeoutMs/);
  });
});

/** UTF-8 bytes of a result as the client reads it on the wire (JSON), images' base64 aside. */
function wireBytes(result: unknown): number {
  let binary = 0;
  const visit = (value: unknown) => {
    if (Array.isArray(value)) value.forEach(visit);
    else if (value && typeof value === 'object') {
      const record = value as Record<string, unknown>;
      if ((record.type === 'image' || record.type === 'audio') && typeof record.data === 'string')
        binary += record.data.length;
      if (typeof record.blob === 'string') binary += record.blob.length;
      Object.values(record).forEach(visit);
    }
  };
  visit(result);
  return utf8ByteLength(JSON.stringify(result)) - binary;
}

/**
 * The proxy in front of a server whose `payload` tool answers with `results.tool` and whose
 * `test://contents` resource reads as `results.contents`, set by each test.
 */
async function startServing(maxResultBytes = 16_384) {
  const results: { tool: CallToolResult; contents: ReadResourceResult['contents'] } = {
    tool: { content: [] },
    contents: [],
  };
  const served = new McpServer({ name: 'served', version: '1.0.0' });
  served.registerTool('payload', { description: 'Answers with the payload.' }, async () => ({
    ...results.tool,
  }));
  served.registerResource('contents', 'test://contents', {}, async () => ({
    contents: results.contents,
  }));
  const [upstreamSide, servedSide] = InMemoryTransport.createLinkedPair();
  await served.connect(servedSide);
  const upstream = new Client(
    { name: 'proxy', version: '1.0.0' },
    { capabilities: mcpProxyClientCapabilities },
  );
  await upstream.connect(upstreamSide);
  const root = await mkdtemp(join(tmpdir(), 'mcp-proxy-'));
  const artifacts = createArtifactMode({ transcriptPath: join(root, 's1.jsonl') });
  const compacted: McpCompactedResult[] = [];
  const proxy = createMcpProxy({
    upstream,
    processor: artifacts.processor,
    tools: artifacts.tools,
    maxResultBytes,
    onCompacted: (event) => compacted.push(event),
  });
  const [clientSide, proxySide] = InMemoryTransport.createLinkedPair();
  await proxy.connect(proxySide);
  const client = new Client({ name: 'test-client', version: '1.0.0' });
  await client.connect(clientSide);
  cleanups.push(
    () => rm(root, { recursive: true, force: true }),
    () => served.close(),
    () => upstream.close(),
    () => proxy.close(),
    () => client.close(),
  );
  const call = () => client.callTool({ name: 'payload', arguments: {} });
  const read = () => client.readResource({ uri: 'test://contents' });
  return { results, call, read, artifacts, compacted };
}

const pods = (count: number) =>
  Array.from({ length: count }, (_, i) => ({
    name: `web-${i}`,
    status: i === count - 7 ? 'CrashLoopBackOff' : 'Running',
    note: 'says "hi"\n\tand\\leaves',
  }));

describe('createMcpProxy: the budget bounds the result on the wire', () => {
  it('compacts structuredContent that is larger than the budget beside a small text', async () => {
    const { results, call, artifacts } = await startServing();
    results.tool = {
      content: [{ type: 'text', text: 'ok' }],
      structuredContent: { pods: pods(5000) },
    };
    const result = await call();
    expect(wireBytes(result)).toBeLessThanOrEqual(16_384);
    expect(result.structuredContent).toBeUndefined();
    const parts = result.content as Array<{ type: string; text: string }>;
    expect(parts[0]).toEqual({ type: 'text', text: 'ok' });
    const report = await checkArtifactView(parts[1]!.text, artifacts.tools, artifacts.dir);
    expect(report.resolved).toMatchObject({ sameByFile: true, digestMatches: true });
    expect(report.notes.length).toBeGreaterThan(0);
    const found = await artifacts.tools.call('artifact_search', {
      id: report.artifactId,
      pattern: 'CrashLoopBackOff',
    });
    expect(found).toContain(': 1 match;');
  });

  it('keeps every content result within the budget, escapes and all', async () => {
    const { results, call } = await startServing();
    const texts = [
      JSON.stringify({ pods: pods(3000) }, null, 2),
      '"quoted"\n'.repeat(20_000),
      '\u0001\u0002\u001f'.repeat(30_000),
      `${'a'.repeat(16_000)}"\n`.repeat(4),
      'é😀'.repeat(20_000),
    ];
    for (const text of texts) {
      results.tool = { content: [{ type: 'text', text }] };
      const result = await call();
      expect(wireBytes(result)).toBeLessThanOrEqual(16_384);
      expect(textOf(result)).toMatch(/^Full output stored as artifact art_/);
    }
  });

  it('keeps a result that fits on the wire as it is, structuredContent included', async () => {
    const { results, call, compacted } = await startServing();
    results.tool = {
      content: [{ type: 'text', text: JSON.stringify({ pods: pods(3) }) }],
      structuredContent: { pods: pods(3) },
    };
    expect(await call()).toEqual(results.tool);
    expect(compacted).toEqual([]);
  });
});

describe("createMcpProxy: the server's identity and the order of the handshake", () => {
  it("reports the server's own name, title and version", async () => {
    const { client } = await start();
    expect(client.getServerVersion()).toEqual({
      name: 'demo-pods',
      title: 'Demo pods',
      version: '1.0.0',
    });
  });

  it("holds the server's requests to the client until the client has initialized", async () => {
    const asking = new McpServer({ name: 'asking', version: '1.0.0' });
    const heard: string[] = [];
    asking.server.oninitialized = () => {
      // Asked once the proxy is set up, before any client is in front of it.
      setTimeout(() => {
        heard.push('asked');
        asking.server.listRoots().then(
          ({ roots }) => heard.push(roots.map((root) => root.uri).join(' ')),
          (error: unknown) => heard.push(`error: ${String(error)}`),
        );
      }, 0);
    };
    const [upstreamSide, askingSide] = InMemoryTransport.createLinkedPair();
    await asking.connect(askingSide);
    const upstream = new Client(
      { name: 'proxy', version: '1.0.0' },
      { capabilities: mcpProxyClientCapabilities },
    );
    await upstream.connect(upstreamSide);
    const proxy = createMcpProxy({ upstream, processor: createStructuralTrimmer() });
    cleanups.push(
      () => asking.close(),
      () => upstream.close(),
      () => proxy.close(),
    );
    await expect.poll(() => heard, { timeout: 5000 }).toContain('asked');
    const client = new Client(
      { name: 'desktop', version: '1.0.0' },
      { capabilities: { roots: {} } },
    );
    let answeredBeforeInitialize = false;
    client.setRequestHandler(ListRootsRequestSchema, async () => {
      answeredBeforeInitialize = client.getServerVersion() === undefined;
      return { roots: [{ uri: 'file:///srv' }] };
    });
    const [clientSide, proxySide] = InMemoryTransport.createLinkedPair();
    await proxy.connect(proxySide);
    await client.connect(clientSide);
    cleanups.push(() => client.close());
    await expect.poll(() => heard, { timeout: 5000 }).toEqual(['asked', 'file:///srv']);
    expect(answeredBeforeInitialize).toBe(false);
  });
});

/** `count` embedded text resources of about `bytes` each, after a caption. */
function embedded(count: number, bytes: number): CallToolResult {
  return {
    content: [
      { type: 'text', text: `${count} logs:` },
      ...Array.from({ length: count }, (_, i) => ({
        type: 'resource' as const,
        resource: {
          uri: `test://log/${i}`,
          mimeType: 'text/plain',
          text: `${`line ${i} `.padEnd(bytes - 20, '.')} entry ${i} ends`,
        },
      })),
    ],
  };
}

describe('createMcpProxy: many parts', () => {
  it('2 000 embedded resources: within the budget, one artifact with all of them, a note', async () => {
    const { results, call, artifacts, compacted } = await startServing();
    results.tool = embedded(2000, 100);
    const result = await call();
    expect(wireBytes(result)).toBeLessThanOrEqual(16_384);
    const parts = result.content as Array<{ type: string; text: string }>;
    expect(parts[0]).toEqual({ type: 'text', text: '2000 logs:' });
    expect(parts).toHaveLength(2);
    const report = await checkArtifactView(parts[1]!.text, artifacts.tools, artifacts.dir);
    expect(report.resolved).toMatchObject({ sameByFile: true, digestMatches: true });
    expect(report.notes.length).toBeGreaterThan(0);
    expect(parts[1]!.text).toContain('2000 embedded text resources');
    const found = await artifacts.tools.call('artifact_search', {
      id: report.artifactId,
      pattern: 'entry 1999 ends',
    });
    expect(found).toContain(': 1 match;');
    expect(await storedFiles(artifacts.dir)).toBe(1);
    expect(compacted).toHaveLength(1);
    expect(compacted[0]!.outputBytes).toBe(wireBytes(result));
  });

  it('100 000 tiny embedded resources: answered in linear time with one stored file', async () => {
    const { results, call, artifacts } = await startServing();
    results.tool = embedded(100_000, 24);
    const result = await call();
    expect(wireBytes(result)).toBeLessThanOrEqual(16_384);
    expect(await storedFiles(artifacts.dir)).toBe(1);
  });

  it('a few large embedded resources: each keeps its place and uri, with its own pointer and note', async () => {
    const { results, call, artifacts } = await startServing();
    results.tool = embedded(3, 200_000);
    const result = await call();
    expect(wireBytes(result)).toBeLessThanOrEqual(16_384);
    const parts = result.content as Array<{
      type: string;
      resource?: { uri: string; text: string };
    }>;
    expect(parts.map((part) => part.resource?.uri)).toEqual([
      undefined,
      'test://log/0',
      'test://log/1',
      'test://log/2',
    ]);
    const ids = new Set<string>();
    for (const part of parts.slice(1)) {
      const report = await checkArtifactView(part.resource!.text, artifacts.tools, artifacts.dir);
      expect(report.resolved).toMatchObject({ sameByFile: true, digestMatches: true });
      expect(report.notes.length).toBeGreaterThan(0);
      ids.add(report.artifactId!);
    }
    expect(ids.size).toBe(3);
  });

  it('a resources/read of 5 000 contents: within the budget, one artifact', async () => {
    const { results, read, artifacts } = await startServing();
    results.contents = Array.from({ length: 5000 }, (_, i) => ({
      uri: `test://row/${i}`,
      text: `row ${i}: ${'x'.repeat(40)}`,
    }));
    const result = await read();
    expect(wireBytes(result)).toBeLessThanOrEqual(16_384);
    expect(result.contents).toHaveLength(1);
    const only = result.contents[0] as { uri: string; text: string };
    expect(only.uri).toBe('test://contents');
    const report = await checkArtifactView(only.text, artifacts.tools, artifacts.dir);
    expect(report.resolved).toMatchObject({ sameByFile: true, digestMatches: true });
    expect(await storedFiles(artifacts.dir)).toBe(1);
  });

  it('thousands of image parts: within the budget (their base64 aside), all of it stored', async () => {
    const { results, call, artifacts } = await startServing();
    results.tool = {
      content: Array.from({ length: 3000 }, () => ({
        type: 'image' as const,
        data: 'iVBORw0KGgo=',
        mimeType: 'image/png',
      })),
    };
    const result = await call();
    expect(wireBytes(result)).toBeLessThanOrEqual(16_384);
    const report = await checkArtifactView(textOf(result), artifacts.tools, artifacts.dir);
    expect(report.resolved).toMatchObject({ sameByFile: true, digestMatches: true });
    expect(report.notes.length).toBeGreaterThan(0);
  });
});

/** Files the artifact store wrote (its index aside). */
async function storedFiles(dir: string): Promise<number> {
  return (await readdir(dir)).filter((name) => name !== 'index.jsonl' && !name.startsWith('.'))
    .length;
}
