import { trailingDisclosureNotes } from '@compaction/core';
import { createStructuralTrimmer } from '@compaction/trimmer';
import type { CallToolResult, ReadResourceResult } from '@modelcontextprotocol/sdk/types.js';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { createMcpResultFitter, mcpWireBytes } from './fit-mcp-result.js';

const signal = new AbortController().signal;

// Text that is expensive on the wire: quotes, backslashes, control characters, newlines, and
// characters of two to four UTF-8 bytes.
const wireText = fc
  .tuple(
    fc.array(
      fc.oneof(
        fc.constantFrom('"', '\\', '\n', '\t', '\u0000', '\u001f', 'é', '😀', '✓'),
        fc.string({ minLength: 1, maxLength: 40 }),
        fc.constant('{"name":"web-1","status":"Running"}\n'),
      ),
      { maxLength: 300, size: 'medium' },
    ),
    fc.integer({ min: 1, max: 60 }),
  )
  .map(([pieces, times]) => pieces.join('').repeat(times));

const part = fc.oneof(
  wireText.map((text) => ({ type: 'text' as const, text })),
  fc.record({
    type: fc.constant('resource' as const),
    resource: fc.record({
      uri: fc.webUrl(),
      mimeType: fc.constantFrom('text/plain', 'application/json'),
      text: wireText,
    }),
  }),
  fc.constant({ type: 'image' as const, data: 'iVBORw0KGgo=', mimeType: 'image/png' }),
  fc.constant({ type: 'resource_link' as const, uri: 'file:///srv/a.log', name: 'a.log' }),
);

const toolResult: fc.Arbitrary<CallToolResult> = fc.record(
  {
    content: fc.array(part, { minLength: 1, maxLength: 40, size: 'medium' }),
    structuredContent: fc.dictionary(fc.string({ maxLength: 8 }), wireText, { maxKeys: 3 }),
    isError: fc.boolean(),
  },
  { requiredKeys: ['content'] },
);

describe('createMcpResultFitter', () => {
  it('never lets a tool result weigh more than the budget on the wire, and notes what it cut', async () => {
    await fc.assert(
      fc.asyncProperty(
        toolResult,
        fc.integer({ min: 2048, max: 20_000 }),
        async (result, budget) => {
          const fitter = createMcpResultFitter({
            processor: createStructuralTrimmer(),
            maxResultBytes: budget,
          });
          const answer = await fitter.fitToolResult(result, 'tool', signal);
          expect(mcpWireBytes(answer)).toBeLessThanOrEqual(budget);
          if (answer === result) return;
          const texts = answer.content.flatMap((p) =>
            p.type === 'text'
              ? [p.text]
              : p.type === 'resource' && 'text' in p.resource
                ? [p.resource.text]
                : [],
          );
          expect(texts.some((text) => trailingDisclosureNotes(text).length > 0)).toBe(true);
        },
      ),
      { numRuns: 60 },
    );
  });

  it('never lets a resource read weigh more than the budget on the wire', async () => {
    const contents = fc.array(fc.record({ uri: fc.webUrl(), text: wireText }), { maxLength: 30 });
    await fc.assert(
      fc.asyncProperty(contents, fc.integer({ min: 2048, max: 20_000 }), async (list, budget) => {
        const fitter = createMcpResultFitter({
          processor: createStructuralTrimmer(),
          maxResultBytes: budget,
        });
        const result: ReadResourceResult = { contents: list };
        const answer = await fitter.fitResourceResult(result, 'test://r', signal);
        expect(mcpWireBytes(answer)).toBeLessThanOrEqual(budget);
      }),
      { numRuns: 40 },
    );
  });

  it('says so with an error when no view can fit the budget', async () => {
    const fitter = createMcpResultFitter({
      processor: createStructuralTrimmer(),
      maxResultBytes: 300,
    });
    const result: CallToolResult = {
      content: Array.from({ length: 50 }, () => ({ type: 'text' as const, text: 'x'.repeat(100) })),
      _meta: { trace: 'y'.repeat(400) },
    };
    await expect(fitter.fitToolResult(result, 'tool', signal)).rejects.toThrow(
      /cannot be shown within 300 bytes/,
    );
  });
});
