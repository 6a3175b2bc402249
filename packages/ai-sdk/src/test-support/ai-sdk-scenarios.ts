import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type ResultProcessor, trailingDisclosureNotes, utf8ByteLength } from '@compaction/core';
import { bigJsonResult } from '@compaction/core/test';
import { createContinuationDistiller } from '@compaction/distiller';
import { createProviderServer } from '@compaction/distiller/test';
import { createArtifactMode, createCompaction } from '@compaction/orchestration';
import { checkArtifactView } from '@compaction/orchestration/test';
import { createStructuralTrimmer } from '@compaction/trimmer';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { afterEach, describe, expect, it } from 'vitest';
import type { CompactionMiddlewareSettings } from '../compact-tool-results.js';
import { createArtifactTools } from '../create-artifact-tools.js';
import { createLanguageModelClient } from '../create-language-model-client.js';

// One AI SDK major's real functions, bound by the test file of that major. The scenarios below
// are the same for AI SDK 6 and 7; only the packages differ. Types are loose here: the binding
// files are where each major's own types check the middleware.
// biome-ignore lint/suspicious/noExplicitAny: the two majors' types differ; each binding checks its own.
type Loose = any;
export interface AiSdkLine {
  name: string;
  generateText: Loose;
  wrapLanguageModel: Loose;
  stepCountIs: Loose;
  tool: Loose;
  jsonSchema: Loose;
  /** `new MockLanguageModelV3/V4({ doGenerate })`. */
  mockModel: (doGenerate: Loose) => Loose & { doGenerateCalls: Loose[] };
  /** `createOpenAI({ baseURL, apiKey }).chat(model)`. */
  openaiChat: (baseURL: string, model: string) => Loose;
  /** `createMCPClient({ transport })` of the matching `@ai-sdk/mcp`. */
  createMCPClient: (options: { transport: Loose }) => Promise<Loose>;
  middleware: (settings: CompactionMiddlewareSettings) => Loose;
}

const usage = {
  inputTokens: { total: 10, noCache: 10, cacheRead: undefined, cacheWrite: undefined },
  outputTokens: { total: 5, text: 5, reasoning: undefined },
};
function toolCall(id: string, name: string, input: unknown = {}) {
  return {
    content: [{ type: 'tool-call', toolCallId: id, toolName: name, input: JSON.stringify(input) }],
    finishReason: { unified: 'tool-calls', raw: undefined },
    usage,
    warnings: [],
  };
}
function answer(text: string) {
  return {
    content: [{ type: 'text', text }],
    finishReason: { unified: 'stop', raw: undefined },
    usage,
    warnings: [],
  };
}

const bigLogs = Array.from({ length: 20_000 }, (_, i) =>
  i === 12_345
    ? '2026-11-30T06:00:00Z ERROR payments pool exhausted txn=txn_777'
    : `2026-11-30T06:00:00Z INFO request ok latency=${i % 97}ms`,
).join('\n');

/** The text of one tool result in a recorded model call: `text` outputs and `content` text parts. */
export function toolResultText(call: Loose, toolCallId: string): string | undefined {
  for (const message of call.prompt) {
    if (message.role !== 'tool') continue;
    for (const part of message.content) {
      if (part.type !== 'tool-result' || part.toolCallId !== toolCallId) continue;
      if (part.output.type === 'text' || part.output.type === 'error-text')
        return part.output.value;
      if (part.output.type === 'content')
        return part.output.value
          .filter((p: Loose) => p.type === 'text')
          .map((p: Loose) => p.text)
          .join('\n');
    }
  }
  return undefined;
}

function countingTrimmer() {
  const trimmer = createStructuralTrimmer();
  const calls: string[] = [];
  const processor: ResultProcessor = {
    async process(result, maxBytes, context) {
      calls.push(context?.stepId ?? '?');
      return trimmer.process(result, maxBytes, context);
    },
  };
  return { processor, calls };
}

