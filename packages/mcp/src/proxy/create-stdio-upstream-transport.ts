import type { ChildProcess, SpawnOptions } from 'node:child_process';
import type { Readable } from 'node:stream';
import { assertSize } from '@compaction/core';
import { serializeMessage } from '@modelcontextprotocol/sdk/shared/stdio.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import { ErrorCode, type RequestId } from '@modelcontextprotocol/sdk/types.js';
import crossSpawn from 'cross-spawn';
import { createJsonRpcLineReader, type OversizedLine } from './json-rpc-line-reader.js';

/** Starts the server process; `cross-spawn` by default (it finds `npx.cmd` on Windows). */
export type SpawnServer = (
  command: string,
  args: readonly string[],
  options: SpawnOptions,
) => ChildProcess;

/** Settings of `createStdioUpstreamTransport`. */
export interface StdioUpstreamTransportSettings {
  /** The server's executable. Required. */
  command: string;
  /** Its arguments. Default none. */
  args?: readonly string[];
  /** Its working directory. Default this process's. */
  cwd?: string;
  /**
   * Its whole environment, passed as given: `upstreamServerEnv(process.env)` is this process's
   * without the variables of an enclosing `npx` run. Default: this process's environment.
   */
  env?: Readonly<Record<string, string | undefined>>;
  /** What becomes of its standard error. Default `inherit`. */
  stderr?: 'inherit' | 'pipe' | 'ignore';
  /**
   * The longest message the server may send, in UTF-8 bytes (one line of JSON). A longer one is
   * skipped as it arrives, never held, and the request it answers gets a JSON-RPC error
   * (`-32603`) at once; the connection stays up. Default 67108864 (64 MiB);
   * `compaction mcp-proxy` reads `COMPACTION_MCP_PROXY_MAX_MESSAGE_BYTES`.
   */
  maxMessageBytes?: number;
  /** Starts the process. Default `cross-spawn`. */
  spawn?: SpawnServer;
}

/** A `Transport` to a server process over its standard input and output. */
export interface StdioUpstreamTransport extends Transport {
  /** The server process's id once started. */
  readonly pid: number | undefined;
  /** The server's standard error when `stderr` is `pipe`. */
  readonly stderr: Readable | null;
}

/** `maxMessageBytes` when none is given: the `mcpProxy.maxMessageBytes` knob's default. */
const DEFAULT_MAX_MESSAGE_BYTES = 64 * 1024 * 1024;
// How long close() waits for the server to exit after its stdin closes, then after SIGTERM.
const EXIT_GRACE_MS = 2000;

function formatBytes(bytes: number): string {
  const mib = bytes / (1024 * 1024);
  return Number.isInteger(mib) ? `${mib} MiB` : `${bytes} bytes`;
}

/**
 * The client side of MCP's stdio transport, as the SDK's `StdioClientTransport` is, with one
 * difference for a proxy: the server's messages are read as lines of up to `maxMessageBytes`
 * (the SDK's stops at 10 MiB, then closes the connection and kills a healthy server). A line
 * over the limit is skipped as it arrives; when it can be told which request it answers (its
 * `id` at its start, or at its end once it ends, or the only request waiting), that request is
 * answered with a JSON-RPC error naming the limit, so the caller hears at once rather than at
 * its deadline. A line that is not JSON-RPC is reported through `onerror`, and reading goes on.
 */
