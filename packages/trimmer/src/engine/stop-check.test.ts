import { trailingDisclosureNotes } from '@compaction/core';
import { describe, expect, it } from 'vitest';
import { createStructuralTrimmer } from '../create-structural-trimmer.js';
import { expectHonestView, viewBody } from '../test-support/view-invariants.js';
import { createStopCheck, STOP_POLL_INTERVAL, TrimStoppedError } from './stop-check.js';

describe('createStopCheck', () => {
  it('polls on the first call and then once per interval of work', () => {
    let polls = 0;
    const check = createStopCheck(() => {
      polls++;
      return false;
    }, 100);
    check(0);
    expect(polls).toBe(1);
    for (let i = 0; i < 99; i++) check(1);
    expect(polls).toBe(1);
    check(1);
    expect(polls).toBe(2);
    check(1000);
    expect(polls).toBe(3);
  });

  it('throws TrimStoppedError once the poll says stop, and when the poll itself throws', () => {
    let calls = 0;
    const check = createStopCheck(() => ++calls > 2, 10);
    check(10);
    check(10);
    expect(() => check(10)).toThrow(TrimStoppedError);
    const broken = createStopCheck(() => {
      throw new Error('clock gone');
    });
    expect(() => broken(0)).toThrow(TrimStoppedError);
  });

  it('costs nothing without a poll', () => {
    const check = createStopCheck(undefined);
    expect(() => check(STOP_POLL_INTERVAL * 10)).not.toThrow();
  });
});

describe('a trim of text stops when shouldStop says so', () => {
  const trimmer = createStructuralTrimmer();
  const log = Array.from(
    { length: 60_000 },
    (_, i) => `2024-05-01 INFO request ${i} handled in ${i % 50}ms`,
  ).join('\n');
  const prose = `${'.'.repeat(400_000)} and then it failed.`;

  /** A poll that says stop from its `n`-th call on, counting its calls. */
  function flipsAfter(n: number) {
    const poll = { calls: 0, shouldStop: () => ++poll.calls > n };
    return poll;
  }

  it.each([
    ['a log', log],
    ['a run of sentence marks', prose],
  ])('returns the bounded head cut of %s, honestly noted, at any point', (_, text) => {
    const budget = 4096;
    const full = trimmer.trim(text, budget);
    for (const n of [0, 1, 2, 5]) {
      const poll = flipsAfter(n);
      const view = trimmer.trim(text, budget, { shouldStop: poll.shouldStop });
      expectHonestView(view, text, budget);
      expect(poll.calls).toBe(n + 1);
      expect(view.metadata).toMatchObject({ contentLost: true, strategy: 'bytes' });
      expect(text.startsWith(viewBody(view))).toBe(true);
      expect(trailingDisclosureNotes(view.text)).toHaveLength(1);
    }
    // A poll that never says stop changes nothing, and is called a bounded number of times.
    const never = flipsAfter(Number.POSITIVE_INFINITY);
    expect(trimmer.trim(text, budget, { shouldStop: never.shouldStop })).toEqual(full);
    expect(never.calls).toBeGreaterThan(2);
    expect(never.calls).toBeLessThan((text.length * 8) / STOP_POLL_INTERVAL + 16);
  });
});
