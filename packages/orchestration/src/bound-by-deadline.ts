import { type ResultProcessor, SeamDeadlineError, startCallDeadline } from '@compaction/core';

/** Settings of `boundByDeadline`. */
export interface DeadlineSettings {
  /** Wall-clock bound per call in milliseconds; 0 leaves the processor as it is. */
  deadlineMs: number;
  /** Monotonic clock in milliseconds. Default `performance.now`. */
  now?: () => number;
  /** The seam named by the `SeamDeadlineError` the call's signal aborts with. Default `resultProcessor`. */
  seam?: string;
}

/**
 * `processor` with a deadline on every call: unless the context already carries one (a
 * composer derived it), the deadline is derived here, once per call, and the context carries
 * it (`deadline`), a `signal` that aborts at it, and a `shouldStop` poll that turns true
 * `deadlineMs` after the call began (on `now`), when the call's signal aborts, or when the
 * caller's own poll does. A timer cannot interrupt synchronous work, so this poll is how a
 * deadline reaches the trimmer and the digest, which then return their cheapest honest view at
 * once.
 */
export function boundByDeadline(
  processor: ResultProcessor,
  settings: DeadlineSettings,
): ResultProcessor {
  const { deadlineMs } = settings;
  if (!(deadlineMs > 0)) return processor;
  const seam = settings.seam ?? 'resultProcessor';
  return {
    async process(result, maxBytes, context = {}) {
      const within = startCallDeadline(context, {
        deadlineMs,
        now: settings.now,
        reason: () => new SeamDeadlineError({ seam, deadlineMs }),
      });
      try {
        return await processor.process(result, maxBytes, within.context);
      } finally {
        within.release();
      }
    },
  };
}
