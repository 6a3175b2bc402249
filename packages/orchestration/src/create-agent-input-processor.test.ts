import { LosslessNumber, parseJsonLossless, stringifyJsonLossless } from '@compaction/core';
import { createStepResolver } from '@compaction/digest';
import { describe, expect, it } from 'vitest';
import { createAgentInputProcessor } from './create-agent-input-processor.js';

const records = Array.from(
  { length: 200 },
  (_, i) => `{"id":${12_345_678_901_234_567_890n + BigInt(i)},"name":"pod-${i}"}`,
);
const result = `{"items":[${records.join(',')}]}`;

describe('createAgentInputProcessor', () => {
  it('hands a capped tool the exact 64-bit ids of a bound value, never a marker', async () => {
    const resolver = createStepResolver([{ id: 'step-1', status: 'succeeded', result }]);
    const { value } = resolver.resolve('{{step-1.items}}');
    const processor = createAgentInputProcessor({ maxParamBytes: 8192 });
    const { params, changes } = await processor.process({ items: value, first: value });
    expect(changes.map((change) => change.contentLost)).toEqual([true, true]);
    // The trimmer names every record first (by `name`), then adds each one's `id`.
    const items = (params.items as Array<{ id?: LosslessNumber; name: string }>).filter(
      (item) => item.id !== undefined,
    ) as Array<{ id: LosslessNumber; name: string }>;
    expect(items.length).toBeGreaterThan(50);
    for (const item of items) {
      expect(LosslessNumber.isInstance(item.id)).toBe(true);
      const index = Number(item.name.slice(4));
      expect(item.id.text).toBe(String(12_345_678_901_234_567_890n + BigInt(index)));
    }
    const written = stringifyJsonLossless(params.items as never);
    expect(written).not.toContain('\\u0000');
    expect(parseJsonLossless(written).ok).toBe(true);
    expect(changes[0]!.outputBytes).toBe(Buffer.byteLength(written));
  });

  it('passes everything through untouched with no cap', async () => {
    const value = { id: new LosslessNumber('12345678901234567890') };
    const { params, changes } = await createAgentInputProcessor().process({ value });
    expect(params.value).toBe(value);
    expect(changes).toEqual([]);
  });
});
