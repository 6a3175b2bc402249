import { createMCPClient } from '@ai-sdk/mcp-v2';
import { createOpenAI } from '@ai-sdk/openai-v4';
import type { LanguageModelV4Middleware } from '@ai-sdk/provider-v4';
import { skipBelowNode } from '@compaction/test-runtime';
import { createStructuralTrimmer } from '@compaction/trimmer';
import { generateText, jsonSchema, stepCountIs, tool, wrapLanguageModel } from 'ai-v7';
import { MockLanguageModelV4 } from 'ai-v7/test';
import { describe, expect, it } from 'vitest';
import { createArtifactTools } from './create-artifact-tools.js';
import {
  createCompactionMiddleware,
  createCompactionMiddlewareV4,
} from './create-compaction-middleware.js';
import { createLanguageModelClient } from './create-language-model-client.js';
import { describeAiSdkScenarios } from './test-support/ai-sdk-scenarios.js';

// ai 7 and its providers declare Node >= 22.
describe.skipIf(skipBelowNode(22, 'the AI SDK 7 tests'))('AI SDK 7', () => {
  describeAiSdkScenarios({
    name: 'AI SDK 7',
    generateText,
    wrapLanguageModel,
    stepCountIs,
    tool,
    jsonSchema,
    mockModel: (doGenerate) => new MockLanguageModelV4({ doGenerate }),
    openaiChat: (baseURL, model) => createOpenAI({ baseURL, apiKey: 'local' }).chat(model),
    createMCPClient: (options) => createMCPClient(options),
    middleware: createCompactionMiddlewareV4,
  });

  it('takes the v3-declared middleware as well, typed and at run time', async () => {
    const v4: LanguageModelV4Middleware = createCompactionMiddlewareV4({
      processor: createStructuralTrimmer(),
    });
    const model = wrapLanguageModel({
      model: new MockLanguageModelV4({
        doGenerate: {
          content: [{ type: 'text', text: 'ok' }],
          finishReason: { unified: 'stop', raw: undefined },
          usage: {
            inputTokens: { total: 1, noCache: 1, cacheRead: undefined, cacheWrite: undefined },
            outputTokens: { total: 1, text: 1, reasoning: undefined },
          },
          warnings: [],
        },
      }),
      middleware: [createCompactionMiddleware({ processor: createStructuralTrimmer() }), v4],
    });
    const result = await generateText({
      model,
      tools: createArtifactTools({ definitions: [], call: async () => '' }),
      prompt: 'hi',
    });
    expect(result.text).toBe('ok');
    const client = createLanguageModelClient({
      model: createOpenAI({ apiKey: 'local' }).chat('gpt'),
    });
    expect(client.provider).toBe('openai.chat');
  });
});
