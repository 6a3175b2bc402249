import type { FileHandle } from 'node:fs/promises';
import { join } from 'node:path';
import { ArtifactError } from '../artifact-error.js';
import { appendLine } from './append-line.js';
import { type ArtifactFileSystem, nodeArtifactFileSystem } from './artifact-file-system.js';
import type { ArtifactRecord } from './artifact-record.js';
import {
  compactLookupRuns,
  createLookupEntries,
  keyHash,
  type LookupKeyKind,
  type LookupRuns,
  openLookupRuns,
  writeLookupRun,
} from './index-lookup-runs.js';
import { createLineSplitter } from './line-splitter.js';
import { openRegularFile } from './open-no-follow.js';
import { readChunks } from './read-chunks.js';
import { isSafeId } from './safe-id.js';

/** File name of a store's index, inside the store directory. */
export const ARTIFACT_INDEX_FILE = 'index.jsonl';

/** The live records of one store that answer to a reference, each list oldest first. */
export interface ArtifactIndexMatches {
  /** Records whose id is the reference (at most one). */
  byId: ArtifactRecord[];
  /** Records whose file (`path`) is the reference. */
  byFile: ArtifactRecord[];
  /** Records stored under the reference as their operation (tool call) id. */
  byOp: ArtifactRecord[];
}

/**
 * The durable, append-only index of one store. An index up to `lookupTailBytes` long, or one
 * that `list` or `sync` has read, is mirrored in memory, and every later call reads only what
 * was appended since (by this or another process). A larger one is not read whole by `get`,
 * `lookup` or `add`: they search the lookup sidecar (`index.lookup/`, sorted runs of key hashes
 * pointing at index lines) and read the lines past it, so a process that makes one call, as a
 * hook does, costs about the same with 100 records or 100 000. The first such call after an
 * older writer (or none) left the index without a sidecar builds it, reading the index once.
 * After `mirrorAfterLookups` such calls the index is mirrored, as the process is long-lived.
 */
export interface ArtifactIndex {
  /** The store directory. */
  readonly dir: string;
  /** Every live record, oldest first; torn and foreign lines are skipped, duplicates merged. */
  list(options?: { signal?: AbortSignal }): Promise<ArtifactRecord[]>;
  /** The live record with `id`, if any. */
  get(id: string, options?: { signal?: AbortSignal }): Promise<ArtifactRecord | undefined>;
  /** The live records whose id, file name or operation id is `ref`. */
  lookup(ref: string, options?: { signal?: AbortSignal }): Promise<ArtifactIndexMatches>;
  /** True once the index is mirrored in memory (and the observer told of its records). */
  readonly mirrored: boolean;
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
  /** Mirrors the index in memory: reads it whole the first time, then what was appended since. */
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
  /** Ids of the live records stored under each operation id. */
  byOp: Map<string, Set<string>>;
}

const emptyState = (): IndexState => ({ byId: new Map(), byPath: new Map(), byOp: new Map() });

function addId(map: Map<string, Set<string>>, key: string, id: string): void {
  const ids = map.get(key);
  if (ids) ids.add(id);
  else map.set(key, new Set([id]));
}

