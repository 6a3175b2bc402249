/**
 * A string cache shared by distillers (in-process LRU, Redis, or your own). Callers treat every
 * failure as a miss and recompute, so an implementation may throw freely.
 */
export interface DistillCache {
  /** The stored value for `key`, or undefined on a miss. */
  get(key: string, options?: { signal?: AbortSignal }): Promise<string | undefined>;
  /** Stores `value` under `key` for `ttlMs` milliseconds. */
  set(key: string, value: string, options: { ttlMs: number; signal?: AbortSignal }): Promise<void>;
}
