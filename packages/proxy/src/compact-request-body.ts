import {
  ARTIFACT_TOOL_NAMES,
  type ArtifactToolset,
  type ConversationReport,
  type JsonObject,
  parseJsonLossless,
  stringifyJsonLossless,
} from '@compaction/core';
import type { ProxyConversations } from './proxy-conversations.js';
import type { WireFormat } from './wire/wire-tool-result.js';

/** What compacting one request body did. */
export interface CompactedBody {
  /** The body to send upstream: the rewritten one, or the original bytes when nothing changed. */
  body: Buffer;
  /** The conversation the request belongs to (`c_…`), when the body named one. */
  conversationId?: string;
  /** Tool results in the request. */
  toolResults: number;
  /** Tool results sent as something other than their full text. */
  rewritten: number;
  /** What the conversation budget did, when there were tool results. */
  report?: ConversationReport;
  /**
   * When the artifact tools were added to the request: the parsed body (as `body` holds it)
   * and the conversation's tools that answer their calls.
   */
  artifactTools?: { body: JsonObject; tools: ArtifactToolset };
}

/** Options of `compactRequestBody`. */
export interface CompactRequestOptions {
  /**
   * Add `artifact_read` / `artifact_search` after the request's own tools when a result in it
   * is sent as something other than its full text and the client offers no tool of those
   * names itself.
   */
  addArtifactTools: boolean;
  signal: AbortSignal;
}

const ARTIFACT_READS: ReadonlySet<string> = new Set(ARTIFACT_TOOL_NAMES);

/**
 * Rewrites the tool results of one request body in `format` to what its conversation's budget
 * gives: per-result views, and older results stepped down when the conversation outgrows its
 * budget. Only the tool results change; the rest of the body is re-serialized as parsed, every
 * number as its source text (`parseJsonLossless`), so a request and its conversation's next
 * one agree byte for byte on everything before the newest results. A body with nothing to
 * rewrite goes on as its original bytes. Throws on a body that is not a JSON object (the
 * caller fails open).
 */
export async function compactRequestBody(
  raw: Buffer,
  format: WireFormat,
  conversations: ProxyConversations,
  { addArtifactTools, signal }: CompactRequestOptions,
): Promise<CompactedBody> {
  // Most requests early in a conversation carry no tool result: they go on without a parse.
  if (!raw.includes(format.marker)) return { body: raw, toolResults: 0, rewritten: 0 };
  const parsed = parseJsonLossless(raw.toString('utf8'));
  if (
    !parsed.ok ||
    typeof parsed.value !== 'object' ||
    parsed.value === null ||
    Array.isArray(parsed.value)
  )
    throw new Error('the request body is not a JSON object');
  const body = parsed.value as JsonObject;
  const results = format.toolResults(body);
  if (results.length === 0) return { body: raw, toolResults: 0, rewritten: 0 };
  const conversation = await conversations.get(format.name, format.conversationSeed(body));
  const outcome = await conversation.budget.fit(
    results.map((result) => ({
      toolCallId: result.toolCallId,
      toolName: result.toolName,
      turn: result.turn,
      text: result.text,
      ...(result.failed ? { failed: true } : {}),
      ...(ARTIFACT_READS.has(result.toolName) ? { artifactRead: true } : {}),
      ...(result.userQuery ? { userQuery: result.userQuery } : {}),
    })),
    { signal },
  );
  signal.throwIfAborted();
  let rewritten = 0;
  results.forEach((result, i) => {
    const text = outcome.texts[i]!;
    if (text === result.text) return;
    result.replace(text);
    rewritten++;
  });
  // A result once rewritten stays rewritten on every later request of the conversation, so
  // the tools, once added, are added to every later request: its tools block keeps its bytes.
  const addTools =
    addArtifactTools &&
    rewritten > 0 &&
    !format.toolNames(body).some((name) => ARTIFACT_READS.has(name));
  if (addTools) format.addTools(body, conversation.tools.definitions);
  return {
    body: rewritten === 0 ? raw : Buffer.from(stringifyJsonLossless(body), 'utf8'),
    conversationId: conversation.id,
    toolResults: results.length,
    rewritten,
    report: outcome.report,
    ...(addTools ? { artifactTools: { body, tools: conversation.tools } } : {}),
  };
}
