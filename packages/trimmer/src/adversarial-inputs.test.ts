import { trailingDisclosureNotes, utf8ByteLength } from '@compaction/core';
import { describe, expect, it } from 'vitest';
import { createStructuralTrimmer } from './create-structural-trimmer.js';
import { expectHonestView, viewBody } from './test-support/view-invariants.js';

const trimmer = createStructuralTrimmer();

describe('adversarial inputs', () => {
  it('sends invalid and truncated JSON down the text path without throwing', () => {
    const valid = JSON.stringify(
      Array.from({ length: 300 }, (_, i) => ({ id: i, name: `n${i}`, tags: ['a', 'b'] })),
      null,
      2,
    );
    for (const input of [
      valid.slice(0, valid.length - 7),
      `${valid}}`,
      `{"a": tru${'e'.repeat(5000)}`,
    ]) {
      const view = trimmer.trim(input, 1024);
      expectHonestView(view, input, 1024);
      expect(['text', 'bytes']).toContain(view.metadata.strategy);
    }
  });

  it('handles 100 000-deep nesting without overflowing the stack', () => {
    const depth = 100_000;
    const arrays = `${'['.repeat(depth)}"deep"${']'.repeat(depth)}`;
    const objects = `${'{"k":'.repeat(depth)}"deep"${'}'.repeat(depth)}`;
    for (const input of [arrays, objects]) {
      const view = trimmer.trim(input, 4096);
      expectHonestView(view, input, 4096);
      expect(view.metadata.strategy).toBe('json');
      expect(viewBody(view)).toMatch(/^[[{]/);
    }
    const mixed = `{"before":1,"nest":${arrays},"after":"tail"}`;
    const view = trimmer.trim(mixed, 4096);
    expectHonestView(view, mixed, 4096);
    expect(JSON.parse(viewBody(view))).toMatchObject({ before: 1, after: 'tail' });
  });

  it('treats __proto__ and constructor keys as data', () => {
    const input = JSON.stringify(
      Array.from({ length: 200 }, (_, i) => ({ i, filler: 'z'.repeat(40) })),
    ).replace(/"filler"/g, (_, offset: number) =>
      offset % 2 === 0 ? '"__proto__"' : '"constructor"',
    );
    const view = trimmer.trim(
      `{"__proto__":{"polluted":true},"constructor":{"prototype":1},"rows":${input}}`,
      2048,
      {
        userQuery: '__proto__ polluted',
      },
    );
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    const body = viewBody(view);
    expect(() => JSON.parse(body)).not.toThrow();
    expect(body).toContain('"__proto__":{"polluted":true}');
  });

  it('keeps lone surrogates, combining marks, CRLF, NUL and a BOM within budget', () => {
    const line = (i: number) =>
      `row ${i}: e\u0301\u0302 \ud800 \udc00 nul\u0000 😀 zalgo Z\u0351\u0352\u0353\r`;
    const text = `\ufeff${Array.from({ length: 500 }, (_, i) => line(i)).join('\n')}`;
    for (const budget of [256, 300, 1000, 4097]) {
      const view = trimmer.trim(text, budget, { userQuery: 'row 321' });
      expectHonestView(view, text, budget);
    }
    expect(viewBody(trimmer.trim(text, 4097, { userQuery: 'row 321' }))).toContain('row 321:');
    const json = `\ufeff${JSON.stringify(Array.from({ length: 300 }, (_, i) => ({ s: line(i) })))}`;
    for (const budget of [256, 777, 3000]) {
      const view = trimmer.trim(json, budget);
      expectHonestView(view, json, budget);
      expect(view.metadata.strategy).toBe('json');
    }
    const escaped = JSON.stringify({ s: '\ud800'.repeat(2000) });
    const view = trimmer.trim(escaped, 300);
    expectHonestView(view, escaped, 300);
  });

  it('returns an empty input unchanged and a whitespace-only input honestly', () => {
    expect(trimmer.trim('', 256).text).toBe('');
    const spaces = ' '.repeat(10_000);
    const view = trimmer.trim(spaces, 300);
    expectHonestView(view, spaces, 300);
    const padded = `[${' '.repeat(10_000)}]`;
    const minified = trimmer.trim(padded, 300);
    expect(minified.text).toBe('[]');
    expect(minified.metadata.contentLost).toBe(false);
  });

  it('holds the budget on a 100 MB log', () => {
    const line = 'INFO 2024-05-01 12:00:00 service=api request handled in 12ms status=200\n';
    const input = `${line.repeat(Math.ceil((100 * 2 ** 20) / line.length))}ERROR final job failed with exit code 3`;
    const view = trimmer.trim(input, 65_536);
    expectHonestView(view, input, 65_536);
    expect(utf8ByteLength(view.text)).toBeLessThanOrEqual(65_536);
    expect(viewBody(view).endsWith('ERROR final job failed with exit code 3')).toBe(true);
  }, 120_000);

  it('holds the budget on a 100 MB JSON document', () => {
    const record = JSON.stringify({ id: 0, name: 'record', payload: 'p'.repeat(180) });
    const count = Math.ceil((100 * 2 ** 20) / (record.length + 1));
    const input = `[${Array.from({ length: count }, (_, i) => record.replace('"id":0', `"id":${i}`)).join(',')}]`;
    const view = trimmer.trim(input, 65_536, { userQuery: `id ${count - 5}` });
    expectHonestView(view, input, 65_536);
    expect(view.metadata.strategy).toBe('json');
    expect(trailingDisclosureNotes(view.text)).toHaveLength(1);
  }, 180_000);
});
