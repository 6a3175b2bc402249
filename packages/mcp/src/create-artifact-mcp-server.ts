import { type ArtifactRecord, createArtifactLibrary, pagingValue } from '@compaction/artifacts';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { z } from 'zod';
import { registerArtifactTools } from './register-artifact-tools.js';

/** Settings of `createArtifactMcpServer`. */
export interface ArtifactMcpServerSettings {
  /** The directory of transcripts (`<session>.jsonl` beside `<session>.artifacts/`). Required. */
  dir: string;
  /** Limit every tool to one session's artifacts. Default: all sessions under `dir`. */
  sessionId?: string;
  /** Server name reported to clients. Default `compaction-artifacts`. */
  name?: string;
  /** Server version reported to clients. Default `0.1.0`. */
  version?: string;
}

/** Artifacts per `artifact_list` page: default, least and most (a larger limit reads `max`). */
export const LIST_PAGE = { default: 50, min: 1, max: 200 } as const;

const KINDS = ['tool_output', 'file_read', 'terminal_log', 'diff', 'doc'] as const;

function text(value: string, isError = false) {
  return {
    content: [{ type: 'text' as const, text: value }],
    ...(isError ? { isError: true } : {}),
  };
}

function listLine(record: ArtifactRecord): string {
  const when = new Date(record.createdAt).toISOString();
  const tool = record.toolName ?? '-';
  return `${record.id}\t${record.kind}\t${tool}\t${record.bytes} bytes\t${when}\t${record.title}\n  ${record.preview.replace(/\s+/g, ' ').slice(0, 160)}`;
}

/**
 * An MCP server with three read-only tools over stored artifacts: `artifact_list` (sessions,
 * or one session's artifacts newest first, filtered by tool or kind and paged with a cursor),
 * `artifact_read` (a page by lines, 1-based, or a window of a long line) and `artifact_search`
 * (matching lines with 1-based line and column numbers). Connect it to any transport
 * (`StdioServerTransport` for `compaction mcp`). Bad ids and arguments come back as tool
 * errors, never as crashes; nothing outside `dir` is reachable.
 */
export function createArtifactMcpServer(settings: ArtifactMcpServerSettings): McpServer {
  const library = createArtifactLibrary({ root: settings.dir });
  const server = new McpServer({
    name: settings.name ?? 'compaction-artifacts',
    version: settings.version ?? '0.1.0',
  });

  server.registerTool(
    'artifact_list',
    {
      description:
        'List the sessions that have stored tool outputs (no sessionId), or the artifacts of one session, newest first: id, kind, tool, bytes, time, title and a preview. Filter by tool or kind; when more remain, the answer ends with the cursor to pass for the next page.',
      inputSchema: {
        sessionId: z
          .string()
          .min(1)
          .max(1024)
          .optional()
          .describe(
            'The session whose artifacts to list (as artifact_list without it names them). Default: list the sessions.',
          ),
        tool: z.string().min(1).max(200).optional().describe('Only artifacts of this tool name.'),
        kind: z.enum(KINDS).optional().describe('Only artifacts of this kind.'),
        limit: z
          .number()
          .int()
          .optional()
          .describe(
            `Artifacts per page, at least 1. Default ${LIST_PAGE.default}; at most ${LIST_PAGE.max} (a larger limit lists ${LIST_PAGE.max}).`,
          ),
        cursor: z
          .string()
          .max(200)
          .optional()
          .describe('The cursor a previous answer ended with, to get the next (older) page.'),
      },
      annotations: { readOnlyHint: true },
    },
    async ({ sessionId, tool, kind, limit, cursor }, extra) => {
      try {
        const pageSize = pagingValue(limit, 'limit', LIST_PAGE);
        const session = sessionId ?? settings.sessionId;
        if (session === undefined) {
          const sessions = await library.sessions({ signal: extra.signal });
          return text(
            sessions.length ? sessions.join('\n') : '(no sessions with stored artifacts)',
          );
        }
        if (settings.sessionId !== undefined && session !== settings.sessionId) {
          return text(`error: this server only serves session ${settings.sessionId}`, true);
        }
        const records = (await library.list(session, { signal: extra.signal }))
          .filter(
            (record) =>
              (tool === undefined || record.toolName === tool) &&
              (kind === undefined || record.kind === kind),
          )
          .reverse();
        let start = 0;
        if (cursor !== undefined) {
          const at = records.findIndex((record) => record.id === cursor);
          if (at < 0)
            return text(
              `error: unknown cursor ${JSON.stringify(cursor)}; list again without it`,
              true,
            );
          start = at + 1;
        }
        const shown = records.slice(start, start + pageSize);
        const lines = shown.map(listLine);
        const left = records.length - start - shown.length;
        if (left > 0)
          lines.push(
            `(${left} older artifacts: pass cursor ${shown.at(-1)!.id} for the next page)`,
          );
        return text(
          lines.length
            ? lines.join('\n')
            : `(no artifacts in session ${session}${tool || kind ? ' matching the filter' : ''})`,
        );
      } catch (error) {
        return text(`error: ${error instanceof Error ? error.message : String(error)}`, true);
      }
    },
  );
  registerArtifactTools(server, {
    library,
    ...(settings.sessionId === undefined ? {} : { sessionId: settings.sessionId }),
  });
  return server;
}
