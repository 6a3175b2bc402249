import { type JsonObject, parseJsonLossless, stringifyJsonLossless } from '@compaction/core';
import { isObject } from './text-content.js';

/**
 * The JSON data of each event of a complete server-sent-event stream, in order. Data that is
 * not a JSON object (`[DONE]`, comments) is left out; an event's data lines are joined by
 * newlines, as the spec says.
 */
export function parseServerSentEvents(text: string): JsonObject[] {
  const events: JsonObject[] = [];
  for (const block of text.replace(/\r\n?/g, '\n').split('\n\n')) {
    const data = block
      .split('\n')
      .filter((line) => line.startsWith('data:'))
      .map((line) => line.slice(line.startsWith('data: ') ? 6 : 5));
    if (data.length === 0) continue;
    const parsed = parseJsonLossless(data.join('\n'));
    if (parsed.ok && isObject(parsed.value)) events.push(parsed.value);
  }
  return events;
}

/**
 * A server-sent-event stream of `events`: each with an `event:` line naming its `type` when
 * `named` (Anthropic Messages, OpenAI Responses), and a closing `data: [DONE]` when `done`
 * (OpenAI Chat Completions).
 */
export function writeServerSentEvents(
  events: readonly JsonObject[],
  { named, done }: { named: boolean; done: boolean },
): string {
  const blocks = events.map(
    (event) =>
      `${named && typeof event.type === 'string' ? `event: ${event.type}\n` : ''}data: ${stringifyJsonLossless(event)}\n\n`,
  );
  return blocks.join('') + (done ? 'data: [DONE]\n\n' : '');
}
