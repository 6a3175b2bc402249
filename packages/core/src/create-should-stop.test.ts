import { describe, expect, it } from 'vitest';
import { createShouldStop } from './create-should-stop.js';

describe('createShouldStop', () => {
  it('is undefined when there is nothing to watch', () => {
    expect(createShouldStop({})).toBeUndefined();
    expect(createShouldStop({ deadline: Number.POSITIVE_INFINITY })).toBeUndefined();
  });

  it('turns true at the deadline on the injected clock, and stays true', () => {
    let clock = 100;
    const stop = createShouldStop({ deadline: 150, now: () => clock })!;
    expect(stop()).toBe(false);
    clock = 149;
    expect(stop()).toBe(false);
    clock = 150;
    expect(stop()).toBe(true);
    clock = 0;
    expect(stop()).toBe(true);
  });

  it('turns true when the signal aborts or the outer poll says stop', () => {
    const controller = new AbortController();
    const bySignal = createShouldStop({ signal: controller.signal })!;
    expect(bySignal()).toBe(false);
    controller.abort();
    expect(bySignal()).toBe(true);
    let outer = false;
    const byOuter = createShouldStop({ shouldStop: () => outer })!;
    expect(byOuter()).toBe(false);
    outer = true;
    expect(byOuter()).toBe(true);
  });

  it('counts an outer poll that throws as stop, and never throws itself', () => {
    const stop = createShouldStop({
      shouldStop: () => {
        throw new Error('broken poll');
      },
    })!;
    expect(stop()).toBe(true);
  });
});
