import type { Stats } from 'node:fs';
import type { FileHandle } from 'node:fs/promises';
import { readdir, realpath } from 'node:fs/promises';
import { basename, join } from 'node:path';
import { ArtifactError } from '../artifact-error.js';
import {
  type ArtifactIndex,
  type ArtifactIndexMatches,
  createArtifactIndex,
} from '../storage/artifact-index.js';
import type { ArtifactRecord } from '../storage/artifact-record.js';
import { createModelCallLog, type ModelCallRecord } from '../storage/model-call-log.js';
import { openRegularFile } from '../storage/open-no-follow.js';
import { isPermissionError, permissionDenied } from '../storage/permission-denied.js';
import { buildArtifactRecord } from '../storage/record-stored-artifact.js';
import { isSafeId } from '../storage/safe-id.js';
import { describeFile, type FileDescription } from './describe-file.js';
import { buildLineIndex, type LineIndex } from './line-index.js';
import { createLruCache } from './lru-cache.js';
import { pagingValue } from './paging-value.js';
import {
  readTextPage,
  searchText,
  type TextPage,
  type TextPosition,
  type TextSearchResult,
} from './read-artifact-text.js';

const STORE_SUFFIX = '.artifacts';

/** A page of an artifact. Lines and columns count from 1, as `artifact_search` reports them. */
export interface ArtifactPage extends TextPage {
  /** The artifact id. */
  id: string;
  /** The file's basename, as the excerpt marker names it. */
  file: string;
  /** The session (store directory) it was found in. */
  sessionId: string;
}

/** What `search` found in an artifact. */
export interface ArtifactSearchResult extends TextSearchResult {
  id: string;
  file: string;
  sessionId: string;
  /** Lines in the whole artifact. */
  totalLines: number;
}

/** Options of `search`. */
export interface SearchOptions {
  /** Treat `pattern` as a regular expression in RE2 syntax (linear time). Default false: literal. */
  regex?: boolean;
  /** Match case. Default false. */
  caseSensitive?: boolean;
  /** Stop after this many matches. Default 50, at most 500. */
  maxMatches?: number;
  /** Start at this 1-based line (the `next.line` of a previous answer). Default 1. */
  fromLine?: number;
  /** Start at this 1-based column of `fromLine`. Default 1. */
  fromColumn?: number;
  /** Wall-clock budget in ms, at most the library's `searchTimeMs`. */
  timeBudgetMs?: number;
  signal?: AbortSignal;
}

/** Options of `readPage`. */
export interface ReadPageOptions {
  /** First line, 1-based (0 is read as 1); negative counts from the end (-50: the last 50 lines). Default 1. */
  offset?: number;
  /** 1-based column in the first line to start at, for paging through a long line. Default 1. */
  column?: number;
  /** Lines per page. Default 200, at most 1000. */
  limit?: number;
  /** Code units per page. Default 20 000, at most 100 000; a longer line is paged in windows. */
  maxChars?: number;
  /** Only look in this session's store. */
  sessionId?: string;
  signal?: AbortSignal;
}

/** An artifact found by id, file name or operation id. */
export interface ResolvedArtifact {
  record: ArtifactRecord;
  /** The session (store directory name without `.artifacts`) it was found in. */
  sessionId: string;
  /** The store directory; the file is `join(dir, record.path)`. */
  dir: string;
}

/** Settings of `createArtifactLibrary`. */
export interface ArtifactLibrarySettings {
  /** Directory of `<session>.jsonl` transcripts and `<session>.artifacts/` stores. Required. */
  root: string;
  /** Wall-clock budget of one search in ms. Default 5000. */
  searchTimeMs?: number;
  /** Monotonic clock in ms for the search budget. Default `performance.now`. */
  now?: () => number;
}

