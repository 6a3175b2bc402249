import { isObject, messageText, textContent } from './text-content.js';
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
};
