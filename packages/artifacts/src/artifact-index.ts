import { join } from 'node:path';
import { appendLine } from './append-line.js';
import { ArtifactError } from './artifact-error.js';
import type { ArtifactFileSystem } from './artifact-file-system.js';
import type { ArtifactRecord } from './artifact-record.js';
import { createLineSplitter } from './line-splitter.js';
import { openRegularFile } from './open-no-follow.js';
import { isSafeId } from './safe-id.js';

/** File name of a store's index, inside the store directory. */
export const ARTIFACT_INDEX_FILE = 'index.jsonl';

/**
 * The durable, append-only index of one store, mirrored in memory. Every call first reads only
 * what was appended since the last one (by this or another process), so a settle or a lookup
 * costs the same with 10 records or 100 000.
 */
export interface ArtifactIndex {
  /** The store directory. */
  readonly dir: string;
  /** Every live record, oldest first; torn and foreign lines are skipped, duplicates merged. */
  list(options?: { signal?: AbortSignal }): Promise<ArtifactRecord[]>;
  /** The live record with `id`, if any. */
  get(id: string, options?: { signal?: AbortSignal }): Promise<ArtifactRecord | undefined>;
  /**
   * Appends `record` unless a live record with its id is already there (repeat fetches of the
   * same result do not duplicate); resolves to the record the index holds. An append that fails
   * or is cut short (a full disk, a read-only index) rejects with `artifact_store_failed` and
   * the record is not added.
   */
  add(record: ArtifactRecord, options?: { signal?: AbortSignal }): Promise<ArtifactRecord>;
  /**
   * Appends one removal line per file (the index is never rewritten, so a concurrent append is
   * never lost); records naming those files stop being listed.
   */
  remove(
    files: readonly string[],
    options?: { signal?: AbortSignal; clock?: () => number },
  ): Promise<void>;
  /** Reads what was appended since the last call. */
  sync(options?: { signal?: AbortSignal }): Promise<void>;
}

function isRecord(value: unknown): value is ArtifactRecord {
  if (typeof value !== 'object' || value === null) return false;
  const record = value as Record<string, unknown>;
  return (
    isSafeId(record.id) &&
    typeof record.sessionId === 'string' &&
    isSafeId(record.path) &&
    // A record naming the index itself (a forged line) would serve the index as an artifact.
    record.path !== ARTIFACT_INDEX_FILE &&
    typeof record.kind === 'string' &&
    typeof record.title === 'string' &&
    typeof record.bytes === 'number' &&
    typeof record.digest === 'string'
  );
}

type IndexLine = { record: ArtifactRecord } | { removed: string } | undefined;

function parseLine(line: string): IndexLine {
  if (!line.trim()) return undefined;
  try {
    const value: unknown = JSON.parse(line);
    if (isRecord(value)) return { record: value };
    const removed = (value as { removed?: unknown } | null)?.removed;
    if (typeof removed === 'string') return { removed };
  } catch {
    // A torn line from a crash mid-append names nothing; the file it meant is an orphan.
  }
  return undefined;
}

/** Parses index lines, applying removals and skipping anything malformed. */
export function parseIndexLines(text: string): ArtifactRecord[] {
  const state = emptyState();
  for (const line of text.split('\n')) apply(state, parseLine(line));
  return [...state.byId.values()];
}

/** Observers of an index's in-memory state, for a catalog kept in step with it. */
export interface ArtifactIndexObserver {
  /** A record became live. */
  added?(record: ArtifactRecord): void;
  /** A live record was removed (pruned) or the file was replaced and is being read again. */
  removed?(record: ArtifactRecord): void;
}

interface IndexState {
  /** Live records by id, in first-appended order (Map keeps insertion order). */
  byId: Map<string, ArtifactRecord>;
  /** Ids of the live records naming each file. */
  byPath: Map<string, Set<string>>;
}

const emptyState = (): IndexState => ({ byId: new Map(), byPath: new Map() });

function apply(state: IndexState, line: IndexLine, observer?: ArtifactIndexObserver): void {
  if (!line) return;
  if ('record' in line) {
    const { record } = line;
    if (state.byId.has(record.id)) return;
    state.byId.set(record.id, record);
    const ids = state.byPath.get(record.path) ?? new Set<string>();
    ids.add(record.id);
    state.byPath.set(record.path, ids);
    observer?.added?.(record);
    return;
  }
  for (const id of state.byPath.get(line.removed) ?? []) {
    const record = state.byId.get(id);
    state.byId.delete(id);
    if (record) observer?.removed?.(record);
  }
  state.byPath.delete(line.removed);
}

const CHUNK = 1 << 20;

