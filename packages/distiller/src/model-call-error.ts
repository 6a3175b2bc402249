import { CompactionError } from '@compaction/core';

/** What went wrong with a model call, independent of the provider SDK. */
export type ModelCallErrorKind =
  | 'rate_limit'
  | 'server'
  | 'connection'
  | 'timeout'
  | 'aborted'
  | 'client'
  | 'malformed';

/**
 * A model call failed. `retryable` says whether another provider might succeed (429, 5xx,
 * connection failures, timeouts, unreadable bodies); a client error such as 404 or 401 is not
 * retryable, and neither is an abort by the caller.
 */
export class ModelCallError extends CompactionError {
  /** Provider that failed (`openai`, `anthropic`, …). */
  readonly provider: string;
  /** HTTP status, when the provider answered. */
  readonly status: number | undefined;
  /** Classification of the failure. */
  readonly kind: ModelCallErrorKind;
  /** True when failing over to another provider can help. */
  readonly retryable: boolean;

  constructor(input: {
    provider: string;
    kind: ModelCallErrorKind;
    message: string;
    status?: number;
    cause?: unknown;
  }) {
    super({ message: input.message, code: `model_${input.kind}`, cause: input.cause });
    this.name = 'ModelCallError';
    this.provider = input.provider;
    this.status = input.status;
    this.kind = input.kind;
    this.retryable = !['aborted', 'client'].includes(input.kind);
  }

  static override isInstance(error: unknown): error is ModelCallError {
    return CompactionError.hasMarker(error, 'ModelCallError');
  }
}

function kindForStatus(status: number): ModelCallErrorKind {
  if (status === 429) return 'rate_limit';
  if (status === 408) return 'timeout';
  if (status >= 500) return 'server';
  return 'client';
}

/**
 * Maps an error thrown by the `openai` or `@anthropic-ai/sdk` client (they share one error
 * taxonomy) to a `ModelCallError`. Classes are recognised by name so either SDK's copy works.
 */
export function toModelCallError(provider: string, error: unknown): ModelCallError {
  if (ModelCallError.isInstance(error)) return error;
  const name = error instanceof Error ? error.name : '';
  const constructorName = (error as { constructor?: { name?: string } })?.constructor?.name ?? '';
  const message = error instanceof Error ? error.message : String(error);
  const is = (className: string) => constructorName === className || name === className;
  if (is('APIUserAbortError') || name === 'AbortError') {
    return new ModelCallError({
      provider,
      kind: 'aborted',
      message: `${provider}: call aborted`,
      cause: error,
    });
  }
  if (is('APIConnectionTimeoutError')) {
    return new ModelCallError({
      provider,
      kind: 'timeout',
      message: `${provider}: request timed out`,
      cause: error,
    });
  }
  if (is('APIConnectionError')) {
    return new ModelCallError({
      provider,
      kind: 'connection',
      message: `${provider}: connection failed: ${message}`,
      cause: error,
    });
  }
  const status = (error as { status?: unknown })?.status;
  if (typeof status === 'number') {
    return new ModelCallError({
      provider,
      kind: kindForStatus(status),
      status,
      message: `${provider}: HTTP ${status}: ${message}`,
      cause: error,
    });
  }
  return new ModelCallError({
    provider,
    kind: 'malformed',
    message: `${provider}: unreadable response: ${message}`,
    cause: error,
  });
}
