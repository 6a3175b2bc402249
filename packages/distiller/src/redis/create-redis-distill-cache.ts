import type { DistillCache } from '@compaction/core';
import type { Redis } from 'ioredis';

/** The few `ioredis` commands the cache uses; a `Redis` or `Cluster` instance satisfies it. */
export type RedisLike = Pick<Redis, 'get' | 'set'>;

/** Settings of `createRedisDistillCache`. */
export interface RedisDistillCacheSettings {
  /** A connected `ioredis` client. The cache never opens or closes it. Required. */
  client: RedisLike;
  /** Prefix of every key. Default `compaction:distill:`. */
  keyPrefix?: string;
  /** Longest wait for one command before it counts as failed, in milliseconds. Default 250. */
  timeoutMs?: number;
}

function bounded<T>(
  operation: Promise<T>,
  timeoutMs: number,
  signal: AbortSignal | undefined,
): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const stop = (reason: unknown) => {
      clearTimeout(timer);
      signal?.removeEventListener('abort', onAbort);
      reject(reason);
    };
    const onAbort = () => stop(signal!.reason);
    const timer = setTimeout(
      () => stop(new Error(`redis command took over ${timeoutMs} ms`)),
      timeoutMs,
    );
    if (signal?.aborted) return onAbort();
    signal?.addEventListener('abort', onAbort, { once: true });
    operation.then((value) => {
      clearTimeout(timer);
      signal?.removeEventListener('abort', onAbort);
      resolve(value);
    }, stop);
  });
}

/**
 * A `DistillCache` shared across processes through Redis (`ioredis`). Every command is bounded
 * by `timeoutMs` and the caller's signal, so a slow or unreachable Redis costs at most that
 * long; the distiller treats any rejection as a miss and recomputes.
 */
export function createRedisDistillCache(settings: RedisDistillCacheSettings): DistillCache {
  const { client } = settings;
  if (!client || typeof client.get !== 'function') {
    throw new TypeError('createRedisDistillCache needs an ioredis client in settings.client');
  }
  const prefix = settings.keyPrefix ?? 'compaction:distill:';
  const timeoutMs = settings.timeoutMs ?? 250;
  return {
    async get(key, options) {
      const value = await bounded(client.get(prefix + key), timeoutMs, options?.signal);
      return value ?? undefined;
    },
    async set(key, value, { ttlMs, signal }) {
      if (ttlMs <= 0) return;
      await bounded(client.set(prefix + key, value, 'PX', Math.ceil(ttlMs)), timeoutMs, signal);
    },
  };
}
