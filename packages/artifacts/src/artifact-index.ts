import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import type { ArtifactRecord } from './artifact-record.js';
import { openForAppend, openRegularFile } from './open-no-follow.js';
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
   * same result do not duplicate); resolves to the record the index holds.
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

/** The index of the store in `dir` (`<dir>/index.jsonl`). */
export function createArtifactIndex(settings: {
  dir: string;
  /** Told of every record that becomes live or is removed. */
  observer?: ArtifactIndexObserver;
}): ArtifactIndex {
  const dir = settings.dir;
  const observer = settings.observer;
  const reset = () => {
    for (const record of state.byId.values()) observer?.removed?.(record);
    state = emptyState();
  };
  const file = join(dir, ARTIFACT_INDEX_FILE);
  let state = emptyState();
  /** Bytes of the file consumed, always just after a newline. */
  let consumed = 0;
  /** True when the file holds bytes after the last newline (a torn or in-flight line). */
  let openTail = false;
  let inode: number | undefined;
  let syncing: Promise<void> | undefined;

  async function readNew(signal?: AbortSignal): Promise<void> {
    signal?.throwIfAborted();
    const handle = await openRegularFile(file);
    if (!handle) {
      reset();
      consumed = 0;
      openTail = false;
      inode = undefined;
      return;
    }
    try {
      const info = await handle.stat();
      if (info.ino !== inode || info.size < consumed) {
        // Replaced or truncated by hand: read it again from the start.
        reset();
        consumed = 0;
        inode = info.ino;
      }
      let position = consumed;
      let carry = Buffer.alloc(0);
      while (position < info.size) {
        signal?.throwIfAborted();
        const length = Math.min(CHUNK, info.size - position);
        const buffer = Buffer.allocUnsafe(length);
        const { bytesRead } = await handle.read(buffer, 0, length, position);
        if (bytesRead === 0) break;
        position += bytesRead;
        const data = carry.length
          ? Buffer.concat([carry, buffer.subarray(0, bytesRead)])
          : buffer.subarray(0, bytesRead);
        const end = data.lastIndexOf(0x0a);
        if (end < 0) {
          carry = Buffer.from(data);
          continue;
        }
        for (const line of data.subarray(0, end).toString('utf8').split('\n'))
          apply(state, parseLine(line), observer);
        consumed += end + 1;
        carry = Buffer.from(data.subarray(end + 1));
      }
      openTail = carry.length > 0;
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

  async function append(line: string): Promise<void> {
    await mkdir(dir, { recursive: true });
    const handle = await openForAppend(file);
    try {
      // A torn line left by a crash must not swallow this one.
      await handle.write(openTail ? `\n${line}\n` : `${line}\n`);
    } finally {
      await handle.close();
    }
  }

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
      // One write per line with O_APPEND: concurrent appenders do not interleave within it.
      await append(JSON.stringify(record));
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
