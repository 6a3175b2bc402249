import { createShouldStop, type ResultProcessor } from '@compaction/core';

/** Settings of `boundByDeadline`. */
export interface DeadlineSettings {
  /** Wall-clock bound per call in milliseconds; 0 leaves the processor as it is. */
  deadlineMs: number;
  /** Monotonic clock in milliseconds. Default `performance.now`. */
  now?: () => number;
}

/**
 * `processor` with a deadline on every call: the context carries a `shouldStop` poll that
 * turns true `deadlineMs` after the call began (on `now`), when the call's signal aborts, or
 * when the caller's own poll does. A timer cannot interrupt synchronous work, so this poll is
 * how a deadline reaches the trimmer and the digest, which then return their cheapest honest
 * view at once.
 */
export function boundByDeadline(
  processor: ResultProcessor,
  settings: DeadlineSettings,
): ResultProcessor {
  if (!(settings.deadlineMs > 0)) return processor;
  const now = settings.now ?? (() => performance.now());
  return {
    process(result, maxBytes, context = {}) {
      const shouldStop = createShouldStop({
        signal: context.signal,
        deadline: now() + settings.deadlineMs,
        now,
        shouldStop: context.shouldStop,
      });
      return processor.process(result, maxBytes, { ...context, shouldStop });
    },
  };
}
