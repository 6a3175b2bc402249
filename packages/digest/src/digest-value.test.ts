import { type JsonValue, LosslessNumber, parseJsonLossless } from '@compaction/core';
import { fixturesAvailable, listFixtures, readFixture } from '@compaction/fixtures';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { type DigestCaps, resolveDigestCaps } from './digest-settings.js';
import { digestValue } from './digest-value.js';

// Every digest parses as JSON, counts its UTF-8 bytes right and claims loss exactly when it
// elided something. (Its bytes are checked against digestTape's in digest-tape.test.ts.)
function expectWellFormedDigest(value: JsonValue, caps: DigestCaps): string {
  const digest = digestValue(value, caps);
  expect(() => JSON.parse(digest.text)).not.toThrow();
  expect(digest.bytes).toBe(Buffer.byteLength(digest.text, 'utf8'));
  const { arraysSampled, objectsSampled, stringsElided, containersElided } = digest.elisions;
  expect(digest.contentLost).toBe(
    arraysSampled + objectsSampled + stringsElided + containersElided > 0,
  );
  return digest.text;
}

const caps = (arraySample: number, maxKeys: number, scalarMax: number, maxDepth: number) => ({
  arraySample,
  maxKeys,
  scalarMax,
  maxDepth,
});

const smallCaps = fc.record({
  arraySample: fc.integer({ min: 0, max: 3 }),
  maxKeys: fc.integer({ min: 0, max: 4 }),
  scalarMax: fc.integer({ min: 0, max: 8 }),
  maxDepth: fc.integer({ min: 1, max: 4 }),
});

const loneSurrogate = fc
  .integer({ min: 0xd800, max: 0xdfff })
  .map((code) => String.fromCharCode(code));
const awkwardChar = fc.oneof(
  fc.constantFrom('…', '"', '\\', '\n', '\u0000', '\u0001', '\u007f', 'é', '😀', '\u2028'),
  loneSurrogate,
);
const text = fc.oneof(
  fc.string({ maxLength: 12 }),
  fc.string({ unit: fc.oneof(fc.string({ minLength: 1, maxLength: 1 }), awkwardChar) }),
  fc.string({ maxLength: 6 }).map((rest) => `…${rest}`),
  fc.string({ maxLength: 6 }).map((rest) => `\u0000\u0001${rest}`),
  fc.string({ minLength: 9, maxLength: 40, unit: 'binary' }),
);
const key = fc.oneof(
  fc.string({ maxLength: 5 }),
  fc.constantFrom(
    '__proto__',
    '0',
    '1',
    '9',
    '10',
    '01',
    '-1',
    '4294967294',
    '4294967295',
    '…',
    '……',
    '…a',
    '\u007f',
    '\u0000\u0001a',
    'toString',
    'constructor',
  ),
  fc.string({ maxLength: 4 }).map((rest) => `…${rest}`),
  fc.string({ maxLength: 3, unit: fc.oneof(awkwardChar, fc.constant('a')) }),
);

/** An object built with own data properties only, so `__proto__` stays a key. */
function objectOf(entries: Array<[string, unknown]>): JsonValue {
  const object: Record<string, unknown> = {};
  for (const [name, value] of entries) {
    Object.defineProperty(object, name, {
      value,
      enumerable: true,
      writable: true,
      configurable: true,
    });
  }
  return object as JsonValue;
}

const { value: valueArbitrary } = fc.letrec<{ value: unknown }>((tie) => ({
  value: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    fc.constant(null),
    fc.boolean(),
    fc.double(),
    fc.integer(),
    fc.constantFrom(0, -0, Number.NaN, Number.POSITIVE_INFINITY),
    text,
    fc.bigInt({ min: -(2n ** 70n), max: 2n ** 70n }).map((big) => new LosslessNumber(String(big))),
    fc.constant(new LosslessNumber('12345678901234567890')),
    fc.constant(undefined),
    fc.array(tie('value'), { maxLength: 6 }),
    fc.array(fc.tuple(key, tie('value')), { maxLength: 7 }).map((entries) => objectOf(entries)),
  ),
}));

