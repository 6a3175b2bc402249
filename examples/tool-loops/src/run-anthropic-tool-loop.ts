import type Anthropic from '@anthropic-ai/sdk';
import { createToolResultHelper } from '@compaction/orchestration';
import { FETCH_LOGS, fetchLogs, QUESTION } from './demo-tool.js';
import type { ToolLoopRun } from './run-openai-tool-loop.js';

/**
 * The same loop on the `@anthropic-ai/sdk` Messages API: `helper.anthropicTools` next to your
 * tools, `helper.content()` for each `tool_result`, `helper.dispatch()` for artifact calls.
 */
export async function runAnthropicToolLoop(settings: {
  client: Anthropic;
  model: string;
  transcriptPath: string;
  log?: (line: string) => void;
}): Promise<ToolLoopRun> {
  const log = settings.log ?? (() => {});
  const helper = createToolResultHelper({ transcriptPath: settings.transcriptPath });
  const messages: Anthropic.MessageParam[] = [{ role: 'user', content: QUESTION }];
  const tools = [
    {
      name: FETCH_LOGS.name,
      description: FETCH_LOGS.description,
      input_schema: FETCH_LOGS.parameters,
    },
    ...helper.anthropicTools,
  ] as unknown as Anthropic.Tool[];
  const toolMessages: ToolLoopRun['toolMessages'] = [];
  for (let turn = 0; turn < 6; turn++) {
    const response = await settings.client.messages.create({
      model: settings.model,
      max_tokens: 1024,
      system:
        'You are an SRE. Use the tools; large outputs are stored as artifacts you can search.',
      messages,
      tools,
    });
    messages.push({ role: 'assistant', content: response.content });
    const calls = response.content.filter(
      (block): block is Anthropic.ToolUseBlock => block.type === 'tool_use',
    );
    if (calls.length === 0) {
      const answer = response.content
        .flatMap((block) => (block.type === 'text' ? [block.text] : []))
        .join('\n');
      return { answer, toolMessages, artifactsDir: helper.artifactsDir };
    }
    const results: Anthropic.ToolResultBlockParam[] = [];
    for (const call of calls) {
      let content: string;
      if (helper.handles(call.name)) {
        content = await helper.dispatch(call.name, call.input);
      } else {
        const input = call.input as { service?: string };
        const output = fetchLogs(input.service ?? 'payments');
        content = (
          await helper.content(
            { toolCallId: call.id, toolName: call.name, args: input, output },
            { userQuery: QUESTION },
          )
        ).content;
        log(
          `${call.name}: ${Buffer.byteLength(output)} bytes of output → ${Buffer.byteLength(content)} bytes in the conversation`,
        );
      }
      toolMessages.push({ tool: call.name, bytes: Buffer.byteLength(content) });
      results.push({ type: 'tool_result', tool_use_id: call.id, content });
    }
    messages.push({ role: 'user', content: results });
  }
  return { answer: '(no answer after 6 turns)', toolMessages, artifactsDir: helper.artifactsDir };
}
