import type { DistillCache } from '../distill-cache.js';

/** Settings of `createMemoryDistillCache`. */
export interface MemoryDistillCacheSettings {
  /** Clock in milliseconds. Default `Date.now`. */
  now?: () => number;
  /** Make every call reject with this error (to test fail-open paths). */
  failWith?: Error;
}

/** A map-backed `DistillCache` with TTLs and call counts, for tests. */
export interface MemoryDistillCache extends DistillCache {
  readonly entries: Map<string, { value: string; expiresAt: number }>;
  readonly calls: { get: number; set: number };
}

/** Creates a map-backed cache for tests. */
export function createMemoryDistillCache(
  settings: MemoryDistillCacheSettings = {},
): MemoryDistillCache {
  const now = settings.now ?? Date.now;
  const entries = new Map<string, { value: string; expiresAt: number }>();
  const calls = { get: 0, set: 0 };
  return {
    entries,
    calls,
    async get(key) {
      calls.get++;
      if (settings.failWith) throw settings.failWith;
      const entry = entries.get(key);
      if (!entry) return undefined;
      if (entry.expiresAt <= now()) {
        entries.delete(key);
        return undefined;
      }
      return entry.value;
    },
    async set(key, value, { ttlMs }) {
      calls.set++;
      if (settings.failWith) throw settings.failWith;
      entries.set(key, { value, expiresAt: now() + ttlMs });
    },
  };
}
