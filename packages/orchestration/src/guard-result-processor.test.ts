import {
  disclosureNoteKind,
  type ResultProcessor,
  trailingDisclosureNotes,
  utf8ByteLength,
} from '@compaction/core';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { guardResultProcessor } from './guard-result-processor.js';

const big = 'line of log output with some detail\n'.repeat(2000);

function processorReturning(value: unknown): ResultProcessor {
  return { process: async () => value as never };
}

describe('guardResultProcessor', () => {
  it('passes an honest, in-budget view through untouched', async () => {
    const view = {
      text: 'short',
      metadata: { contentLost: true, originalBytes: 1, outputBytes: 5 },
    };
    const honest = processorReturning({
      ...view,
      text: 'short\n[trimmed: 1/9 lines kept, 8 dropped to fit 100 bytes; omitted content is UNKNOWN, not absent]',
    });
    const result = await guardResultProcessor(honest).process(big, 4096);
    expect(trailingDisclosureNotes(result.text)).toHaveLength(1);
    expect(result.metadata.originalBytes).toBe(utf8ByteLength(big));
  });

  it('adds a framework note when a custom processor says contentLost but shows none', async () => {
    const quiet = processorReturning({
      text: 'the first line',
      metadata: { contentLost: true, originalBytes: 0, outputBytes: 0 },
    });
    const result = await guardResultProcessor(quiet).process(big, 4096);
    expect(result.text.startsWith('the first line\n')).toBe(true);
    const [note] = trailingDisclosureNotes(result.text);
    expect(note!.kind).toBe('trimmed');
    expect(result.metadata.contentLost).toBe(true);
  });

  it.each([
    ['throws', { process: async () => Promise.reject(new Error('backend down')) }],
    ['returns undefined', processorReturning(undefined)],
    ['returns an empty view', processorReturning({ text: '', metadata: { contentLost: false } })],
    ['returns malformed metadata', processorReturning({ text: 'x', metadata: { lost: 'maybe' } })],
  ])('falls back to the byte-cut floor when a processor %s', async (_name, processor) => {
    const result = await guardResultProcessor(processor as ResultProcessor).process(big, 2048);
    expect(utf8ByteLength(result.text)).toBeLessThanOrEqual(2048);
    const notes = trailingDisclosureNotes(result.text);
    expect(notes.map((note) => note.kind)).toEqual(['reduced-without-model-analysis']);
    expect(result.metadata.contentLost).toBe(true);
    expect(big.startsWith(result.text.slice(0, result.text.lastIndexOf('\n')))).toBe(true);
  });

  it('returns a result that fits unchanged even when the processor failed', async () => {
    const result = await guardResultProcessor(processorReturning(null)).process('small', 100);
    expect(result).toMatchObject({ text: 'small', metadata: { contentLost: false } });
  });

  it('cuts and discloses a view over budget, whatever the processor claimed (property)', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.string({ unit: 'grapheme', maxLength: 3000 }),
        fc.integer({ min: 200, max: 4000 }),
        fc.boolean(),
        async (text, maxBytes, claimed) => {
          const processor = processorReturning({
            text,
            metadata: { contentLost: claimed, originalBytes: 0, outputBytes: 0 },
          });
          const result = await guardResultProcessor(processor).process(big, maxBytes);
          expect(utf8ByteLength(result.text)).toBeLessThanOrEqual(maxBytes);
          if (result.metadata.contentLost) {
            const lines = result.text.split('\n');
            expect(disclosureNoteKind(lines[lines.length - 1]!)).toBeDefined();
          }
          expect(result.metadata.outputBytes).toBe(utf8ByteLength(result.text));
        },
      ),
      { numRuns: 500 },
    );
  });

  it('lets a cancellation through instead of swallowing it', async () => {
    const controller = new AbortController();
    controller.abort(new Error('user cancelled'));
    const processor: ResultProcessor = {
      process: async (_r, _m, context) => {
        throw context!.signal!.reason;
      },
    };
    await expect(
      guardResultProcessor(processor).process(big, 1000, { signal: controller.signal }),
    ).rejects.toThrow('user cancelled');
  });
});
