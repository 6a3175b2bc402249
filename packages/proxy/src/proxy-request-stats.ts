/** What the proxy did with one request it could rewrite, as its log line and stats report it. */
export interface ProxyRequestStats {
  /** `anthropic-messages`, `openai-chat` or `openai-responses`. */
  format: string;
  /** The request path, query aside. */
  path: string;
  /** The conversation (`c_…`), when the request carried tool results. */
  conversationId?: string;
  /** Tool results in the request, and how many were sent as something other than their full text. */
  toolResults: number;
  rewritten: number;
  /** UTF-8 bytes of the body as the client sent it, and as it went upstream. */
  bytesIn: number;
  bytesOut: number;
  /** Estimated tokens of those bodies (`estimateTokens`: bytes / 3.5). */
  tokensIn: number;
  tokensOut: number;
  /** Milliseconds spent compacting before the request went upstream. */
  compactMs: number;
  /** Why the original body went upstream unchanged, when compaction failed open. */
  failedOpen?: string;
  /**
   * When the proxy added its artifact tools to the request (`artifactTools`): the calls of them
   * it answered before the response went to the client. Reported after that response.
   */
  artifactToolCalls?: number;
}

/** Totals of one conversation since the proxy started. */
export interface ProxyConversationStats {
  requests: number;
  bytesIn: number;
  bytesOut: number;
  tokensIn: number;
  tokensOut: number;
}
