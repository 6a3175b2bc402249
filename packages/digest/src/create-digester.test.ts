import { execFileSync } from 'node:child_process';
import { type JsonValue, parseJsonLossless } from '@compaction/core';
import { lokiResponse as generateLoki } from '@compaction/fixtures';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { createDigester, digestJson } from './create-digester.js';
import type { DigestCaps } from './digest-settings.js';
import { digestMismatch } from './test-support/digest-oracle.js';

function lossless(text: string): JsonValue {
  const parsed = parseJsonLossless(text);
  if (!parsed.ok) throw parsed.error;
  return parsed.value;
}

function digestOf(text: string, settings: Parameters<typeof createDigester>[0] = {}) {
  const outcome = createDigester({ env: {}, ...settings }).digest(text);
  if (!outcome.ok) throw outcome.error;
  return outcome;
}

/** A Loki query_range response: 200 streams of {stream, values}, JSON log lines of ~290 chars. */
const lokiResponse = () => generateLoki({ streamLabels: { level: 'info' } });

const smallCaps = fc.record({
  arraySample: fc.integer({ min: 1, max: 4 }),
  scalarMax: fc.integer({ min: 1, max: 12 }),
  maxKeys: fc.integer({ min: 1, max: 5 }),
  maxDepth: fc.integer({ min: 1, max: 8 }),
});

