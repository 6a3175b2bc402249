import { vi } from 'vitest';

/**
 * Runs `run` with timers on a fake clock (the distiller's deadline among them) and moves that
 * clock past any deadline once `ready()` holds: what the deadline cuts is then the same on every
 * machine, however slowly a loaded one answers the calls that come before it. Sockets and
 * `setImmediate` stay real, so the local provider server keeps answering meanwhile.
 */
export async function atDeadlineWhen<T>(ready: () => boolean, run: () => Promise<T>): Promise<T> {
  vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
  try {
    const pending = run();
    // Settled early (a failure) is reported below, not waited for.
    let settled = false;
    pending.then(
      () => {
        settled = true;
      },
      () => {
        settled = true;
      },
    );
    while (!ready() && !settled) await new Promise((resolve) => setImmediate(resolve));
    await vi.advanceTimersByTimeAsync(600_000);
    return await pending;
  } finally {
    vi.useRealTimers();
  }
}
