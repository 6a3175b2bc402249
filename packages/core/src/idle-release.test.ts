import { describe, expect, it } from 'vitest';
import { createIdleRelease } from './idle-release.js';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Waits until `done()` holds (a loaded machine may run timers late), at most 5 s. */
async function until(done: () => boolean): Promise<void> {
  for (let waited = 0; !done() && waited < 5000; waited += 10) await sleep(10);
}

describe('createIdleRelease', () => {
  it('releases once idle, waits while touched or busy, and arms again after a release', async () => {
    let released = 0;
    let busy = false;
    const idle = createIdleRelease(
      300,
      () => released++,
      () => busy,
    );
    const touched = Date.now();
    idle.touch();
    await sleep(50);
    idle.touch();
    // Nothing before 300 ms after the last touch.
    if (Date.now() - touched < 300) expect(released).toBe(0);
    busy = true;
    await sleep(500);
    expect(released).toBe(0);
    busy = false;
    await until(() => released === 1);
    expect(released).toBe(1);
    idle.touch();
    await until(() => released === 2);
    expect(released).toBe(2);
  });
});
