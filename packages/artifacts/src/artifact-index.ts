import { appendFile, mkdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { ArtifactRecord } from './artifact-record.js';
import { isSafeId } from './safe-id.js';

/** File name of a store's index, inside the store directory. */
export const ARTIFACT_INDEX_FILE = 'index.jsonl';

/** The durable, append-only index of one store. */
export interface ArtifactIndex {
  /** Every record, oldest first; a torn last line (a crash mid-append) is skipped. */
  list(options?: { signal?: AbortSignal }): Promise<ArtifactRecord[]>;
  /** The record with `id`, if any. */
  get(id: string, options?: { signal?: AbortSignal }): Promise<ArtifactRecord | undefined>;
  /**
   * Appends `record` unless a record with its id is already there (repeat fetches of the same
   * result do not duplicate); resolves to the record the index holds.
   */
  add(record: ArtifactRecord, options?: { signal?: AbortSignal }): Promise<ArtifactRecord>;
}

function isRecord(value: unknown): value is ArtifactRecord {
  if (typeof value !== 'object' || value === null) return false;
  const record = value as Record<string, unknown>;
  return (
    isSafeId(record.id) &&
    typeof record.sessionId === 'string' &&
    isSafeId(record.path) &&
    typeof record.kind === 'string' &&
    typeof record.title === 'string' &&
    typeof record.bytes === 'number'
  );
}

/** Parses index lines, skipping anything malformed. */
export function parseIndexLines(text: string): ArtifactRecord[] {
  const records: ArtifactRecord[] = [];
  for (const line of text.split('\n')) {
    if (!line.trim()) continue;
    try {
      const value: unknown = JSON.parse(line);
      if (isRecord(value)) records.push(value);
    } catch {
      // A torn line from a crash mid-append names nothing; the file it meant is an orphan.
    }
  }
  return records;
}

/** The index of the store in `dir` (`<dir>/index.jsonl`). */
export function createArtifactIndex(settings: { dir: string }): ArtifactIndex {
  const file = join(settings.dir, ARTIFACT_INDEX_FILE);
  async function list(options: { signal?: AbortSignal } = {}): Promise<ArtifactRecord[]> {
    options.signal?.throwIfAborted();
    let text: string;
    try {
      text = await readFile(file, { encoding: 'utf8', signal: options.signal });
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return [];
      throw error;
    }
    return parseIndexLines(text);
  }
  return {
    list,
    async get(id, options) {
      return (await list(options)).find((record) => record.id === id);
    },
    async add(record, options = {}) {
      const existing = (await list(options)).find((item) => item.id === record.id);
      if (existing) return existing;
      await mkdir(settings.dir, { recursive: true });
      // One write per line with O_APPEND: concurrent appenders do not interleave within it.
      await appendFile(file, `${JSON.stringify(record)}\n`, { encoding: 'utf8', flag: 'a' });
      return record;
    },
  };
}
