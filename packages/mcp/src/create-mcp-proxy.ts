import {
  type ArtifactToolset,
  assertSize,
  InvalidArgumentError,
  type ResultProcessor,
  utf8ByteLength,
} from '@compaction/core';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import type { RequestOptions } from '@modelcontextprotocol/sdk/shared/protocol.js';
import {
  CallToolRequestSchema,
  type CallToolResult,
  CallToolResultSchema,
  ListToolsRequestSchema,
  ListToolsResultSchema,
  type Notification,
  type ProgressToken,
  ResultSchema,
  type ServerCapabilities,
  type Tool,
} from '@modelcontextprotocol/sdk/types.js';

/** Settings of `createMcpProxy`. */
export interface McpProxySettings {
  /** A client already connected to the server being fronted. Required. */
  upstream: Client;
  /**
   * Turns one oversized tool result into what the MCP client (and its model) gets:
   * `createArtifactMode(…).processor` stores it whole and points at it. Required.
   */
  processor: ResultProcessor;
  /** Tool results whose text is larger than this many UTF-8 bytes are compacted to it. Default 65536. */
  maxResultBytes?: number;
  /** Tools added to the upstream's (`artifact_read`, `artifact_search`); they shadow upstream tools of the same name. Default none. */
  tools?: ArtifactToolset;
  /** Server name reported to the client. Default: the upstream's name with ` (compacted)`. */
  name?: string;
  /** Called once per compacted tool result (for logs and tests). */
  onCompacted?: (event: McpCompactedResult) => void;
}

/** One tool result the proxy compacted. */
export interface McpCompactedResult {
  toolName: string;
  originalBytes: number;
  outputBytes: number;
  contentLost: boolean;
}

// Forwarded calls take as long as the upstream takes: the client decides when to give up, and
// its cancellation is passed on.
const FORWARD_OPTIONS: RequestOptions = { timeout: 2_147_483_647, resetTimeoutOnProgress: true };

function safeStepId(toolName: string, n: number): string {
  const name = toolName.replace(/[^A-Za-z0-9_-]+/g, '_').slice(0, 64);
  return `call-${n}-${name}`;
}

/**
 * An MCP server that fronts `upstream`: every request and notification is forwarded both ways
 * (tools, resources, prompts, completions, logging, list-changed notifications, progress and
 * cancellation), except that tool results larger than `maxResultBytes` come back as the
 * processor's view, and `tools` are added to the tool list and answered here. Connect it to
 * the client's transport (`StdioServerTransport` for `compaction mcp-proxy`).
 */
