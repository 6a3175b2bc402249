import {
  type ArtifactToolset,
  assertSize,
  InvalidArgumentError,
  knobDefault,
  type ResultProcessor,
} from '@compaction/core';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import {
  CallToolRequestSchema,
  CallToolResultSchema,
  type ClientCapabilities,
  InitializedNotificationSchema,
  ListToolsRequestSchema,
  ListToolsResultSchema,
  ReadResourceRequestSchema,
  type ReadResourceResult,
  ReadResourceResultSchema,
  ResultSchema,
  type ServerCapabilities,
  SetLevelRequestSchema,
  type Tool,
} from '@modelcontextprotocol/sdk/types.js';
import { createForwarder, type ForwardedRequestExtra, type Forwarder } from './create-forwarder.js';
import { createMcpResultFitter } from './fit-mcp-result.js';
import type { McpCompactedResult } from './mcp-compacted-result.js';

/** Settings of `createMcpProxy`. */
export interface McpProxySettings {
  /** A client already connected to the server being fronted. Required. */
  upstream: Client;
  /**
   * Turns one oversized tool result into what the MCP client (and its model) gets:
   * `createArtifactMode(…).processor` stores it whole and points at it. Required.
   */
  processor: ResultProcessor;
  /**
   * The most a tool result or resource read may weigh as the client reads it: UTF-8 bytes of its
   * JSON, escapes and envelope included, base64 of images, audio and blobs aside. A heavier one
   * is rewritten to fit (see `createMcpResultFitter`). Default 65536 (the `trim.maxResultBytes`
   * knob's default).
   */
  maxResultBytes?: number;
  /** Tools added to the upstream's (`artifact_read`, `artifact_search`); they shadow upstream tools of the same name. Default none. */
  tools?: ArtifactToolset;
  /**
   * How long a call forwarded to the upstream may go unanswered, in milliseconds; each progress
   * notification the upstream sends for it starts the wait again. At the deadline the call is
   * cancelled upstream and the client gets a JSON-RPC error (`-32001`). 0 disables. Default
   * 600000 (10 minutes); `compaction mcp-proxy` reads `COMPACTION_MCP_PROXY_TIMEOUT`.
   */
  timeoutMs?: number;
  /** Server name reported to the client. Default: the upstream's own (its title, version and icons are kept). */
  name?: string;
  /** Called once per rewritten tool result or resource read (for logs and tests). */
  onCompacted?: (event: McpCompactedResult) => void;
}

/**
 * What the proxy's own client (the one connected to the upstream server) should declare, so the
 * server may ask for sampling, roots and elicitation and send roots list-changed notifications:
 * those requests are relayed to the MCP client in front, and when it cannot answer one its error
 * is relayed back. Pass as `new Client(info, { capabilities: mcpProxyClientCapabilities })`.
 */
export const mcpProxyClientCapabilities: ClientCapabilities = {
  sampling: {},
  elicitation: {},
  roots: { listChanged: true },
};

/** `timeoutMs` when none is given: the `mcpProxy.timeoutMs` knob's default. */
const DEFAULT_TIMEOUT_MS = 600_000;

/**
 * An MCP server that fronts `upstream`: every request and notification is relayed both ways
 * (tools, resources, prompts, completions, the logging level and log messages, list-changed
 * notifications, and what the server asks of the client: sampling, roots, elicitation), with
 * progress and cancellation passed on for requests in either direction. Only two things
 * differ: a tool result or `resources/read` result heavier than `maxResultBytes` on the wire
 * comes back rewritten to fit, its texts replaced by the processor's views (text parts,
 * `structuredContent`, embedded text resources and resource contents; many small ones grouped
 * as one), and `tools` are added to the tool list and answered here. Every forwarded call ends:
 * at `timeoutMs`, or when the upstream connection closes, since the proxy sets
 * `upstream.onclose` (calling a handler set before it) to answer the calls still waiting and
 * then close itself. Create `upstream` with `mcpProxyClientCapabilities`, and connect the proxy
 * to the client's transport (`StdioServerTransport` for `compaction mcp-proxy`).
 */
