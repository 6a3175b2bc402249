import type { DistillCache } from '@compaction/core';
import { createRedisDistillCache } from './create-redis-distill-cache.js';

/** Settings of `connectRedisDistillCache`. */
export interface ConnectRedisDistillCacheSettings {
  /** A Redis URL such as `redis://127.0.0.1:6379/0`. Required. `COMPACTION_REDIS_URL` through core's `loadConfig`. */
  url: string;
  /** Prefix of every key. Default `compaction:distill:`. */
  keyPrefix?: string;
  /** Longest wait for one command, in milliseconds. Default 250. */
  timeoutMs?: number;
  /** Cancels before the connection is created. */
  signal?: AbortSignal;
}

/** A Redis-backed cache with the connection it opened. */
export interface ConnectedRedisDistillCache {
  cache: DistillCache;
  /** Drops the connection at once; call it when done. */
  close(): void;
}

/**
 * Opens an `ioredis` connection for a one-shot program (such as the CLI) and wraps it in
 * `createRedisDistillCache`. The caller owns the connection and must `close()` it. Connection
 * failures never throw here: every command just fails, and the distiller recomputes.
 * Long-lived services should create and share their own client instead.
 */
export async function connectRedisDistillCache(
  settings: ConnectRedisDistillCacheSettings,
): Promise<ConnectedRedisDistillCache> {
  settings.signal?.throwIfAborted();
  const { Redis } = await import('ioredis');
  settings.signal?.throwIfAborted();
  const client = new Redis(settings.url, {
    lazyConnect: true,
    maxRetriesPerRequest: 1,
    connectTimeout: settings.timeoutMs ?? 250,
    // `close()` ends the socket and waits this long for it to close before destroying it; with
    // ioredis's 2 s, a program whose Redis is unreachable lingers 2 s after its work is done.
    disconnectTimeout: settings.timeoutMs ?? 250,
    retryStrategy: () => null,
  });
  // A down Redis must not crash the host through an unhandled 'error' event.
  client.on('error', () => {});
  return {
    cache: createRedisDistillCache({
      client,
      ...(settings.keyPrefix !== undefined ? { keyPrefix: settings.keyPrefix } : {}),
      ...(settings.timeoutMs !== undefined ? { timeoutMs: settings.timeoutMs } : {}),
    }),
    close: () => client.disconnect(),
  };
}