export function createMcpProxy(settings: McpProxySettings): Server {
  const { upstream, processor } = settings;
  if (!processor || typeof processor.process !== 'function') {
    throw new InvalidArgumentError({
      argument: 'processor',
      message: 'processor must be a ResultProcessor',
    });
  }
  const maxResultBytes = assertSize(settings.maxResultBytes ?? 65_536, 'maxResultBytes', {
    min: 1,
  });
  const upstreamCapabilities = upstream.getServerCapabilities();
  const upstreamInfo = upstream.getServerVersion();
  if (!upstreamCapabilities || !upstreamInfo) {
    throw new InvalidArgumentError({
      argument: 'upstream',
      message: 'upstream must be a connected MCP client',
    });
  }
  const added = settings.tools?.definitions ?? [];
  const addedNames = new Set(added.map((tool) => tool.name));
  const capabilities: ServerCapabilities = {
    ...upstreamCapabilities,
    tools: { ...upstreamCapabilities.tools },
  };
  const instructions = upstream.getInstructions();
  const server = new Server(
    { name: settings.name ?? `${upstreamInfo.name} (compacted)`, version: upstreamInfo.version },
    { capabilities, ...(instructions ? { instructions } : {}) },
  );
  let calls = 0;

  const forwardOptions = (
    signal: AbortSignal,
    token: ProgressToken | undefined,
    send: (notification: Notification) => Promise<void>,
  ): RequestOptions => ({
    ...FORWARD_OPTIONS,
    signal,
    ...(token === undefined
      ? {}
      : {
          onprogress: (progress) => {
            void send({
              method: 'notifications/progress',
              params: { ...progress, progressToken: token },
            }).catch(() => {});
          },
        }),
  });

  const compact = async (
    result: CallToolResult,
    toolName: string,
    signal: AbortSignal,
  ): Promise<CallToolResult> => {
    const content = result.content ?? [];
    const texts = content.filter((part) => part.type === 'text');
    const text =
      texts.length > 0
        ? texts.map((part) => part.text).join('\n')
        : result.structuredContent !== undefined
          ? JSON.stringify(result.structuredContent)
          : '';
    const originalBytes = utf8ByteLength(text);
    if (originalBytes <= maxResultBytes) return result;
    const processed = await processor.process(text, maxResultBytes, {
      toolName,
      stepId: safeStepId(toolName, ++calls),
      signal,
    });
    settings.onCompacted?.({
      toolName,
      originalBytes,
      outputBytes: utf8ByteLength(processed.text),
      contentLost: processed.metadata.contentLost,
    });
    // The view stands for the text parts (in the place of the first) and for structuredContent,
    // which is the same payload as JSON; images, audio and resources stay where they were.
    type Part = (typeof content)[number];
    const view: Part = { type: 'text', text: processed.text };
    const first = content.findIndex((part) => part.type === 'text');
    const parts: Part[] =
      first < 0
        ? [view, ...content]
        : content.flatMap((part, i): Part[] =>
            i === first ? [view] : part.type === 'text' ? [] : [part],
          );
    const { structuredContent: _, ...kept } = result;
    return { ...kept, content: parts };
  };

  server.setRequestHandler(ListToolsRequestSchema, async (request, extra) => {
    const page = await upstream.request(
      { method: 'tools/list', ...(request.params ? { params: request.params } : {}) },
      ListToolsResultSchema,
      { ...FORWARD_OPTIONS, signal: extra.signal },
    );
    // A compacted result drops its structuredContent, so no tool may promise one to the client.
    const tools: Tool[] = page.tools
      .filter((tool) => !addedNames.has(tool.name))
      .map(({ outputSchema: _, ...tool }) => tool);
    if (page.nextCursor === undefined) {
      for (const definition of added) {
        tools.push({
          name: definition.name,
          description: definition.description,
          inputSchema: definition.parameters as Tool['inputSchema'],
          annotations: { readOnlyHint: true },
        });
      }
    }
    return { ...page, tools };
  });

  server.setRequestHandler(CallToolRequestSchema, async (request, extra) => {
    const { name } = request.params;
    if (settings.tools && addedNames.has(name)) {
      const answer = await settings.tools.call(name, request.params.arguments ?? {}, {
        signal: extra.signal,
      });
      return {
        content: [{ type: 'text', text: answer }],
        ...(answer.startsWith('error:') ? { isError: true } : {}),
      };
    }
    const result = await upstream.request(
      { method: 'tools/call', params: request.params },
      CallToolResultSchema,
      forwardOptions(extra.signal, request.params._meta?.progressToken, extra.sendNotification),
    );
    return compact(result, name, extra.signal);
  });

  // Everything else goes through unchanged, both ways.
  server.fallbackRequestHandler = async (request, extra) =>
    upstream.request(
      { method: request.method, ...(request.params ? { params: request.params } : {}) },
      ResultSchema,
      forwardOptions(
        extra.signal,
        (request.params?._meta as { progressToken?: ProgressToken } | undefined)?.progressToken,
        extra.sendNotification,
      ),
    );
  server.fallbackNotificationHandler = async (notification) => {
    await upstream.notification(notification).catch(() => {});
  };
  upstream.fallbackNotificationHandler = async (notification) => {
    await server.notification(notification).catch(() => {});
  };
  return server;
}
