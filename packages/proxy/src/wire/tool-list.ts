import type { JsonObject, JsonValue } from '@compaction/core';
import { isObject } from './text-content.js';

/** The names of the tools in `body.tools` that carry a `name` of their own (Messages, Responses). */
export function topLevelToolNames(body: JsonObject): string[] {
  return (Array.isArray(body.tools) ? body.tools : []).flatMap((tool) =>
    isObject(tool) && typeof tool.name === 'string' ? [tool.name] : [],
  );
}

/** Puts `added` after the client's own tools in `body.tools`, which keep their places. */
export function appendTools(body: JsonObject, added: readonly JsonValue[]): void {
  body.tools = [...(Array.isArray(body.tools) ? body.tools : []), ...added];
}