/** The middleware scenarios every supported AI SDK major passes. */
export function describeAiSdkScenarios(sdk: AiSdkLine): void {
  const { generateText, wrapLanguageModel, stepCountIs, tool, jsonSchema } = sdk;
  const noInput = () => jsonSchema({ type: 'object', properties: {} });
  const roots: string[] = [];
  afterEach(async () => {
    for (const root of roots.splice(0)) await rm(root, { recursive: true, force: true });
  });

  describe(`${sdk.name}: the middleware over a multi-step run`, () => {
    it('compacts oversized results once and keeps every later prompt byte-identical', async () => {
      const model = sdk.mockModel([
        toolCall('call-1', 'getLogs'),
        toolCall('call-2', 'getPods'),
        answer('pool exhausted'),
      ]);
      const { processor, calls } = countingTrimmer();
      const result = await generateText({
        model: wrapLanguageModel({
          model,
          middleware: sdk.middleware({ processor, maxResultBytes: 8192 }),
        }),
        tools: {
          getLogs: tool({ inputSchema: noInput(), execute: async () => bigLogs }),
          getPods: tool({
            inputSchema: noInput(),
            execute: async () => JSON.parse(bigJsonResult()),
          }),
        },
        stopWhen: stepCountIs(5),
        prompt: 'Why are payments failing? Look for pool errors.',
      });
      expect(result.text).toBe('pool exhausted');
      expect(model.doGenerateCalls).toHaveLength(3);
      const second = toolResultText(model.doGenerateCalls[1], 'call-1')!;
      expect(utf8ByteLength(second)).toBeLessThanOrEqual(8192);
      expect(second).toContain('txn=txn_777');
      expect(trailingDisclosureNotes(second).length).toBe(1);
      expect(toolResultText(model.doGenerateCalls[2], 'call-1')).toBe(second);
      const pods = toolResultText(model.doGenerateCalls[2], 'call-2')!;
      expect(utf8ByteLength(pods)).toBeLessThanOrEqual(8192);
      expect(pods).toContain('"phase":"Failed"');
      expect(calls).toEqual(['call-1', 'call-2']);
    });

    it('leaves results that fit untouched', async () => {
      const model = sdk.mockModel([toolCall('call-1', 'small'), answer('ok')]);
      const { processor, calls } = countingTrimmer();
      await generateText({
        model: wrapLanguageModel({ model, middleware: sdk.middleware({ processor }) }),
        tools: { small: tool({ inputSchema: noInput(), execute: async () => 'tiny' }) },
        stopWhen: stepCountIs(3),
        prompt: 'hi',
      });
      expect(calls).toEqual([]);
      expect(toolResultText(model.doGenerateCalls[1], 'call-1')).toBe('tiny');
    });

    it('refuses a missing processor or a bad budget', () => {
      expect(() => sdk.middleware({ processor: undefined as never })).toThrow(/processor/);
      expect(() =>
        sdk.middleware({ processor: createStructuralTrimmer(), maxResultBytes: 0 }),
      ).toThrow(/maxResultBytes/);
    });
  });

  describe(`${sdk.name}: MCP tools through @ai-sdk/mcp`, () => {
    it('compacts the text parts of a content output and keeps its image', async () => {
      const server = new McpServer({ name: 'pods', version: '1.0.0' });
      server.registerTool('list_pods', { description: 'All pods' }, async () => ({
        content: [
          { type: 'text', text: bigJsonResult() },
          { type: 'image', data: 'iVBORw0KGgo=', mimeType: 'image/png' },
        ],
      }));
      const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
      await server.connect(serverSide);
      const mcp = await sdk.createMCPClient({ transport: clientSide });
      try {
        const model = sdk.mockModel([toolCall('call-1', 'list_pods'), answer('checkout')]);
        await generateText({
          model: wrapLanguageModel({
            model,
            middleware: sdk.middleware({
              processor: createStructuralTrimmer(),
              maxResultBytes: 4096,
            }),
          }),
          tools: await mcp.tools(),
          stopWhen: stepCountIs(3),
          prompt: 'Which pod failed?',
        });
        const part = model.doGenerateCalls[1].prompt
          .find((m: Loose) => m.role === 'tool')
          .content.find((p: Loose) => p.type === 'tool-result');
        expect(part.output.type).toBe('content');
        const text = toolResultText(model.doGenerateCalls[1], 'call-1')!;
        expect(utf8ByteLength(text)).toBeLessThanOrEqual(4096);
        expect(text).toContain('checkout-7f9c');
        expect(trailingDisclosureNotes(text).length).toBeGreaterThan(0);
        expect(part.output.value).toHaveLength(2);
        expect(part.output.value[1].type).not.toBe('text');
      } finally {
        await mcp.close();
        await server.close();
      }
    });
  });

  describe(`${sdk.name}: artifact mode`, () => {
    it('a 2 MB JSON result reaches the model within budget, noted, with a pointer artifact_read resolves', async () => {
      const root = await mkdtemp(join(tmpdir(), 'ai-sdk-artifacts-'));
      roots.push(root);
      const artifacts = createArtifactMode({ transcriptPath: join(root, 's1.jsonl') });
      const model = sdk.mockModel(async (options: Loose) => {
        const step = model.doGenerateCalls.length;
        if (step === 1) return toolCall('call-1', 'getPods');
        if (step === 2) {
          const id = /art_[0-9a-f]{24}/.exec(toolResultText(options, 'call-1') ?? '')?.[0];
          return toolCall('call-2', 'artifact_search', { id, pattern: 'OOMKilled' });
        }
        return answer('checkout-7f9c was OOMKilled');
      });
      const result = await generateText({
        model: wrapLanguageModel({
          model,
          middleware: sdk.middleware({ processor: artifacts.processor, maxResultBytes: 16_384 }),
        }),
        tools: {
          getPods: tool({ inputSchema: noInput(), execute: async () => bigJsonResult() }),
          ...createArtifactTools(artifacts.tools),
        },
        stopWhen: stepCountIs(5),
        prompt: 'Which pod failed and why?',
      });
      expect(result.text).toContain('OOMKilled');
      const view = toolResultText(model.doGenerateCalls[1], 'call-1')!;
      const report = await checkArtifactView(view, artifacts.tools, artifacts.dir);
      // The one pointer line of @compaction/artifacts, followed as `compaction read` does.
      expect(report.pointer?.id).toBe(report.artifactId);
      expect(report.resolved).toMatchObject({ sameByFile: true, digestMatches: true });
      expect(report.resolved!.page.length).toBeGreaterThan(0);
      expect(report.bytes).toBeLessThanOrEqual(16_384);
      expect(report.notes.length).toBeGreaterThan(0);
      expect(report.read).toContain(`[artifact ${report.artifactId} (`);
      const found = toolResultText(model.doGenerateCalls[2], 'call-2')!;
      expect(found).toContain(`[artifact ${report.artifactId} (`);
      expect(found).toContain(': 1 match;');
      expect(model.doGenerateCalls[0].tools.map((t: Loose) => t.name).sort()).toEqual([
        'artifact_read',
        'artifact_search',
        'getPods',
      ]);
    });
  });

  describe(`${sdk.name}: the real @ai-sdk/openai provider`, () => {
    it('sends the compacted view, not the raw payload, to an OpenAI-compatible server', async () => {
      const server = await createProviderServer({
        handler: (_request, index) =>
          index === 0
            ? { toolCalls: [{ id: 'call-1', name: 'getLogs', arguments: {} }] }
            : { text: 'done' },
      });
      try {
        const result = await generateText({
          model: wrapLanguageModel({
            model: sdk.openaiChat(server.openaiBaseUrl, 'gpt-test'),
            middleware: sdk.middleware({
              processor: createStructuralTrimmer(),
              maxResultBytes: 4096,
            }),
          }),
          tools: { getLogs: tool({ inputSchema: noInput(), execute: async () => bigLogs }) },
          stopWhen: stepCountIs(3),
          prompt: 'Why are payments failing?',
        });
        expect(result.text).toBe('done');
        expect(server.requests).toHaveLength(2);
        const sent = server.requests[1]!.toolResults[0]!.content;
        expect(utf8ByteLength(sent)).toBeLessThanOrEqual(4096);
        expect(sent).toContain('txn=txn_777');
        expect(server.requests[1]!.bodyBytes).toBeLessThan(4096 + 4096);
      } finally {
        await server.close();
      }
    });
  });

  describe(`${sdk.name}: createLanguageModelClient`, () => {
    it('runs the distiller and the continuation distiller on an AI SDK model', async () => {
      const server = await createProviderServer({
        handler: (request) => ({
          text: request.prompt.includes('txn_777')
            ? 'payments: pool exhausted (txn=txn_777)'
            : 'nothing found',
          usage: { inputTokens: 100, outputTokens: 9 },
        }),
      });
      try {
        const client = createLanguageModelClient({
          model: sdk.openaiChat(server.openaiBaseUrl, 'gpt-fast'),
        });
        const done = await client.complete({ system: 's', prompt: 'txn_777?', model: 'fast' });
        expect(done).toEqual({
          text: 'payments: pool exhausted (txn=txn_777)',
          model: 'gpt-fast',
          usage: { inputTokens: 100, outputTokens: 9 },
        });
        const compaction = createCompaction({ env: {}, aiClient: client });
        const view = await compaction.synthesisProcessor.process(bigLogs, 4096, {
          userQuery: 'why do payments fail?',
        });
        expect(view.text).toContain('txn=txn_777');
        expect(trailingDisclosureNotes(view.text)[0]?.kind).toBe('distilled');
        const summary = await createContinuationDistiller({ client }).distill({
          stepId: 's1',
          result: bigLogs,
          preview: bigLogs.slice(0, 200),
          maxBytes: 2048,
        });
        expect(summary).toContain('txn_777');
        expect(server.requests.length).toBeGreaterThanOrEqual(3);
      } finally {
        await server.close();
      }
    });

    it('refuses something that is not a language model', () => {
      expect(() => createLanguageModelClient({ model: {} as never })).toThrow(/language model/);
    });
  });
}
