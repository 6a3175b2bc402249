import { type JsonValue, type StepRecord, utf8ByteLength } from '@compaction/core';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  type FailedOperationEvidence,
  projectFailedOperationEvidence,
} from './project-failed-operation-evidence.js';

const limits = { maxInputBytes: 4096, maxStepBytes: 16384 };

function failed(inputs?: Record<string, JsonValue>): StepRecord {
  return {
    id: 'step-4',
    status: 'failed',
    toolName: 'http_get',
    error: { code: 'http_503', message: 'Service Unavailable' },
    inputs,
  };
}

function viewJson(view: FailedOperationEvidence): Record<string, unknown> {
  if (view.status !== 'complete' && view.status !== 'partial') throw new Error(view.status);
  return JSON.parse(view.json);
}

describe('projectFailedOperationEvidence', () => {
  it('shows the inputs and error code of a failed dispatch', () => {
    const view = projectFailedOperationEvidence(failed({ url: 'https://x', retries: 3 }), limits);
    expect(view.status).toBe('complete');
    expect(viewJson(view)).toEqual({
      errorCode: 'http_503',
      inputs: { url: 'https://x', retries: 3 },
    });
  });

  it('keeps input numbers byte for byte and __proto__ inputs as data', () => {
    const inputs = JSON.parse('{"id":1,"__proto__":{"a":1}}') as Record<string, JsonValue>;
    const view = projectFailedOperationEvidence(failed(inputs), limits);
    if (view.status !== 'complete') throw new Error(view.status);
    expect(view.json).toBe('{"errorCode":"http_503","inputs":{"id":1,"__proto__":{"a":1}}}');
  });

  it('says unavailable for a legacy record and has no view for successes or rejections', () => {
    expect(projectFailedOperationEvidence(failed(), limits).status).toBe('unavailable');
    expect(
      projectFailedOperationEvidence({ id: 'r', status: 'rejected', inputs: { a: 1 } }, limits)
        .status,
    ).toBe('not_applicable');
    expect(
      projectFailedOperationEvidence({ id: 's', status: 'succeeded', inputs: { a: 1 } }, limits)
        .status,
    ).toBe('not_applicable');
  });

  it('lets the policy omit inputs but never rewrite them, and omits all when it throws', () => {
    const step = failed({ query: 'up', token: 'secret' });
    const omitted = projectFailedOperationEvidence(step, {
      ...limits,
      policy: ({ name }) => (name === 'token' ? 'omit' : 'allow'),
    });
    expect(omitted.status).toBe('partial');
    expect(viewJson(omitted)).toEqual({
      errorCode: 'http_503',
      inputs: { query: 'up' },
      omittedByPolicy: ['token'],
    });
    const broken = projectFailedOperationEvidence(step, {
      ...limits,
      policy: ({ name }) => {
        if (name === 'token') throw new Error('policy bug');
        return 'allow';
      },
    });
    expect(viewJson(broken)).toEqual({
      errorCode: 'http_503',
      inputs: {},
      omittedByPolicy: ['query', 'token'],
      inputPolicyError: true,
    });
    const odd = projectFailedOperationEvidence(step, {
      ...limits,
      policy: () => 'maybe' as 'allow',
    });
    expect(viewJson(odd).inputs).toEqual({});
  });

  it('bounds every value and the whole view in rendered UTF-8 bytes, escapes included (property)', () => {
    const value = fc.oneof(
      fc.string({ unit: 'binary', maxLength: 3000 }),
      fc.string({
        unit: fc.constantFrom('"', '\\', '\n', '\u0001', 'é', '😀', '\ud800'),
        maxLength: 3000,
      }),
      fc.jsonValue({ maxDepth: 3 }),
    );
    fc.assert(
      fc.property(
        fc.dictionary(fc.string({ maxLength: 8 }), value, { maxKeys: 8 }),
        fc.integer({ min: 8, max: 600 }),
        fc.integer({ min: 20, max: 3000 }),
        (inputs, maxInputBytes, maxStepBytes) => {
          const step = failed(inputs as Record<string, JsonValue>);
          const before = JSON.stringify(step);
          const view = projectFailedOperationEvidence(step, { maxInputBytes, maxStepBytes });
          expect(JSON.stringify(step)).toBe(before);
          if (view.status === 'omitted') {
            expect(utf8ByteLength('{"errorCode":"http_503","inputs":{}}')).toBeGreaterThan(
              maxStepBytes - 40,
            );
            return;
          }
          if (view.status !== 'complete' && view.status !== 'partial') throw new Error(view.status);
          expect(view.bytes).toBe(utf8ByteLength(view.json));
          expect(view.bytes).toBeLessThanOrEqual(maxStepBytes);
          const parsed = JSON.parse(view.json);
          for (const [name, shown] of Object.entries(parsed.inputs as object)) {
            expect(utf8ByteLength(JSON.stringify(shown))).toBeLessThanOrEqual(
              Math.max(maxInputBytes, 2),
            );
            const truncated = (parsed.truncatedInputs ?? []).includes(name);
            if (!truncated) expect(shown).toEqual(JSON.parse(JSON.stringify(inputs[name])));
          }
          const complete =
            !parsed.truncatedInputs && !parsed.omittedForBudget && !parsed.omittedForBudgetCount;
          expect(view.status).toBe(complete ? 'complete' : 'partial');
        },
      ),
      { numRuns: 300 },
    );
  });
});
