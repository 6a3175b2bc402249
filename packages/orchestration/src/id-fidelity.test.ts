import { type StepRecord, stringifyJsonLossless } from '@compaction/core';
import { withLosslessJsonFeatures } from '@compaction/core/test';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { createCompaction } from './create-compaction.js';

// Records with 64-bit ids (all above 2^53, so a JavaScript number would round them) in nested
// arrays and objects; names carry no digits, so every long digit run in an output is an id.
const bigId = fc.bigInt({ min: 2n ** 53n + 1n, max: 2n ** 64n - 1n });
const record = fc.record({
  id: bigId,
  parent: fc.option(bigId, { nil: undefined }),
  name: fc.stringMatching(/^[a-z ]{0,40}$/),
  n: fc.integer({ min: 0, max: 99 }),
});
const documentArbitrary = fc
  .record({
    id: bigId,
    items: fc.array(record, { maxLength: 120 }),
    meta: fc.record({ owner: bigId, note: fc.stringMatching(/^[a-z ]{0,200}$/) }),
  })
  .map((doc) => {
    const items = doc.items.map(
      (r) =>
        `{"id":${r.id}${r.parent === undefined ? '' : `,"parent":${r.parent}`},"name":${JSON.stringify(r.name)},"n":${r.n}}`,
    );
    const text = `{"id":${doc.id},"items":[${items.join(',')}],"meta":{"owner":${doc.meta.owner},"note":${JSON.stringify(doc.meta.note)}}}`;
    const ids = new Set([doc.id, doc.meta.owner, ...doc.items.flatMap((r) => [r.id, r.parent])]);
    ids.delete(undefined);
    return { text, ids: new Set([...ids].map(String)), firstItem: doc.items.length > 0 };
  });

/** Every digit run long enough to be an id is one of `ids`, whole; no marker or NUL leaked. */
function expectOnlyWholeIds(output: string, ids: ReadonlySet<string>, where: string): void {
  expect(output, where).not.toMatch(/\u0000|\\u0000/);
  for (const run of output.match(/\d{16,}/g) ?? []) {
    expect(ids.has(run), `${where}: ${run} is not an id of the source`).toBe(true);
  }
}

function expectAllIds(output: string, ids: ReadonlySet<string>, where: string): void {
  expectOnlyWholeIds(output, ids, where);
  for (const id of ids) expect(output, `${where} lost ${id}`).toContain(id);
}

const paths = [
  ['the engine serializer', {}],
  ['the marker fallback', { rawJson: false }],
] as const;

describe.each(paths)('64-bit ids on every public path (%s)', (_name, features) => {
  it('keeps each id digit for digit, whole, wherever it appears (property)', async () => {
    const capped = createCompaction({ env: {}, config: { trim: { maxAgentInputBytes: 2048 } } });
    const raw = createCompaction({ env: {} });
    await fc.assert(
      fc.asyncProperty(documentArbitrary, async ({ text, ids, firstItem }) => {
        const steps: StepRecord[] = [
          { id: 'step-1', status: 'succeeded', result: text, toolName: 'list' },
        ];
        const resolver = raw.resolver(steps);
        const whole = resolver.resolve('{{step-1}}');
        const sync = <T>(fn: () => T) => withLosslessJsonFeatures(features, fn);
        const run = <T>(fn: () => Promise<T>) => withLosslessJsonFeatures(features, fn);

        expectAllIds(whole.json, ids, 'resolve().json');
        expectAllIds(
          sync(() => JSON.stringify(whole.value)),
          ids,
          'JSON.stringify(resolve().value)',
        );
        expectAllIds(
          sync(() => stringifyJsonLossless(whole.value)),
          ids,
          'stringifyJsonLossless',
        );
        expectAllIds(resolver.bind('{{step-1}}').json, ids, 'bind().json');
        if (firstItem) {
          const id = resolver.bind('id={{step-1.items[0].id}}').value as string;
          expectOnlyWholeIds(id, ids, 'bind() in text');
          expect(ids.has(id.slice(3))).toBe(true);
        }

        const params = { doc: whole.value, items: resolver.resolve('step-1.items').value };
        const passed = await run(() => raw.agentInputProcessor.process(params));
        expectAllIds(
          sync(() => stringifyJsonLossless(passed.params as never)),
          ids,
          'agent input, no cap',
        );
        const trimmed = await run(() => capped.agentInputProcessor.process(params));
        for (const [name, value] of Object.entries(trimmed.params)) {
          expectOnlyWholeIds(
            sync(() => JSON.stringify(value)),
            ids,
            `agent input ${name}, capped (JSON.stringify)`,
          );
          expectOnlyWholeIds(
            sync(() => stringifyJsonLossless(value as never)),
            ids,
            `agent input ${name}, capped`,
          );
        }

        expectOnlyWholeIds((await run(() => raw.compactSource(text))).text, ids, 'compactSource');
        const synthesis = await run(() => raw.assembleSynthesis(steps));
        expectOnlyWholeIds(synthesis.text, ids, 'assembleSynthesis');
        const planning = await run(() => raw.renderContinuation(steps));
        expectOnlyWholeIds(planning.text, ids, 'renderContinuation');
      }),
      { numRuns: 60 },
    );
  });
});
