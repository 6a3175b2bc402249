import type { ProcessedResult, ResultProcessor, ResultProcessorContext } from '@compaction/core';
import { describe, expect, it } from 'vitest';
import { boundByDeadline } from './bound-by-deadline.js';

function recording() {
  const contexts: Array<ResultProcessorContext | undefined> = [];
  const processor: ResultProcessor = {
    async process(result, _maxBytes, context): Promise<ProcessedResult> {
      contexts.push(context);
      return {
        text: result,
        metadata: {
          contentLost: false,
          originalBytes: result.length,
          outputBytes: result.length,
          strategy: 'unchanged',
        },
      };
    },
  };
  return { processor, contexts };
}

describe('boundByDeadline', () => {
  it('gives each call a poll that turns true its deadline after the call began', async () => {
    const clock = { now: 1000 };
    const { processor, contexts } = recording();
    const bounded = boundByDeadline(processor, { deadlineMs: 2000, now: () => clock.now });
    await bounded.process('a', 10, { userQuery: 'q' });
    clock.now = 2500;
    await bounded.process('b', 10);
    const [first, second] = contexts.map((context) => context!.shouldStop!);
    expect(contexts[0]!.userQuery).toBe('q');
    expect(first!()).toBe(false);
    expect(second!()).toBe(false);
    clock.now = 3000;
    expect(first!()).toBe(true);
    expect(second!()).toBe(false);
    clock.now = 4500;
    expect(second!()).toBe(true);
  });

  it("also stops with the call's signal and the caller's own poll", async () => {
    const { processor, contexts } = recording();
    const bounded = boundByDeadline(processor, { deadlineMs: 60_000 });
    const controller = new AbortController();
    let own = false;
    await bounded.process('a', 10, { signal: controller.signal });
    await bounded.process('b', 10, { shouldStop: () => own });
    expect(contexts.map((context) => context!.shouldStop!())).toEqual([false, false]);
    controller.abort();
    own = true;
    expect(contexts.map((context) => context!.shouldStop!())).toEqual([true, true]);
  });

  it('leaves the processor as it is without a deadline', () => {
    const { processor } = recording();
    expect(boundByDeadline(processor, { deadlineMs: 0 })).toBe(processor);
  });
});
