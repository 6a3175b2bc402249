import {
  type JsonObject,
  type JsonValue,
  parseJsonLossless,
  stringifyJsonLossless,
} from '@compaction/core';
import { writeServerSentEvents } from './server-sent-events.js';
import { isObject, messageText, textContent } from './text-content.js';
import { appendTools, topLevelToolNames } from './tool-list.js';
import type { WireFormat, WireToolResult } from './wire-tool-result.js';

/**
 * Anthropic Messages (`POST /v1/messages` and `/v1/messages/count_tokens`): `tool_result`
 * blocks in user messages, their content a string or text and image blocks, named by the
 * `tool_use` block of an earlier assistant message.
 */
export const anthropicMessagesFormat: WireFormat = {
  name: 'anthropic-messages',
  marker: '"tool_result"',
  toolResults(body) {
    const messages = Array.isArray(body.messages) ? body.messages : [];
    const names = new Map<string, string>();
    const found: WireToolResult[] = [];
    let turn = 0;
    let userQuery: string | undefined;
    for (const message of messages) {
      if (!isObject(message) || !Array.isArray(message.content)) {
        if (isObject(message) && message.role === 'assistant') turn++;
        else if (isObject(message) && typeof message.content === 'string')
          userQuery = message.content || userQuery;
        continue;
      }
      if (message.role === 'assistant') {
        turn++;
        for (const block of message.content) {
          if (isObject(block) && block.type === 'tool_use' && typeof block.id === 'string')
            names.set(block.id, typeof block.name === 'string' ? block.name : 'unknown');
        }
        continue;
      }
      if (message.role !== 'user') continue;
      // The question is taken from before the message, so it is the same on every later request.
      const query = userQuery;
      for (const block of message.content) {
        if (!isObject(block) || block.type !== 'tool_result') continue;
        const id = block.tool_use_id;
        const content = textContent(block as JsonObject, 'content', 'text');
        if (typeof id !== 'string' || !content) continue;
        found.push({
          toolCallId: id,
          toolName: names.get(id) ?? 'unknown',
          turn,
          text: content.text,
          failed: block.is_error === true,
          ...(query ? { userQuery: query } : {}),
          replace: content.replace,
        });
      }
      userQuery = messageText(message.content, ['text']) || userQuery;
    }
    return found;
  },
  conversationSeed(body) {
    return Array.isArray(body.messages) ? body.messages[0] : undefined;
  },
  toolNames: topLevelToolNames,
  addTools(body, tools) {
    appendTools(
      body,
      tools.map((tool) => ({
        name: tool.name,
        description: tool.description,
        input_schema: tool.parameters as JsonValue,
      })),
    );
  },
  toolCalls(response) {
    return (Array.isArray(response.content) ? response.content : []).flatMap((block) =>
      isObject(block) &&
      block.type === 'tool_use' &&
      typeof block.id === 'string' &&
      typeof block.name === 'string'
        ? [{ id: block.id, name: block.name, arguments: stringifyJsonLossless(block.input ?? {}) }]
        : [],
    );
  },
  dropToolCalls(response, ids) {
    if (!Array.isArray(response.content)) return;
    response.content = response.content.filter(
      (block) => !(isObject(block) && block.type === 'tool_use' && ids.has(block.id as string)),
    );
    if (this.toolCalls(response).length === 0 && response.stop_reason === 'tool_use')
      response.stop_reason = 'end_turn';
  },
  streamedResponse(events) {
    let message: JsonObject | undefined;
    const content: JsonValue[] = [];
    const partialInput = new Map<number, string>();
    let stopped = false;
    for (const event of events) {
      // A stream that failed or was cut is not a turn to go on with.
      if (event.type === 'error') return undefined;
      if (event.type === 'message_stop') stopped = true;
      if (event.type === 'message_start' && isObject(event.message)) {
        message = { ...event.message, content };
        continue;
      }
      if (event.type === 'message_delta' && message && isObject(event.delta))
        Object.assign(message, event.delta);
      const index = event.index;
      if (typeof index !== 'number') continue;
      if (event.type === 'content_block_start' && isObject(event.content_block))
        content[index] = { ...event.content_block };
      const block = content[index];
      if (!isObject(block)) continue;
      const delta = event.delta;
      if (event.type === 'content_block_delta' && isObject(delta)) {
        if (delta.type === 'text_delta') block.text = `${block.text ?? ''}${delta.text ?? ''}`;
        else if (delta.type === 'thinking_delta')
          block.thinking = `${block.thinking ?? ''}${delta.thinking ?? ''}`;
        else if (delta.type === 'signature_delta') block.signature = delta.signature ?? '';
        else if (delta.type === 'citations_delta' && delta.citation !== undefined)
          block.citations = [
            ...(Array.isArray(block.citations) ? block.citations : []),
            delta.citation,
          ];
        else if (delta.type === 'input_json_delta')
          partialInput.set(index, `${partialInput.get(index) ?? ''}${delta.partial_json ?? ''}`);
      }
      if (event.type === 'content_block_stop' && partialInput.get(index)) {
        const input = parseJsonLossless(partialInput.get(index)!);
        if (!input.ok) return undefined;
        block.input = input.value;
      }
    }
    return stopped ? message : undefined;
  },
  dropStreamedToolCalls(events, ids) {
    const dropped: number[] = [];
    let remaining = false;
    for (const event of events) {
      const block = event.content_block;
      if (event.type !== 'content_block_start' || !isObject(block) || block.type !== 'tool_use')
        continue;
      if (ids.has(block.id as string) && typeof event.index === 'number') dropped.push(event.index);
      else remaining = true;
    }
    const kept = events.flatMap((event): JsonObject[] => {
      const index = event.index;
      if (typeof index === 'number') {
        if (dropped.includes(index)) return [];
        return [{ ...event, index: index - dropped.filter((at) => at < index).length }];
      }
      if (event.type === 'message_delta' && !remaining && isObject(event.delta))
        if (event.delta.stop_reason === 'tool_use')
          return [{ ...event, delta: { ...event.delta, stop_reason: 'end_turn' } }];
      return [event];
    });
    return writeServerSentEvents(kept, { named: true, done: false });
  },
  continueWith(body, response, answers) {
    const messages = Array.isArray(body.messages) ? body.messages : [];
    messages.push(
      { role: 'assistant', content: Array.isArray(response.content) ? response.content : [] },
      {
        role: 'user',
        content: answers.map((answer) => ({
          type: 'tool_result',
          tool_use_id: answer.id,
          content: answer.text,
          ...(answer.failed ? { is_error: true } : {}),
        })),
      },
    );
    body.messages = messages;
  },
};
