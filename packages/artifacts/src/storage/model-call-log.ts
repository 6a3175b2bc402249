import { join } from 'node:path';
import { appendLine } from './append-line.js';
import { linesFromEnd } from './lines-from-end.js';
import { openRegularFile } from './open-no-follow.js';

/** File in a store directory that holds one JSON line per recorded model call. */
export const MODEL_CALLS_FILE = 'model-calls.jsonl';

/**
 * One model call as the inspector shows it (the distiller's LLM-debug record; every field but
 * `description` is optional so records of older or other writers still show).
 */
export interface ModelCallRecord {
  description: string;
  kind?: string;
  model?: string;
  requestId?: string;
  stepId?: string;
  toolName?: string;
  inputBytes?: number;
  output?: string;
  usage?: { inputTokens: number; outputTokens: number };
  durationMs?: number;
  error?: string;
  at?: number;
}

/** Most records read back (the newest are kept). */
const MAX_READ = 2000;

/** The record a line holds; `undefined` for a blank, torn or foreign line (skipped, not fatal). */
function parseRecord(line: string): ModelCallRecord | undefined {
  if (!line.trim()) return undefined;
  try {
    const value = JSON.parse(line) as ModelCallRecord;
    if (value && typeof value === 'object' && typeof value.description === 'string') return value;
  } catch {
    // Not JSON.
  }
  return undefined;
}

/**
 * An append-only log of model calls in a store directory, for the inspector's second tab. Appends
 * are serialised and never throw (a debug log must not break a compaction); reading skips lines
 * that do not parse.
 */
export function createModelCallLog(settings: { dir: string }) {
  const file = join(settings.dir, MODEL_CALLS_FILE);
  let queue: Promise<void> = Promise.resolve();
  return {
    file,
    /** Appends one record; resolves when it is written (or failed silently). */
    append(record: ModelCallRecord): Promise<void> {
      queue = queue
        .then(() => appendLine(file, JSON.stringify(record), { code: 'artifact_store_failed' }))
        .catch(() => {});
      return queue;
    },
    /** Resolves when every append made so far has been written (or has failed silently). */
    flushed(): Promise<void> {
      return queue;
    },
    /**
     * The records, oldest first (at most the newest 2000). The log is read from its end and
     * only until those are found, so a log of any size costs what the newest records take.
     */
    async read(options: { signal?: AbortSignal } = {}): Promise<ModelCallRecord[]> {
      // Never through a symbolic link: the log is served over HTTP and MCP.
      const handle = await openRegularFile(file);
      if (!handle) return [];
      const records: ModelCallRecord[] = [];
      try {
        const { size } = await handle.stat();
        for await (const line of linesFromEnd(handle, size, options)) {
          const record = parseRecord(line.toString('utf8'));
          if (record) records.push(record);
          if (records.length === MAX_READ) break;
        }
      } finally {
        await handle.close();
      }
      return records.reverse();
    },
  };
}
