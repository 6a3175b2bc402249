import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { ProcessedResult, ResultProcessor } from './result-processor.js';
import { createToolResultViews } from './tool-result-views.js';
import { truncateUtf8, utf8ByteLength } from './utf8.js';

function recordingProcessor(fail = false) {
  const calls: Array<{ stepId?: string; userQuery?: string; maxBytes: number }> = [];
  const processor: ResultProcessor = {
    async process(result, maxBytes, context): Promise<ProcessedResult> {
      calls.push({ stepId: context?.stepId, userQuery: context?.userQuery, maxBytes });
      if (fail && calls.length === 1) throw new Error('model down');
      const text = truncateUtf8(result, maxBytes);
      return {
        text,
        metadata: {
          contentLost: true,
          originalBytes: result.length,
          outputBytes: text.length,
          strategy: 'bytes',
        },
      };
    },
  };
  return { processor, calls };
}

describe('createToolResultViews', () => {
  it('computes each view once, with the first query, and gives the same bytes back', async () => {
    const { processor, calls } = recordingProcessor();
    const views = createToolResultViews({ processor, maxResultBytes: 10 });
    const first = await views.view({ toolCallId: 'c1', text: 'x'.repeat(100), userQuery: 'q1' });
    const again = await views.view({ toolCallId: 'c1', text: 'x'.repeat(100), userQuery: 'q2' });
    expect(first).toMatchObject({ reused: false });
    expect(again).toMatchObject({ reused: true });
    expect(again!.processed.text).toBe(first!.processed.text);
    expect(calls).toEqual([{ stepId: 'c1', userQuery: 'q1', maxBytes: 10 }]);
    // Same call id, different content: a new view.
    await views.view({ toolCallId: 'c1', text: 'y'.repeat(100) });
    expect(calls).toHaveLength(2);
    expect(await views.view({ toolCallId: 'c2', text: 'fits' })).toBeUndefined();
  });

  it('does not keep a failed computation, and drops the least recently used view first', async () => {
    const { processor, calls } = recordingProcessor(true);
    const views = createToolResultViews({ processor, maxResultBytes: 4, maxCachedResults: 2 });
    await expect(views.view({ toolCallId: 'a', text: 'aaaaaa' })).rejects.toThrow('model down');
    await views.view({ toolCallId: 'a', text: 'aaaaaa' });
    await views.view({ toolCallId: 'b', text: 'bbbbbb' });
    await views.view({ toolCallId: 'a', text: 'aaaaaa' });
    await views.view({ toolCallId: 'c', text: 'cccccc' });
    await views.view({ toolCallId: 'a', text: 'aaaaaa' });
    await views.view({ toolCallId: 'b', text: 'bbbbbb' });
    expect(calls.map((call) => call.stepId)).toEqual(['a', 'a', 'b', 'c', 'b']);
  });

  it('gives a view exactly when a text is over the budget, for any text', async () => {
    const { processor } = recordingProcessor();
    await fc.assert(
      fc.asyncProperty(
        fc.string({ unit: 'grapheme', maxLength: 300 }),
        fc.integer({ min: 1, max: 200 }),
        async (text, budget) => {
          const views = createToolResultViews({ processor, maxResultBytes: budget });
          const view = await views.view({ toolCallId: 'c', text });
          if (utf8ByteLength(text) <= budget) expect(view).toBeUndefined();
          else expect(utf8ByteLength(view!.processed.text)).toBeLessThanOrEqual(budget);
        },
      ),
    );
  });

  it('makes a view to a per-text budget when one is given, and keeps views of each budget apart', async () => {
    const { processor, calls } = recordingProcessor();
    const views = createToolResultViews({ processor, maxResultBytes: 100 });
    const text = 'z'.repeat(60);
    expect(await views.view({ toolCallId: 'c', text })).toBeUndefined();
    const small = await views.view({ toolCallId: 'c', text, maxBytes: 20 });
    expect(utf8ByteLength(small!.processed.text)).toBeLessThanOrEqual(20);
    const smaller = await views.view({ toolCallId: 'c', text, maxBytes: 10 });
    expect(smaller).toMatchObject({ reused: false });
    expect(await views.view({ toolCallId: 'c', text, maxBytes: 20 })).toMatchObject({
      reused: true,
    });
    expect(calls.map((call) => call.maxBytes)).toEqual([20, 10]);
    await expect(views.view({ toolCallId: 'c', text, maxBytes: 0 })).rejects.toThrow(/maxBytes/);
  });

  it('refuses a missing processor or a bad budget', () => {
    expect(() => createToolResultViews({ processor: undefined as never })).toThrow(/processor/);
    const { processor } = recordingProcessor();
    expect(() => createToolResultViews({ processor, maxResultBytes: 0 })).toThrow(/maxResultBytes/);
    expect(() => createToolResultViews({ processor, maxCachedResults: 1.5 })).toThrow(
      /maxCachedResults/,
    );
  });
});
