import { createArtifactTools, createCompactionInputFilter } from '@compaction/openai-agents';
import { createArtifactMode } from '@compaction/orchestration';
import { Agent, OpenAIChatCompletionsModel, run, setTracingDisabled, tool } from '@openai/agents';
import OpenAI from 'openai';
import { z } from 'zod';
import type { AgentSettings } from './agent-settings.js';
import { LIST_PODS, listPods, QUESTION } from './list-pods.js';

/** The agent on the OpenAI Agents SDK: the input filter compacts, the artifact tools read back. */
export async function runOpenAIAgentsAgent(settings: AgentSettings): Promise<string> {
  const { transcriptPath } = settings;
  // Traces would go to OpenAI; the example stays on the machine.
  setTracingDisabled(true);
  const podsTool = tool({
    ...LIST_PODS,
    parameters: z.object({}),
    execute: async () => listPods(),
  });
  const client = new OpenAI({ apiKey: settings.apiKey, baseURL: settings.baseURL });
  const model = new OpenAIChatCompletionsModel(client, settings.model);
  // setup:start openai-agents
  const { processor, tools, conversation } = createArtifactMode({ transcriptPath });
  const agent = new Agent({ name: 'sre', model, tools: [podsTool, ...createArtifactTools(tools)] });
  const compaction = { processor, tools, conversation, maxResultBytes: 16_384 };
  const filter = createCompactionInputFilter(compaction);
  const result = await run(agent, QUESTION, { callModelInputFilter: filter, maxTurns: 6 });
  // setup:end
  return String(result.finalOutput ?? '');
}
