import { ArtifactError } from './artifact-error.js';
import type { ArtifactLibrary } from './artifact-library.js';

const READ_DESCRIPTION =
  'Read part of a stored tool output (an artifact) by id. Pages by lines (default) or by chars: pass the nextOffset of the previous page as offset to continue.';
const SEARCH_DESCRIPTION =
  'Find the lines of a stored tool output (an artifact) that contain a pattern; returns line numbers to read with artifact_read. The pattern is literal text unless regex is true.';

const READ_PARAMETERS = {
  type: 'object',
  properties: {
    id: { type: 'string', description: 'The artifact id, such as art_0123abcd...' },
    offset: {
      type: 'integer',
      minimum: 0,
      description: 'First line (0-based) or char. Default 0.',
    },
    limit: {
      type: 'integer',
      minimum: 1,
      description: 'Lines (max 1000, default 200) or chars (max 100000, default 20000).',
    },
    unit: {
      type: 'string',
      enum: ['lines', 'chars'],
      description: 'What offset and limit count. Default lines.',
    },
  },
  required: ['id'],
  additionalProperties: false,
} as const;

const SEARCH_PARAMETERS = {
  type: 'object',
  properties: {
    id: { type: 'string', description: 'The artifact id.' },
    pattern: { type: 'string', description: 'Text to look for (case-insensitive), 1-256 chars.' },
    regex: {
      type: 'boolean',
      description:
        'Treat pattern as a regular expression (no nested quantifiers or back-references). Default false.',
    },
    max_matches: { type: 'integer', minimum: 1, maximum: 500, description: 'Default 50.' },
  },
  required: ['id', 'pattern'],
  additionalProperties: false,
} as const;

/** The artifact tools in OpenAI's chat-completions `tools` shape. */
export const OPENAI_ARTIFACT_TOOLS = [
  {
    type: 'function',
    function: { name: 'artifact_read', description: READ_DESCRIPTION, parameters: READ_PARAMETERS },
  },
  {
    type: 'function',
    function: {
      name: 'artifact_search',
      description: SEARCH_DESCRIPTION,
      parameters: SEARCH_PARAMETERS,
    },
  },
] as const;

/** The artifact tools in Anthropic's Messages `tools` shape. */
export const ANTHROPIC_ARTIFACT_TOOLS = [
  { name: 'artifact_read', description: READ_DESCRIPTION, input_schema: READ_PARAMETERS },
  { name: 'artifact_search', description: SEARCH_DESCRIPTION, input_schema: SEARCH_PARAMETERS },
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
    try {
      return parseArgs(JSON.parse(args));
    } catch {
      throw new ArtifactError({
        code: 'artifact_invalid_id',
        message: 'arguments are not valid JSON',
      });
    }
  }
  if (typeof args !== 'object' || args === null || Array.isArray(args)) {
    throw new ArtifactError({
      code: 'artifact_invalid_id',
      message: 'arguments must be an object',
    });
  }
  return args as Record<string, unknown>;
}

const optionalInt = (value: unknown): number | undefined =>
  value === undefined || value === null ? undefined : (value as number);

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
          throw new ArtifactError({ code: 'artifact_invalid_id', message: 'id must be a string' });
        if (name === 'artifact_read') {
          const page = await library.readPage(args.id, {
            ...scope,
            offset: optionalInt(args.offset),
            limit: optionalInt(args.limit),
            unit: args.unit === 'chars' ? 'chars' : 'lines',
            signal: options.signal,
          });
          const end = page.offset + page.count;
          const next =
            page.nextOffset === null ? 'end of artifact' : `next offset ${page.nextOffset}`;
          const cut = page.truncatedLine ? '; a long line was cut' : '';
          return `[artifact ${page.id} ${page.unit} ${page.offset}-${end}; ${next}${cut}]\n${page.text}`;
        }
        if (name === 'artifact_search') {
          if (typeof args.pattern !== 'string')
            throw new ArtifactError({
              code: 'artifact_invalid_id',
              message: 'pattern must be a string',
            });
          const result = await library.search(args.id, args.pattern, {
            ...scope,
            regex: args.regex === true,
            maxMatches: optionalInt(args.max_matches),
            signal: options.signal,
          });
          const head = `[artifact ${result.id}: ${result.matches.length}${result.truncated ? '+' : ''} matching lines]`;
          return [head, ...result.matches.map((match) => `${match.line}: ${match.text}`)].join(
            '\n',
          );
        }
        return `error: unknown tool ${name}`;
      } catch (error) {
        if (ArtifactError.isInstance(error)) return `error: ${error.message}`;
        throw error;
      }
    },
  };
}
