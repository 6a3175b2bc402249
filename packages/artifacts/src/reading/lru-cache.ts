/** A map that keeps the entries used last, up to a fixed number. */
export interface LruCache<K, V> {
  /** The value under `key`, which becomes the one used last; `undefined` when absent. */
  get(key: K): V | undefined;
  /** Stores `value` under `key` as the one used last, dropping the least recently used entry past the limit. */
  set(key: K, value: V): void;
  /** Entries held. */
  readonly size: number;
}

/** An `LruCache` of at most `limit` entries (a Map's insertion order is the recency order). */
export function createLruCache<K, V>(limit: number): LruCache<K, V> {
  const entries = new Map<K, V>();
  return {
    get(key) {
      const value = entries.get(key);
      if (value === undefined) return undefined;
      entries.delete(key);
      entries.set(key, value);
      return value;
    },
    set(key, value) {
      entries.delete(key);
      entries.set(key, value);
      while (entries.size > limit) entries.delete(entries.keys().next().value!);
    },
    get size() {
      return entries.size;
    },
  };
}
