import type { JsonObject, JsonValue } from '@compaction/core';

/** One tool result found in a request body, and how to put another text in its place. */
export interface WireToolResult {
  /** The tool call id, exactly as the client sent it. */
  toolCallId: string;
  /** The tool's name, from the call it answers (`unknown` when the request lacks the call). */
  toolName: string;
  /** Model turns before this result: results answering one model response share it. */
  turn: number;
  /** The result's text (its text parts joined by newlines). */
  text: string;
  /** The client marked the result as an error. */
  failed: boolean;
  /** The text of the latest user message before the result, the question views are conditioned on. */
  userQuery?: string;
  /** Puts `text` in the result's place in the parsed body (its other parts and fields stay). */
  replace(text: string): void;
}

/** A request format the proxy rewrites: where its tool results are, and what names a conversation. */
export interface WireFormat {
  /** `anthropic-messages`, `openai-chat` or `openai-responses`, for logs and stats. */
  readonly name: string;
  /**
   * Bytes every body with a tool result contains (a JSON string of the format's tool-result
   * type or role): a body without them goes on unparsed.
   */
  readonly marker: string;
  /** The tool results of `body`, in prompt order. */
  toolResults(body: JsonObject): WireToolResult[];
  /**
   * What names the conversation `body` belongs to: its opening messages, which every later
   * request of the conversation repeats; `undefined` when the body has none.
   */
  conversationSeed(body: JsonObject): JsonValue | undefined;
}
