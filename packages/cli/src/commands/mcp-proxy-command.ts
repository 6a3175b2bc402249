import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { type AIClient, loadConfig } from '@compaction/core';
import {
  createMcpProxy,
  createStdioUpstreamTransport,
  mcpProxyClientCapabilities,
  upstreamServerEnv,
} from '@compaction/mcp';
import { createArtifactMode, createCompaction } from '@compaction/orchestration';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import type { CliCommand } from '../cli-command.js';
import type { CliIo } from '../cli-io.js';
import { parseCommandArgs, parseDurationFlag, parseIntegerFlag } from '../parse-command-args.js';
import { UsageError } from '../usage-error.js';
import { chooseProvider, createClient, hasCredentials, KEY_VARIABLES } from './distill-command.js';

/** The model client for distilled views, or undefined (with a warning on stderr) when there is none. */
async function distillClient(
  providerFlag: string | undefined,
  io: CliIo,
): Promise<AIClient | undefined> {
  const provider = chooseProvider(providerFlag, io.env);
  const fallBack = (why: string) => {
    io.stderr.write(`warning: compaction mcp-proxy: ${why}; serving structural views\n`);
    return undefined;
  };
  if (!provider) {
    return fallBack(
      'distillation needs a provider: set OPENAI_API_KEY or ANTHROPIC_API_KEY (or OPENAI_BASE_URL for a local server)',
    );
  }
  if (!hasCredentials(provider, io.env)) return fallBack(`no ${KEY_VARIABLES[provider]} set`);
  try {
    return await createClient(provider, io.env);
  } catch (error) {
    return fallBack(error instanceof Error ? error.message : String(error));
  }
}

/** `--url` and its `--header`s, checked. */
function parseRemote(
  url: string,
  headers: string | boolean | string[] | undefined,
): { url: URL; headers: Record<string, string> } {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw new UsageError(`--url must be an http(s) URL, got ${JSON.stringify(url)}`);
  }
  if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') {
    throw new UsageError(`--url must be an http(s) URL, got ${JSON.stringify(url)}`);
  }
  const fields: Record<string, string> = {};
  for (const header of Array.isArray(headers) ? headers : []) {
    const colon = header.indexOf(':');
    const name = header.slice(0, colon).trim();
    if (colon < 0 || name === '') {
      throw new UsageError(`--header must be "Name: value", got ${JSON.stringify(header)}`);
    }
    fields[name] = header.slice(colon + 1).trim();
  }
  return { url: parsed, headers: fields };
}