describe('digestValue', () => {
  it('writes a well-formed digest of any value under small caps (property)', () => {
    fc.assert(
      fc.property(valueArbitrary, smallCaps, (value, caps) => {
        expectWellFormedDigest(value as JsonValue, caps);
      }),
      { numRuns: 3000 },
    );
  });

  it('writes a well-formed digest when little or nothing is elided (property)', () => {
    fc.assert(
      fc.property(valueArbitrary, (value) => {
        expectWellFormedDigest(value as JsonValue, caps(10, 10, 100, 100));
      }),
      { numRuns: 1000 },
    );
  });

  it('escapes a leading "…" of kept strings and keys, and only those', () => {
    const value = objectOf([
      ['…key', '…value'],
      ['plain', 'mid…dle'],
      ['long', '…'.repeat(20)],
    ]);
    expect(expectWellFormedDigest(value, caps(3, 5, 10, 4))).toBe(
      '{"\\u2026key":"\\u2026value","plain":"mid…dle","long":"…(20 chars)"}',
    );
  });

  it('keeps the sorted order of sampled keys that look like array indices', () => {
    const value = objectOf([
      ['b', 1],
      ['10', 2],
      ['9', 3],
      ['…', 4],
      ['__proto__', 5],
    ]);
    expect(expectWellFormedDigest(value, caps(3, 4, 10, 4))).toBe(
      '{"10":2,"9":3,"__proto__":5,"b":1,"……":"…1 more of 5 keys"}',
    );
  });

  it('writes undefined as null in arrays and objects, and non-finite numbers as null', () => {
    const value = objectOf([
      ['a', undefined],
      ['b', [undefined, Number.NaN, Number.NEGATIVE_INFINITY, -0]],
    ]);
    expect(expectWellFormedDigest(value, caps(5, 5, 10, 4))).toBe(
      '{"a":null,"b":[null,null,null,0]}',
    );
    expect(expectWellFormedDigest(undefined as unknown as JsonValue, caps(5, 5, 10, 4))).toBe(
      'null',
    );
  });

  it('writes numbers that do not survive a JavaScript number as their source text', () => {
    const big = new LosslessNumber('12345678901234567890');
    // A LosslessNumber from another copy of core: another class with the same brand.
    class OtherLosslessNumber {
      constructor(readonly text: string) {
        Object.defineProperty(this, Symbol.for('compaction.LosslessNumber'), { value: true });
      }
    }
    const foreign = new OtherLosslessNumber('1.50') as unknown as JsonValue;
    const value = { ids: [big, foreign, 3] };
    expect(expectWellFormedDigest(value, caps(5, 5, 10, 4))).toBe(
      '{"ids":[12345678901234567890,1.50,3]}',
    );
  });

  it('writes data holding DEL, NUL and escape-like text as JSON, leading "…" escaped', () => {
    const values: JsonValue[] = [
      ['\u007f', ['a', 'b', 'c']],
      { '\u007f': 1, x: '…y' },
      ['\u0000\u0001', '…'],
      { '…a': 1, '\u0000\u0001a': 2 },
      ['"\\u0000\\u0001', '…z'],
    ];
    expect(values.map((value) => expectWellFormedDigest(value, caps(1, 4, 10, 4)))).toEqual([
      '["\u007f","…1 more of 2"]',
      '{"\u007f":1,"x":"\\u2026y"}',
      '["\\u0000\\u0001","…1 more of 2"]',
      '{"\\u2026a":1,"\\u0000\\u0001a":2}',
      '["…(13 chars)","…1 more of 2"]',
    ]);
  });

  it('digests 100 000 levels of nesting under a huge depth cap', () => {
    let arrays: JsonValue = 'leaf';
    let objects: JsonValue = 'leaf';
    for (let i = 0; i < 100_000; i++) {
      arrays = [arrays, i];
      objects = { '…': objects };
    }
    for (const value of [arrays, objects]) {
      const text = expectWellFormedDigest(value, caps(1, 1, 10, 1_000_000));
      expect(text.length).toBeGreaterThan(200_000);
      expectWellFormedDigest(value, caps(1, 1, 10, 64));
      expectWellFormedDigest(value, caps(1, 1, 10, 450));
    }
  });
});

describe.skipIf(!fixturesAvailable())('digestValue on the shared fixtures', () => {
  const json = fixturesAvailable() ? listFixtures({ kind: 'json' }) : [];
  const defaults = resolveDigestCaps({ env: {} });

  it.each(json.map((fixture) => [fixture.path]))(
    '%s: a well-formed digest under three cap sets',
    (path) => {
      const parsed = parseJsonLossless(readFixture(path));
      if (!parsed.ok) throw parsed.error;
      expectWellFormedDigest(parsed.value, defaults);
      expectWellFormedDigest(parsed.value, caps(1, 3, 8, 3));
      expectWellFormedDigest(parsed.value, caps(1000, 1000, 100_000, 1000));
    },
  );
});
