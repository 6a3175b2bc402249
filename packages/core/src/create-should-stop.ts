/** What a `shouldStop` poll made by `createShouldStop` watches. Every field is optional. */
export interface ShouldStopSettings {
  /** Stop once this signal is aborted (the caller's cancellation). */
  signal?: AbortSignal;
  /**
   * Stop once `now()` reaches this instant, in milliseconds on the `now` clock (a compaction's
   * start plus its deadline). Default: no deadline.
   */
  deadline?: number;
  /** Monotonic clock in milliseconds. Default `performance.now`. */
  now?: () => number;
  /** An outer poll (the caller's `context.shouldStop`) that stops this one too. */
  shouldStop?: () => boolean;
}

/**
 * A `ResultProcessorContext.shouldStop` poll over a signal, a deadline on an injectable clock
 * and an outer poll: true once any of them says stop, and true from then on. A timer cannot
 * fire while synchronous work runs, so a deadline reaches a trimmer or a digest only through
 * this poll. Never throws (an outer poll that throws counts as stop). Returns `undefined` when
 * there is nothing to watch, so a context carries no poll that can never fire.
 */
export function createShouldStop(settings: ShouldStopSettings): (() => boolean) | undefined {
  const { signal, deadline, shouldStop: outer } = settings;
  const timed = deadline !== undefined && Number.isFinite(deadline);
  if (!signal && !timed && !outer) return undefined;
  const now = settings.now ?? (() => performance.now());
  let stopped = false;
  return () => {
    if (stopped) return true;
    try {
      stopped = Boolean(signal?.aborted) || (timed && now() >= deadline) || Boolean(outer?.());
    } catch {
      stopped = true;
    }
    return stopped;
  };
}
