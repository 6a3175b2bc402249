/**
 * Thrown inside a trim pass when the caller's `shouldStop` asks it to stop; `trimResult` turns it
 * into the cheapest honest view (a bounded head cut with its note).
 */
export class TrimStoppedError extends Error {
  constructor() {
    super('the trim was asked to stop');
    this.name = 'TrimStoppedError';
  }
}

/** Units of work (UTF-16 units scanned, or units handled) between two polls of `shouldStop`. */
export const STOP_POLL_INTERVAL = 1 << 15;

/**
 * Adds `work` to the meter; every `STOP_POLL_INTERVAL` units (and on the first call) it polls
 * the caller's `shouldStop` and throws `TrimStoppedError` when that says stop.
 */
export type StopCheck = (work: number) => void;

const NEVER_STOP: StopCheck = () => undefined;

/**
 * A stop check for one trim. Without `shouldStop` it costs nothing. A `shouldStop` that throws
 * counts as asking to stop: a broken poll must not leave the pass unbounded.
 */
export function createStopCheck(
  shouldStop: (() => boolean) | undefined,
  interval = STOP_POLL_INTERVAL,
): StopCheck {
  if (typeof shouldStop !== 'function') return NEVER_STOP;
  let credit = 0;
  return (work) => {
    credit -= work;
    if (credit > 0) return;
    credit = interval;
    let stop: boolean;
    try {
      stop = shouldStop() === true;
    } catch {
      stop = true;
    }
    if (stop) throw new TrimStoppedError();
  };
}