function apply(state: IndexState, line: IndexLine, observer?: ArtifactIndexObserver): void {
  if (!line) return;
  if ('record' in line) {
    const { record } = line;
    if (state.byId.has(record.id)) return;
    state.byId.set(record.id, record);
    addId(state.byPath, record.path, record.id);
    if (typeof record.toolCallId === 'string') addId(state.byOp, record.toolCallId, record.id);
    observer?.added?.(record);
    return;
  }
  for (const id of state.byPath.get(line.removed) ?? []) {
    const record = state.byId.get(id);
    state.byId.delete(id);
    if (record && typeof record.toolCallId === 'string') {
      const ids = state.byOp.get(record.toolCallId);
      ids?.delete(id);
      if (ids?.size === 0) state.byOp.delete(record.toolCallId);
    }
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

/**
 * Index bytes a lookup reads past its sidecar before it indexes them into a new run, and the
 * size up to which an index is simply mirrored in memory.
 */
export const LOOKUP_TAIL_BYTES = 256 * 1024;

/** Settings of `createArtifactIndex`. */
export interface ArtifactIndexSettings {
  /** The store directory. */
  dir: string;
  /** Told of every record that becomes live or is removed while the index is mirrored. */
  observer?: ArtifactIndexObserver;
  /** File operations appends and lookup runs are written with. Default: the real filesystem. */
  fileSystem?: ArtifactFileSystem;
  /**
   * Index bytes, in bytes, that `get`, `lookup` and `add` read past the lookup sidecar before
   * indexing them into it; an index up to this size is mirrored instead. Default
   * `LOOKUP_TAIL_BYTES` (256 KiB). No environment variable: lower it only to test the sidecar.
   */
  lookupTailBytes?: number;
  /**
   * Lookups through the sidecar after which the index is mirrored, since a process that looks
   * up this often lives long enough for reading the whole index once to pay off (a server, an
   * agent loop). Default `MIRROR_AFTER_LOOKUPS` (16); a one-call process never gets there.
   */
  mirrorAfterLookups?: number;
}

/** Sidecar lookups by one index object after which it mirrors the index instead. */
export const MIRROR_AFTER_LOOKUPS = 16;

/** One parsed index line and the offset it starts at. */
interface LocatedLine {
  offset: number;
  line: NonNullable<IndexLine>;
}

/**
 * Calls `onLine` with the offset and bytes (newline left out) of each complete line in
 * `[from, to)`, skipping lines over `MAX_INDEX_LINE_BYTES` without holding them, and resolves to
 * the offset just after the last newline.
 */
async function forEachLine(
  handle: FileHandle,
  from: number,
  to: number,
  onLine: (offset: number, bytes: Buffer) => void,
  signal?: AbortSignal,
): Promise<number> {
  let lineStart = from;
  let pieces: Buffer[] = [];
  let held = 0;
  let skipping = false;
  let position = from;
  for await (const chunk of readChunks(handle, from, to, {
    chunkBytes: CHUNK,
    ...(signal ? { signal } : {}),
  })) {
    let start = 0;
    for (let newline = chunk.indexOf(0x0a); newline >= 0; newline = chunk.indexOf(0x0a, start)) {
      const length = held + newline - start;
      if (!skipping && length <= MAX_INDEX_LINE_BYTES) {
        const tail = chunk.subarray(start, newline);
        onLine(lineStart, held === 0 ? tail : Buffer.concat([...pieces, tail], length));
      }
      skipping = false;
      pieces = [];
      held = 0;
      start = newline + 1;
      lineStart = position + start;
    }
    const rest = chunk.length - start;
    if (!skipping && rest > 0) {
      if (held + rest > MAX_INDEX_LINE_BYTES) {
        skipping = true;
        pieces = [];
        held = 0;
      } else {
        pieces.push(Buffer.from(chunk.subarray(start)));
        held += rest;
      }
    }
    position += chunk.length;
  }
  return lineStart;
}

async function readLineAt(handle: FileHandle, offset: number, length: number): Promise<IndexLine> {
  const buffer = Buffer.alloc(length + 1);
  let done = 0;
  while (done < buffer.length) {
    const { bytesRead } = await handle.read(buffer, done, buffer.length - done, offset + done);
    if (bytesRead === 0) return undefined;
    done += bytesRead;
  }
  if (buffer[length] !== 0x0a) return undefined;
  return parseLine(buffer.toString('utf8', 0, length));
}

function hasKey(line: NonNullable<IndexLine>, kind: LookupKeyKind, key: string): boolean {
  if (!('record' in line)) return kind === 'removed' && line.removed === key;
  const { record } = line;
  return kind === 'id'
    ? record.id === key
    : kind === 'file'
      ? record.path === key
      : kind === 'op' && record.toolCallId === key;
}

/** The keys an index line is found by. */
function keysOf(line: NonNullable<IndexLine>): [LookupKeyKind, string][] {
  if (!('record' in line)) return [['removed', line.removed]];
  const { record } = line;
  const keys: [LookupKeyKind, string][] = [
    ['id', record.id],
    ['file', record.path],
  ];
  if (typeof record.toolCallId === 'string') keys.push(['op', record.toolCallId]);
  return keys;
}

/** Lookups through the sidecar and the lines past it, for one call. */
interface LookupView {
  /** The live record with `id`. */
  live(id: string): Promise<ArtifactRecord | undefined>;
  lookup(ref: string): Promise<ArtifactIndexMatches>;
}

/**
 * A `LookupView` of the index behind `handle`: the runs that cover it, and its lines past them,
 * parsed (at most `tailBytes` of them, once the runs are brought up to date). Resolves to
 * `undefined` when the lines past the runs are too many and no run can be written (a read-only
 * store): the caller then reads the whole index.
 */
async function openLookupView(
  dir: string,
  handle: FileHandle,
  size: number,
  tailBytes: number,
  fileSystem: ArtifactFileSystem,
  signal: AbortSignal | undefined,
): Promise<(LookupView & { close(): Promise<void> }) | undefined> {
  let chain: LookupRuns = await openLookupRuns(dir, handle, size, fileSystem);
  if (size - chain.covered > tailBytes) {
    const from = chain.covered;
    await chain.close();
    // The first lookup after an older writer (or none) indexes the whole file, once.
    const entries = createLookupEntries();
    const end = await forEachLine(
      handle,
      from,
      size,
      (offset, bytes) => {
        const line = parseLine(bytes.toString('utf8'));
        if (line)
          for (const [kind, key] of keysOf(line))
            entries.push(keyHash(kind, key), offset, bytes.length);
      },
      signal,
    );
    if (end > from) {
      try {
        await writeLookupRun(dir, handle, from, end, entries, fileSystem);
      } catch {
        return undefined;
      }
      await compactLookupRuns(dir, handle, size, fileSystem).catch(() => {});
    }
    chain = await openLookupRuns(dir, handle, size, fileSystem);
  }
  const tail: LocatedLine[] = [];
  try {
    await forEachLine(
      handle,
      chain.covered,
      size,
      (offset, bytes) => {
        const line = parseLine(bytes.toString('utf8'));
        if (line) tail.push({ offset, line });
      },
      signal,
    );
  } catch (error) {
    await chain.close();
    throw error;
  }

  const found = new Map<string, Promise<LocatedLine[]>>();
  const linesWith = (kind: LookupKeyKind, key: string): Promise<LocatedLine[]> => {
    const cacheKey = `${kind}\0${key}`;
    let lines = found.get(cacheKey);
    if (!lines) {
      lines = (async () => {
        const hash = keyHash(kind, key);
        const pointers = (await Promise.all(chain.runs.map((run) => run.find(hash)))).flat();
        const offsets = new Set<number>();
        const read = await Promise.all(
          pointers
            .filter(({ offset }) => !offsets.has(offset) && offsets.add(offset))
            .map(async ({ offset, length }) => ({
              offset,
              line: await readLineAt(handle, offset, length),
            })),
        );
        const lines: LocatedLine[] = [];
        for (const { offset, line } of read)
          if (line && hasKey(line, kind, key)) lines.push({ offset, line });
        for (const located of tail)
          if (!offsets.has(located.offset) && hasKey(located.line, kind, key)) lines.push(located);
        return lines;
      })();
      found.set(cacheKey, lines);
    }
    return lines;
  };

  /** Replays the lines that decide `id`: its records and the removals of their files. */
  const liveWithOffset = async (id: string) => {
    const own = await linesWith('id', id);
    const paths = new Set<string>();
    for (const { line } of own) if ('record' in line) paths.add(line.record.path);
    const removals = (
      await Promise.all([...paths].map((path) => linesWith('removed', path)))
    ).flat();
    const lines = [...new Map([...own, ...removals].map((l) => [l.offset, l])).values()].sort(
      (a, b) => a.offset - b.offset,
    );
    const state = emptyState();
    let offset = -1;
    for (const located of lines) {
      const before = state.byId.get(id);
      apply(state, located.line);
      if (!before && state.byId.get(id)) offset = located.offset;
    }
    const record = state.byId.get(id);
    return record ? { record, offset } : undefined;
  };

  return {
    async live(id) {
      return (await liveWithOffset(id))?.record;
    },
    async lookup(ref) {
      const named = await Promise.all(
        (['id', 'file', 'op'] as const).map((kind) => linesWith(kind, ref)),
      );
      const ids = new Set<string>();
      for (const { line } of named.flat()) if ('record' in line) ids.add(line.record.id);
      const live = (await Promise.all([...ids].map(liveWithOffset)))
        .filter((found) => found !== undefined)
        .sort((a, b) => a.offset - b.offset)
        .map(({ record }) => record);
      return {
        byId: live.filter((record) => record.id === ref),
        byFile: live.filter((record) => record.path === ref),
        byOp: live.filter((record) => record.toolCallId === ref),
      };
    },
    close: () => chain.close(),
  };
}

/** The index of the store in `dir` (`<dir>/index.jsonl`). */
export function createArtifactIndex(settings: ArtifactIndexSettings): ArtifactIndex {
  const dir = settings.dir;
  const observer = settings.observer;
  const fileSystem = settings.fileSystem;
  const tailBytes = settings.lookupTailBytes ?? LOOKUP_TAIL_BYTES;
  const mirrorAfter = settings.mirrorAfterLookups ?? MIRROR_AFTER_LOOKUPS;
  let lookups = 0;
  const reset = () => {
    for (const record of state.byId.values()) observer?.removed?.(record);
    state = emptyState();
  };
  const file = join(dir, ARTIFACT_INDEX_FILE);
  let state = emptyState();
  /** True once `state` mirrors the file (read whole once, then what was appended). */
  let mirrored = false;
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
      mirrored = true;
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
      mirrored = true;
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

  /**
   * Answers from the mirror, or, for a large index not mirrored yet, through the lookup
   * sidecar without reading the whole file; a store where no run can be written, or an index
   * looked up `mirrorAfter` times already, is mirrored.
   */
  async function answer<T>(
    signal: AbortSignal | undefined,
    fromMirror: () => T,
    fromLookup: (view: LookupView) => Promise<T>,
  ): Promise<T> {
    if (!mirrored && lookups < mirrorAfter) {
      signal?.throwIfAborted();
      const handle = await openRegularFile(file);
      if (handle) {
        try {
          const { size } = await handle.stat();
          if (size > tailBytes) {
            const view = await openLookupView(
              dir,
              handle,
              size,
              tailBytes,
              fileSystem ?? nodeArtifactFileSystem,
              signal,
            );
            if (view) {
              lookups++;
              try {
                return await fromLookup(view);
              } finally {
                await view.close();
              }
            }
          }
        } finally {
          await handle.close();
        }
      }
    }
    await sync(signal ? { signal } : {});
    return fromMirror();
  }

  const mirrorLookup = (ref: string): ArtifactIndexMatches => {
    const byId = state.byId.get(ref);
    const byFile = [...(state.byPath.get(ref) ?? [])]
      .map((id) => state.byId.get(id))
      .filter((record) => record !== undefined);
    const byOp = [...(state.byOp.get(ref) ?? [])]
      .map((id) => state.byId.get(id))
      .filter((record) => record !== undefined);
    return { byId: byId ? [byId] : [], byFile, byOp };
  };

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
    get mirrored() {
      return mirrored;
    },
    sync,
    async list(options) {
      await sync(options);
      return [...state.byId.values()];
    },
    async get(id, options = {}) {
      return answer(
        options.signal,
        () => state.byId.get(id),
        (view) => view.live(id),
      );
    },
    async lookup(ref, options = {}) {
      return answer(
        options.signal,
        () => mirrorLookup(ref),
        (view) => view.lookup(ref),
      );
    },
    async add(record, options = {}) {
      const existing = await answer(
        options.signal,
        () => state.byId.get(record.id),
        (view) => view.live(record.id),
      );
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
      if (mirrored) apply(state, { record }, observer);
      return record;
    },
    async remove(files, options = {}) {
      if (files.length === 0) return;
      if (mirrored) await sync(options);
      const at = (options.clock ?? Date.now)();
      await append(files.map((removed) => JSON.stringify({ removed, at })).join('\n'));
      if (mirrored) for (const removed of files) apply(state, { removed }, observer);
    },
  };
}
