import { createMCPClient } from '@ai-sdk/mcp';
import { createOpenAI } from '@ai-sdk/openai';
import type { LanguageModelV3Middleware } from '@ai-sdk/provider';
import { createStructuralTrimmer } from '@compaction/trimmer';
import { generateText, jsonSchema, stepCountIs, tool, wrapLanguageModel } from 'ai';
import { MockLanguageModelV3 } from 'ai/test';
import { describe, expect, it } from 'vitest';
import { createArtifactTools } from './create-artifact-tools.js';
import { createCompactionMiddleware } from './create-compaction-middleware.js';
import { createLanguageModelClient } from './create-language-model-client.js';
import { describeAiSdkScenarios } from './test-support/ai-sdk-scenarios.js';

describeAiSdkScenarios({
  name: 'AI SDK 6',
  generateText,
  wrapLanguageModel,
  stepCountIs,
  tool,
  jsonSchema,
  mockModel: (doGenerate) => new MockLanguageModelV3({ doGenerate }),
  openaiChat: (baseURL, model) => createOpenAI({ baseURL, apiKey: 'local' }).chat(model),
  createMCPClient: (options) => createMCPClient(options),
  middleware: createCompactionMiddleware,
});

describe('AI SDK 6 types', () => {
  it('accepts the middleware, the artifact tools and a provider model where AI SDK 6 wants them', () => {
    const middleware: LanguageModelV3Middleware = createCompactionMiddleware({
      processor: createStructuralTrimmer(),
    });
    const model = wrapLanguageModel({ model: new MockLanguageModelV3(), middleware });
    const tools: Parameters<typeof generateText>[0]['tools'] = createArtifactTools({
      definitions: [],
      call: async () => '',
    });
    const client = createLanguageModelClient({
      model: createOpenAI({ apiKey: 'local' }).chat('gpt'),
    });
    expect([model.specificationVersion, Object.keys(tools ?? {}), client.provider]).toEqual([
      'v3',
      [],
      'openai.chat',
    ]);
  });
});
