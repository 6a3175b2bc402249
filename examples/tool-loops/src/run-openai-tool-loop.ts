import { createToolResultHelper } from '@compaction/orchestration';
import type OpenAI from 'openai';
import { FETCH_LOGS, fetchLogs, QUESTION } from './demo-tool.js';

/** What a tool loop did. */
export interface ToolLoopRun {
  answer: string;
  /** Bytes each tool message carried, by tool name, in order. */
  toolMessages: Array<{ tool: string; bytes: number }>;
  /** Where the full outputs were stored. */
  artifactsDir: string;
}

/**
 * A plain chat-completions tool loop on the `openai` SDK. The only Compaction code is the helper:
 * `helper.content()` for every tool result, `helper.openaiTools` next to your own tools, and
 * `helper.dispatch()` for the artifact tools the model calls to read more.
 */
export async function runOpenAIToolLoop(settings: {
  client: OpenAI;
  model: string;
  transcriptPath: string;
  log?: (line: string) => void;
}): Promise<ToolLoopRun> {
  const log = settings.log ?? (() => {});
  // setup:start tool-loop
  const helper = createToolResultHelper({ transcriptPath: settings.transcriptPath });
  // setup:end
  const messages: OpenAI.ChatCompletionMessageParam[] = [
    {
      role: 'system',
      content:
        'You are an SRE. Use the tools; large outputs are stored as artifacts you can search.',
    },
    { role: 'user', content: QUESTION },
  ];
  // setup:start tool-loop
  const tools = [{ type: 'function' as const, function: FETCH_LOGS }, ...helper.openaiTools];
  // setup:end
  const toolMessages: ToolLoopRun['toolMessages'] = [];
  for (let turn = 0; turn < 6; turn++) {
    const response = await settings.client.chat.completions.create({
      model: settings.model,
      messages,
      tools: tools as unknown as OpenAI.ChatCompletionTool[],
    });
    const message = response.choices[0]!.message;
    messages.push(message);
    if (!message.tool_calls?.length) {
      return { answer: message.content ?? '', toolMessages, artifactsDir: helper.artifactsDir };
    }
    for (const call of message.tool_calls) {
      if (call.type !== 'function') continue;
      const { name, arguments: args } = call.function;
      let content: string;
      if (helper.handles(name)) {
        // setup:start tool-loop
        // the model reading a stored output back (artifact_read, artifact_search):
        content = await helper.dispatch(name, args);
        // setup:end
      } else {
        const parsed = JSON.parse(args || '{}') as { service?: string };
        const output = fetchLogs(parsed.service ?? 'payments');
        // setup:start tool-loop
        // any other tool's output: inline when short, else stored with an excerpt and its id:
        content = (await helper.content({ toolCallId: call.id, toolName: name, output })).content;
        // setup:end
        log(
          `${name}: ${Buffer.byteLength(output)} bytes of output → ${Buffer.byteLength(content)} bytes in the conversation`,
        );
      }
      toolMessages.push({ tool: name, bytes: Buffer.byteLength(content) });
      messages.push({ role: 'tool', tool_call_id: call.id, content });
    }
  }
  return { answer: '(no answer after 6 turns)', toolMessages, artifactsDir: helper.artifactsDir };
}
