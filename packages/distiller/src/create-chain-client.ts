import type { AIClient, AICompletion, AICompletionRequest, AIRoute } from '@compaction/core';
import { type ModelCallError, toModelCallError } from './model-call-error.js';

/** Settings of `createChainClient`. */
export interface ChainClientSettings {
  /** Called when a provider fails and the next one is tried. Default: nothing. */
  onFailover?: (failure: { provider: string; error: ModelCallError; next: string }) => void;
}

type RouteRequest = Pick<AICompletionRequest, 'model' | 'maxTokens' | 'temperature'>;

// A member without `route` is described by its provider and the requested model, as a cache
// without routes would key it.
function memberRoute(client: AIClient, request: RouteRequest): AIRoute {
  return (
    client.route?.(request) ?? { fingerprint: `${client.provider}#${request.model}`, stable: true }
  );
}

/**
 * An `AIClient` that tries `clients` in order, failing over on retryable errors (429, 5xx,
 * connection failures, timeouts, unreadable bodies) and stopping at the first non-retryable
 * one, such as a 404 for a model name the provider does not know, or an abort. Its `route` is
 * the members' routes in order; an answer given after a failover reports a different route, so
 * the distill cache does not store it under the chain's key. Each client keeps
 * its own SDK retries; the chain adds no retry loop of its own. Use portable aliases (`fast`,
 * `default`, `smart`) as the model: a concrete name is provider-specific and breaks failover.
 */
export function createChainClient(
  clients: readonly AIClient[],
  settings: ChainClientSettings = {},
): AIClient {
  if (clients.length === 0) throw new TypeError('createChainClient needs at least one client');
  const list = [...clients];
  // The chain's route is every member's, in order. An answer from the first member reports the
  // chain's fingerprint; an answer after a failover reports the member that gave it, so a cache
  // never files it under the chain's key.
  const route = (request: RouteRequest): AIRoute => {
    const members = list.map((client) => memberRoute(client, request));
    return {
      fingerprint: `chain(${members.map((member) => member.fingerprint).join(' > ')})`,
      stable: members.every((member) => member.stable),
    };
  };
  return {
    provider: list.map((client) => client.provider).join('>'),
    route,
    async complete(request): Promise<AICompletion> {
      let lastError: ModelCallError | undefined;
      for (const [index, client] of list.entries()) {
        request.signal?.throwIfAborted();
        try {
          const answer = await client.complete(request);
          const planned = memberRoute(client, request).fingerprint;
          const answered = answer.route ?? planned;
          return {
            ...answer,
            route:
              index === 0 && answered === planned
                ? route(request).fingerprint
                : `failover(${answered})`,
          };
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
