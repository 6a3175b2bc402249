import { LosslessNumber, type StepRecord } from '@compaction/core';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { createStepResolver } from './create-step-resolver.js';
import { StepReferenceError } from './step-reference-error.js';

const loki = JSON.stringify({
  status: 'success',
  data: {
    result: Array.from({ length: 200 }, (_, i) => ({
      stream: { pod: `p-${i}` },
      values: [[`17145648000000000${String(i).padStart(2, '0')}`, `line ${i}`]],
    })),
  },
});

const steps: StepRecord[] = [
  { id: 'step-1', status: 'succeeded', result: loki },
  {
    id: 'step-2',
    status: 'succeeded',
    result:
      '{"id":12345678901234567890,"items":[{"n":1.50},{"n":2}],"a.b":{"__proto__":{"x":true}}}',
  },
  { id: 'step-12', status: 'succeeded', result: 'plain log text\nline 2' },
  { id: 'step-3', status: 'failed', error: { code: 'timeout', message: 'took too long' } },
];

function errorOf(fn: () => unknown): StepReferenceError {
  try {
    fn();
  } catch (error) {
    if (StepReferenceError.isInstance(error)) return error;
    throw error;
  }
  throw new Error('expected a StepReferenceError');
}

describe('createStepResolver', () => {
  const resolver = createStepResolver(steps);

  it('binds {{step-N.data.result}} to the full stored value, not the digest', () => {
    const bound = resolver.bind('{{step-1.data.result}}');
    expect(Array.isArray(bound.value)).toBe(true);
    expect(bound.value).toHaveLength(200);
    expect(bound.json).toBe(JSON.stringify(JSON.parse(loki).data.result));
  });

  it('follows array indices in both spellings and quoted keys', () => {
    expect(resolver.resolve('step-1.data.result[199].stream.pod').value).toBe('p-199');
    expect(resolver.resolve('step-1.data.result.7.values[0][1]').value).toBe('line 7');
    expect(resolver.resolve('step-2["a.b"].__proto__.x').value).toBe(true);
    expect(resolver.resolve('{{ step-2.items[0] }}').path).toEqual(['items', 0]);
  });

  it('is lossless for big numbers and number spellings', () => {
    const id = resolver.resolve('step-2.id');
    expect(LosslessNumber.isInstance(id.value)).toBe(true);
    expect(id.json).toBe('12345678901234567890');
    expect(resolver.resolve('step-2.items').json).toBe('[{"n":1.50},{"n":2}]');
    fc.assert(
      fc.property(fc.bigInt({ min: 2n ** 53n, max: 2n ** 80n }), (big) => {
        const one = createStepResolver([
          { id: 's', status: 'succeeded', result: `{"v":[${big}]}` },
        ]);
        expect(one.resolve('s.v[0]').json).toBe(String(big));
        expect(one.bind('id={{s.v[0]}}').value).toBe(`id=${big}`);
      }),
    );
  });

  it('prefers the longest matching step id', () => {
    expect(resolver.resolve('step-12').value).toBe('plain log text\nline 2');
  });

  it('interpolates references inside a longer template', () => {
    const bound = resolver.bind('pod {{step-1.data.result[3].stream.pod}} has {{step-2.items[1]}}');
    expect(bound.value).toBe('pod p-3 has {"n":2}');
  });

  it('explains unknown steps, missing paths and unusable results', () => {
    expect(errorOf(() => resolver.resolve('step-9.data')).code).toBe('step_not_found');
    const missing = errorOf(() => resolver.resolve('step-1.data.streams'));
    expect(missing.code).toBe('step_path_not_found');
    expect(missing.message).toContain('"result"');
    expect(missing.resolvedPath).toBe('data');
    expect(errorOf(() => resolver.resolve('step-1.data.result[200]')).message).toContain(
      'an array of 200',
    );
    expect(errorOf(() => resolver.resolve('step-3')).code).toBe('step_not_succeeded');
    expect(errorOf(() => resolver.resolve('step-12.x')).code).toBe('step_result_not_json');
    expect(errorOf(() => resolver.resolve('step-1.data[')).code).toBe('step_reference_invalid');
    expect(errorOf(() => resolver.resolve('step-1..x')).code).toBe('step_reference_invalid');
    expect(errorOf(() => resolver.resolve('step-2.id.x')).code).toBe('step_path_not_found');
    expect(errorOf(() => resolver.bind('x {{step-7}}')).code).toBe('step_not_found');
  });

  it('does not treat inherited properties as data', () => {
    expect(errorOf(() => resolver.resolve('step-2.constructor')).code).toBe('step_path_not_found');
    expect(errorOf(() => resolver.resolve('step-2.items.length')).code).toBe('step_path_not_found');
  });
});
