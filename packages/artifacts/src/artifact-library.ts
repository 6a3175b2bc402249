import { createReadStream } from 'node:fs';
import { readdir, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { ArtifactError } from './artifact-error.js';
import { createArtifactIndex } from './artifact-index.js';
import type { ArtifactRecord } from './artifact-record.js';
import { createModelCallLog, type ModelCallRecord } from './model-call-log.js';
import { assertSafeId, isSafeId } from './safe-id.js';

const STORE_SUFFIX = '.artifacts';

/** How `readPage` counts `offset` and `limit`. */
export type PageUnit = 'lines' | 'chars';

/** A page of an artifact. */
export interface ArtifactPage {
  id: string;
  unit: PageUnit;
  /** First line (0-based) or char of the page. */
  offset: number;
  /** Lines or chars in `text` (a line cut at `maxPageChars` still counts as one). */
  count: number;
  /** The page. Lines keep their newlines. */
  text: string;
  /** Offset of the next page, or `null` at the end. */
  nextOffset: number | null;
  /** True when a line longer than `maxPageChars` was cut. */
  truncatedLine: boolean;
}

/** A line that matched a search. */
export interface ArtifactMatch {
  /** 1-based line number. */
  line: number;
  /** The line, cut to 300 chars. */
  text: string;
}

/** Options of `search`. */
export interface SearchOptions {
  /** Treat `pattern` as a regular expression (bounded, see `compileSearchPattern`). Default false: literal. */
  regex?: boolean;
  /** Match case. Default false. */
  caseSensitive?: boolean;
  /** Stop after this many matches. Default 50, at most 500. */
  maxMatches?: number;
  signal?: AbortSignal;
}

/** Sessions and artifacts under one directory of transcripts (`<session>.jsonl` + `<session>.artifacts/`). */
export interface ArtifactLibrary {
  /** The directory. */
  readonly root: string;
  /** Session ids that have a store, sorted. */
  sessions(options?: { signal?: AbortSignal }): Promise<string[]>;
  /** The index of one session's store (newest last). Throws for an unsafe session id. */
  list(sessionId: string, options?: { signal?: AbortSignal }): Promise<ArtifactRecord[]>;
  /** The model calls recorded in one session's store, oldest first. Throws for an unsafe session id. */
  modelCalls(sessionId: string, options?: { signal?: AbortSignal }): Promise<ModelCallRecord[]>;
  /** The record of an artifact id, searching every session (or only `sessionId`). */
  find(
    id: string,
    options?: { sessionId?: string; signal?: AbortSignal },
  ): Promise<ArtifactRecord | undefined>;
  /** A page of an artifact by lines (default) or chars. Throws `artifact_not_found`. */
  readPage(
    id: string,
    options?: {
      offset?: number;
      limit?: number;
      unit?: PageUnit;
      sessionId?: string;
      signal?: AbortSignal;
    },
  ): Promise<ArtifactPage>;
  /** Lines of an artifact that match `pattern`, with line numbers. */
  search(
    id: string,
    pattern: string,
    options?: SearchOptions & { sessionId?: string },
  ): Promise<{ id: string; matches: ArtifactMatch[]; truncated: boolean }>;
}

/** Limits applied to every page. */
export const PAGE_LIMITS = {
  maxLines: 1000,
  maxChars: 100_000,
  defaultLines: 200,
  defaultChars: 20_000,
} as const;

const MAX_PATTERN = 256;
// A quantified group that itself holds a quantifier, or a back-reference: the shapes that
// backtrack exponentially. Refused rather than run.
const NESTED_QUANTIFIER = /\((?:[^()\\]|\\.)*[+*}?](?:[^()\\]|\\.)*\)\s*(?:[+*]|\{\d)/;
const BACKREFERENCE = /\\[1-9]|\\k</;
const REGEX_LINE_CHARS = 4096;

/**
 * A matcher for `pattern`: a literal substring test by default; with `regex`, a RegExp after
 * refusing patterns longer than 256 chars, nested quantifiers and back-references, applied to
 * at most the first 4096 chars of each line so one line cannot stall the search.
 */
export function compileSearchPattern(
  pattern: string,
  options: { regex?: boolean; caseSensitive?: boolean } = {},
): (line: string) => boolean {
  if (typeof pattern !== 'string' || pattern.length === 0 || pattern.length > MAX_PATTERN) {
    throw new ArtifactError({
      code: 'artifact_invalid_id',
      message: `search pattern must be 1-${MAX_PATTERN} chars`,
    });
  }
  if (!options.regex) {
    if (options.caseSensitive) return (line) => line.includes(pattern);
    const lower = pattern.toLowerCase();
    return (line) => line.toLowerCase().includes(lower);
  }
  if (NESTED_QUANTIFIER.test(pattern) || BACKREFERENCE.test(pattern)) {
    throw new ArtifactError({
      code: 'artifact_invalid_id',
      message:
        'search pattern refused: nested quantifiers and back-references can run for hours; search for a literal instead',
    });
  }
  let compiled: RegExp;
  try {
    compiled = new RegExp(pattern, options.caseSensitive ? 'u' : 'iu');
  } catch (cause) {
    throw new ArtifactError({
      code: 'artifact_invalid_id',
      message: `invalid regular expression: ${String(cause)}`,
      cause,
    });
  }
  return (line) =>
    compiled.test(line.length > REGEX_LINE_CHARS ? line.slice(0, REGEX_LINE_CHARS) : line);
}

function notFound(id: string): ArtifactError {
  return new ArtifactError({
    code: 'artifact_not_found',
    message: `No artifact ${id}`,
    subject: id,
  });
}

async function* lines(path: string, signal?: AbortSignal): AsyncGenerator<string> {
  const stream = createReadStream(path, { encoding: 'utf8', highWaterMark: 1 << 16, signal });
  let carry = '';
  try {
    for await (const chunk of stream as AsyncIterable<string>) {
      let start = 0;
      const text = carry + chunk;
      for (let end = text.indexOf('\n'); end >= 0; end = text.indexOf('\n', start)) {
        yield text.slice(start, end + 1);
        start = end + 1;
      }
      carry = text.slice(start);
      // A line with no end in sight is handed over in pieces so memory stays bounded.
      if (carry.length > 4 * PAGE_LIMITS.maxChars) {
        yield carry;
        carry = '';
      }
    }
    if (carry) yield carry;
  } finally {
    stream.destroy();
  }
}

function clampInt(value: number | undefined, fallback: number, max: number, name: string): number {
  if (value === undefined) return fallback;
  if (!Number.isSafeInteger(value) || value < 0) {
    throw new ArtifactError({
      code: 'artifact_invalid_id',
      message: `${name} must be a non-negative integer`,
    });
  }
  return Math.min(value, max);
}

/** A library over the transcripts and stores in `root`. */
export function createArtifactLibrary(settings: { root: string }): ArtifactLibrary {
  const root = settings.root;

  async function sessions(options: { signal?: AbortSignal } = {}): Promise<string[]> {
    options.signal?.throwIfAborted();
    let names: string[];
    try {
      names = await readdir(root);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return [];
      throw error;
    }
    const found: string[] = [];
    for (const name of names) {
      if (!name.endsWith(STORE_SUFFIX)) continue;
      const session = name.slice(0, -STORE_SUFFIX.length);
      if (!isSafeId(session)) continue;
      if ((await stat(join(root, name)).catch(() => undefined))?.isDirectory()) found.push(session);
    }
    return found.sort();
  }

  const storeDir = (sessionId: string) =>
    join(root, `${assertSafeId('session id', sessionId)}${STORE_SUFFIX}`);

  async function list(sessionId: string, options: { signal?: AbortSignal } = {}) {
    return createArtifactIndex({ dir: storeDir(sessionId) }).list(options);
  }

  async function modelCalls(sessionId: string, options: { signal?: AbortSignal } = {}) {
    options.signal?.throwIfAborted();
    return createModelCallLog({ dir: storeDir(sessionId) }).read();
  }

  async function find(id: string, options: { sessionId?: string; signal?: AbortSignal } = {}) {
    assertSafeId('artifact id', id);
    const candidates = options.sessionId ? [options.sessionId] : await sessions(options);
    for (const session of candidates) {
      const record = (await list(session, options)).find((item) => item.id === id);
      if (record) return record;
    }
    return undefined;
  }

  async function fileOf(id: string, options: { sessionId?: string; signal?: AbortSignal }) {
    const record = await find(id, options);
    if (!record || !isSafeId(record.path) || !isSafeId(record.sessionId)) throw notFound(id);
    const path = join(storeDir(record.sessionId), record.path);
    if (!(await stat(path).catch(() => undefined))?.isFile()) throw notFound(id);
    return path;
  }

  return {
    root,
    sessions,
    list,
    modelCalls,
    find,
    async readPage(id, options = {}) {
      const unit: PageUnit = options.unit ?? 'lines';
      if (unit !== 'lines' && unit !== 'chars') {
        throw new ArtifactError({
          code: 'artifact_invalid_id',
          message: 'unit must be lines or chars',
        });
      }
      const path = await fileOf(id, options);
      const offset = clampInt(options.offset, 0, Number.MAX_SAFE_INTEGER, 'offset');
      if (unit === 'lines') {
        const limit = Math.max(
          1,
          clampInt(options.limit, PAGE_LIMITS.defaultLines, PAGE_LIMITS.maxLines, 'limit'),
        );
        let index = 0;
        let text = '';
        let count = 0;
        let truncatedLine = false;
        let more = false;
        for await (const line of lines(path, options.signal)) {
          if (index++ < offset) continue;
          if (count === limit || text.length >= PAGE_LIMITS.maxChars) {
            more = true;
            break;
          }
          const room = PAGE_LIMITS.maxChars - text.length;
          if (line.length > room) {
            text += line.slice(0, room);
            truncatedLine = true;
          } else text += line;
          count++;
        }
        return {
          id,
          unit,
          offset,
          count,
          text,
          nextOffset: more ? offset + count : null,
          truncatedLine,
        };
      }
      const limit = Math.max(
        1,
        clampInt(options.limit, PAGE_LIMITS.defaultChars, PAGE_LIMITS.maxChars, 'limit'),
      );
      let position = 0;
      let text = '';
      let more = false;
      const stream = createReadStream(path, {
        encoding: 'utf8',
        highWaterMark: 1 << 16,
        signal: options.signal,
      });
      try {
        for await (const chunk of stream as AsyncIterable<string>) {
          const end = position + chunk.length;
          if (end > offset && text.length < limit + 1) {
            text += chunk.slice(
              Math.max(0, offset - position),
              Math.max(0, offset - position) + (limit + 1 - text.length),
            );
          }
          position = end;
          if (text.length > limit) break;
        }
      } finally {
        stream.destroy();
      }
      if (text.length > limit) {
        more = true;
        let cut = limit;
        // Never end a page between the halves of a surrogate pair.
        const unitAt = text.charCodeAt(cut - 1);
        if (unitAt >= 0xd800 && unitAt <= 0xdbff) cut--;
        text = text.slice(0, cut);
      }
      return {
        id,
        unit,
        offset,
        count: text.length,
        text,
        nextOffset: more ? offset + text.length : null,
        truncatedLine: false,
      };
    },
    async search(id, pattern, options = {}) {
      const test = compileSearchPattern(pattern, options);
      const max = Math.max(1, Math.min(options.maxMatches ?? 50, 500));
      const path = await fileOf(id, options);
      const matches: ArtifactMatch[] = [];
      let number = 0;
      let truncated = false;
      for await (const raw of lines(path, options.signal)) {
        number++;
        const line = raw.endsWith('\n') ? raw.slice(0, raw.endsWith('\r\n') ? -2 : -1) : raw;
        if (!test(line)) continue;
        if (matches.length === max) {
          truncated = true;
          break;
        }
        matches.push({ line: number, text: line.length > 300 ? `${line.slice(0, 300)}…` : line });
      }
      return { id, matches, truncated };
    },
  };
}
