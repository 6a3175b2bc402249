import { describe, expect, it, vi } from 'vitest';
import * as digests from '../content-digest.js';
import type { ResultProcessorContext } from '../result-processor.js';
import { createToolResultViews } from '../tool-result-views.js';
import { truncateUtf8, utf8ByteLength } from '../utf8.js';
import { createConversationBudget } from './create-conversation-budget.js';

// Every layer imports the digest from this module: counting its calls counts every SHA-256 of a result.
vi.mock('../content-digest.js', async (importOriginal) => {
  const original = await importOriginal<typeof import('../content-digest.js')>();
  return { contentDigest: vi.fn(original.contentDigest) };
});

describe('one content digest per result', () => {
  it('is computed once and handed to the processor and the small view', async () => {
    const contexts: ResultProcessorContext[] = [];
    const views = createToolResultViews({
      processor: {
        async process(result, maxBytes, context = {}) {
          contexts.push(context);
          const text = truncateUtf8(result, maxBytes);
          return {
            text,
            metadata: {
              contentLost: true,
              originalBytes: utf8ByteLength(result),
              outputBytes: utf8ByteLength(text),
            },
          };
        },
      },
      maxResultBytes: 4096,
    });
    const budget = createConversationBudget(views, {
      maxBytes: 6000,
      keepLast: 1,
      smallViewBytes: 1024,
      env: {},
    });
    const results = [0, 1, 2, 3].map((i) => ({
      toolCallId: `call-${i}`,
      toolName: 'logs',
      turn: i,
      text: `result ${i}\n`.repeat(2000),
    }));
    vi.mocked(digests.contentDigest).mockClear();
    const { report } = await budget.fit(results);
    expect(report.stepDowns).toBeGreaterThan(0);
    // One per result, though each got a view, a small view and a pointer naming its digest.
    expect(vi.mocked(digests.contentDigest).mock.calls.map(([text]) => text)).toEqual(
      results.map((result) => result.text),
    );
    const expected = await Promise.all(results.map((result) => digests.contentDigest(result.text)));
    for (const context of contexts) {
      expect(expected).toContain(context.contentDigest);
    }
    expect(
      contexts.some((context, i) => contexts.findIndex((c) => c.stepId === context.stepId) !== i),
    ).toBe(true);
  });
});
