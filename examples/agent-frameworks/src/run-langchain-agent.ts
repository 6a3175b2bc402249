import { createCompactionMiddleware } from '@compaction/langchain';
import { createArtifactMode } from '@compaction/orchestration';
import { ChatOpenAI } from '@langchain/openai';
import { createAgent, tool } from 'langchain';
import { z } from 'zod';
import type { AgentSettings } from './agent-settings.js';
import { LIST_PODS, listPods, QUESTION } from './list-pods.js';

/** The agent on LangChain's createAgent: the middleware compacts and registers the artifact tools. */
export async function runLangChainAgent(settings: AgentSettings): Promise<string> {
  const { transcriptPath } = settings;
  const podsTool = tool(async () => listPods(), { ...LIST_PODS, schema: z.object({}) });
  const model = new ChatOpenAI({
    model: settings.model,
    apiKey: settings.apiKey,
    ...(settings.baseURL ? { configuration: { baseURL: settings.baseURL } } : {}),
  });
  // setup:start langchain
  const { processor, tools, conversation } = createArtifactMode({ transcriptPath });
  const compaction = { processor, tools, conversation, maxResultBytes: 16_384 };
  const middleware = [createCompactionMiddleware(compaction)];
  const agent = createAgent({ model, tools: [podsTool], middleware });
  // setup:end
  const result = await agent.invoke({ messages: [{ role: 'user', content: QUESTION }] });
  return result.messages.at(-1)?.text ?? '';
}
