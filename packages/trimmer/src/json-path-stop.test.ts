import { trailingDisclosureNotes } from '@compaction/core';
import { describe, expect, it } from 'vitest';
import { createStructuralTrimmer } from './create-structural-trimmer.js';
import { podList } from './test-support/generated-lists.js';
import { expectHonestView, viewBody } from './test-support/view-invariants.js';

const trimmer = createStructuralTrimmer();
const { json: pods } = podList(600, 400);
const budget = 20_000;

/** A `shouldStop` that turns true on its `after`-th call, and counts its calls. */
function stopAfter(after: number) {
  const poll = { calls: 0, shouldStop: () => ++poll.calls >= after };
  return poll;
}

describe('shouldStop on the JSON path', () => {
  it('is polled at bounded intervals of work through a big document', () => {
    const poll = stopAfter(Number.POSITIVE_INFINITY);
    const view = trimmer.trim(pods, budget, { shouldStop: poll.shouldStop });
    expect(view).toEqual(trimmer.trim(pods, budget));
    // Inventory, analysis, selection and rendering add their work to one meter, which polls
    // once per `STOP_POLL_INTERVAL` units of it.
    expect(poll.calls).toBeGreaterThanOrEqual(4);
  });

  it.each([1, 2, 3, 4])('stops after %s polls with an honest bounded head cut', (after) => {
    const poll = stopAfter(after);
    const view = trimmer.trim(pods, budget, { shouldStop: poll.shouldStop });
    expectHonestView(view, pods, budget);
    expect(poll.calls).toBe(after);
    expect(view.metadata).toMatchObject({ contentLost: true, strategy: 'bytes' });
    expect(pods.startsWith(viewBody(view))).toBe(true);
    expect(trailingDisclosureNotes(view.text)).toHaveLength(1);
  });

  it('keeps its view when the poll itself trims other JSON (the tape memory is not shared)', () => {
    // The trim reads its inventory in place, in the WebAssembly memory of its tape; a trim run
    // from inside the poll must get its own memory, not overwrite that one.
    const { json: other } = podList(300, 400);
    const expected = trimmer.trim(pods, budget);
    const inner: string[] = [];
    const view = trimmer.trim(pods, budget, {
      shouldStop: () => {
        inner.push(trimmer.trim(other, 4_000).text);
        return false;
      },
    });
    expect(view).toEqual(expected);
    expect(inner.length).toBeGreaterThanOrEqual(4);
    expect(new Set(inner)).toEqual(new Set([trimmer.trim(other, 4_000).text]));
  });

  it('returns a result that fits unchanged without polling', () => {
    const poll = stopAfter(1);
    const small = JSON.stringify({ a: 1 });
    expect(trimmer.trim(small, 256, { shouldStop: poll.shouldStop }).text).toBe(small);
    expect(poll.calls).toBe(0);
  });

  it('stops as well when shouldStop throws', () => {
    const view = trimmer.trim(pods, budget, {
      shouldStop: () => {
        throw new Error('broken deadline');
      },
    });
    expectHonestView(view, pods, budget);
    expect(view.metadata.strategy).toBe('bytes');
  });

  it('stops the breadth-first selection too, and process() resolves to the same view', async () => {
    const breadthFirst = createStructuralTrimmer({ selection: 'breadth-first' });
    const view = breadthFirst.trim(pods, budget, { shouldStop: stopAfter(2).shouldStop });
    expect(view.metadata.strategy).toBe('bytes');
    const processed = await trimmer.process(pods, budget, { shouldStop: stopAfter(3).shouldStop });
    expect(processed).toEqual(trimmer.trim(pods, budget, { shouldStop: stopAfter(3).shouldStop }));
  });
});
