import {
  type ArtifactToolset,
  type DisclosureNoteKind,
  trailingDisclosureNotes,
  utf8ByteLength,
} from '@compaction/core';

/** What one tool result looked like to the model in artifact mode. */
export interface ArtifactViewReport {
  /** UTF-8 bytes of the view. */
  bytes: number;
  /** The framework disclosure notes at its end. */
  notes: DisclosureNoteKind[];
  /** The first `art_` id it names, if any. */
  artifactId?: string;
  /** What `artifact_read` answered for that id (its first line is the page header). */
  read?: string;
}

/**
 * Reads a view the way a model would: measures it, lists its disclosure notes, finds the
 * artifact id it points at and calls `artifact_read` on it through `tools`.
 */
export async function checkArtifactView(
  view: string,
  tools: ArtifactToolset,
): Promise<ArtifactViewReport> {
  const artifactId = /\bart_[0-9a-f]{24}\b/.exec(view)?.[0];
  const report: ArtifactViewReport = {
    bytes: utf8ByteLength(view),
    notes: trailingDisclosureNotes(view).map((note) => note.kind),
  };
  if (!artifactId) return report;
  return {
    ...report,
    artifactId,
    read: await tools.call('artifact_read', { id: artifactId, limit: 2000, unit: 'chars' }),
  };
}
