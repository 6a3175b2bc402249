import { formatCount } from '../projection/excerpt-marker.js';
import { kindForTool } from '../projection/kind-for-tool.js';
import { headGraphemes } from '../text/grapheme-window.js';
import { artifactIdFor } from './artifact-id.js';
import { type ArtifactIndex, createArtifactIndex } from './artifact-index.js';
import type { ArtifactKind, ArtifactRecord } from './artifact-record.js';
import type { StoredArtifact } from './stored-artifact.js';

/** What an index record is built from. */
export interface ArtifactRecordInput {
  /** The session (store directory name); enters the artifact id. */
  sessionId: string;
  stored: StoredArtifact;
  /** The tool call (operation) id, any shape. */
  toolCallId?: string;
  toolName?: string;
  /** The message the result belongs to, when the host numbers messages; enters the id. */
  messageId?: string | number;
  /** Default: from the tool name's policy, else the content (`kindForTool`). */
  kind?: ArtifactKind;
  /** Default: the tool name, else the operation id. Cut to 160 chars. */
  title?: string;
  /** Default: `Stored output (N chars, B bytes).` Cut to 200 chars. */
  summary?: string;
  /** The start of the content, for the preview (cut to 400 chars). */
  preview: string;
  /** The result as returned, when the stored file is it laid out (`layOutJson`). */
  original?: ArtifactRecord['original'];
  /** Milliseconds since the epoch. Default `Date.now`. */
  clock?: () => number;
}

const oneLine = (text: string, chars: number) =>
  headGraphemes(text.replace(/\s+/g, ' ').trim(), chars).text;

/** The index record of a stored result: the one shape every front end writes. */
export function buildArtifactRecord(input: ArtifactRecordInput): ArtifactRecord {
  const { stored } = input;
  return {
    id: artifactIdFor({
      sessionId: input.sessionId,
      ...(input.messageId === undefined ? {} : { messageId: input.messageId }),
      ...(input.toolCallId === undefined ? {} : { toolCallId: input.toolCallId }),
      ...(input.toolName ? { toolName: input.toolName } : {}),
      contentDigest: stored.digest,
    }),
    sessionId: input.sessionId,
    ...(input.toolCallId === undefined ? {} : { toolCallId: input.toolCallId }),
    ...(input.toolName ? { toolName: input.toolName } : {}),
    kind: input.kind ?? kindForTool(input.toolName, input.preview),
    title: oneLine(input.title ?? input.toolName ?? input.toolCallId ?? stored.file, 160),
    summary: oneLine(
      input.summary ??
        `Stored output (${formatCount(stored.chars)} chars, ${formatCount(stored.bytes)} bytes).`,
      200,
    ),
    preview: headGraphemes(input.preview, 400).text,
    chars: stored.chars,
    bytes: stored.bytes,
    ...(stored.lines === undefined ? {} : { lines: stored.lines }),
    digest: stored.digest,
    ...(input.original ? { original: input.original } : {}),
    path: stored.file,
    createdAt: (input.clock ?? Date.now)(),
  };
}

/**
 * Adds a stored file to its store's index and resolves to the record the index holds. Pass
 * the store's `index` (kept in memory, so this costs the same however large the index is);
 * `dir` opens the index afresh, which reads it whole once.
 */
export async function recordStoredArtifact(
  input: ArtifactRecordInput & { index?: ArtifactIndex; dir?: string; signal?: AbortSignal },
): Promise<ArtifactRecord> {
  if (!input.index && !input.dir)
    throw new TypeError('recordStoredArtifact needs an index or a dir');
  const index = input.index ?? createArtifactIndex({ dir: input.dir! });
  return index.add(buildArtifactRecord(input), { signal: input.signal });
}