export function createMcpProxy(settings: McpProxySettings): Server {
  const { upstream, processor } = settings;
  if (!processor || typeof processor.process !== 'function') {
    throw new InvalidArgumentError({
      argument: 'processor',
      message: 'processor must be a ResultProcessor',
    });
  }
  const maxResultBytes = assertSize(
    settings.maxResultBytes ?? knobDefault('trim.maxResultBytes'),
    'maxResultBytes',
    {
      min: 1,
    },
  );
  const timeoutMs = assertSize(settings.timeoutMs ?? DEFAULT_TIMEOUT_MS, 'timeoutMs');
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
  // The server's own name, title, version and icons: clients show them and key settings by them.
  const server = new Server(
    { ...upstreamInfo, ...(settings.name === undefined ? {} : { name: settings.name }) },
    { capabilities, ...(instructions ? { instructions } : {}) },
  );
  // What the server sends the client waits until the client has initialized (the protocol
  // allows nothing else before), since the proxy's own handshake with the server comes first.
  let clientInitialized!: () => void;
  const initialized = new Promise<void>((resolve) => {
    clientInitialized = resolve;
  });
  server.setNotificationHandler(InitializedNotificationSchema, () => {
    clientInitialized();
    server.oninitialized?.();
  });
  const afterInitialize = (signal?: AbortSignal) =>
    new Promise<void>((resolve, reject) => {
      if (signal?.aborted) {
        reject(signal.reason);
        return;
      }
      const onAbort = () => reject(signal!.reason);
      signal?.addEventListener('abort', onAbort, { once: true });
      void initialized.then(() => {
        signal?.removeEventListener('abort', onAbort);
        resolve();
      });
    });

  const toUpstream = createForwarder({ to: upstream, peer: 'the MCP server', timeoutMs });
  // The server's own requests (sampling, elicitation) may wait on a person: it sets their
  // deadline, and its cancellation is passed on.
  const toClient = createForwarder({ to: server, peer: 'the MCP client' });

  // Calls being answered, so that when the upstream goes away the proxy closes only after each
  // has sent its error answer.
  const answering = new Set<Promise<unknown>>();
  const answered =
    <A extends unknown[], R>(handler: (...args: A) => Promise<R>) =>
    (...args: A): Promise<R> => {
      const answer = handler(...args);
      answering.add(answer);
      answer.then(
        () => answering.delete(answer),
        () => answering.delete(answer),
      );
      return answer;
    };
  const onUpstreamClose = upstream.onclose;
  upstream.onclose = () => {
    onUpstreamClose?.();
    void (async () => {
      // The protocol fails the calls still waiting right after this callback; each handler then
      // answers with an error, which the protocol sends once the handler has settled.
      await new Promise((resolve) => setTimeout(resolve, 0));
      await Promise.allSettled([...answering]);
      await new Promise((resolve) => setTimeout(resolve, 0));
      await server.close();
    })();
  };

  const fitter = createMcpResultFitter({
    processor,
    maxResultBytes,
    onCompacted: settings.onCompacted,
  });

  server.setRequestHandler(
    ListToolsRequestSchema,
    answered(async (request, extra) => {
      const page = await toUpstream.forward(request, ListToolsResultSchema, extra);
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
    }),
  );

  server.setRequestHandler(
    CallToolRequestSchema,
    answered(async (request, extra) => {
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
      const result = await toUpstream.forward(request, CallToolResultSchema, extra);
      return fitter.fitToolResult(result, name, extra.signal);
    }),
  );

  // Only a server with resources is asked for them (the SDK refuses a handler for a capability
  // the proxy does not declare, and a tools-only server, such as the filesystem one, has none).
  if (upstreamCapabilities.resources)
    server.setRequestHandler(
      ReadResourceRequestSchema,
      answered(async (request, extra) => {
        const result: ReadResourceResult = await toUpstream.forward(
          request,
          ReadResourceResultSchema,
          extra,
        );
        return fitter.fitResourceResult(result, request.params.uri, extra.signal);
      }),
    );

  // Everything else goes through unchanged, both ways: requests of the client to the server
  // (the Server answers logging/setLevel itself unless told otherwise) and of the server to
  // the client (sampling, roots, elicitation), and notifications.
  const relay =
    (forwarder: Forwarder) =>
    (request: { method: string; params?: Record<string, unknown> }, extra: ForwardedRequestExtra) =>
      forwarder.forward(request, ResultSchema, extra);
  server.fallbackRequestHandler = answered(relay(toUpstream));
  if (upstreamCapabilities.logging)
    server.setRequestHandler(SetLevelRequestSchema, answered(relay(toUpstream)));
  upstream.fallbackRequestHandler = async (request, extra) => {
    await afterInitialize(extra.signal);
    return relay(toClient)(request, extra);
  };
  server.fallbackNotificationHandler = async (notification) => {
    await upstream.notification(notification).catch(() => {});
  };
  upstream.fallbackNotificationHandler = async (notification) => {
    await initialized;
    await server.notification(notification).catch(() => {});
  };
  return server;
}
