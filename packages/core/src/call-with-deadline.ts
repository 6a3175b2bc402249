import type { CallDeadline } from './call-deadline.js';
import { SeamDeadlineError } from './errors.js';

/** Options of `callWithDeadline`. */
export interface CallWithDeadlineOptions {
  /** Which seam is called, for the error. */
  seam: string;
  /** The deadline in milliseconds; 0 disables it (the caller's signal still applies). */
  deadlineMs: number;
  /** The caller's cancellation: on abort the call rejects with its reason. */
  signal?: AbortSignal | undefined;
  /**
   * How long past the deadline to keep waiting for a call that was told to stop (its signal
   * aborted at the deadline) and may still be returning its own fail-open view. Default 1000.
   */
  graceMs?: number;
  /**
   * The compaction deadline a layer above already derived (`startCallDeadline`), with `signal`
   * its context's signal (which aborts at it): then no timer of its own is set, the call is
   * handed `signal` as it is, and it is abandoned `graceMs` after the deadline is hit. Only the
   * caller's own cancellation (`deadline.callerSignal`) rejects at once.
   */
  deadline?: CallDeadline;
}

/**
 * Runs `call` under a deadline and the caller's signal. The signal handed to `call` aborts at
 * the deadline (reason: a `SeamDeadlineError`) or with the caller's; a call that has not
 * settled `graceMs` after the deadline is abandoned and `callWithDeadline` rejects with the
 * `SeamDeadlineError`, so a seam that never settles cannot hang its caller. A caller's abort
 * rejects at once with the caller's reason. Timers and listeners are cleared on settle.
 */
export async function callWithDeadline<T>(
  call: (signal: AbortSignal) => Promise<T> | T,
  options: CallWithDeadlineOptions,
): Promise<T> {
  if (options.deadline) return callWithinDeadline(call, options, options.deadline);
  const { deadlineMs, signal } = options;
  signal?.throwIfAborted();
  const deadline = new AbortController();
  const reason = new SeamDeadlineError({ seam: options.seam, deadlineMs });
  const inner = signal ? AbortSignal.any([signal, deadline.signal]) : deadline.signal;
  let soft: ReturnType<typeof setTimeout> | undefined;
  let hard: ReturnType<typeof setTimeout> | undefined;
  let onAbort: (() => void) | undefined;
  try {
    return await new Promise<T>((resolve, reject) => {
      if (deadlineMs > 0) {
        soft = setTimeout(() => {
          deadline.abort(reason);
          hard = setTimeout(() => reject(reason), options.graceMs ?? 1000);
        }, deadlineMs);
      }
      if (signal) {
        onAbort = () => reject(signal.reason);
        signal.addEventListener('abort', onAbort, { once: true });
      }
      Promise.resolve()
        .then(() => call(inner))
        .then(resolve, reject);
    });
  } finally {
    if (soft) clearTimeout(soft);
    if (hard) clearTimeout(hard);
    if (onAbort) signal?.removeEventListener('abort', onAbort);
  }
}

async function callWithinDeadline<T>(
  call: (signal: AbortSignal) => Promise<T> | T,
  options: CallWithDeadlineOptions,
  deadline: CallDeadline,
): Promise<T> {
  const caller = deadline.callerSignal;
  caller?.throwIfAborted();
  const inner = options.signal ?? caller ?? new AbortController().signal;
  let hard: ReturnType<typeof setTimeout> | undefined;
  let onAbort: (() => void) | undefined;
  try {
    return await new Promise<T>((resolve, reject) => {
      const abandon = () => {
        if (caller?.aborted) reject(caller.reason);
        else if (deadline.hit)
          hard ??= setTimeout(() => reject(inner.reason), options.graceMs ?? 1000);
      };
      onAbort = abandon;
      inner.addEventListener('abort', onAbort, { once: true });
      if (inner.aborted) abandon();
      Promise.resolve()
        .then(() => call(inner))
        .then(resolve, reject);
    });
  } finally {
    if (hard) clearTimeout(hard);
    if (onAbort) inner.removeEventListener('abort', onAbort);
  }
}