/** Sessions and artifacts under one directory of transcripts (`<session>.jsonl` + `<session>.artifacts/`). */
export interface ArtifactLibrary {
  /** The directory. */
  readonly root: string;
  /** Session ids (store directory names without `.artifacts`, any Unicode), sorted. */
  sessions(options?: { signal?: AbortSignal }): Promise<string[]>;
  /** The live records of one session's store, oldest first. `artifact_not_found` for an unknown session. */
  list(sessionId: string, options?: { signal?: AbortSignal }): Promise<ArtifactRecord[]>;
  /** The model calls recorded in one session's store, oldest first. */
  modelCalls(sessionId: string, options?: { signal?: AbortSignal }): Promise<ModelCallRecord[]>;
  /**
   * The artifact `ref` names: an artifact id (`art_…`), the file basename an excerpt marker
   * names, or the operation (tool call) id it was stored under. Resolved in the store folder it
   * is found in, so transcripts can be moved or renamed with their `.artifacts/`. A stored file
   * whose index record was never written (a crash between the two) is found by its file name and
   * described from its bytes, read in chunks once per version of the file. Throws
   * `artifact_not_found`, or `artifact_ambiguous` for a file name or operation id that several
   * sessions or results share (the message names each one's id and session).
   */
  resolve(
    ref: string,
    options?: { sessionId?: string; signal?: AbortSignal },
  ): Promise<ResolvedArtifact>;
  /** `resolve(ref).record`, or `undefined` when nothing answers to `ref`. */
  find(
    ref: string,
    options?: { sessionId?: string; signal?: AbortSignal },
  ): Promise<ArtifactRecord | undefined>;
  /** A page of an artifact. */
  readPage(ref: string, options?: ReadPageOptions): Promise<ArtifactPage>;
  /** Lines of an artifact that match `pattern`, with 1-based line and column numbers. */
  search(
    ref: string,
    pattern: string,
    options?: SearchOptions & { sessionId?: string },
  ): Promise<ArtifactSearchResult>;
  /** The stored bytes, for a download. Close the handle when done. */
  openRaw(
    ref: string,
    options?: { sessionId?: string; signal?: AbortSignal },
  ): Promise<ResolvedArtifact & { handle: FileHandle; bytes: number }>;
}

/** Limits applied to every page. */
export const PAGE_LIMITS = {
  maxLines: 1000,
  maxChars: 100_000,
  defaultLines: 200,
  defaultChars: 20_000,
} as const;

/** Limits of a search. */
export const SEARCH_LIMITS = { defaultMatches: 50, maxMatches: 500, defaultTimeMs: 5000 } as const;

const LINE_INDEX_CACHE = 64;
/** Descriptions of files no index record names, kept so a page does not read the file again. */
const UNINDEXED_CACHE = 64;

/** One version of one file: a rewrite changes its size or modification time. */
function fileIdentity(info: Stats): string {
  return `${info.dev}:${info.ino}:${info.size}:${info.mtimeMs}`;
}

interface StoreRef {
  sessionId: string;
  dir: string;
  index: ArtifactIndex;
}

interface Entry {
  store: StoreRef;
  record: ArtifactRecord;
}

function addTo(map: Map<string, Entry[]>, key: string | undefined, entry: Entry): void {
  if (key === undefined) return;
  const list = map.get(key);
  if (list) list.push(entry);
  else map.set(key, [entry]);
}

function removeFrom(map: Map<string, Entry[]>, key: string | undefined, entry: Entry): void {
  if (key === undefined) return;
  const list = map.get(key);
  if (!list) return;
  const kept = list.filter(
    (item) => item.store !== entry.store || item.record.id !== entry.record.id,
  );
  if (kept.length) map.set(key, kept);
  else map.delete(key);
}

/**
 * A library over the transcripts and stores in `root`. It keeps every store's index in memory,
 * in step with the files (only what was appended since is read), so a lookup or a page costs
 * the same with one session or a thousand. Store folders and artifact files are opened without
 * following symbolic links, and a store must really be inside `root`.
 */
