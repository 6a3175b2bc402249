import type { AIClient, AICompletion } from '@compaction/core';
import { type ModelCallError, toModelCallError } from './model-call-error.js';

/** Settings of `createChainClient`. */
export interface ChainClientSettings {
  /** Called when a provider fails and the next one is tried. Default: nothing. */
  onFailover?: (failure: { provider: string; error: ModelCallError; next: string }) => void;
}

/**
 * An `AIClient` that tries `clients` in order, failing over on retryable errors (429, 5xx,
 * connection failures, timeouts, unreadable bodies) and stopping at the first non-retryable
 * one, such as a 404 for a model name the provider does not know, or an abort. Each client keeps
 * its own SDK retries; the chain adds no retry loop of its own. Use portable aliases (`fast`,
 * `default`, `smart`) as the model: a concrete name is provider-specific and breaks failover.
 */
export function createChainClient(
  clients: readonly AIClient[],
  settings: ChainClientSettings = {},
): AIClient {
  if (clients.length === 0) throw new TypeError('createChainClient needs at least one client');
  const list = [...clients];
  return {
    provider: list.map((client) => client.provider).join('>'),
    async complete(request): Promise<AICompletion> {
      let lastError: ModelCallError | undefined;
      for (const [index, client] of list.entries()) {
        request.signal?.throwIfAborted();
        try {
          return await client.complete(request);
        } catch (error) {
          const failure = toModelCallError(client.provider, error);
          if (!failure.retryable || request.signal?.aborted) throw failure;
          lastError = failure;
          const next = list[index + 1];
          if (next)
            settings.onFailover?.({
              provider: client.provider,
              error: failure,
              next: next.provider,
            });
        }
      }
      throw lastError!;
    },
  };
}
