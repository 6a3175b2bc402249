import {
  ARTIFACT_TOOL_NAMES,
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
  signal: AbortSignal,
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
  return {
    body: rewritten === 0 ? raw : Buffer.from(stringifyJsonLossless(body), 'utf8'),
    conversationId: conversation.id,
    toolResults: results.length,
    rewritten,
    report: outcome.report,
  };
}
