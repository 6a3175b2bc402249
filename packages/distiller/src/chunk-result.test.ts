import { parseJsonLossless, stringifyJsonLossless, utf8ByteLength } from '@compaction/core';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { chunkResult } from './chunk-result.js';

const record = (i: number) => ({
  id: `9007199254740993${i}`,
  big: 0,
  message: `event ${i} ${'x'.repeat(i % 50)}`,
});
// A 64-bit integer that a JavaScript number cannot hold, written raw into the JSON text.
const withBigInts = (items: unknown[]) =>
  JSON.stringify(items).replaceAll('"big":0', '"big":12345678901234567891');

function parsedArray(text: string): unknown[] {
  const parsed = parseJsonLossless(text);
  if (!parsed.ok || !Array.isArray(parsed.value))
    throw new Error(`not an array: ${text.slice(0, 80)}`);
  return parsed.value;
}

describe('chunkResult', () => {
  it('groups top-level array items into chunks under the limit, losslessly and in order', () => {
    const items = Array.from({ length: 3000 }, (_, i) => record(i));
    const text = withBigInts(items);
    const { chunks, strategy } = chunkResult(text, { maxChunkBytes: 8192 });
    expect(strategy).toBe('array');
    expect(chunks.length).toBeGreaterThan(10);
    for (const chunk of chunks) expect(utf8ByteLength(chunk)).toBeLessThanOrEqual(8192);
    const rejoined = `[${chunks.map((c) => c.slice(1, -1)).join(',')}]`;
    expect(rejoined).toBe(stringifyJsonLossless(parsedArray(text) as never));
    expect(rejoined).toContain('"big":12345678901234567891');
  });

  it('replicates the wrapper and siblings of a dominant array into every chunk', () => {
    const result = Array.from({ length: 2000 }, (_, i) => record(i));
    const text = JSON.stringify({
      data: { resultType: 'vector', result: result },
      status: 'success',
      stats: { seriesFetched: 2000 },
    });
    const { chunks, strategy } = chunkResult(text, { maxChunkBytes: 16_384 });
    expect(strategy).toBe('wrapper');
    const seen: unknown[] = [];
    for (const chunk of chunks) {
      expect(utf8ByteLength(chunk)).toBeLessThanOrEqual(16_384);
      const value = JSON.parse(chunk);
      expect(value.status).toBe('success');
      expect(value.stats).toEqual({ seriesFetched: 2000 });
      expect(value.data.resultType).toBe('vector');
      expect(value.data.result.length).toBeGreaterThan(0);
      seen.push(...value.data.result);
    }
    expect(seen).toEqual(result);
  });

  it('splits an oversized element recursively instead of truncating it', () => {
    const huge = { name: 'huge', rows: Array.from({ length: 1500 }, (_, i) => record(i)) };
    const text = JSON.stringify([{ small: 1 }, huge, { small: 2 }]);
    const { chunks, strategy } = chunkResult(text, { maxChunkBytes: 4096 });
    expect(strategy).toBe('wrapper');
    const rows: unknown[] = [];
    for (const chunk of chunks) {
      expect(utf8ByteLength(chunk)).toBeLessThanOrEqual(4096);
      const value = JSON.parse(chunk);
      if (!Array.isArray(value)) {
        expect(value.name).toBe('huge');
        rows.push(...value.rows);
      }
    }
    expect(rows).toEqual(huge.rows);
    expect(chunks[0]).toBe('[{"small":1}]');
    expect(chunks.at(-1)).toBe('[{"small":2}]');
  });

  it('adds a wrapper chunk with a sentinel when every element of the array is oversized', () => {
    const big = (i: number) => ({
      i,
      payload: Array.from({ length: 400 }, (_, j) => `v${i}-${j}`),
    });
    const text = JSON.stringify({ status: 'ok', items: [big(1), big(2)] });
    const { chunks } = chunkResult(text, { maxChunkBytes: 2048 });
    const wrappers = chunks.map((c) => JSON.parse(c)).filter((v) => v && v.status === 'ok');
    expect(wrappers).toHaveLength(1);
    expect(wrappers[0].items).toHaveLength(1);
    expect(wrappers[0].items[0]).toMatch(/2 of 2 elements were each too large/);
    for (const chunk of chunks) expect(utf8ByteLength(chunk)).toBeLessThanOrEqual(2048);
  });

  it('falls back to lines for text and to code-point-safe bytes for a line that is too long', () => {
    const lines = Array.from(
      { length: 500 },
      (_, i) => `2026-01-01T00:00:${i} INFO request ${i} 👩‍👩‍👧 é\r\n`,
    ).join('');
    const split = chunkResult(lines, { maxChunkBytes: 1024 });
    expect(split.strategy).toBe('lines');
    expect(split.chunks.join('')).toBe(lines);
    for (const chunk of split.chunks) expect(chunk.endsWith('\n')).toBe(true);

    const oneLine = '日本語🙂'.repeat(5000);
    const bytes = chunkResult(oneLine, { maxChunkBytes: 1000 });
    expect(bytes.strategy).toBe('bytes');
    expect(bytes.chunks.join('')).toBe(oneLine);
    for (const chunk of bytes.chunks) {
      expect(utf8ByteLength(chunk)).toBeLessThanOrEqual(1000);
      expect(chunk).not.toMatch(/^[\uDC00-\uDFFF]|[\uD800-\uDBFF]$/);
    }
  });

  it('uses source lines for an object without a dominant array', () => {
    const object = Object.fromEntries(
      Array.from({ length: 400 }, (_, i) => [`key${i}`, `value ${i}`.repeat(5)]),
    );
    const text = JSON.stringify(object, null, 2);
    const split = chunkResult(text, { maxChunkBytes: 2048 });
    expect(split.strategy).toBe('lines');
    expect(split.chunks.join('')).toBe(text);
  });

  it('survives 100k-deep nesting, __proto__ keys and empty input', () => {
    const deep = `${'['.repeat(100_000)}1${']'.repeat(100_000)}`;
    const split = chunkResult(deep, { maxChunkBytes: 4096 });
    // Single-element wrappers are dropped as the recursion descends; the content is not.
    expect(split.chunks.join('').replace(/[[\]]/g, '')).toBe('1');
    for (const chunk of split.chunks) expect(utf8ByteLength(chunk)).toBeLessThanOrEqual(4096);

    const proto = `{"__proto__":{"polluted":true},"items":[${Array.from({ length: 300 }, (_, i) => `{"n":${i}}`).join(',')}]}`;
    const chunks = chunkResult(proto, { maxChunkBytes: 512 }).chunks;
    expect(chunks.every((c) => c.startsWith('{"__proto__":{"polluted":true},"items":['))).toBe(
      true,
    );
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();

    expect(chunkResult('').chunks).toEqual([]);
  });

  it('never produces a chunk over the limit and never loses a byte of line text (property)', () => {
    fc.assert(
      fc.property(
        fc.oneof(
          fc.string({ unit: 'binary', maxLength: 3000 }),
          fc.json({ maxDepth: 4 }),
          fc.array(fc.jsonValue({ maxDepth: 2 }), { maxLength: 60 }).map((v) => JSON.stringify(v)),
        ),
        fc.integer({ min: 64, max: 600 }),
        (text, max) => {
          const { chunks } = chunkResult(text, { maxChunkBytes: max });
          for (const chunk of chunks) expect(utf8ByteLength(chunk)).toBeLessThanOrEqual(max);
          if (text !== '') expect(chunks.length).toBeGreaterThan(0);
          const parsed = parseJsonLossless(text);
          if (!parsed.ok || typeof parsed.value !== 'object' || parsed.value === null) {
            expect(chunks.join('')).toBe(text);
          }
        },
      ),
    );
  });

  it('keeps every item of a pretty-printed top-level array, in order (property)', () => {
    const item = fc.record({
      id: fc.bigInt({ min: 2n ** 60n, max: 2n ** 63n }),
      name: fc.string({ maxLength: 20 }),
    });
    fc.assert(
      fc.property(
        fc.array(item, { maxLength: 80 }),
        fc.integer({ min: 300, max: 2000 }),
        (items, max) => {
          const text = JSON.stringify(
            items.map((i) => ({ ...i, id: `@${i.id}@` })),
            null,
            2,
          ).replace(/"@(\d+)@"/g, '$1');
          const { chunks } = chunkResult(text, { maxChunkBytes: max });
          const ids: string[] = [];
          for (const chunk of chunks) {
            expect(utf8ByteLength(chunk)).toBeLessThanOrEqual(max);
            for (const match of chunk.matchAll(/"id": (\d+)/g)) ids.push(match[1]!);
          }
          expect(ids).toEqual(items.map((i) => String(i.id)));
        },
      ),
    );
  });
});
