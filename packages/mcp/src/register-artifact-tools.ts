import {
  ARTIFACT_TOOL_TEXT,
  type ArtifactLibrary,
  createArtifactToolHandler,
  MAX_PATTERN_CHARS,
} from '@compaction/artifacts';
import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { z } from 'zod';

/** Which artifact tools `registerArtifactTools` adds. */
export type ArtifactMcpToolName = 'artifact_read' | 'artifact_search';

/** Settings of `registerArtifactTools`. */
export interface RegisterArtifactToolsSettings {
  /** Where the artifacts are read from. */
  library: ArtifactLibrary;
  /** Limit the tools to one session's artifacts. Default: every session of the library. */
  sessionId?: string;
  /** The tools to add. Default both. */
  tools?: readonly ArtifactMcpToolName[];
}

function answer(text: string) {
  return {
    content: [{ type: 'text' as const, text }],
    ...(text.startsWith('error:') ? { isError: true } : {}),
  };
}

/**
 * Adds `artifact_read` and `artifact_search` to an MCP server, with the same descriptions,
 * parameters (each described) and answers as the OpenAI and Anthropic tool definitions. The
 * schemas check types only: the range of a paging value is the library's one rule
 * (`pagingValue`), so a value above the maximum reads as the maximum here as in the CLI and the
 * HTTP API, and one below the minimum comes back as the same tool error. The
 * artifact server uses it, and so can any server (a proxy) that hands out artifact ids.
 */
export function registerArtifactTools(
  server: McpServer,
  settings: RegisterArtifactToolsSettings,
): void {
  const handler = createArtifactToolHandler({
    library: settings.library,
    ...(settings.sessionId === undefined ? {} : { sessionId: settings.sessionId }),
  });
  const wanted = new Set(settings.tools ?? ['artifact_read', 'artifact_search']);
  const read = ARTIFACT_TOOL_TEXT.read;
  const search = ARTIFACT_TOOL_TEXT.search;
  if (wanted.has('artifact_read')) {
    server.registerTool(
      'artifact_read',
      {
        description: read.description,
        inputSchema: {
          id: z.string().min(1).max(1024).describe(read.id),
          offset: z.number().int().optional().describe(read.offset),
          limit: z.number().int().optional().describe(read.limit),
          column: z.number().int().min(1).optional().describe(read.column),
        },
        annotations: { readOnlyHint: true },
      },
      async (args, extra) =>
        answer(await handler.call('artifact_read', args, { signal: extra.signal })),
    );
  }
  if (wanted.has('artifact_search')) {
    server.registerTool(
      'artifact_search',
      {
        description: search.description,
        inputSchema: {
          id: z.string().min(1).max(1024).describe(search.id),
          pattern: z.string().min(1).max(MAX_PATTERN_CHARS).describe(search.pattern),
          regex: z.boolean().optional().describe(search.regex),
          case_sensitive: z.boolean().optional().describe(search.caseSensitive),
          max_matches: z.number().int().optional().describe(search.maxMatches),
          from_line: z.number().int().min(1).optional().describe(search.fromLine),
          from_column: z.number().int().min(1).optional().describe(search.fromColumn),
        },
        annotations: { readOnlyHint: true },
      },
      async (args, extra) =>
        answer(await handler.call('artifact_search', args, { signal: extra.signal })),
    );
  }
}