/**
 * The longest index line read, in bytes. A record holds ids, a tool name, a title (160 chars),
 * a summary (200), a preview (400 grapheme clusters), a few numbers and a digest: a few hundred
 * bytes, some KiB at most. A longer line is corrupt (garbage, or a file that is no index) and is
 * skipped like any line that does not parse, without being held: reading keeps at most this
 * much of an unfinished line, however long the line runs before its newline. `add` refuses a
 * record that would make a longer line, so nothing written is skipped when read back.
 */
export const MAX_INDEX_LINE_BYTES = 1 << 20;

/** The index of the store in `dir` (`<dir>/index.jsonl`). */
export function createArtifactIndex(settings: {
  dir: string;
  /** Told of every record that becomes live or is removed. */
  observer?: ArtifactIndexObserver;
  /** File operations appends go through. Default: the real filesystem. */
  fileSystem?: ArtifactFileSystem;
}): ArtifactIndex {
  const dir = settings.dir;
  const observer = settings.observer;
  const fileSystem = settings.fileSystem;
  const reset = () => {
    for (const record of state.byId.values()) observer?.removed?.(record);
    state = emptyState();
  };
  const file = join(dir, ARTIFACT_INDEX_FILE);
  let state = emptyState();
  /**
   * Bytes of the file consumed: just after a newline, or inside an over-long line being
   * skipped (`skipping`), whose bytes are never read again.
   */
  let consumed = 0;
  /** True when `consumed` is inside a line longer than `MAX_INDEX_LINE_BYTES`. */
  let skipping = false;
  let inode: number | undefined;
  let syncing: Promise<void> | undefined;

  async function readNew(signal?: AbortSignal): Promise<void> {
    signal?.throwIfAborted();
    const handle = await openRegularFile(file);
    if (!handle) {
      reset();
      consumed = 0;
      skipping = false;
      inode = undefined;
      return;
    }
    try {
      const info = await handle.stat();
      if (info.ino !== inode || info.size < consumed) {
        // Replaced or truncated by hand: read it again from the start.
        reset();
        consumed = 0;
        skipping = false;
        inode = info.ino;
      }
      // Lines past MAX_INDEX_LINE_BYTES are skipped unread; the unfinished last line is held.
      const splitter = createLineSplitter({ maxLineBytes: MAX_INDEX_LINE_BYTES, skipping });
      const onLine = (line: Buffer) => apply(state, parseLine(line.toString('utf8')), observer);
      const buffer = Buffer.allocUnsafe(Math.max(1, Math.min(CHUNK, info.size - consumed)));
      let position = consumed;
      while (position < info.size) {
        signal?.throwIfAborted();
        const length = Math.min(buffer.length, info.size - position);
        const { bytesRead } = await handle.read(buffer, 0, length, position);
        if (bytesRead === 0) break;
        position += bytesRead;
        splitter.push(buffer.subarray(0, bytesRead), onLine);
        // The held bytes of an unfinished line are read again next time; skipped ones never.
        consumed = position - splitter.held;
        skipping = splitter.skipping;
      }
    } finally {
      await handle.close();
    }
  }

  function sync(options: { signal?: AbortSignal } = {}): Promise<void> {
    syncing ??= readNew(options.signal).finally(() => {
      syncing = undefined;
    });
    return syncing;
  }

  // One write per append with O_APPEND, starting on a line boundary: concurrent appenders do
  // not interleave within it, and a line torn by a crash or a full disk never swallows it.
  const append = (lines: string) =>
    appendLine(file, lines, {
      code: 'artifact_store_failed',
      followLinks: false,
      ...(fileSystem ? { fileSystem } : {}),
    });

  return {
    dir,
    sync,
    async list(options) {
      await sync(options);
      return [...state.byId.values()];
    },
    async get(id, options) {
      await sync(options);
      return state.byId.get(id);
    },
    async add(record, options = {}) {
      await sync(options);
      const existing = state.byId.get(record.id);
      if (existing) return existing;
      const line = JSON.stringify(record);
      const bytes = Buffer.byteLength(line);
      if (bytes > MAX_INDEX_LINE_BYTES) {
        // Reading skips so long a line: written, the record would be lost on the next open.
        throw new ArtifactError({
          code: 'artifact_store_failed',
          message: `The index record of ${record.id} is ${bytes} bytes, more than the ${MAX_INDEX_LINE_BYTES} an index line may hold`,
          subject: record.id,
        });
      }
      await append(line);
      apply(state, { record }, observer);
      return record;
    },
    async remove(files, options = {}) {
      if (files.length === 0) return;
      await sync(options);
      const at = (options.clock ?? Date.now)();
      await append(files.map((removed) => JSON.stringify({ removed, at })).join('\n'));
      for (const removed of files) apply(state, { removed }, observer);
    },
  };
}
