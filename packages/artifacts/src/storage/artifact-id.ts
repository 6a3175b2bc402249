import { sha256Hex } from './sha256-hex.js';

/** What an artifact id is derived from. */
export interface ArtifactIdInput {
  /** The session (transcript stem). */
  sessionId: string;
  /** The message the result belongs to, when the host numbers messages. */
  messageId?: string | number;
  /** The tool call (operation) id. */
  toolCallId?: string;
  /** The tool's name. */
  toolName?: string;
  /** SHA-256 of the result's bytes. */
  contentDigest: string;
}

/**
 * A stable artifact id, `art_` and 24 hex digits of a SHA-256 over the session, message, tool
 * call, tool name and content digest: fetching the same result twice yields the same id, so the
 * index never holds duplicates.
 */
export function artifactIdFor(input: ArtifactIdInput): string {
  const key = JSON.stringify([
    input.sessionId,
    input.messageId === undefined ? '' : String(input.messageId),
    input.toolCallId ?? '',
    input.toolName ?? '',
    input.contentDigest,
  ]);
  return `art_${sha256Hex(key).slice(0, 24)}`;
}
