import { createArtifactLibrary, createArtifactToolHandler } from '@compaction/artifacts';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { z } from 'zod';

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

const LIST_LIMIT = 200;

function text(value: string) {
  return { content: [{ type: 'text' as const, text: value }] };
}

/**
 * An MCP server with three read-only tools over stored artifacts: `artifact_list` (sessions, or
 * one session's artifacts with title, kind, size and preview), `artifact_read` (a page by lines
 * or chars) and `artifact_search` (matching lines with numbers). Connect it to any transport
 * (`StdioServerTransport` for `compaction mcp`). Bad ids and arguments come back as tool errors,
 * never as crashes; ids are validated, so nothing outside `dir` is reachable.
 */
export function createArtifactMcpServer(settings: ArtifactMcpServerSettings): McpServer {
  const library = createArtifactLibrary({ root: settings.dir });
  const tools = createArtifactToolHandler({ library, sessionId: settings.sessionId });
  const server = new McpServer({
    name: settings.name ?? 'compaction-artifacts',
    version: settings.version ?? '0.1.0',
  });

  server.registerTool(
    'artifact_list',
    {
      description:
        'List the sessions that have stored tool outputs, or the artifacts of one session (id, title, kind, size, preview), newest last.',
      inputSchema: { sessionId: z.string().min(1).max(200).optional() },
      annotations: { readOnlyHint: true },
    },
    async ({ sessionId }, extra) => {
      try {
        const session = sessionId ?? settings.sessionId;
        if (session === undefined) {
          const sessions = await library.sessions({ signal: extra.signal });
          return text(
            sessions.length ? sessions.join('\n') : '(no sessions with stored artifacts)',
          );
        }
        if (settings.sessionId !== undefined && session !== settings.sessionId) {
          return {
            ...text(`error: this server only serves session ${settings.sessionId}`),
            isError: true,
          };
        }
        const records = await library.list(session, { signal: extra.signal });
        const shown = records.slice(-LIST_LIMIT);
        const lines = shown.map(
          (record) =>
            `${record.id}\t${record.kind}\t${record.bytes} bytes\t${record.title}\n  ${record.preview.replace(/\s+/g, ' ').slice(0, 160)}`,
        );
        if (records.length > shown.length)
          lines.unshift(`(${records.length - shown.length} older artifacts not listed)`);
        return text(lines.length ? lines.join('\n') : `(no artifacts in session ${session})`);
      } catch (error) {
        return {
          ...text(`error: ${error instanceof Error ? error.message : String(error)}`),
          isError: true,
        };
      }
    },
  );

  server.registerTool(
    'artifact_read',
    {
      description:
        'Read part of a stored tool output by id. Pages by lines (default) or chars: pass the nextOffset of the previous page as offset to continue.',
      inputSchema: {
        id: z.string(),
        offset: z.number().int().min(0).optional(),
        limit: z.number().int().min(1).optional(),
        unit: z.enum(['lines', 'chars']).optional(),
      },
      annotations: { readOnlyHint: true },
    },
    async (args, extra) => {
      const answer = await tools.call('artifact_read', args, { signal: extra.signal });
      return { ...text(answer), ...(answer.startsWith('error:') ? { isError: true } : {}) };
    },
  );

  server.registerTool(
    'artifact_search',
    {
      description:
        'Find the lines of a stored tool output that contain a pattern (literal unless regex is true); returns line numbers to read with artifact_read.',
      inputSchema: {
        id: z.string(),
        pattern: z.string(),
        regex: z.boolean().optional(),
        max_matches: z.number().int().min(1).max(500).optional(),
      },
      annotations: { readOnlyHint: true },
    },
    async (args, extra) => {
      const answer = await tools.call('artifact_search', args, { signal: extra.signal });
      return { ...text(answer), ...(answer.startsWith('error:') ? { isError: true } : {}) };
    },
  );

  return server;
}
