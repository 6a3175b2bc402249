import type { AnySchema, SchemaOutput } from '@modelcontextprotocol/sdk/server/zod-compat.js';
import type { Protocol, RequestOptions } from '@modelcontextprotocol/sdk/shared/protocol.js';
import type {
  Notification,
  ProgressToken,
  Request,
  Result,
} from '@modelcontextprotocol/sdk/types.js';
import { ErrorCode } from '@modelcontextprotocol/sdk/types.js';

/** What a request handler of the proxy knows about the request it is forwarding. */
export interface ForwardedRequestExtra {
  /** Aborted when the requester cancels (the cancellation is passed on). */
  signal: AbortSignal;
  /** Sends a notification to the requester, in relation to this request (progress). */
  sendNotification: (notification: Notification) => Promise<void>;
}

/** Sends requests on to the other side of the proxy and brings their answers back. */
export interface Forwarder {
  /**
   * Sends `request` to the other side as it is and resolves with its result. Progress the other
   * side reports is passed to the requester under the requester's own progress token. Rejects
   * with an error the protocol answers as it is (`code`, `message`, `data`): the other side's
   * own error answer, the deadline (`-32001`), or the connection closing first (`-32000`).
   */
  forward<T extends AnySchema>(
    request: { method: string; params?: Record<string, unknown> | undefined },
    resultSchema: T,
    extra: ForwardedRequestExtra,
  ): Promise<SchemaOutput<T>>;
}

/** Settings of `createForwarder`. */
export interface ForwarderSettings {
  /** The connection requests go out on (the proxy's upstream `Client`, or its `Server`). */
  to: Pick<Protocol<Request, Notification, Result>, 'request' | 'transport'>;
  /** The other side as error messages name it, such as `the MCP server`. */
  peer: string;
  /**
   * Milliseconds a forwarded request may go unanswered; each progress notification for it starts
   * the wait again. 0: no deadline (the requester decides when to give up). Default 0.
   */
  timeoutMs?: number;
}

// setTimeout's largest delay: the SDK's own 60 s request timeout is off, the deadline here (which
// restarts on progress) is the one that ends a forwarded request.
const SDK_TIMEOUT_OFF = 2_147_483_647;

/** An error the SDK's protocol sends as a JSON-RPC error answer exactly as given. */
export function answerError(code: number, message: string, data?: unknown): Error {
  return Object.assign(new Error(message), { code, ...(data === undefined ? {} : { data }) });
}

/**
 * An error answer from the other side, as the protocol should send it on: its code, message and
 * data unchanged (the SDK's `McpError` prefixes its message with `MCP error <code>: `).
 */
function relayed(error: unknown): unknown {
  const { code, data, message } = (error ?? {}) as {
    code?: unknown;
    data?: unknown;
    message?: unknown;
  };
  if (typeof code !== 'number' || !Number.isSafeInteger(code) || typeof message !== 'string') {
    return error;
  }
  const prefix = `MCP error ${code}: `;
  return answerError(
    code,
    message.startsWith(prefix) ? message.slice(prefix.length) : message,
    data,
  );
}

function formatMs(ms: number): string {
  return ms % 1000 === 0 ? `${ms / 1000} s` : `${ms} ms`;
}

/**
 * A `Forwarder` over one connection, with a deadline per request. A request that is neither
 * answered nor reports progress for `timeoutMs` is cancelled on the other side (the SDK sends
 * `notifications/cancelled`) and answered with `-32001`; one still waiting when the connection
 * closes is answered with `-32000`. Timers are cleared when the request settles.
 */
export function createForwarder(settings: ForwarderSettings): Forwarder {
  const { to, peer } = settings;
  const timeoutMs = settings.timeoutMs ?? 0;
  return {
    async forward(request, resultSchema, extra) {
      const method = request.method;
      const closed = () =>
        answerError(
          ErrorCode.ConnectionClosed,
          `${peer} closed the connection before answering ${method}`,
        );
      if (to.transport === undefined) throw closed();
      const token = (request.params?._meta as { progressToken?: ProgressToken } | undefined)
        ?.progressToken;
      const deadline = new AbortController();
      let timer: ReturnType<typeof setTimeout> | undefined;
      const restart = () => {
        if (timeoutMs <= 0) return;
        if (timer !== undefined) clearTimeout(timer);
        timer = setTimeout(() => deadline.abort(), Math.min(timeoutMs, SDK_TIMEOUT_OFF));
      };
      restart();
      const options: RequestOptions = {
        timeout: SDK_TIMEOUT_OFF,
        signal: timeoutMs > 0 ? AbortSignal.any([extra.signal, deadline.signal]) : extra.signal,
        ...(token === undefined
          ? {}
          : {
              onprogress: (progress) => {
                restart();
                void extra
                  .sendNotification({
                    method: 'notifications/progress',
                    params: { ...progress, progressToken: token },
                  })
                  .catch(() => {});
              },
            }),
      };
      try {
        return await to.request(
          { method, ...(request.params ? { params: request.params } : {}) },
          resultSchema,
          options,
        );
      } catch (error) {
        if (deadline.signal.aborted && !extra.signal.aborted) {
          throw answerError(
            ErrorCode.RequestTimeout,
            `${peer} did not answer ${method} within ${formatMs(timeoutMs)}; the request was cancelled`,
            { timeoutMs },
          );
        }
        // The protocol drops its transport before it fails the requests still waiting.
        if (to.transport === undefined) throw closed();
        throw relayed(error);
      } finally {
        if (timer !== undefined) clearTimeout(timer);
      }
    },
  };
}