/** `compaction mcp-proxy -- <command> [args…]`: any stdio MCP server, its big tool results compacted. */
export const mcpProxyCommand: CliCommand = {
  name: 'mcp-proxy',
  summary: 'front a stdio MCP server: oversized tool results compacted, stored as artifacts',
  help: `Usage: compaction mcp-proxy [--dir DIR] [--session ID] [--max-bytes N] [--timeout DURATION] [--max-message-bytes N] [--distill] [--provider P]
       (-- <command> [args…] | --url URL [--header 'Name: value']…)

Starts <command> as an MCP server on its standard input and output and serves it again on this
process's: every request and notification is passed through both ways (tools, resources, prompts,
completions, the logging level and log messages, list-changed notifications, and the server's
own requests to the client: sampling, roots, elicitation; progress and cancellation in either
direction), except that a tool result or resources/read result heavier than --max-bytes as the
client reads it (its JSON, escapes and structuredContent included, the base64 of images aside)
is rewritten to fit: each text that does not fit its share is stored whole as an artifact and
replaced by one line with its art_ id and a structural view of it (valid JSON for JSON, with a
disclosure note); many embedded resources are stored together as one artifact. With --distill
(or COMPACTION_MCP_PROXY_DISTILL=true, or --provider) the view is distilled by a model instead;
an API key in the environment alone never turns that on. The tools artifact_read and artifact_search are added to the server's tools so the
model can page through and search what was stored. A call the server leaves unanswered for
--timeout (restarted by each progress notification) is cancelled and answered with a JSON-RPC
error (-32001); when the server exits, every call still waiting is answered with an error
(-32000) and the proxy exits 1. A message from the server longer than --max-message-bytes is
skipped as it arrives (the server keeps running) and the call it answers gets a JSON-RPC error
(-32603). The server's standard error passes through.

With --url instead of a command, the proxy fronts a remote server over streamable HTTP (the MCP
SDK's StreamableHTTPClientTransport), sending each --header with every request.

Options:
  --url URL         front the MCP server at this streamable HTTP endpoint instead of a command
  --header H        an HTTP header for --url, as "Name: value" (repeatable), such as an
                    Authorization header
  --dir DIR         where transcripts and artifacts go (default: <tmp>/compaction-mcp-proxy)
  --session ID      session id, the artifact store's name (default: proxy-<time>-<pid>)
  --max-bytes N     budget of one tool result as sent to the client, in UTF-8 bytes of JSON
                    (default: COMPACTION_RESULT_TRIM_MAX_BYTES, 65536)
  --timeout D       how long a forwarded call may go unanswered, such as 30s or 10m; 0 waits for ever
                    (default: COMPACTION_MCP_PROXY_TIMEOUT, 10m)
  --max-message-bytes N
                    longest message read from the server, in bytes (default:
                    COMPACTION_MCP_PROXY_MAX_MESSAGE_BYTES, 67108864)
  --distill         distill views with a model: the provider from --provider, else the first of
                    OPENAI_API_KEY, ANTHROPIC_API_KEY and OPENAI_BASE_URL that is set (default:
                    COMPACTION_MCP_PROXY_DISTILL, false); without a provider or its SDK the proxy
                    says so on standard error and serves structural views
  --provider P      openai or anthropic for distilled views; implies --distill
  -h, --help        show this help

Examples:
  compaction mcp-proxy -- npx -y @modelcontextprotocol/server-filesystem /srv/logs
  compaction mcp-proxy --timeout 2m -- python -m my_server
  compaction mcp-proxy --url https://mcp.example.com/mcp --header "Authorization: Bearer $TOKEN"
  # in an MCP client configuration:
  #   {"command": "npx", "args": ["-y", "-p", "@compaction/cli", "compaction", "mcp-proxy",
  #                               "--", "npx", "-y", "@modelcontextprotocol/server-filesystem", "/srv/logs"]}`,
  async run(args, io) {
    const split = args.indexOf('--');
    const [command, ...commandArgs] = split < 0 ? [] : args.slice(split + 1);
    const { values, positionals } = parseCommandArgs(split < 0 ? args : args.slice(0, split), {
      url: { type: 'string' },
      header: { type: 'string', multiple: true },
      dir: { type: 'string' },
      session: { type: 'string' },
      'max-bytes': { type: 'string' },
      timeout: { type: 'string' },
      'max-message-bytes': { type: 'string' },
      distill: { type: 'boolean' },
      provider: { type: 'string' },
    });
    if (positionals.length > 0) throw new UsageError(`unexpected argument: ${positionals[0]}`);
    const url = values.url as string | undefined;
    if (url !== undefined && split >= 0) {
      throw new UsageError('give either --url or a server command after --, not both');
    }
    if (url === undefined && command === undefined) {
      throw new UsageError(
        'the server command goes after --: compaction mcp-proxy -- <command> [args…] (or --url URL)',
      );
    }
    const remote = url === undefined ? undefined : parseRemote(url, values.header);
    const maxBytes = parseIntegerFlag('max-bytes', values['max-bytes'] as string | undefined, 512);
    const timeoutMs = parseDurationFlag('timeout', values.timeout as string | undefined);
    const maxMessageBytes = parseIntegerFlag(
      'max-message-bytes',
      values['max-message-bytes'] as string | undefined,
      1,
    );
    const { config, warnings } = loadConfig({
      env: io.env,
      options: {
        mcpProxy: {
          ...(timeoutMs === undefined ? {} : { timeoutMs }),
          ...(maxMessageBytes === undefined ? {} : { maxMessageBytes }),
        },
      },
    });
    for (const warning of warnings) io.stderr.write(`warning: ${warning.message}\n`);
    const providerFlag = values.provider as string | undefined;
    const distill =
      values.distill === true || providerFlag !== undefined || config.mcpProxy.distill;
    // An MCP client starts the proxy with whatever environment it has: a key there is no
    // request to spend it, so distillation is asked for explicitly, and a missing provider or
    // SDK costs the views their model, never the proxy its start.
    const aiClient = distill ? await distillClient(providerFlag, io) : undefined;
    const compaction = createCompaction({
      config,
      ...(aiClient ? { aiClient } : {}),
      ...(io.telemetry ? { telemetry: io.telemetry } : {}),
    });
    const dir = resolve(
      io.cwd,
      (values.dir as string | undefined) ?? join(tmpdir(), 'compaction-mcp-proxy'),
    );
    const session = (values.session as string | undefined) ?? `proxy-${Date.now()}-${process.pid}`;
    const artifacts = createArtifactMode({
      transcriptPath: join(dir, `${session}.jsonl`),
      view: compaction.synthesisProcessor,
    });

    const upstream = new Client(
      { name: 'compaction-mcp-proxy', version: '0.1.0' },
      { capabilities: mcpProxyClientCapabilities },
    );
    const transport = remote
      ? new StreamableHTTPClientTransport(remote.url, {
          requestInit: { headers: remote.headers },
        })
      : createStdioUpstreamTransport({
          command: command!,
          args: commandArgs,
          cwd: io.cwd,
          // Started inside `npx -p @compaction/cli`, the server's own `npx -y <server>` would
          // read the outer run's npm_config_package as its package and fail.
          env: upstreamServerEnv(io.env),
          stderr: 'inherit',
          maxMessageBytes: config.mcpProxy.maxMessageBytes,
        });
    const serverName = remote ? remote.url.href : command!;
    // Set before connecting, the client keeps this handler and calls its own after it.
    let serverGone = false;
    transport.onclose = () => {
      serverGone = true;
    };
    try {
      await upstream.connect(transport);
    } catch (error) {
      io.stderr.write(
        `compaction mcp-proxy: could not ${remote ? 'connect to' : 'start'} ${serverName}: ${error instanceof Error ? error.message : String(error)}\n`,
      );
      await upstream.close().catch(() => {});
      return 1;
    }
    let server: ReturnType<typeof createMcpProxy>;
    try {
      server = createMcpProxy({
        upstream,
        processor: artifacts.processor,
        tools: artifacts.tools,
        maxResultBytes: maxBytes ?? compaction.synthesisBudgets.perResultBytes,
        timeoutMs: config.mcpProxy.timeoutMs,
        onCompacted: (event) =>
          io.stderr.write(
            `compaction mcp-proxy: ${event.toolName}: ${event.originalBytes} → ${event.outputBytes} bytes (full result in ${artifacts.dir})\n`,
          ),
      });
    } catch (error) {
      // The server process would otherwise keep this one alive, answering nothing.
      io.stderr.write(
        `compaction mcp-proxy: could not proxy ${serverName}: ${error instanceof Error ? error.message : String(error)}\n`,
      );
      await upstream.close().catch(() => {});
      return 1;
    }
    // Whoever goes first decides the exit code: the client leaving is a normal end, the
    // server going away is not. When the server goes, the proxy answers every call still
    // waiting with an error and then closes itself.
    const ended = await new Promise<'client' | 'server'>((done) => {
      let first: 'client' | 'server' | undefined;
      const finish = (who: 'client' | 'server') => {
        if (first) return;
        first = who;
        void Promise.allSettled([server.close(), upstream.close()]).then(() => done(who));
      };
      server.onclose = () => finish(serverGone ? 'server' : 'client');
      process.stdin.once('end', () => finish('client'));
      process.once('SIGTERM', () => finish('client'));
      void server.connect(new StdioServerTransport());
    });
    if (ended === 'server') {
      io.stderr.write(
        `compaction mcp-proxy: ${serverName} ${remote ? 'closed the connection' : 'exited'}\n`,
      );
    }
    return ended === 'server' ? 1 : 0;
  },
};
