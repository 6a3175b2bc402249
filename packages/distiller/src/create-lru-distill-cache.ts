import { assertSize, type DistillCache, utf8ByteLength } from '@compaction/core';
import { LRUCache } from 'lru-cache';

/** Settings of `createLruDistillCache`. */
export interface LruDistillCacheSettings {
  /** Upper bound on stored keys and values together, in UTF-8 bytes. Default 33554432 (32 MiB). */
  maxBytes?: number;
  /** TTL used when `set` names none, in milliseconds. Default 300000 (5 min, like `COMPACTION_RESULT_DISTILL_CACHE_TTL`). */
  defaultTtlMs?: number;
}

/**
 * An in-process `DistillCache` on `lru-cache`, bounded by bytes: least recently used entries
 * are evicted first, and an entry larger than the whole bound is not stored.
 */
export function createLruDistillCache(settings: LruDistillCacheSettings = {}): DistillCache {
  const maxBytes = assertSize(settings.maxBytes ?? 32 * 1024 * 1024, 'maxBytes', { min: 1 });
  const defaultTtlMs = assertSize(settings.defaultTtlMs ?? 300_000, 'defaultTtlMs', { min: 1 });
  const cache = new LRUCache<string, string>({
    maxSize: maxBytes,
    sizeCalculation: (value, key) => utf8ByteLength(value) + utf8ByteLength(key),
    ttl: defaultTtlMs,
    ttlAutopurge: false,
  });
  return {
    async get(key) {
      return cache.get(key);
    },
    async set(key, value, { ttlMs }) {
      if (ttlMs <= 0) return;
      cache.set(key, value, { ttl: ttlMs });
    },
  };
}
