import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createArtifactLibrary } from '@compaction/artifacts';
import { sha256Hex } from '@compaction/artifacts/internal';
import {
  type ConversationReport,
  type ResultProcessor,
  trailingDisclosureNotes,
  utf8ByteLength,
} from '@compaction/core';
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

  describe(`${sdk.name}: seed 001's per-tool policies and the savings report`, () => {
    it('stores a 9 KB file read under the 64 KiB budget, and reports bytes and tokens saved', async () => {
      const root = await mkdtemp(join(tmpdir(), 'ai-sdk-policies-'));
      roots.push(root);
      const artifacts = createArtifactMode({ transcriptPath: join(root, 's1.jsonl'), env: {} });
      const file = Array.from({ length: 300 }, (_, i) => `${i}: const value = compute(${i});`);
      const model = sdk.mockModel([
        toolCall('call-1', 'read_file'),
        toolCall('call-2', 'search_files'),
        answer('read'),
      ]);
      const reports: ConversationReport[] = [];
      await generateText({
        model: wrapLanguageModel({
          model,
          middleware: sdk.middleware({
            processor: artifacts.processor,
            conversation: { ...artifacts.conversation, env: {} },
            onConversation: (report) => reports.push(report),
          }),
        }),
        tools: {
          read_file: tool({ inputSchema: noInput(), execute: async () => file.join('\n') }),
          search_files: tool({ inputSchema: noInput(), execute: async () => 'src/a.ts:1: x' }),
        },
        stopWhen: stepCountIs(4),
        prompt: 'Read the file.',
      });
      const view = toolResultText(model.doGenerateCalls[1], 'call-1')!;
      expect(utf8ByteLength(view)).toBeLessThanOrEqual(4000);
      const report = await checkArtifactView(view, artifacts.tools, artifacts.dir);
      expect(report.resolved).toMatchObject({ sameByFile: true, digestMatches: true });
      expect(toolResultText(model.doGenerateCalls[2], 'call-2')).toBe('src/a.ts:1: x');
      const saved = utf8ByteLength(file.join('\n')) - utf8ByteLength(view);
      expect(reports.map((r) => r.saved.bytes)).toEqual([0, saved, saved]);
      expect(reports.map((r) => r.saved.totalBytes)).toEqual([0, saved, 2 * saved]);
      expect(reports[2]!.saved.totalTokens).toBeGreaterThan(reports[1]!.saved.tokens);
    });
  });

  describe(`${sdk.name}: the conversation budget over a scripted 200-call session`, () => {
    it('holds the budget at every call, keeps pairing and earlier bytes, re-sends the same bytes after a restart, and every pointer resolves', async () => {
      const root = await mkdtemp(join(tmpdir(), 'ai-sdk-conversation-'));
      roots.push(root);
      const transcriptPath = join(root, 's1.jsonl');
      const BUDGET = 131_072;
      const CALLS = 200;
      const mode = createArtifactMode({ transcriptPath, clock: () => 0 });
      const middlewareFor = (artifacts: typeof mode) =>
        sdk.middleware({
          processor: artifacts.processor,
          maxResultBytes: 16_384,
          conversation: { ...artifacts.conversation, maxBytes: BUDGET, env: {} },
          onConversation: (report) => reports.push(report),
        });
      const reports: ConversationReport[] = [];
      const raw: Loose[] = [];
      const recorder = {
        specificationVersion: sdk.name.endsWith('7') ? 'v4' : 'v3',
        transformParams: async ({ params }: Loose) => {
          raw.push(params.prompt);
          return params;
        },
      };
      const readsAt = new Set([40, 90, 150, 199]);
      const model = sdk.mockModel(async (options: Loose) => {
        const step = model.doGenerateCalls.length - 1;
        if (step === CALLS) return answer('done');
        if (readsAt.has(step)) {
          // The model follows the pointer of the largest result it sees.
          const pointers = [
            ...JSON.stringify(options.prompt).matchAll(
              /, (\d+) bytes, (?:sha256 [0-9a-f]{64}, )?stored as (art_[0-9a-f]{24})/g,
            ),
          ].sort((a, b) => Number(b[1]) - Number(a[1]));
          const id = pointers[0]?.[2];
          return toolCall(`call-${step}`, 'artifact_read', { id, offset: 1, limit: 1000 });
        }
        return toolCall(`call-${step}`, ['read_file', 'terminal', 'list_items'][step % 3]!, {
          step,
        });
      });
      const sizeOf = (step: number) =>
        2000 + ((step * 7919) % 38_000) + (step % 50 === 7 ? 160_000 : 0);
      const result = await generateText({
        model: wrapLanguageModel({ model, middleware: [recorder, middlewareFor(mode)] }),
        tools: {
          read_file: tool({
            inputSchema: jsonSchema({ type: 'object', properties: { step: { type: 'number' } } }),
            execute: async ({ step }: { step: number }) =>
              Array.from(
                { length: Math.ceil(sizeOf(step) / 40) },
                (_, i) => `${step}:${i} const value = compute(${i});`,
              ).join('\n'),
          }),
          terminal: tool({
            inputSchema: jsonSchema({ type: 'object', properties: { step: { type: 'number' } } }),
            execute: async ({ step }: { step: number }) => {
              const log = Array.from({ length: Math.ceil(sizeOf(step) / 50) }, (_, i) =>
                i % 97 === 3
                  ? `2026-01-01T00:00:00Z ERROR step ${step} test ${i} failed`
                  : `2026-01-01T00:00:00Z INFO step ${step} test ${i} ok`,
              ).join('\n');
              if (step % 7 === 1) throw new Error(log);
              return log;
            },
          }),
          list_items: tool({
            inputSchema: jsonSchema({ type: 'object', properties: { step: { type: 'number' } } }),
            execute: async ({ step }: { step: number }) =>
              Array.from({ length: Math.ceil(sizeOf(step) / 60) }, (_, i) => ({
                id: `${step}-${i}`,
                state: i % 13 ? 'ok' : 'failed',
              })),
          }),
          ...createArtifactTools(mode.tools),
        },
        stopWhen: stepCountIs(CALLS + 2),
        prompt: 'Run the whole test plan and tell me what failed.',
      });
      expect(result.text).toBe('done');
      const calls = model.doGenerateCalls;
      expect(calls).toHaveLength(CALLS + 1);

      const toolResults = (prompt: Loose[]) =>
        prompt.flatMap((m: Loose) =>
          m.role === 'tool' ? m.content.filter((p: Loose) => p.type === 'tool-result') : [],
        );
      const textOf = (part: Loose) =>
        part.output.type === 'text' || part.output.type === 'error-text'
          ? part.output.value
          : JSON.stringify(part.output.value);
      let breaks = 0;
      let previous: string[] = [];
      for (const [k, call] of calls.entries()) {
        const parts = toolResults(call.prompt);
        const texts = parts.map(textOf);
        const total = texts.reduce((sum: number, t: string) => sum + utf8ByteLength(t), 0);
        // The budget, at every call.
        expect(total).toBeLessThanOrEqual(BUDGET);
        // Pairing: the same messages, parts and call ids as the prompt the agent built.
        expect(call.prompt.map((m: Loose) => m.role)).toEqual(raw[k].map((m: Loose) => m.role));
        expect(parts.map((p: Loose) => p.toolCallId)).toEqual(
          toolResults(raw[k]).map((p: Loose) => p.toolCallId),
        );
        const calledIds = call.prompt.flatMap((m: Loose) =>
          m.role === 'assistant' && Array.isArray(m.content)
            ? m.content.filter((p: Loose) => p.type === 'tool-call').map((p: Loose) => p.toolCallId)
            : [],
        );
        expect(parts.map((p: Loose) => p.toolCallId)).toEqual(calledIds);
        // Earlier results keep their bytes, except at a step-down, which only a crossing causes.
        const changed = previous.some((text, i) => texts[i] !== text);
        if (changed) {
          breaks++;
          const grown =
            previous.reduce((sum, t) => sum + utf8ByteLength(t), 0) +
            texts
              .slice(previous.length)
              .reduce((sum: number, t: string) => sum + utf8ByteLength(t), 0);
          expect(grown).toBeGreaterThan(BUDGET);
        }
        // An artifact read reaches the model whole the call after it, however long its page.
        const newest = parts.at(-1);
        if (newest?.toolName === 'artifact_read') {
          expect(textOf(newest)).toBe(textOf(toolResults(raw[k]).at(-1)));
          expect(textOf(newest)).not.toMatch(/^\[stepped down|^Full output stored/);
        }
        previous = texts;
      }
      expect(reports.at(-1)!.stepDowns).toBe(breaks);
      expect(breaks).toBeGreaterThan(0);
      expect(breaks).toBeLessThan(CALLS / 3);
      const pageBytes = toolResults(raw.at(-1))
        .filter((p: Loose) => p.toolName === 'artifact_read')
        .map((p: Loose) => utf8ByteLength(textOf(p)));
      expect(Math.max(...pageBytes)).toBeGreaterThan(16_384);

      // A restarted process (a fresh artifact mode and middleware) sends the same bytes.
      const restarted = middlewareFor(createArtifactMode({ transcriptPath, clock: () => 1 }));
      const again = await restarted.transformParams({ params: { prompt: raw.at(-1) } });
      expect(again.prompt).toEqual(calls.at(-1).prompt);

      // Every pointer resolves to stored bytes whose sha256 matches, and they are the result.
      const library = createArtifactLibrary({ root });
      const last = toolResults(calls.at(-1).prompt);
      const original = toolResults(raw.at(-1));
      let pointers = 0;
      let short = 0;
      for (const [i, part] of last.entries()) {
        const line = textOf(part).split('\n')[0];
        if (!line.startsWith('[stepped down: ')) continue;
        pointers++;
        const [, sha, id] = /(?:sha256 ([0-9a-f]{64}), )?stored as (art_[0-9a-f]{24})/.exec(line)!;
        const found = await library.resolve(id!);
        const bytes = await readFile(join(found.dir, found.record.path));
        // A short line names no SHA-256: the index record it resolves to does.
        expect(sha256Hex(bytes)).toBe(sha ?? found.record.digest);
        if (!sha) short++;
        expect(bytes.toString('utf8')).toBe(textOf(original[i]));
      }
      expect(pointers).toBeGreaterThan(100);
      // Pointer lines of earlier step-downs are in their short form.
      expect(short).toBeGreaterThan(0);
      expect(reports.at(-1)!.viewsTotal).toBeGreaterThan(4 * reports.at(-1)!.total);
    });

    it('never re-compacts an artifact_read page, even without the tools given or a budget', async () => {
      const root = await mkdtemp(join(tmpdir(), 'ai-sdk-reads-'));
      roots.push(root);
      const artifacts = createArtifactMode({ transcriptPath: join(root, 's1.jsonl') });
      const model = sdk.mockModel(async (options: Loose) => {
        const step = model.doGenerateCalls.length;
        if (step === 1) return toolCall('call-1', 'getLogs');
        if (step === 2) {
          const id = /art_[0-9a-f]{24}/.exec(toolResultText(options, 'call-1') ?? '')?.[0];
          return toolCall('call-2', 'artifact_read', { id, offset: 1, limit: 1000 });
        }
        return answer('read');
      });
      await generateText({
        model: wrapLanguageModel({
          model,
          middleware: sdk.middleware({
            processor: artifacts.processor,
            maxResultBytes: 16_384,
            conversation: false,
          }),
        }),
        tools: {
          getLogs: tool({ inputSchema: noInput(), execute: async () => bigLogs }),
          ...createArtifactTools(artifacts.tools),
        },
        stopWhen: stepCountIs(5),
        prompt: 'Read the logs.',
      });
      const page = toolResultText(model.doGenerateCalls[2], 'call-2')!;
      expect(utf8ByteLength(page)).toBeGreaterThan(16_384);
      expect(page).toMatch(/^\[artifact art_[0-9a-f]{24} \(/);
      expect(page).not.toContain('Full output stored as artifact');
      expect(trailingDisclosureNotes(page)).toEqual([]);
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
