import { withJsonTape } from '@compaction/core';
import { describe, expect, it } from 'vitest';
import { createDigester } from './create-digester.js';
import { DigestStoppedError } from './digest-stopped-error.js';
import { digestTape } from './digest-tape.js';
import { digestValue } from './digest-value.js';
import { DIGEST_POLL_INTERVAL } from './digest-work-poll.js';

const caps = { arraySample: 3, scalarMax: 80, maxKeys: 100_000, maxDepth: 8 };
// One object of 50 000 members: every member is visited, so the walk is long.
const wide = JSON.stringify(
  Object.fromEntries(Array.from({ length: 50_000 }, (_, i) => [`k${i}`, i])),
);

function thrown(run: () => unknown): unknown {
  try {
    run();
  } catch (error) {
    return error;
  }
  return undefined;
}

/** A poll that says stop on its `stopAt`-th call, counting the calls. */
function countingPoll(stopAt = Number.POSITIVE_INFINITY) {
  const poll = { calls: 0, shouldStop: () => ++poll.calls >= stopAt };
  return poll;
}

describe('digest passes poll shouldStop at bounded intervals', () => {
  for (const [name, pass] of [
    [
      'digestTape',
      (shouldStop: () => boolean) => {
        const read = withJsonTape(wide, (tape) => digestTape(tape, caps, { shouldStop }));
        if (!read.ok) throw new Error('no tape here');
        return read.value;
      },
    ],
    [
      'digestValue',
      (shouldStop: () => boolean) => digestValue(JSON.parse(wide), caps, { shouldStop }),
    ],
  ] as const) {
    it(`${name} polls once per ${DIGEST_POLL_INTERVAL} values and members visited`, () => {
      const poll = countingPoll();
      const digest = pass(poll.shouldStop);
      expect(digest.contentLost).toBe(false);
      // 50 000 members, each visited once in the walk (and by the tape pass, once reading them).
      expect(poll.calls).toBeGreaterThanOrEqual(Math.floor(50_000 / DIGEST_POLL_INTERVAL));
      expect(poll.calls).toBeLessThanOrEqual(Math.ceil((3 * 50_000) / DIGEST_POLL_INTERVAL));
    });

    it(`${name} stops at the first poll that says stop, with the work done`, () => {
      const error = thrown(() => pass(countingPoll(2).shouldStop));
      expect(DigestStoppedError.isInstance(error)).toBe(true);
      expect((error as DigestStoppedError).work).toBe(2 * DIGEST_POLL_INTERVAL);
    });
  }

  it('the digester reports a stopped digest as not digested, so the caller previews instead', () => {
    const digester = createDigester({ maxKeys: 100_000 });
    const stopped = digester.digest(wide, { shouldStop: () => true });
    expect(stopped.ok).toBe(false);
    expect(DigestStoppedError.isInstance(stopped.ok ? undefined : stopped.error)).toBe(true);
    // A text shorter than one interval is never polled.
    expect(digester.digest('{"a":[1,2,3]}', { shouldStop: () => true }).ok).toBe(true);
    expect(digester.digest(wide).ok).toBe(true);
  });
});
