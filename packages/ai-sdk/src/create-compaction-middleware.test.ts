import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createOpenAI } from '@ai-sdk/openai';
import type { LanguageModelV3CallOptions, LanguageModelV3GenerateResult } from '@ai-sdk/provider';
import { createArtifactProcessor, createArtifactStore } from '@compaction/artifacts';
import { type ResultProcessor, trailingDisclosureNotes, utf8ByteLength } from '@compaction/core';
import { createProviderServer } from '@compaction/distiller/test';
import { createStructuralTrimmer } from '@compaction/trimmer';
import { generateText, jsonSchema, stepCountIs, tool, wrapLanguageModel } from 'ai';
import { MockLanguageModelV3 } from 'ai/test';
import { describe, expect, it } from 'vitest';
import { createCompactionMiddleware } from './create-compaction-middleware.js';

const bigLogs = Array.from({ length: 20_000 }, (_, i) =>
  i === 12_345
    ? `2026-11-30T06:00:00Z ERROR payments pool exhausted txn=txn_777`
    : `2026-11-30T06:00:00Z INFO request ok latency=${i % 97}ms`,
).join('\n');
const bigPods = JSON.stringify({
  items: Array.from({ length: 2000 }, (_, i) => ({
    name: `pod-${i}`,
    phase: i === 1500 ? 'Failed' : 'Running',
  })),
});

const usage = {
  inputTokens: { total: 10, noCache: 10, cacheRead: undefined, cacheWrite: undefined },
  outputTokens: { total: 5, text: 5, reasoning: undefined },
};

function toolCall(id: string, name: string): LanguageModelV3GenerateResult {
  return {
    content: [{ type: 'tool-call', toolCallId: id, toolName: name, input: '{}' }],
    finishReason: { unified: 'tool-calls', raw: undefined },
    usage,
    warnings: [],
  };
}

const tools = {
  getLogs: tool({
    inputSchema: jsonSchema<Record<string, never>>({ type: 'object', properties: {} }),
    execute: async () => bigLogs,
  }),
  getPods: tool({
    inputSchema: jsonSchema<Record<string, never>>({ type: 'object', properties: {} }),
    execute: async () => JSON.parse(bigPods),
  }),
};

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

function toolResultText(call: LanguageModelV3CallOptions, toolCallId: string): string | undefined {
  for (const message of call.prompt) {
    if (message.role !== 'tool') continue;
    for (const part of message.content) {
      if (
        part.type === 'tool-result' &&
        part.toolCallId === toolCallId &&
        part.output.type === 'text'
      )
        return part.output.value;
    }
  }
  return undefined;
}

describe('createCompactionMiddleware with the AI SDK test model', () => {
  it('compacts oversized tool results once and keeps the prompt prefix byte-stable across steps', async () => {
    const model = new MockLanguageModelV3({
      doGenerate: [
        toolCall('call-1', 'getLogs'),
        toolCall('call-2', 'getPods'),
        {
          content: [{ type: 'text', text: 'pool exhausted' }],
          finishReason: { unified: 'stop', raw: undefined },
          usage,
          warnings: [],
        },
      ],
    });
    const { processor, calls } = countingTrimmer();
    const result = await generateText({
      model: wrapLanguageModel({
        model,
        middleware: createCompactionMiddleware({ processor, maxResultBytes: 8192 }),
      }),
      tools,
      stopWhen: stepCountIs(5),
      prompt: 'Why are payments failing? Look for pool errors.',
    });
    expect(result.text).toBe('pool exhausted');
    expect(model.doGenerateCalls).toHaveLength(3);
    const second = toolResultText(model.doGenerateCalls[1]!, 'call-1')!;
    const third = toolResultText(model.doGenerateCalls[2]!, 'call-1')!;
    expect(utf8ByteLength(second)).toBeLessThanOrEqual(8192);
    expect(second).toContain('txn=txn_777');
    expect(trailingDisclosureNotes(second).length).toBe(1);
    expect(third).toBe(second);
    const pods = toolResultText(model.doGenerateCalls[2]!, 'call-2')!;
    expect(utf8ByteLength(pods)).toBeLessThanOrEqual(8192);
    expect(pods).toContain('"phase":"Failed"');
    expect(calls).toEqual(['call-1', 'call-2']);
  });

  it('leaves tool results that fit untouched', async () => {
    const model = new MockLanguageModelV3({
      doGenerate: [
        toolCall('call-1', 'small'),
        {
          content: [{ type: 'text', text: 'ok' }],
          finishReason: { unified: 'stop', raw: undefined },
          usage,
          warnings: [],
        },
      ],
    });
    const { processor, calls } = countingTrimmer();
    await generateText({
      model: wrapLanguageModel({ model, middleware: createCompactionMiddleware({ processor }) }),
      tools: {
        small: tool({
          inputSchema: jsonSchema<Record<string, never>>({ type: 'object' }),
          execute: async () => 'tiny',
        }),
      },
      stopWhen: stepCountIs(3),
      prompt: 'hi',
    });
    expect(calls).toEqual([]);
    const part = model.doGenerateCalls[1]!.prompt.find((m) => m.role === 'tool')!.content[0]!;
    expect(part).toMatchObject({ type: 'tool-result', output: { type: 'text', value: 'tiny' } });
  });

  it('refuses a missing processor or a bad budget', () => {
    expect(() => createCompactionMiddleware({ processor: undefined as never })).toThrow(
      /processor/,
    );
    expect(() =>
      createCompactionMiddleware({ processor: createStructuralTrimmer(), maxResultBytes: 0 }),
    ).toThrow(/maxResultBytes/);
  });
});

