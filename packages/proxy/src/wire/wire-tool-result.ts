import type { ArtifactToolDefinition, JsonObject, JsonValue } from '@compaction/core';

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

/** One tool call in a model's (unstreamed) response. */
export interface WireToolCall {
  /** The call id its answer must name. */
  id: string;
  /** The tool's name. */
  name: string;
  /** The arguments, as JSON text. */
  arguments: string;
}

/** The proxy's answer to one of its own tool calls. */
export interface WireToolAnswer {
  /** The call id it answers. */
  id: string;
  /** The text for the model. */
  text: string;
  /** The call failed (marked `is_error` where the format can say so). */
  failed: boolean;
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
  /** Names of the tools `body` offers the model. */
  toolNames(body: JsonObject): string[];
  /** Appends `tools` to the tools of `body`, after the client's own. */
  addTools(body: JsonObject, tools: readonly ArtifactToolDefinition[]): void;
  /**
   * The tool calls of an unstreamed response body, in order; none when the response offers
   * more than one choice (the proxy then leaves it alone).
   */
  toolCalls(response: JsonObject): WireToolCall[];
  /**
   * Removes the calls named in `ids` from a response; when no call remains, its stop reason
   * says the model finished.
   */
  dropToolCalls(response: JsonObject, ids: ReadonlySet<string>): void;
  /**
   * The response a complete stream of server-sent `events` amounts to, in the unstreamed shape
   * (`toolCalls` and `continueWith` read it), or `undefined` when the events do not make one.
   */
  streamedResponse(events: readonly JsonObject[]): JsonObject | undefined;
  /**
   * The stream of `events` without the calls named in `ids`, as server-sent-event text: later
   * blocks or items renumbered, and when no call remains, the stop reason says the model
   * finished.
   */
  dropStreamedToolCalls(events: readonly JsonObject[], ids: ReadonlySet<string>): string;
  /** Appends the response's turn and `answers` to the request `body`, for the next round. */
  continueWith(body: JsonObject, response: JsonObject, answers: readonly WireToolAnswer[]): void;
}
