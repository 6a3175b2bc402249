import { ArtifactError } from '../artifact-error.js';
import {
  type ArtifactLibrary,
  type ArtifactPage,
  type ArtifactSearchResult,
  PAGE_LIMITS,
  SEARCH_LIMITS,
} from './artifact-library.js';
import { MAX_PATTERN_CHARS } from './max-pattern-chars.js';

/** What each artifact tool and parameter says to the model; shared by every front end (MCP too). */
export const ARTIFACT_TOOL_TEXT = {
  read: {
    description:
      'Read part of a stored tool output (an artifact). Lines count from 1, the same numbers artifact_search reports. Pass offset (a line number; negative counts from the end, -50 reads the last 50 lines) and limit; the header of each page gives the total line count and the offset of the next page. A JSON result is stored one value per line, indented (keys, strings and numbers exactly as returned), so page it by lines like any text. A line too long for one page is shown in windows: the header then gives the column to pass to continue.',
    id: 'The artifact: its id (art_…), the file name an excerpt marker names (such as call_1-3f9c0d1e2a4b5c6d.txt), or the tool call id it was stored under.',
    offset:
      'First line to read, counting from 1. Negative counts from the end: -50 reads the last 50 lines. Default 1.',
    limit: `Lines to read, at least 1. Default ${PAGE_LIMITS.defaultLines}; at most ${PAGE_LIMITS.maxLines} (a larger limit reads ${PAGE_LIMITS.maxLines}); a page also stops at ${PAGE_LIMITS.defaultChars} chars.`,
    column:
      'For a long line: the column of line `offset` to start at, counting from 1 (as artifact_search reports columns). Default 1.',
  },
  search: {
    description:
      'Find the lines of a stored tool output (an artifact) that contain a pattern. Answers "line:column: text" with lines and columns counting from 1, ready for artifact_read(id, offset=line); in a line too long for one page, also pass column=column to read where the match is. A JSON result is stored one value per line, so a match names the line of its value: read a few lines around it (offset=line-5, limit=20) for the object it belongs to. Literal and case-insensitive by default; regex uses RE2 syntax (no look-around or back-references). When there are more matches than max_matches, or the time budget runs out, the answer says which from_line to pass to continue.',
    id: 'The artifact: its id (art_…), the file name an excerpt marker names, or the tool call id it was stored under.',
    pattern: `Text to look for, 1-${MAX_PATTERN_CHARS} chars. Literal unless regex is true.`,
    regex:
      'Treat pattern as a regular expression in RE2 syntax: linear time, no look-around, no back-references. Default false.',
    caseSensitive: 'Match case exactly. Default false.',
    maxMatches: `Matches to return, at least 1. Default ${SEARCH_LIMITS.defaultMatches}; at most ${SEARCH_LIMITS.maxMatches} (a larger value returns ${SEARCH_LIMITS.maxMatches}).`,
    fromLine:
      'Line to start at, counting from 1: the from_line a previous answer gave, to see the next matches. Default 1.',
    fromColumn: 'Column of from_line to start at, counting from 1. Default 1.',
  },
} as const;

const READ_PARAMETERS = {
  type: 'object',
  properties: {
    id: { type: 'string', description: ARTIFACT_TOOL_TEXT.read.id },
    offset: { type: 'integer', description: ARTIFACT_TOOL_TEXT.read.offset },
    limit: { type: 'integer', minimum: 1, description: ARTIFACT_TOOL_TEXT.read.limit },
    column: { type: 'integer', minimum: 1, description: ARTIFACT_TOOL_TEXT.read.column },
  },
  required: ['id'],
  additionalProperties: false,
} as const;

const SEARCH_PARAMETERS = {
  type: 'object',
  properties: {
    id: { type: 'string', description: ARTIFACT_TOOL_TEXT.search.id },
    pattern: { type: 'string', description: ARTIFACT_TOOL_TEXT.search.pattern },
    regex: { type: 'boolean', description: ARTIFACT_TOOL_TEXT.search.regex },
    case_sensitive: { type: 'boolean', description: ARTIFACT_TOOL_TEXT.search.caseSensitive },
    max_matches: {
      type: 'integer',
      minimum: 1,
      description: ARTIFACT_TOOL_TEXT.search.maxMatches,
    },
    from_line: { type: 'integer', minimum: 1, description: ARTIFACT_TOOL_TEXT.search.fromLine },
    from_column: { type: 'integer', minimum: 1, description: ARTIFACT_TOOL_TEXT.search.fromColumn },
  },
  required: ['id', 'pattern'],
  additionalProperties: false,
} as const;

/** The artifact tools in OpenAI's chat-completions `tools` shape. */
export const OPENAI_ARTIFACT_TOOLS = [
  {
    type: 'function',
    function: {
      name: 'artifact_read',
      description: ARTIFACT_TOOL_TEXT.read.description,
      parameters: READ_PARAMETERS,
    },
  },
  {
    type: 'function',
    function: {
      name: 'artifact_search',
      description: ARTIFACT_TOOL_TEXT.search.description,
      parameters: SEARCH_PARAMETERS,
    },
  },
] as const;

/** The artifact tools in Anthropic's Messages `tools` shape. */
export const ANTHROPIC_ARTIFACT_TOOLS = [
  {
    name: 'artifact_read',
    description: ARTIFACT_TOOL_TEXT.read.description,
    input_schema: READ_PARAMETERS,
  },
  {
    name: 'artifact_search',
    description: ARTIFACT_TOOL_TEXT.search.description,
    input_schema: SEARCH_PARAMETERS,
  },
] as const;

/** Names of the artifact tools. */
export type ArtifactToolName = 'artifact_read' | 'artifact_search';

