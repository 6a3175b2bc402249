import { createShouldStop } from './create-should-stop.js';

/**
 * The deadline of one compaction call, derived once by the layer the call enters
 * (`startCallDeadline`) and handed down in the context beside the `signal` and `shouldStop` it
 * drives. A layer below that finds one uses it as given and derives none of its own.
 */
export interface CallDeadline {
  /** The bound, in milliseconds (for errors and notes). */
  readonly deadlineMs: number;
  /** The instant it falls due, in milliseconds on `now`. */
  readonly at: number;
  /** The monotonic clock `at` is on. */
  readonly now: () => number;
  /** True once the deadline, not the caller, ended the call (the signal's reason is then the deadline's). */
  readonly hit: boolean;
  /** The caller's own cancellation, without the deadline; a layer rethrows its reason. */
  readonly callerSignal: AbortSignal | undefined;
  /**
   * A poll for work that may run past the deadline by a grace of its own (a floor after a model
   * that timed out): true at `max(at, now() + graceMs)` (from the moment it is made), with the
   * caller's signal or with the caller's own poll.
   */
  pollWithGrace(graceMs: number): () => boolean;
}

/** Settings of `startCallDeadline`. */
export interface CallDeadlineSettings {
  /** The bound in milliseconds; 0 (or less) leaves the context as it is. */
  deadlineMs: number;
  /** Monotonic clock in milliseconds. Default `performance.now`. */
  now?: () => number;
  /** The abort reason of the context's signal at the deadline. */
  reason: () => unknown;
}

/** What the deadline's context carries. */
export interface DeadlineContext {
  signal?: AbortSignal;
  shouldStop?: () => boolean;
  deadline?: CallDeadline;
}

/**
 * Starts the deadline of one call, unless `context` already carries one (then it is returned
 * as it is) or `deadlineMs` is not positive. The returned context's `signal` aborts at the
 * deadline (with `reason()`) or with the caller's signal, and its `shouldStop` turns true at
 * the deadline (on `now`), with the signal, or with the caller's own poll. `release` clears the
 * timer; call it in `finally`.
 */
export function startCallDeadline<C extends DeadlineContext>(
  context: C,
  settings: CallDeadlineSettings,
): { context: C; release: () => void } {
  if (context.deadline || !(settings.deadlineMs > 0)) return { context, release: () => {} };
  const { deadlineMs } = settings;
  const now = settings.now ?? (() => performance.now());
  const callerSignal = context.signal;
  const callerPoll = context.shouldStop;
  const at = now() + deadlineMs;
  const controller = new AbortController();
  let hit = false;
  const timer = setTimeout(() => {
    hit = true;
    controller.abort(settings.reason());
  }, deadlineMs);
  const signal = callerSignal
    ? AbortSignal.any([callerSignal, controller.signal])
    : controller.signal;
  const deadline: CallDeadline = {
    deadlineMs,
    at,
    now,
    get hit() {
      return hit;
    },
    callerSignal,
    pollWithGrace: (graceMs) =>
      createShouldStop({
        signal: callerSignal,
        deadline: Math.max(at, now() + graceMs),
        now,
        shouldStop: callerPoll,
      })!,
  };
  const shouldStop = createShouldStop({ signal, deadline: at, now, shouldStop: callerPoll })!;
  return {
    context: { ...context, signal, shouldStop, deadline },
    release: () => clearTimeout(timer),
  };
}

/**
 * How long past the deadline a structural floor after a model call may take before it cuts
 * short: a tenth of the deadline, within 0.25–1 s, so a model that timed out still leaves an
 * ordinary result its floor (seed 002 §5.3: on timeout the single call falls back to the floor).
 */
export function floorGraceMs(deadlineMs: number): number {
  return Math.min(1000, Math.max(250, deadlineMs / 10));
}
