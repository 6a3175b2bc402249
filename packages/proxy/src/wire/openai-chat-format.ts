import type { JsonObject, JsonValue } from '@compaction/core';
import { writeServerSentEvents } from './server-sent-events.js';
import { isObject, messageText, textContent } from './text-content.js';
import { appendTools } from './tool-list.js';
import type { WireFormat, WireToolResult } from './wire-tool-result.js';

/**
 * OpenAI Chat Completions (`POST /v1/chat/completions`): `role: "tool"` messages, their content
 * a string or text parts, named by the `tool_calls` of an earlier assistant message.
 */
export const openaiChatFormat: WireFormat = {
  name: 'openai-chat',
  marker: '"tool"',
  toolResults(body) {
    const messages = Array.isArray(body.messages) ? body.messages : [];
    const names = new Map<string, string>();
    const found: WireToolResult[] = [];
    let turn = 0;
    let userQuery: string | undefined;
    for (const message of messages) {
      if (!isObject(message)) continue;
      if (message.role === 'assistant') {
        turn++;
        for (const call of Array.isArray(message.tool_calls) ? message.tool_calls : []) {
          if (!isObject(call) || typeof call.id !== 'string') continue;
          const name = isObject(call.function) ? call.function.name : undefined;
          names.set(call.id, typeof name === 'string' ? name : 'unknown');
        }
        continue;
      }
      if (message.role === 'user') {
        userQuery = messageText(message.content, ['text']) || userQuery;
        continue;
      }
      if (message.role !== 'tool' || typeof message.tool_call_id !== 'string') continue;
      const content = textContent(message, 'content', 'text');
      if (!content) continue;
      found.push({
        toolCallId: message.tool_call_id,
        toolName: names.get(message.tool_call_id) ?? 'unknown',
        turn,
        text: content.text,
        failed: false,
        ...(userQuery ? { userQuery } : {}),
        replace: content.replace,
      });
    }
    return found;
  },
  conversationSeed(body) {
    if (!Array.isArray(body.messages)) return undefined;
    const firstUser = body.messages.findIndex((m) => isObject(m) && m.role === 'user');
    return firstUser < 0 ? undefined : body.messages.slice(0, firstUser + 1);
  },
  toolNames(body) {
    return (Array.isArray(body.tools) ? body.tools : []).flatMap((tool) =>
      isObject(tool) && isObject(tool.function) && typeof tool.function.name === 'string'
        ? [tool.function.name]
        : [],
    );
  },
  addTools(body, tools) {
    appendTools(
      body,
      tools.map((tool) => ({
        type: 'function',
        function: {
          name: tool.name,
          description: tool.description,
          parameters: tool.parameters as JsonValue,
        },
      })),
    );
  },
  toolCalls(response) {
    const message = onlyMessage(response);
    return (Array.isArray(message?.tool_calls) ? message.tool_calls : []).flatMap((call) =>
      isObject(call) &&
      typeof call.id === 'string' &&
      isObject(call.function) &&
      typeof call.function.name === 'string'
        ? [
            {
              id: call.id,
              name: call.function.name,
              arguments:
                typeof call.function.arguments === 'string' ? call.function.arguments : '{}',
            },
          ]
        : [],
    );
  },
  dropToolCalls(response, ids) {
    const message = onlyMessage(response);
    if (!message || !Array.isArray(message.tool_calls)) return;
    const kept = message.tool_calls.filter(
      (call) => !(isObject(call) && ids.has(call.id as string)),
    );
    if (kept.length > 0) {
      message.tool_calls = kept;
      return;
    }
    delete message.tool_calls;
    const choice = (response.choices as JsonObject[])[0]!;
    if (choice.finish_reason === 'tool_calls') choice.finish_reason = 'stop';
  },
  streamedResponse(events) {
    let content: string | null = null;
    let finishReason: JsonValue = null;
    const calls: JsonObject[] = [];
    for (const chunk of events) {
      if (!Array.isArray(chunk.choices)) continue;
      for (const choice of chunk.choices) {
        if (!isObject(choice)) continue;
        // More than one choice: not a turn the proxy can go on with.
        if (choice.index !== 0) return undefined;
        if (typeof choice.finish_reason === 'string') finishReason = choice.finish_reason;
        const delta = isObject(choice.delta) ? choice.delta : {};
        if (typeof delta.content === 'string') content = (content ?? '') + delta.content;
        for (const part of Array.isArray(delta.tool_calls) ? delta.tool_calls : []) {
          if (!isObject(part) || typeof part.index !== 'number') continue;
          calls[part.index] ??= {
            id: '',
            type: 'function',
            function: { name: '', arguments: '' },
          };
          const call = calls[part.index]!;
          const fn = call.function as JsonObject;
          const added = isObject(part.function) ? part.function : {};
          if (typeof part.id === 'string') call.id = part.id;
          if (typeof added.name === 'string') fn.name = `${fn.name}${added.name}`;
          if (typeof added.arguments === 'string')
            fn.arguments = `${fn.arguments}${added.arguments}`;
        }
      }
    }
    const message: JsonObject = { role: 'assistant', content };
    if (calls.length > 0) message.tool_calls = calls.filter(isObject);
    return {
      object: 'chat.completion',
      choices: [{ index: 0, message, finish_reason: finishReason }],
    };
  },
  dropStreamedToolCalls(events, ids) {
    const idOf = new Map<number, string>();
    for (const chunk of events)
      for (const choice of Array.isArray(chunk.choices) ? chunk.choices : [])
        for (const part of callDeltas(choice))
          if (typeof part.id === 'string') idOf.set(part.index as number, part.id);
    const dropped = [...idOf].flatMap(([index, id]) => (ids.has(id) ? [index] : []));
    const remaining = idOf.size > dropped.length;
    const kept = events.map((chunk) => {
      if (!Array.isArray(chunk.choices)) return chunk;
      const choices = chunk.choices.map((choice) => {
        if (!isObject(choice)) return choice;
        const parts = callDeltas(choice);
        const copy: JsonObject = { ...choice };
        if (parts.length > 0) {
          const delta: JsonObject = { ...(choice.delta as JsonObject) };
          const left = parts
            .filter((part) => !dropped.includes(part.index as number))
            .map((part) => {
              const index = part.index as number;
              return { ...part, index: index - dropped.filter((at) => at < index).length };
            });
          if (left.length > 0) delta.tool_calls = left;
          else delete delta.tool_calls;
          copy.delta = delta;
        }
        if (!remaining && copy.finish_reason === 'tool_calls') copy.finish_reason = 'stop';
        return copy;
      });
      return { ...chunk, choices };
    });
    return writeServerSentEvents(kept, { named: false, done: true });
  },
  continueWith(body, response, answers) {
    const message = onlyMessage(response);
    const messages = Array.isArray(body.messages) ? body.messages : [];
    messages.push(
      {
        role: 'assistant',
        content: message?.content ?? null,
        ...(Array.isArray(message?.tool_calls) ? { tool_calls: message.tool_calls } : {}),
      },
      ...answers.map((answer) => ({
        role: 'tool',
        tool_call_id: answer.id,
        content: answer.text,
      })),
    );
    body.messages = messages;
  },
};

/** The tool-call parts of a streamed choice's delta, each with its `index`. */
function callDeltas(choice: JsonValue): JsonObject[] {
  if (!isObject(choice) || !isObject(choice.delta) || !Array.isArray(choice.delta.tool_calls))
    return [];
  return choice.delta.tool_calls.filter(
    (part): part is JsonObject => isObject(part) && typeof part.index === 'number',
  );
}

/** The message of a response with exactly one choice. */
function onlyMessage(response: JsonObject): JsonObject | undefined {
  const choices = response.choices;
  if (!Array.isArray(choices) || choices.length !== 1 || !isObject(choices[0])) return undefined;
  return isObject(choices[0].message) ? choices[0].message : undefined;
}
