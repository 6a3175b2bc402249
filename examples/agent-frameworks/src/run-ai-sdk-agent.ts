import { createOpenAI } from '@ai-sdk/openai';
import { createArtifactTools, createCompactionMiddleware } from '@compaction/ai-sdk';
import { createArtifactMode } from '@compaction/orchestration';
import { generateText, jsonSchema, stepCountIs, tool, wrapLanguageModel } from 'ai';
import type { AgentSettings } from './agent-settings.js';
import { LIST_PODS, listPods, QUESTION } from './list-pods.js';

/** The agent on the Vercel AI SDK: the middleware compacts, the artifact tools read back. */
export async function runAiSdkAgent(settings: AgentSettings): Promise<string> {
  const { transcriptPath } = settings;
  const provider = createOpenAI({ apiKey: settings.apiKey, baseURL: settings.baseURL });
  const podsTool = tool({
    description: LIST_PODS.description,
    inputSchema: jsonSchema<Record<string, never>>({ type: 'object', properties: {} }),
    execute: async () => listPods(),
  });
  // setup:start ai-sdk
  const { processor, tools, conversation } = createArtifactMode({ transcriptPath });
  const compaction = { processor, conversation, maxResultBytes: 16_384 };
  const middleware = createCompactionMiddleware(compaction);
  const model = wrapLanguageModel({ model: provider.chat(settings.model), middleware });
  const allTools = { list_pods: podsTool, ...createArtifactTools(tools) };
  // setup:end
  const { text } = await generateText({
    model,
    tools: allTools,
    stopWhen: stepCountIs(6),
    prompt: QUESTION,
  });
  return text;
}