describe('createCompactionMiddleware with the artifact processor', () => {
  it('stores the full tool result and puts the excerpt with its marker in the prompt', async () => {
    const root = await mkdtemp(join(tmpdir(), 'ai-sdk-artifacts-'));
    try {
      const store = createArtifactStore({ transcriptPath: join(root, 'chat.jsonl') });
      const model = new MockLanguageModelV3({
        doGenerate: [
          toolCall('call-1', 'getLogs'),
          {
            content: [{ type: 'text', text: 'ok' }],
            finishReason: { unified: 'stop', raw: undefined },
            usage,
            warnings: [],
          },
        ],
      });
      await generateText({
        model: wrapLanguageModel({
          model,
          middleware: createCompactionMiddleware({
            processor: createArtifactProcessor({ store }),
            maxResultBytes: 4096,
          }),
        }),
        tools,
        stopWhen: stepCountIs(3),
        prompt: 'logs?',
      });
      const view = toolResultText(model.doGenerateCalls[1]!, 'call-1')!;
      expect(utf8ByteLength(view)).toBeLessThanOrEqual(4096);
      expect(view).toMatch(
        /\[\.\.\. elided [\d,]+ chars .* full result: call-1\.txt sha256 [0-9a-f]{64}/,
      );
      expect(await readFile(join(store.dir, 'call-1.txt'), 'utf8')).toBe(bigLogs);
    } finally {
      await rm(root, { recursive: true, force: true });
    }
  });
});

describe('createCompactionMiddleware with the real @ai-sdk/openai provider', () => {
  it('sends the compacted view, not the raw payload, to an OpenAI-compatible server', async () => {
    const server = await createProviderServer({ handler: () => ({ text: 'done' }) });
    try {
      const provider = createOpenAI({ baseURL: server.openaiBaseUrl, apiKey: 'local' });
      const model = new MockLanguageModelV3({ doGenerate: [toolCall('call-1', 'getLogs')] });
      // Step 1 comes from the test model (a tool call); step 2 goes over HTTP through the real provider.
      let step = 0;
      const routed = {
        ...provider.chat('gpt-test'),
        doGenerate: (options: LanguageModelV3CallOptions) =>
          step++ === 0 ? model.doGenerate(options) : provider.chat('gpt-test').doGenerate(options),
      };
      const result = await generateText({
        model: wrapLanguageModel({
          model: routed as never,
          middleware: createCompactionMiddleware({
            processor: createStructuralTrimmer(),
            maxResultBytes: 4096,
          }),
        }),
        tools,
        stopWhen: stepCountIs(3),
        prompt: 'Why are payments failing?',
      });
      expect(result.text).toBe('done');
      expect(server.requests).toHaveLength(1);
      expect(server.requests[0]!.bodyBytes).toBeLessThan(4096 + 2048);
      expect(utf8ByteLength(bigLogs)).toBeGreaterThan(500_000);
    } finally {
      await server.close();
    }
  });
});