export function createStdioUpstreamTransport(
  settings: StdioUpstreamTransportSettings,
): StdioUpstreamTransport {
  const maxMessageBytes = assertSize(
    settings.maxMessageBytes ?? DEFAULT_MAX_MESSAGE_BYTES,
    'maxMessageBytes',
    { min: 1 },
  );
  const spawn: SpawnServer = settings.spawn ?? crossSpawn;
  let child: ChildProcess | undefined;
  // Requests sent and not yet answered (by the server, or here for an oversized answer).
  const waiting = new Map<RequestId, string>();

  const transport: StdioUpstreamTransport = {
    get pid() {
      return child?.pid;
    },
    get stderr() {
      return child?.stderr ?? null;
    },
    start() {
      if (child) throw new Error('the server process is already started');
      return new Promise<void>((resolve, reject) => {
        const process_ = spawn(settings.command, settings.args ?? [], {
          ...(settings.cwd === undefined ? {} : { cwd: settings.cwd }),
          ...(settings.env === undefined ? {} : { env: settings.env as NodeJS.ProcessEnv }),
          stdio: ['pipe', 'pipe', settings.stderr ?? 'inherit'],
          shell: false,
          windowsHide: true,
        });
        child = process_;
        const reader = createJsonRpcLineReader({
          maxMessageBytes,
          onMessage: (message) => {
            if ('id' in message && ('result' in message || 'error' in message)) {
              waiting.delete(message.id as RequestId);
            }
            transport.onmessage?.(message);
          },
          onError: (error) => transport.onerror?.(error),
          onOversized: (line) => answerOversized(line),
        });
        process_.on('error', (error) => {
          reject(error);
          transport.onerror?.(error);
        });
        process_.on('spawn', () => resolve());
        process_.on('close', () => {
          reader.clear();
          waiting.clear();
          if (child === process_) child = undefined;
          transport.onclose?.();
        });
        process_.stdin?.on('error', (error) => transport.onerror?.(error));
        process_.stdout?.on('error', (error) => transport.onerror?.(error));
        process_.stdout?.on('data', (chunk: Buffer) => reader.push(chunk));
      });
    },
    send(message) {
      const stdin = child?.stdin;
      if (!stdin || stdin.destroyed) return Promise.reject(new Error('Not connected'));
      if ('method' in message && 'id' in message) waiting.set(message.id, message.method);
      if ('method' in message && message.method === 'notifications/cancelled') {
        const requestId = (message.params as { requestId?: RequestId } | undefined)?.requestId;
        if (requestId !== undefined) waiting.delete(requestId);
      }
      return new Promise<void>((resolve) => {
        if (stdin.write(serializeMessage(message))) resolve();
        else stdin.once('drain', resolve);
      });
    },
    async close() {
      const process_ = child;
      if (!process_) return;
      const exited = new Promise<void>((resolve) => {
        if (process_.exitCode !== null || process_.signalCode !== null) resolve();
        else process_.once('close', () => resolve());
      });
      const within = (ms: number) =>
        Promise.race([
          exited.then(() => true),
          new Promise<boolean>((resolve) => setTimeout(() => resolve(false), ms).unref()),
        ]);
      process_.stdin?.end();
      if (await within(EXIT_GRACE_MS)) return;
      process_.kill('SIGTERM');
      if (await within(EXIT_GRACE_MS)) return;
      process_.kill('SIGKILL');
    },
  };

  // Which waiting request an oversized line answers: its id when seen, else the only one waiting
  // as the line is first reported (a line that names a method is the server's own request or a
  // notification, not an answer). `skipping` is true between a line's two reports.
  let skipping = false;
  const limit = formatBytes(maxMessageBytes);
  const answerOversized = (line: OversizedLine) => {
    const first = !skipping;
    skipping = !line.ended;
    let id: RequestId | undefined;
    if (line.kind !== 'request') {
      if (line.id !== undefined) id = waiting.has(line.id) ? line.id : undefined;
      else if (first && waiting.size === 1) id = waiting.keys().next().value;
    } else if (line.ended && line.id !== undefined) {
      // The server's own request (sampling, say) is answered here, or it would wait for ever.
      void transport
        .send({
          jsonrpc: '2.0',
          id: line.id,
          error: {
            code: ErrorCode.InvalidRequest,
            message: `the request is larger than ${limit}, the most the proxy reads; it was skipped`,
          },
        })
        .catch(() => {});
    }
    if (id === undefined) {
      if (first) {
        transport.onerror?.(
          new Error(`the MCP server sent a message larger than ${limit}; it was skipped`),
        );
      }
      return;
    }
    const method = waiting.get(id)!;
    waiting.delete(id);
    transport.onmessage?.({
      jsonrpc: '2.0',
      id,
      error: {
        code: ErrorCode.InternalError,
        message: `the MCP server's answer to ${method} is larger than ${limit}, the most the proxy reads (maxMessageBytes, COMPACTION_MCP_PROXY_MAX_MESSAGE_BYTES); it was skipped and the server is still connected`,
        data: { maxMessageBytes },
      },
    });
  };

  return transport;
}
