import { trailingDisclosureNotes } from '@compaction/core';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { createStructuralTrimmer } from './create-structural-trimmer.js';
import { parseCutLineMarker } from './engine/cut-line-marker.js';
import { MIN_TRIM_BUDGET_BYTES } from './structural-trimmer.js';
import {
  expectHonestView,
  expectMarkedLines,
  numberTokens,
  viewBody,
} from './test-support/view-invariants.js';

// Number texts a JavaScript number cannot reproduce; they must come out byte for byte.
const RAW_NUMBERS = [
  '12345678901234567890',
  '-9223372036854775809',
  '1.0',
  '1e400',
  '-0',
  '2.50',
  '0.1e-7',
];

const jsonDocument = fc
  .tuple(
    fc.jsonValue({ maxDepth: 6, stringUnit: 'binary' }),
    fc.boolean(),
    fc.array(fc.constantFrom(...RAW_NUMBERS), { maxLength: 8 }),
  )
  .map(([value, pretty, raws]) => {
    let text = JSON.stringify(value, null, pretty ? 2 : undefined) ?? 'null';
    // Splice raw number texts in as array items or member values, keeping the JSON valid.
    for (const raw of raws) {
      if (text.startsWith('[') && text.length > 2) text = `[${raw},${text.slice(1)}`;
      else if (text.startsWith('{') && text.length > 2) text = `{"n${raw}":${raw},${text.slice(1)}`;
      else text = `[${raw},${text}]`;
    }
    return text;
  });

const textDocument = fc
  .array(
    fc.oneof(
      fc.string({ unit: 'binary', maxLength: 80 }),
      fc.string({ unit: 'grapheme', maxLength: 80 }),
      fc.constantFrom(
        'ERROR: build failed',
        'Traceback (most recent call last):',
        '\x1b[31mERROR\x1b[0m: \x1b]8;;https://x.test\x07link\x1b]8;;\x07 done\x1b[',
        `\x1b[2K\x1b[1A${'\x1b[33mwarn\x1b[0m '.repeat(40)}`,
        '\x1b',
        '[lines 1-2 omitted]',
        '[line 3 cut: columns 1-5 of 10]',
        `2024-05-01 INFO payload=${'{"k":"v"},'.repeat(60)}`,
        '✖ Sort these imports.',
        '\ud800',
        '\r',
        '',
      ),
    ),
    { maxLength: 120 },
  )
  .chain((lines) => fc.constantFrom('\n', '\r\n', ' ', '. ').map((joiner) => lines.join(joiner)));

const context = fc.option(
  fc.record({ userQuery: fc.string({ maxLength: 40 }), stepTask: fc.string({ maxLength: 20 }) }),
  { nil: undefined },
);

const budgetFor = (text: string) =>
  fc.integer({
    min: MIN_TRIM_BUDGET_BYTES,
    max: Math.max(MIN_TRIM_BUDGET_BYTES, Buffer.byteLength(text) + 10),
  });

describe('trim properties', () => {
  const trimmer = createStructuralTrimmer({ preserveKeys: ['id', 'error'] });

  it('JSON: within budget, body parses, note iff loss, numbers verbatim, deterministic', () => {
    fc.assert(
      fc.property(
        jsonDocument.chain((text) => fc.tuple(fc.constant(text), budgetFor(text), context)),
        ([text, budget, ctx]) => {
          const view = trimmer.trim(text, budget, ctx);
          expectHonestView(view, text, budget);
          const body = viewBody(view);
          if (view.metadata.strategy === 'json' || view.metadata.strategy === 'minified') {
            JSON.parse(body);
            const source = new Set(numberTokens(text));
            for (const token of numberTokens(body)) expect(source.has(token)).toBe(true);
          }
          if (!view.metadata.contentLost) {
            expect(trailingDisclosureNotes(view.text)).toEqual([]);
            if (view.metadata.strategy === 'minified') {
              expect(numberTokens(body)).toEqual(numberTokens(text));
            }
          }
          expect(trimmer.trim(text, budget, ctx)).toEqual(view);
        },
      ),
      { numRuns: 3000 },
    );
  });

  it('JSON large enough to be cut: still valid and within budget', () => {
    fc.assert(
      fc.property(
        fc.array(fc.jsonValue({ maxDepth: 4 }), { minLength: 20, maxLength: 120 }),
        fc.integer({ min: MIN_TRIM_BUDGET_BYTES, max: 3000 }),
        fc.boolean(),
        (items, budget, pretty) => {
          const text = JSON.stringify(
            { items, meta: { count: items.length } },
            null,
            pretty ? 1 : undefined,
          );
          const view = trimmer.trim(text, budget, { userQuery: 'count items' });
          expectHonestView(view, text, budget);
          expect(view.metadata.contentLost).toBe(
            view.metadata.strategy !== 'unchanged' && view.metadata.strategy !== 'minified',
          );
        },
      ),
      { numRuns: 1500 },
    );
  });

  it('JSON: a view does not depend on what was trimmed before it', () => {
    // The passes keep working columns between calls (`ScratchArray`): what another document
    // left in them must never show.
    const list = (minLength: number, maxLength: number) =>
      fc
        .tuple(
          fc.array(fc.jsonValue({ maxDepth: 3 }), { minLength, maxLength }),
          fc.array(fc.string({ maxLength: 6 }), { minLength: 1, maxLength: 6 }),
        )
        .map(([values, keys]) =>
          JSON.stringify({
            items: values.map((value, i) => ({
              id: i,
              [keys[i % keys.length]!]: value,
              ok: i % 7,
            })),
          }),
        );
    fc.assert(
      fc.property(list(5, 60), list(60, 200), (text, other) => {
        const before = trimmer.trim(text, 1500, { userQuery: 'is anything wrong?' });
        trimmer.trim(other, 4000);
        expect(trimmer.trim(text, 1500, { userQuery: 'is anything wrong?' })).toEqual(before);
      }),
      { numRuns: 300 },
    );
  });

  it('text: within budget, note iff loss, kept lines come from the input in order, deterministic', () => {
    fc.assert(
      fc.property(
        textDocument.chain((text) => fc.tuple(fc.constant(text), budgetFor(text), context)),
        ([text, budget, ctx]) => {
          const view = trimmer.trim(text, budget, ctx);
          expectHonestView(view, text, budget);
          const note = trailingDisclosureNotes(view.text)[0]?.text ?? '';
          if (view.metadata.strategy === 'text' && note.includes(' lines kept')) {
            // Each kept line where the markers say it is; each gap marked with its lines. A
            // window of a line too long to keep is shown, not kept.
            const windows = viewBody(view)
              .split('\n')
              .filter((line) => parseCutLineMarker(line)).length;
            expect(expectMarkedLines(view, text).length - windows).toBe(view.metadata.fieldsKept);
          }
          expect(trimmer.trim(text, budget, ctx)).toEqual(view);
        },
      ),
      { numRuns: 3000 },
    );
  });
});
