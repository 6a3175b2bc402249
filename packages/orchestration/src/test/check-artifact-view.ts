import { readFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { createArtifactLibrary, parseArtifactPointerLine } from '@compaction/artifacts';
import { sha256Hex } from '@compaction/artifacts/internal';
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
  /** The shared pointer line (`artifactPointerLine`) at the head of the view, parsed. */
  pointer?: { id: string; file: string };
  /**
   * With `dir`: the pointer followed the way `compaction read` does (the artifact library over
   * the transcript's folder), by id and by the file name it names.
   */
  resolved?: {
    /** The page `readPage(id)` answered. */
    page: string;
    /** The file name resolves to the same record as the id. */
    sameByFile: boolean;
    /** sha256 of the stored bytes equals the record's digest. */
    digestMatches: boolean;
  };
}

/**
 * Reads a view the way a model would: measures it, lists its disclosure notes, finds the
 * artifact id it points at and calls `artifact_read` on it through `tools`. With `dir` (the
 * artifact mode's store directory) it also resolves the pointer as `compaction read` does.
 */
export async function checkArtifactView(
  view: string,
  tools: ArtifactToolset,
  dir?: string,
): Promise<ArtifactViewReport> {
  const artifactId = /\bart_[0-9a-f]{24}\b/.exec(view)?.[0];
  const report: ArtifactViewReport = {
    bytes: utf8ByteLength(view),
    notes: trailingDisclosureNotes(view).map((note) => note.kind),
  };
  if (!artifactId) return report;
  const pointer = parseArtifactPointerLine(view.split('\n', 1)[0]!);
  const read = await tools.call('artifact_read', { id: artifactId, limit: 2000 });
  if (!pointer || dir === undefined) {
    return { ...report, artifactId, read, ...(pointer ? { pointer } : {}) };
  }
  const library = createArtifactLibrary({ root: dirname(dir) });
  const byId = await library.resolve(pointer.id);
  const byFile = await library.resolve(pointer.file);
  const bytes = await readFile(join(byId.dir, byId.record.path));
  const page = await library.readPage(pointer.id, { limit: 2000 });
  return {
    ...report,
    artifactId,
    read,
    pointer,
    resolved: {
      page: page.text,
      sameByFile: byFile.record.id === byId.record.id,
      digestMatches: sha256Hex(bytes) === byId.record.digest,
    },
  };
}