export function createArtifactLibrary(settings: ArtifactLibrarySettings): ArtifactLibrary {
  const root = settings.root;
  const searchTimeMs = settings.searchTimeMs ?? SEARCH_LIMITS.defaultTimeMs;
  const now = settings.now ?? (() => performance.now());
  const stores = new Map<string, StoreRef>();
  const byId = new Map<string, Entry[]>();
  const byFile = new Map<string, Entry[]>();
  const byOp = new Map<string, Entry[]>();
  const lineIndexes = createLruCache<string, LineIndex>(LINE_INDEX_CACHE);
  const unindexedFiles = createLruCache<string, FileDescription>(UNINDEXED_CACHE);
  let realRoot: string | undefined;
  /** Stores whose index could not be read at the last sync, with why. */
  const unreadable = new Map<StoreRef, ArtifactError>();
  let listing: Promise<void> | undefined;
  let syncing: Promise<void> | undefined;

  function openStore(name: string): StoreRef {
    const sessionId = name.slice(0, -STORE_SUFFIX.length);
    const dir = join(root, name);
    const store: StoreRef = { sessionId, dir, index: undefined as unknown as ArtifactIndex };
    store.index = createArtifactIndex({
      dir,
      observer: {
        added(record) {
          const entry = { store, record };
          addTo(byId, record.id, entry);
          addTo(byFile, record.path, entry);
          addTo(byOp, record.toolCallId, entry);
        },
        removed(record) {
          const entry = { store, record };
          removeFrom(byId, record.id, entry);
          removeFrom(byFile, record.path, entry);
          removeFrom(byOp, record.toolCallId, entry);
        },
      },
    });
    return store;
  }

  async function readListing(): Promise<void> {
    let entries: import('node:fs').Dirent[];
    try {
      entries = await readdir(root, { withFileTypes: true });
    } catch (error) {
      if (isPermissionError(error)) throw permissionDenied(`the folder ${basename(root)}`, error);
      if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
      entries = [];
    }
    const seen = new Set<string>();
    for (const entry of entries) {
      // A symbolic link is never a store, whatever it points at.
      if (!entry.isDirectory() || !entry.name.endsWith(STORE_SUFFIX)) continue;
      if (entry.name.length === STORE_SUFFIX.length) continue;
      const sessionId = entry.name.slice(0, -STORE_SUFFIX.length);
      seen.add(sessionId);
      if (!stores.has(sessionId)) stores.set(sessionId, openStore(entry.name));
    }
    for (const [sessionId, store] of stores) {
      if (seen.has(sessionId)) continue;
      stores.delete(sessionId);
      unreadable.delete(store);
      if (!store.index.mirrored) continue;
      for (const record of await store.index.list().catch(() => [])) {
        const entry = { store, record };
        removeFrom(byId, record.id, entry);
        removeFrom(byFile, record.path, entry);
        removeFrom(byOp, record.toolCallId, entry);
      }
    }
  }

  const refreshListing = () => {
    listing ??= readListing().finally(() => {
      listing = undefined;
    });
    return listing;
  };

  /** Brings every mirrored index up to date (a large one that is not mirrored stays unread). */
  const syncAll = (signal?: AbortSignal) => {
    syncing ??= (async () => {
      await refreshListing();
      // One store that cannot be read does not keep the others from answering; it is
      // remembered, so a reference found nowhere else is not called unknown.
      await Promise.all(
        [...stores.values()]
          .filter((store) => store.index.mirrored)
          .map((store) =>
            store.index.sync({ signal }).then(noteReadable(store), noteDenied(store)),
          ),
      );
    })().finally(() => {
      syncing = undefined;
    });
    return syncing;
  };

  const noteReadable = (store: StoreRef) => () => {
    unreadable.delete(store);
  };
  const noteDenied = (store: StoreRef) => (error: unknown) => {
    if (ArtifactError.isInstance(error) && error.code === 'artifact_permission_denied')
      unreadable.set(store, error);
  };

  /**
   * The records of each store in scope that answer to `ref`, by id first, then file name, then
   * operation id: from memory when every store is mirrored, else through each index's lookup
   * (a small index is mirrored on the way; a large one is searched without being read whole).
   */
  async function lookUp(ref: string, sessionId: string | undefined, signal?: AbortSignal) {
    if (sessionId === undefined) await refreshListing();
    const scope =
      sessionId === undefined
        ? [...stores.values()]
        : [storeOf(sessionId)].filter((store) => store !== undefined);
    const found = { byId: [] as Entry[], byFile: [] as Entry[], byOp: [] as Entry[] };
    await Promise.all(
      scope.map(async (store) => {
        let matches: ArtifactIndexMatches;
        try {
          matches = await store.index.lookup(ref, signal ? { signal } : {});
          unreadable.delete(store);
        } catch (error) {
          noteDenied(store)(error);
          return;
        }
        for (const key of ['byId', 'byFile', 'byOp'] as const)
          for (const record of matches[key]) found[key].push({ store, record });
      }),
    );
    signal?.throwIfAborted();
    return found.byId.length ? found.byId : found.byFile.length ? found.byFile : found.byOp;
  }

  function storeOf(sessionId: string): StoreRef | undefined {
    if (typeof sessionId !== 'string') return undefined;
    const exact = stores.get(sessionId);
    if (exact) return exact;
    // The same name in another Unicode normal form (macOS writes NFD).
    const wanted = sessionId.normalize('NFC');
    for (const store of stores.values())
      if (store.sessionId.normalize('NFC') === wanted) return store;
    return undefined;
  }

  async function sessionStore(sessionId: string): Promise<StoreRef> {
    let store = storeOf(sessionId);
    if (!store) {
      await refreshListing();
      store = storeOf(sessionId);
    }
    if (!store) {
      throw new ArtifactError({
        code: 'artifact_not_found',
        message: `No session ${JSON.stringify(String(sessionId).slice(0, 200))} with stored artifacts`,
        subject: String(sessionId),
      });
    }
    return store;
  }

  /** True when the store in scope (every store, without a session) is mirrored in memory. */
  function allMirrored(sessionId: string | undefined): boolean {
    if (sessionId !== undefined) return storeOf(sessionId)?.index.mirrored === true;
    if (stores.size === 0) return false;
    for (const store of stores.values()) if (!store.index.mirrored) return false;
    return true;
  }

  function candidates(ref: string, sessionId: string | undefined): Entry[] {
    const scope = sessionId === undefined ? undefined : storeOf(sessionId);
    if (sessionId !== undefined && !scope) return [];
    for (const map of [byId, byFile, byOp]) {
      const found = (map.get(ref) ?? []).filter((entry) => !scope || entry.store === scope);
      if (found.length) return found;
    }
    return [];
  }

  function pick(ref: string, found: Entry[]): Entry {
    const ids = [...new Set(found.map((entry) => entry.record.id))];
    if (ids.length > 1) {
      throw new ArtifactError({
        code: 'artifact_ambiguous',
        message: `${JSON.stringify(ref)} names ${ids.length} artifacts (a file name or an operation id that several sessions or results share): ${found
          .slice(0, 10)
          .map(
            (entry) =>
              `${entry.record.id} (session ${JSON.stringify(entry.store.sessionId)}, ${entry.record.title}, ${entry.record.bytes} bytes)`,
          )
          .join('; ')}; pass the artifact id, or the session to look in`,
        subject: ref,
      });
    }
    // The same id in two stores (a copied folder): the newest copy.
    return found.reduce((a, b) => (b.record.createdAt > a.record.createdAt ? b : a));
  }

  function notFound(ref: string, reason = ''): ArtifactError {
    return new ArtifactError({
      code: 'artifact_not_found',
      message: `No artifact ${JSON.stringify(String(ref).slice(0, 200))}${reason}: pass an artifact id (art_…), the file name an excerpt marker names, or the tool call id it was stored under`,
      subject: String(ref),
    });
  }

  async function insideRoot(dir: string): Promise<boolean> {
    try {
      realRoot ??= await realpath(root);
      return (await realpath(dir)) === join(realRoot, basename(dir));
    } catch {
      return false;
    }
  }

  /**
   * A file of a store that no index record names (the process died between writing the file
   * and its record): found by its basename, described from its bytes. Only a regular file
   * directly in a store really inside `root` answers; nothing is written. The description is
   * read in chunks (any size, memory bounded by a chunk) once per version of the file, then
   * taken from a small cache, so paging through such a file reads it whole only once.
   */
  async function unindexed(ref: string, sessionId: string | undefined, signal?: AbortSignal) {
    if (!isSafeId(ref) || !ref.endsWith('.txt') || ref.startsWith('.')) return undefined;
    const scope = sessionId === undefined ? [...stores.values()] : [storeOf(sessionId)!];
    for (const store of scope) {
      if (!(await insideRoot(store.dir))) continue;
      let handle: FileHandle | undefined;
      try {
        handle = await openRegularFile(join(store.dir, ref));
      } catch (error) {
        if (!ArtifactError.isInstance(error) || error.code !== 'artifact_permission_denied')
          throw error;
        unreadable.set(store, error);
      }
      if (!handle) continue;
      try {
        const info = await handle.stat();
        const key = fileIdentity(info);
        let description = unindexedFiles.get(key);
        if (!description) {
          description = await describeFile(handle, info.size, signal ? { signal } : {});
          unindexedFiles.set(key, description);
        }
        const record = buildArtifactRecord({
          sessionId: store.sessionId,
          stored: {
            file: ref,
            digest: description.digest,
            bytes: description.bytes,
            chars: description.chars,
          },
          preview: description.preview,
          clock: () => Math.floor(info.mtimeMs),
        });
        return { record, sessionId: store.sessionId, dir: store.dir };
      } finally {
        await handle.close();
      }
    }
    return undefined;
  }

  async function resolve(ref: string, options: { sessionId?: string; signal?: AbortSignal } = {}) {
    if (typeof ref !== 'string' || ref.length === 0 || ref.length > 1024) {
      throw new ArtifactError({
        code: 'artifact_invalid_id',
        message: 'artifact reference must be 1-1024 chars',
      });
    }
    options.signal?.throwIfAborted();
    if (options.sessionId !== undefined) await sessionStore(options.sessionId);
    let found = allMirrored(options.sessionId) ? candidates(ref, options.sessionId) : [];
    if (found.length === 0) found = await lookUp(ref, options.sessionId, options.signal);
    if (found.length === 0) {
      const orphan = await unindexed(ref, options.sessionId, options.signal);
      if (orphan) return orphan;
      const scope = options.sessionId === undefined ? undefined : storeOf(options.sessionId);
      const denied = [...unreadable].filter(([store]) => !scope || store === scope);
      if (denied.length > 0) {
        // The reference may be in a store that could not be read: not "unknown".
        throw new ArtifactError({
          code: 'artifact_permission_denied',
          message: `No artifact ${JSON.stringify(String(ref).slice(0, 200))} in the stores that could be read; ${denied
            .slice(0, 10)
            .map(([, error]) => error.message)
            .join('; ')}`,
          subject: String(ref),
          cause: denied[0]![1],
        });
      }
      throw notFound(ref);
    }
    const entry = pick(ref, found);
    return { record: entry.record, sessionId: entry.store.sessionId, dir: entry.store.dir };
  }

  /** Opens the artifact's file: a regular file, not a link, in a store really inside `root`. */
  async function open(ref: string, options: { sessionId?: string; signal?: AbortSignal }) {
    for (let attempt = 0; ; attempt++) {
      const resolved = await resolve(ref, options);
      const handle = (await insideRoot(resolved.dir))
        ? await openRegularFile(join(resolved.dir, resolved.record.path))
        : undefined;
      if (handle) return { ...resolved, handle };
      // The folder may have been renamed since it was read: look once more.
      if (attempt > 0) throw notFound(ref, ' (its file is missing, or is a symbolic link)');
      await syncAll(options.signal);
    }
  }

  async function lineIndexOf(handle: FileHandle, signal?: AbortSignal): Promise<LineIndex> {
    const info = await handle.stat();
    const key = fileIdentity(info);
    const cached = lineIndexes.get(key);
    if (cached) return cached;
    const built = await buildLineIndex(handle, info.size, signal);
    lineIndexes.set(key, built);
    return built;
  }

  /** Opens `ref`, hands its line index to `use`, and closes the file whatever happens. */
  async function withText<T>(
    ref: string,
    options: { sessionId?: string; signal?: AbortSignal },
    use: (
      handle: FileHandle,
      index: LineIndex,
      found: { id: string; file: string; sessionId: string },
    ) => Promise<T>,
  ): Promise<T> {
    const opened = await open(ref, options);
    try {
      const index = await lineIndexOf(opened.handle, options.signal);
      return await use(opened.handle, index, {
        id: opened.record.id,
        file: opened.record.path,
        sessionId: opened.sessionId,
      });
    } finally {
      await opened.handle.close();
    }
  }

  return {
    root,
    async sessions(options = {}) {
      options.signal?.throwIfAborted();
      await refreshListing();
      return [...stores.keys()].sort();
    },
    async list(sessionId, options = {}) {
      const store = await sessionStore(sessionId);
      return store.index.list(options);
    },
    async modelCalls(sessionId, options = {}) {
      options.signal?.throwIfAborted();
      const store = await sessionStore(sessionId);
      return createModelCallLog({ dir: store.dir }).read(options);
    },
    resolve,
    async find(ref, options = {}) {
      try {
        return (await resolve(ref, options)).record;
      } catch (error) {
        if (ArtifactError.isInstance(error) && error.code === 'artifact_not_found')
          return undefined;
        throw error;
      }
    },
    async readPage(ref, options = {}) {
      const limit = pagingValue(options.limit, 'limit', {
        default: PAGE_LIMITS.defaultLines,
        min: 1,
        max: PAGE_LIMITS.maxLines,
      });
      const maxChars = pagingValue(options.maxChars, 'maxChars', {
        default: PAGE_LIMITS.defaultChars,
        min: 1,
        max: PAGE_LIMITS.maxChars,
      });
      const offset = pagingValue(options.offset, 'offset', {
        default: 1,
        min: Number.MIN_SAFE_INTEGER,
        max: Number.MAX_SAFE_INTEGER,
      });
      const column = pagingValue(options.column, 'column', {
        default: 1,
        min: 1,
        max: Number.MAX_SAFE_INTEGER,
      });
      return withText(ref, options, async (handle, index, found) => {
        const line = offset < 0 ? Math.max(1, index.totalLines + offset + 1) : Math.max(1, offset);
        const page = await readTextPage(
          handle,
          index,
          { line, column: offset < 0 ? 1 : column },
          { limit, maxChars, ...(options.signal ? { signal: options.signal } : {}) },
        );
        return { ...found, ...page };
      });
    },
    async search(ref, pattern, options = {}) {
      // Imported on the first search: the RE2 engine (re2js, ~270 KB of JavaScript) is not
      // loaded by a process that only pages (`compaction read`, the CLI's cold start).
      const { compileSearchPattern } = await import('./search-pattern.js');
      const matcher = compileSearchPattern(pattern, options);
      const maxMatches = pagingValue(options.maxMatches, 'maxMatches', {
        default: SEARCH_LIMITS.defaultMatches,
        min: 1,
        max: SEARCH_LIMITS.maxMatches,
      });
      const from: TextPosition = {
        line: pagingValue(options.fromLine, 'fromLine', {
          default: 1,
          min: 1,
          max: Number.MAX_SAFE_INTEGER,
        }),
        column: pagingValue(options.fromColumn, 'fromColumn', {
          default: 1,
          min: 1,
          max: Number.MAX_SAFE_INTEGER,
        }),
      };
      const budget = pagingValue(options.timeBudgetMs, 'timeBudgetMs', {
        default: searchTimeMs,
        min: 1,
        max: searchTimeMs,
      });
      const started = now();
      return withText(ref, options, async (handle, index, found) => {
        const result = await searchText(handle, index, matcher, from, {
          maxMatches,
          deadline: started + budget,
          now,
          ...(options.signal ? { signal: options.signal } : {}),
        });
        return { ...found, totalLines: index.totalLines, ...result };
      });
    },
    async openRaw(ref, options = {}) {
      const opened = await open(ref, options);
      const info = await opened.handle.stat();
      return { ...opened, bytes: info.size };
    },
  };
}