/** Answers artifact tool calls from a library. */
export interface ArtifactToolHandler {
  /** True for `artifact_read` and `artifact_search`. */
  handles(name: string): name is ArtifactToolName;
  /**
   * Runs one call. `args` is the parsed object or the JSON text a provider sent. Resolves to
   * the tool result text; a bad id or argument resolves to an `error: …` line for the model
   * rather than throwing.
   */
  call(name: string, args: unknown, options?: { signal?: AbortSignal }): Promise<string>;
}

function parseArgs(args: unknown): Record<string, unknown> {
  if (typeof args === 'string') {
    let parsed: unknown;
    try {
      parsed = JSON.parse(args);
    } catch {
      throw new ArtifactError({
        code: 'artifact_invalid_argument',
        message: 'arguments are not valid JSON',
      });
    }
    return parseArgs(parsed);
  }
  if (typeof args !== 'object' || args === null || Array.isArray(args)) {
    throw new ArtifactError({
      code: 'artifact_invalid_argument',
      message: 'arguments must be an object',
    });
  }
  return args as Record<string, unknown>;
}

function optionalInt(args: Record<string, unknown>, name: string): number | undefined {
  const value = args[name];
  if (value === undefined || value === null) return undefined;
  // Models send numbers as strings now and then; a clean integer string is accepted.
  const number =
    typeof value === 'string' && /^-?\d{1,15}$/.test(value.trim()) ? Number(value) : value;
  if (typeof number !== 'number' || !Number.isSafeInteger(number)) {
    throw new ArtifactError({
      code: 'artifact_invalid_argument',
      message: `${name} must be an integer`,
    });
  }
  return number;
}

/** The header and text of a page, as the tools answer it. */
export function formatArtifactPage(page: ArtifactPage): string {
  const window = page.window;
  const where = window
    ? window.to < window.lineChars
      ? `line ${window.line} of ${page.totalLines}, columns ${window.from}-${window.to} of ${window.lineChars} (a long line, shown in windows)`
      : page.count > 1
        ? `lines ${page.line}-${page.line + page.count - 1} of ${page.totalLines}, from column ${window.from} of line ${window.line}`
        : `line ${window.line} of ${page.totalLines}, columns ${window.from}-${window.to} of ${window.lineChars}`
    : page.count === 0
      ? `no lines (the artifact is empty)`
      : `lines ${page.line}-${page.line + page.count - 1} of ${page.totalLines}`;
  const next = page.next
    ? page.next.column > 1
      ? `next: offset=${page.next.line} column=${page.next.column}`
      : `next: offset=${page.next.line}`
    : 'end of artifact';
  return `[artifact ${page.id} (${page.file}): ${where}; ${next}]\n${page.text}`;
}

/** The answer of a search, as the tools give it: a header, then `line:column: text` lines. */
export function formatArtifactSearch(result: ArtifactSearchResult): string {
  const count = `${result.matches.length}${result.more ? '+' : ''} match${result.matches.length === 1 && !result.more ? '' : 'es'}`;
  const lines = [
    `[artifact ${result.id} (${result.file}): ${count}; ${result.totalLines} lines]`,
    ...result.matches.map((match) => `${match.line}:${match.column}: ${match.text}`),
  ];
  if (result.windowedLines > 0) {
    lines.push(
      `[${result.windowedLines} line(s) too long to test whole were searched in overlapping windows]`,
    );
  }
  if (result.more && result.next) {
    const at = `from_line=${result.next.line}${result.next.column > 1 ? ` from_column=${result.next.column}` : ''}`;
    lines.push(
      result.stoppedBy === 'time'
        ? `[stopped by the time budget at line ${result.next.line} of ${result.totalLines}; search again with ${at} to go on]`
        : `[more matches: search again with ${at}]`,
    );
  }
  return lines.join('\n');
}

/**
 * Handlers for the artifact tools. With `sessionId`, only that session's artifacts are visible
 * (a model in one session cannot read another's).
 */
export function createArtifactToolHandler(settings: {
  library: ArtifactLibrary;
  sessionId?: string;
}): ArtifactToolHandler {
  const { library } = settings;
  const scope = settings.sessionId === undefined ? {} : { sessionId: settings.sessionId };
  return {
    handles: (name): name is ArtifactToolName =>
      name === 'artifact_read' || name === 'artifact_search',
    async call(name, rawArgs, options = {}) {
      try {
        const args = parseArgs(rawArgs);
        if (typeof args.id !== 'string')
          throw new ArtifactError({
            code: 'artifact_invalid_argument',
            message: 'id must be a string',
          });
        const signal = options.signal ? { signal: options.signal } : {};
        if (name === 'artifact_read') {
          const page = await library.readPage(args.id.trim(), {
            ...scope,
            offset: optionalInt(args, 'offset'),
            limit: optionalInt(args, 'limit'),
            column: optionalInt(args, 'column'),
            ...signal,
          });
          return formatArtifactPage(page);
        }
        if (name === 'artifact_search') {
          if (typeof args.pattern !== 'string')
            throw new ArtifactError({
              code: 'artifact_invalid_argument',
              message: 'pattern must be a string',
            });
          const result = await library.search(args.id.trim(), args.pattern, {
            ...scope,
            regex: args.regex === true,
            caseSensitive: args.case_sensitive === true,
            maxMatches: optionalInt(args, 'max_matches'),
            fromLine: optionalInt(args, 'from_line'),
            fromColumn: optionalInt(args, 'from_column'),
            ...signal,
          });
          return formatArtifactSearch(result);
        }
        return `error: unknown tool ${name}`;
      } catch (error) {
        if (ArtifactError.isInstance(error)) return `error: ${error.code}: ${error.message}`;
        throw error;
      }
    },
  };
}
