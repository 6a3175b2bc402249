import { artifactIdFor } from './artifact-id.js';
import { createArtifactIndex } from './artifact-index.js';
import type { ArtifactKind, ArtifactRecord } from './artifact-record.js';
import type { StoredArtifact } from './artifact-store.js';
import { formatCount } from './excerpt-marker.js';
import { headGraphemes } from './grapheme-window.js';

/** Adds a stored file to its store's index (for callers that stored outside a transcript). */
export async function recordStoredArtifact(input: {
  /** The store directory. */
  dir: string;
  sessionId: string;
  stored: StoredArtifact;
  toolCallId: string;
  toolName?: string;
  kind?: ArtifactKind;
  title?: string;
  /** The start of the content, for the preview (cut to 400 chars). */
  preview: string;
  clock?: () => number;
  signal?: AbortSignal;
}): Promise<ArtifactRecord> {
  const record: ArtifactRecord = {
    id: artifactIdFor({
      sessionId: input.sessionId,
      toolCallId: input.toolCallId,
      ...(input.toolName ? { toolName: input.toolName } : {}),
      contentDigest: input.stored.digest,
    }),
    sessionId: input.sessionId,
    toolCallId: input.toolCallId,
    ...(input.toolName ? { toolName: input.toolName } : {}),
    kind: input.kind ?? 'tool_output',
    title: headGraphemes(input.title ?? input.toolName ?? input.toolCallId, 160).text,
    summary: `Stored output (${formatCount(input.stored.chars)} chars, ${formatCount(input.stored.bytes)} bytes).`,
    preview: headGraphemes(input.preview, 400).text,
    chars: input.stored.chars,
    bytes: input.stored.bytes,
    digest: input.stored.digest,
    path: input.stored.file,
    createdAt: (input.clock ?? Date.now)(),
  };
  return createArtifactIndex({ dir: input.dir }).add(record, { signal: input.signal });
}