describe('createDigester', () => {
  it('turns a 500 KB Loki response into a skeleton under 1 KB that still shows its shape', () => {
    const loki = lokiResponse();
    expect(loki.length).toBeGreaterThan(500_000);
    const outcome = digestOf(loki);
    expect(outcome.digestBytes).toBeLessThan(1024);
    expect(outcome.contentLost).toBe(true);
    const digest = JSON.parse(outcome.digest);
    const result = digest.data.result as unknown[];
    expect(result.at(-1)).toBe('…197 more of 200');
    for (const stream of result.slice(0, 3)) {
      expect(Object.keys(stream as object)).toEqual(['stream', 'values']);
    }
    expect(outcome.digest).toContain('"1714564800000000000"');
  });

  it('always emits valid JSON that matches the digest specification (property)', () => {
    fc.assert(
      fc.property(fc.jsonValue({ maxDepth: 6 }), smallCaps, (value, caps: DigestCaps) => {
        const text = JSON.stringify(value);
        const outcome = digestOf(text, caps);
        const digest = JSON.parse(outcome.digest);
        expect(digestMismatch(lossless(text), lossless(outcome.digest), caps)).toBeUndefined();
        expect(digest).toBeDefined();
        // Deterministic.
        expect(digestOf(text, caps).digest).toBe(outcome.digest);
      }),
      { numRuns: 400 },
    );
  });

  it('keeps the whole value, losslessly and without loss flags, when nothing exceeds the caps', () => {
    fc.assert(
      fc.property(fc.jsonValue({ maxDepth: 3 }), (value) => {
        const text = JSON.stringify(value);
        const outcome = digestOf(text, { arraySample: 1000, maxKeys: 1000, scalarMax: 100_000 });
        expect(outcome.contentLost).toBe(false);
        expect(JSON.parse(outcome.digest)).toEqual(JSON.parse(text));
      }),
    );
  });

  it('states the true length in every array sentinel (property)', () => {
    fc.assert(
      fc.property(
        fc.array(fc.array(fc.integer(), { maxLength: 30 }), { maxLength: 30 }),
        (value) => {
          const digest = JSON.parse(digestOf(JSON.stringify(value), { arraySample: 3 }).digest);
          const check = (source: unknown[], shown: unknown[]) => {
            if (source.length > 3)
              expect(shown[3]).toBe(`…${source.length - 3} more of ${source.length}`);
            else expect(shown).toHaveLength(source.length);
          };
          check(value, digest);
          for (let i = 0; i < Math.min(3, value.length); i++) check(value[i]!, digest[i]);
        },
      ),
    );
  });

  it('keeps 64-bit ids and number spellings byte for byte', () => {
    const text =
      '{"id":12345678901234567890,"ids":[9007199254740993,-0,1.0,1e400,2.50],"small":0.1,"neg":-12}';
    const outcome = digestOf(text, { arraySample: 10 });
    expect(outcome.digest).toBe(text);
    // The id, 9007199254740993, -0, 1.0, 1e400 and 2.50: a double would change each.
    expect(outcome.losslessNumbers).toBe(6);
    // Counted in the digest only: elided numbers are not.
    expect(digestOf(text, { arraySample: 2 }).losslessNumbers).toBe(3);
    fc.assert(
      fc.property(fc.bigInt({ min: -(2n ** 70n), max: 2n ** 70n }), (big) => {
        const source = `{"v":[${big},"x"]}`;
        expect(digestOf(source).digest).toBe(source);
      }),
    );
  });

  it('writes every JSON number token exactly as the source spelled it (property)', () => {
    const token = fc
      .tuple(
        fc.boolean(),
        fc.oneof(fc.constant('0'), fc.stringMatching(/^[1-9][0-9]{0,30}$/)),
        fc.option(fc.stringMatching(/^[0-9]{1,20}$/), { nil: undefined }),
        fc.option(
          fc.tuple(
            fc.constantFrom('e', 'E'),
            fc.constantFrom('', '+', '-'),
            fc.stringMatching(/^[0-9]{1,4}$/),
          ),
          {
            nil: undefined,
          },
        ),
      )
      .map(
        ([negative, int, fraction, exponent]) =>
          `${negative ? '-' : ''}${int}${fraction === undefined ? '' : `.${fraction}`}${exponent ? exponent.join('') : ''}`,
      );
    fc.assert(
      fc.property(fc.array(token, { minLength: 1, maxLength: 3 }), (tokens) => {
        const text = `{"n":[${tokens.join(',')}],"k":${tokens[0]}}`;
        expect(digestOf(text).digest).toBe(text);
      }),
      { numRuns: 300 },
    );
  });

  it('samples wide objects to sorted keys and a sentinel', () => {
    const wide: Record<string, number> = {};
    for (let i = 9999; i >= 0; i--) wide[`k${String(i).padStart(5, '0')}`] = i;
    const digest = JSON.parse(digestOf(JSON.stringify({ wide })).digest).wide;
    const keys = Object.keys(digest);
    expect(keys).toHaveLength(51);
    expect(keys[0]).toBe('k00000');
    expect(keys[49]).toBe('k00049');
    expect(digest['…']).toBe('…9950 more of 10000 keys');
  });

  it('picks a sentinel key that no key of the object uses', () => {
    const object: Record<string, number> = { '…': 1, '……': 2 };
    for (let i = 0; i < 5; i++) object[`a${i}`] = i;
    const digest = JSON.parse(digestOf(JSON.stringify(object), { maxKeys: 6 }).digest);
    expect(Object.keys(digest)).toHaveLength(7);
    expect(digest['…']).toBe(1);
    expect(digest['……']).toBeUndefined();
    expect(digest['………']).toBe('…1 more of 7 keys');
  });

  it('writes data strings that start with "…" with an escape, so they read differently from sentinels', () => {
    const text = '["…3 more of 10","plain"]';
    const outcome = digestOf(text);
    expect(outcome.digest).toBe('["\\u20263 more of 10","plain"]');
    expect(JSON.parse(outcome.digest)).toEqual(JSON.parse(text));
  });

  it('describes long strings by their length in characters, not UTF-16 units', () => {
    const emoji = '😀'.repeat(150);
    expect(JSON.parse(digestOf(JSON.stringify([emoji])).digest)).toEqual([emoji]);
    const long = '😀'.repeat(201);
    expect(JSON.parse(digestOf(JSON.stringify([long])).digest)).toEqual(['…(201 chars)']);
    const x = 'x'.repeat(16384);
    expect(JSON.parse(digestOf(JSON.stringify({ x })).digest)).toEqual({ x: '…(16384 chars)' });
  });

  it('survives 100 000 levels of nesting with a small, valid digest', () => {
    const depth = 100_000;
    const arrays = `${'['.repeat(depth)}${']'.repeat(depth)}`;
    const digest = digestOf(arrays).digest;
    expect(JSON.parse(digest)).toBeDefined();
    expect(digest.length).toBeLessThan(200);
    expect(digest).toContain('"…(array of 1)"');
    const objects = `${'{"a":'.repeat(depth)}null${'}'.repeat(depth)}`;
    const objectDigest = digestOf(objects).digest;
    expect(JSON.parse(objectDigest)).toBeDefined();
    expect(objectDigest).toContain('"…(object of 1 key)"');
    expect(digestOf(arrays, { maxDepth: 200_000 }).digest).toBe(arrays);
  });

  it('treats __proto__ keys as data', () => {
    const text = '{"__proto__":{"polluted":true},"constructor":{"prototype":1}}';
    const outcome = digestOf(text);
    expect(outcome.digest).toBe(text);
    const parsed = JSON.parse(outcome.digest);
    expect(Object.hasOwn(parsed, '__proto__')).toBe(true);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });

  it('keeps lone surrogates, combining marks, CRLF and a BOM-prefixed input valid', () => {
    const value = { lone: '\ud800x', marks: 'e\u0301\u0301', crlf: 'a\r\nb' };
    const outcome = digestOf(`\uFEFF${JSON.stringify(value)}\r\n`);
    expect(JSON.parse(outcome.digest)).toEqual(value);
    expect(outcome.digest).toContain('\\ud800');
  });

  it('reports invalid, truncated and empty input as not JSON, with the reason JSON.parse gives', () => {
    for (const text of ['', '   ', '{"a":', '[1,2', 'not json', '{"a":1}}', '\uFEFF', '[1,]']) {
      const outcome = digestJson(text, { env: {} });
      expect(outcome.ok).toBe(false);
      let reason = '';
      try {
        JSON.parse(text.replace(/^\uFEFF/, ''));
      } catch (error) {
        reason = (error as Error).message;
      }
      if (!outcome.ok) expect(outcome.error.message).toBe(reason);
    }
  });

  it('gives the same outcome where WebAssembly is unavailable (node --jitless)', () => {
    const dist = new URL('../dist/index.js', import.meta.url);
    const texts = [
      '{"id":12345678901234567890,"items":[1.0,2,3,4],"a":{"__proto__":"x","…k":"…v"}}',
      '[1,',
      `{"rows":${JSON.stringify(Array.from({ length: 50 }, (_, i) => ({ i, s: 'é'.repeat(i * 9) })))}}`,
    ];
    const script = `
      const { createDigester } = await import(${JSON.stringify(dist.href)});
      const digester = createDigester({ env: {} });
      const texts = JSON.parse(process.argv[1]);
      console.log(JSON.stringify([typeof WebAssembly, ...texts.map((text) => {
        const o = digester.digest(text);
        return o.ok ? { ...o } : { ok: false, error: o.error.message };
      })]));
    `;
    const output = execFileSync(
      process.execPath,
      ['--jitless', '--input-type=module', '-e', script, JSON.stringify(texts)],
      { encoding: 'utf8' },
    );
    const digester = createDigester({ env: {} });
    const here = texts.map((text) => {
      const o = digester.digest(text);
      return o.ok ? { ...o } : { ok: false, error: o.error.message };
    });
    expect(JSON.parse(output)).toEqual(['undefined', ...here]);
  });

  it('digests a 100 MB result into a descriptor', () => {
    const text = `{"log":"${'x'.repeat(100 * 1024 * 1024)}","n":1}`;
    const outcome = digestOf(text);
    expect(outcome.digest).toBe(`{"log":"…(${100 * 1024 * 1024} chars)","n":1}`);
    expect(outcome.originalBytes).toBeGreaterThan(100 * 1024 * 1024);
  });

  it('reads its caps from COMPACTION_* variables and rejects bad options', () => {
    const digester = createDigester({
      env: {
        COMPACTION_CONTINUATION_DIGEST_ARRAY_SAMPLE: '1',
        COMPACTION_CONTINUATION_DIGEST_SCALAR_MAX: '4',
        COMPACTION_CONTINUATION_DIGEST_MAX_KEYS: '2',
      },
    });
    expect(digester.caps).toEqual({ arraySample: 1, scalarMax: 4, maxKeys: 2, maxDepth: 64 });
    expect(createDigester({ env: {}, arraySample: 5 }).caps.arraySample).toBe(5);
    expect(() => createDigester({ arraySample: 0 })).toThrow(/digestArraySample/);
    expect(() => createDigester({ maxDepth: -1 })).toThrow(/maxDepth/);
  });
});
