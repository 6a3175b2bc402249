import type { JsonObject, JsonValue } from '@compaction/core';
import { writeServerSentEvents } from './server-sent-events.js';
import { isObject, messageText, textContent } from './text-content.js';
import { appendTools, topLevelToolNames } from './tool-list.js';
import type { WireFormat, WireToolResult } from './wire-tool-result.js';

const OUTPUTS = new Set(['function_call_output', 'custom_tool_call_output']);
const CALLS = new Set(['function_call', 'custom_tool_call']);

/**
 * OpenAI Responses (`POST /v1/responses`): `function_call_output` and `custom_tool_call_output`
 * items of `input`, their output a string or `input_text` parts, named by the call item with
 * the same `call_id`. The items of one model response (messages, reasoning, calls) are one turn.
 */
export const openaiResponsesFormat: WireFormat = {
  name: 'openai-responses',
  marker: '_call_output"',
  toolResults(body) {
    const items = Array.isArray(body.input) ? body.input : [];
    const names = new Map<string, string>();
    const found: WireToolResult[] = [];
    let turn = 0;
    let modelSpoke = false;
    let userQuery: string | undefined;
    for (const item of items) {
      if (!isObject(item)) continue;
      if (item.role === 'user') {
        userQuery = messageText(item.content, ['input_text']) || userQuery;
        modelSpoke = false;
        continue;
      }
      if (typeof item.type === 'string' && OUTPUTS.has(item.type)) {
        modelSpoke = false;
        if (typeof item.call_id !== 'string') continue;
        const content = textContent(item, 'output', 'input_text');
        if (!content) continue;
        found.push({
          toolCallId: item.call_id,
          toolName: names.get(item.call_id) ?? 'unknown',
          turn,
          text: content.text,
          failed: item.status === 'incomplete',
          ...(userQuery ? { userQuery } : {}),
          replace: content.replace,
        });
        continue;
      }
      if (item.role === 'system' || item.role === 'developer') continue;
      if (!modelSpoke) turn++;
      modelSpoke = true;
      if (typeof item.type === 'string' && CALLS.has(item.type) && typeof item.call_id === 'string')
        names.set(item.call_id, typeof item.name === 'string' ? item.name : 'unknown');
    }
    return found;
  },
  conversationSeed(body) {
    if (typeof body.input === 'string') return body.input;
    if (!Array.isArray(body.input)) return undefined;
    const firstUser = body.input.findIndex((item) => isObject(item) && item.role === 'user');
    return firstUser < 0 ? undefined : body.input.slice(0, firstUser + 1);
  },
  toolNames: topLevelToolNames,
  addTools(body, tools) {
    appendTools(
      body,
      // Not strict: the tools' optional arguments are absent, not null, when unused.
      tools.map((tool) => ({
        type: 'function',
        name: tool.name,
        description: tool.description,
        parameters: tool.parameters as JsonValue,
        strict: false,
      })),
    );
  },
  toolCalls(response) {
    return (Array.isArray(response.output) ? response.output : []).flatMap((item) =>
      isObject(item) &&
      item.type === 'function_call' &&
      typeof item.call_id === 'string' &&
      typeof item.name === 'string'
        ? [
            {
              id: item.call_id,
              name: item.name,
              arguments: typeof item.arguments === 'string' ? item.arguments : '{}',
            },
          ]
        : [],
    );
  },
  dropToolCalls(response, ids) {
    if (!Array.isArray(response.output)) return;
    response.output = response.output.filter(
      (item) =>
        !(isObject(item) && item.type === 'function_call' && ids.has(item.call_id as string)),
    );
  },
  streamedResponse(events) {
    // The last event carries the whole response, its output items included.
    const completed = events.findLast((event) => event.type === 'response.completed');
    return completed && isObject(completed.response) ? completed.response : undefined;
  },
  dropStreamedToolCalls(events, ids) {
    const ours = (item: JsonValue | undefined) =>
      isObject(item) && item.type === 'function_call' && ids.has(item.call_id as string);
    const dropped = events.flatMap((event) =>
      event.type === 'response.output_item.added' &&
      ours(event.item) &&
      typeof event.output_index === 'number'
        ? [event.output_index]
        : [],
    );
    const kept = events.flatMap((event): JsonObject[] => {
      const index = event.output_index;
      if (typeof index === 'number' && dropped.includes(index)) return [];
      const copy: JsonObject = { ...event };
      if (typeof index === 'number')
        copy.output_index = index - dropped.filter((at) => at < index).length;
      if (isObject(event.response) && Array.isArray(event.response.output))
        copy.response = {
          ...event.response,
          output: event.response.output.filter((item) => !ours(item)),
        };
      return [copy];
    });
    return writeServerSentEvents(kept, { named: true, done: false });
  },
  continueWith(body, response, answers) {
    const input: JsonValue[] =
      typeof body.input === 'string'
        ? [{ role: 'user', content: body.input }]
        : Array.isArray(body.input)
          ? body.input
          : [];
    input.push(
      ...(Array.isArray(response.output) ? response.output : []),
      ...answers.map((answer) => ({
        type: 'function_call_output',
        call_id: answer.id,
        output: answer.text,
      })),
    );
    body.input = input;
  },
};
