import { DigestStoppedError } from './digest-stopped-error.js';

/** Options of a digest pass. */
export interface DigestPassOptions {
  /**
   * Polled every `DIGEST_POLL_INTERVAL` values or members visited; when it returns true the
   * pass throws `DigestStoppedError` (see core's `ResultProcessorContext.shouldStop`).
   */
  shouldStop?: () => boolean;
}

/** Values and members a digest pass visits between two polls of `shouldStop`. */
export const DIGEST_POLL_INTERVAL = 4096;

/**
 * A tick to call once per value or member visited: every `DIGEST_POLL_INTERVAL` ticks it polls
 * `shouldStop` and throws `DigestStoppedError` when told to stop. Undefined without a poll.
 */
export function digestWorkPoll(shouldStop: (() => boolean) | undefined): (() => void) | undefined {
  if (shouldStop === undefined) return undefined;
  let work = 0;
  return () => {
    if (++work % DIGEST_POLL_INTERVAL === 0 && shouldStop()) {
      throw new DigestStoppedError({ work });
    }
  };
}
