import type { ArtifactRecord } from '../storage/artifact-record.js';

/**
 * The line that tells the model how to get the rest of a stored result: the artifact id, the
 * file the excerpt marker names, and the two tools with 1-based line numbers. Every front end
 * (the artifact processor, tool-output externalizing, the synthesis path and `createArtifactMode`
 * with every framework adapter) prints this one line.
 */
export function artifactPointerLine(record: Pick<ArtifactRecord, 'id' | 'path'>): string {
  return `Full output stored as artifact ${record.id} (${record.path}). Use artifact_read("${record.id}", offset, limit) to page it by line (lines count from 1; offset -50 reads the last 50) or artifact_search("${record.id}", pattern) to find lines.`;
}

/**
 * The pointer line for an agent that reads files with its own tools (a coding agent behind
 * `compaction proxy`): the artifact's absolute `path`, its size in bytes and lines, and how to
 * read it. A one-line JSON result stored one value per line says so, since the file then
 * differs from the bytes the tool returned.
 */
export function artifactFilePointerLine(
  record: Pick<ArtifactRecord, 'id' | 'bytes' | 'lines' | 'original'>,
  path: string,
): string {
  const lines = record.lines === undefined ? '' : `, ${record.lines} lines`;
  const layout = record.original ? ', one JSON value per line' : '';
  return `Full output stored as artifact ${record.id} in the file ${path} (${record.bytes} bytes${lines}${layout}). Read or grep that file with your file tools to see what this view leaves out.`;
}

/** The line in place of the pointer when the full result could not be stored (`reason` on one line). */
export function artifactNotStoredLine(reason: string): string {
  return `Full output not stored (${reason.replace(/[\s()]+/g, ' ').trim()}); only this excerpt remains.`;
}

const POINTER_LINE =
  /^Full output stored as artifact (art_[0-9a-f]{24}) \(([^()\r\n]+)\)\. Use artifact_read\("\1", offset, limit\)/;

/** The artifact id and file name a pointer line names, or `undefined` when `line` is not one. */
export function parseArtifactPointerLine(line: string): { id: string; file: string } | undefined {
  const match = POINTER_LINE.exec(line);
  return match ? { id: match[1]!, file: match[2]! } : undefined;
}
