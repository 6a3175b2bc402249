import { parseJsonLossless } from '@compaction/core';
import { buildJsonTapeInJs } from '@compaction/core/test';
import { fixturesAvailable, listFixtures, readFixture } from '@compaction/fixtures';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { type DigestCaps, resolveDigestCaps } from './digest-settings.js';
import { digestTape } from './digest-tape.js';
import { digestValue, type ValueDigest } from './digest-value.js';

// The digest of the parsed text is the specification: the tape must give the same bytes and
// counts.
function expectSameAsParsed(text: string, caps: DigestCaps): ValueDigest {
  const tape = buildJsonTapeInJs(text);
  const parsed = parseJsonLossless(text);
  if (tape === undefined || !parsed.ok) throw new Error(`not JSON: ${text.slice(0, 80)}`);
  const fromTape = digestTape(tape, caps);
  expect(fromTape).toEqual(digestValue(parsed.value, caps));
  expect(fromTape.bytes).toBe(Buffer.byteLength(fromTape.text, 'utf8'));
  return fromTape;
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
const defaults = resolveDigestCaps({ env: {} });

const loneSurrogate = fc
  .integer({ min: 0xd800, max: 0xdfff })
  .map((code) => String.fromCharCode(code));
const awkwardUnit = fc.oneof(
  fc.constantFrom('…', '"', '\\', '/', '\n', '\t', '\u0000', '\u0001', '\u007f', '\u2028'),
  fc.constantFrom('é', '😀', '\ud83d\ude00', 'a', ' '),
  loneSurrogate,
);
const stringValue = fc.oneof(
  fc.string({ maxLength: 12 }),
  fc.string({
    maxLength: 12,
    unit: fc.oneof(fc.string({ minLength: 1, maxLength: 1 }), awkwardUnit),
  }),
  fc.string({ maxLength: 6 }).map((rest) => `…${rest}`),
  fc.string({ maxLength: 6, unit: awkwardUnit }).map((rest) => `…${rest}`),
  fc.string({ maxLength: 6 }).map((rest) => `\u0000\u0001${rest}`),
  fc.string({ minLength: 5, maxLength: 40, unit: 'binary' }),
  fc.string({ minLength: 5, maxLength: 30, unit: fc.constantFrom('😀', 'x', '…', '\ud800') }),
);
const keyValue = fc.oneof(
  fc.string({ maxLength: 4 }),
  fc.constantFrom(
    '__proto__',
    '0',
    '1',
    '9',
    '10',
    '01',
    '-1',
    '1.5',
    '4294967294',
    '4294967295',
    '…',
    '……',
    '…a',
    '\u007f',
    '\u0000\u0001a',
    'a',
    'b',
    'constructor',
  ),
  fc.string({ maxLength: 3 }).map((rest) => `…${rest}`),
  fc.string({ maxLength: 3, unit: fc.oneof(awkwardUnit, fc.constant('a')) }),
);

/** The JSON of a string, with some units written as `\uXXXX` (or `\/`) escapes instead. */
const stringJson = (value: fc.Arbitrary<string>) =>
  fc
    .tuple(value, fc.oneof(fc.constant([]), fc.array(fc.boolean(), { maxLength: 40 })))
    .map(([text, escapes]) => {
      let json = '"';
      for (let i = 0; i < text.length; i++) {
        const unit = text[i]!;
        if (escapes[i]) {
          json += unit === '/' ? '\\/' : `\\u${unit.charCodeAt(0).toString(16).padStart(4, '0')}`;
        } else {
          // Raw, surrogates included, except what JSON requires escaped.
          const code = unit.charCodeAt(0);
          json +=
            code < 0x20 || unit === '"' || unit === '\\' ? JSON.stringify(unit).slice(1, -1) : unit;
        }
      }
      return `${json}"`;
    });

const numberToken = fc.oneof(
  fc.constantFrom(
    '0',
    '-0',
    '1.0',
    '-0.0',
    '1e5',
    '1E+5',
    '1e-7',
    '0.1',
    '100',
    '1e400',
    '-1e-400',
  ),
  fc.constantFrom('12345678901234567890', '-9007199254740993', '0.30000000000000004', '5e-324'),
  fc.bigInt({ min: -(2n ** 70n), max: 2n ** 70n }).map(String),
  fc.double({ noNaN: true, noDefaultInfinity: true }).map((n) => JSON.stringify(n)),
  fc.integer().map(String),
);

const space = fc.constantFrom('', '', ' ', '\n  ', '\r\n\t');

/**
 * JSON texts as written by hand: any whitespace, escapes, duplicate keys (also spelled with an
 * escape), index-like keys, `__proto__`, any number token.
 */
const { value: jsonText } = fc.letrec<{ value: string }>((tie) => ({
  value: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    fc.constantFrom('true', 'false', 'null'),
    numberToken,
    stringJson(stringValue),
    fc
      .array(fc.tuple(space, tie('value'), space), { maxLength: 6 })
      .map((items) => `[${items.map((parts) => parts.join('')).join(',')}]`),
    fc
      .array(fc.tuple(space, stringJson(keyValue), space, tie('value')), { maxLength: 7 })
      .map(
        (members) =>
          `{${members.map(([a, key, b, value]) => `${a}${key}${b}:${value}`).join(',')}}`,
      ),
  ),
}));

describe('digestTape', () => {
  it('equals the digest of the parsed text under small caps (property)', () => {
    fc.assert(
      fc.property(jsonText, smallCaps, fc.boolean(), (text, caps, bom) => {
        expectSameAsParsed(bom ? `\uFEFF${text}` : text, caps);
      }),
      { numRuns: 5000 },
    );
  });

  it('equals the digest of the parsed text under default and generous caps (property)', () => {
    fc.assert(
      fc.property(jsonText, (text) => {
        expectSameAsParsed(text, defaults);
        expectSameAsParsed(text, caps(10, 10, 100, 100));
      }),
      { numRuns: 2000 },
    );
  });

  it('equals the digest of the parsed text on fast-check JSON, pretty and minified (property)', () => {
    const unit = fc.oneof(fc.string({ minLength: 1, maxLength: 1, unit: 'binary' }), awkwardUnit);
    fc.assert(
      fc.property(
        fc.jsonValue({ stringUnit: unit }),
        fc.constantFrom(undefined, 2, '\t'),
        smallCaps,
        (value, indent, caps) => {
          const text = JSON.stringify(value, null, indent);
          expectSameAsParsed(text, caps);
          expectSameAsParsed(text, defaults);
        },
      ),
      { numRuns: 1000 },
    );
  });

  it('writes number tokens, escapes and sentinels as the parsed path does', () => {
    const text =
      '{"b":[1.0,-0,1e5,12345678901234567890,0.1],"10":"\\u2026x","9":"a\\/b","…":"\\ud800",' +
      '"\\u2026":"😀","b":{"9":1,"10":2,"…":3},"__proto__":"' +
      'x'.repeat(9) +
      '"}';
    expect(expectSameAsParsed(text, caps(3, 4, 8, 4)).text).toBe(
      '{"10":"\\u2026x","9":"a/b","__proto__":"…(9 chars)","b":{"9":1,"10":2,"\\u2026":3},"……":"…1 more of 5 keys"}',
    );
    expect(expectSameAsParsed(text, caps(5, 10, 8, 1)).text).toBe(
      '{"9":"a/b","10":"\\u2026x","b":"…(object of 3 keys)","\\u2026":"😀","__proto__":"…(9 chars)"}',
    );
    expect(expectSameAsParsed('[1.0,-0,1e5,12345678901234567890]', defaults).text).toBe(
      '[1.0,-0,1e5,"…1 more of 4"]',
    );
  });

  it('keeps the last value of a duplicate key at its first place, in small and wide objects', () => {
    // Keys alike in length and end units, and many members, take other paths to find duplicates.
    const alike = '{"axb":1,"ayb":2,"axb":3,"a\\u0078b":4,"ayb":[5],"azb":6}';
    const wide = `{${Array.from({ length: 300 }, (_, i) => `"k${i % 150}":${i}`).join(',')}}`;
    const wideIndexed = `{${Array.from({ length: 300 }, (_, i) => `"${(i * 7) % 200}":${i}`).join(',')}}`;
    // A raw lone surrogate and its escape are one key.
    const lone = '{"\ud800":1,"\\ud800":2,"b":"\udc00","\\u0031":3,"…":[4],"\\u2026":5}';
    const manyAlike = `{${Array.from({ length: 14 }, (_, i) => `"a${i % 11}b":${i}`).join(',')}}`;
    for (const text of [alike, manyAlike, wide, wideIndexed, lone]) {
      expectSameAsParsed(text, caps(3, 4, 8, 4));
      expectSameAsParsed(text, caps(3, 1000, 8, 4));
      expectSameAsParsed(text, caps(3, 149, 8, 4));
      expectSameAsParsed(`[${text}]`, caps(3, 10, 8, 1));
    }
    expect(expectSameAsParsed(alike, defaults).text).toBe('{"axb":4,"ayb":[5],"azb":6}');
  });

  it('counts the code points of long strings after decoding them', () => {
    for (const text of [
      '"😀😀😀😀"',
      '"\\ud83d\\ude00\\ud83d\\ude00x"',
      '"\\u0041\\u0042\\u0043"',
    ]) {
      expectSameAsParsed(text, caps(1, 1, 3, 1));
      expectSameAsParsed(text, caps(1, 1, 4, 1));
    }
  });

  it('falls back where the parsed path swaps stand-ins, with the same bytes', () => {
    for (const text of [
      '["\u007f",["a","b","c"]]',
      '{"\u007f":1,"x":"…y"}',
      '["\\u0000\\u0001","…"]',
      '{"…a":1,"\\u0000\\u0001a":2}',
      '["\\"\\\\u0000\\\\u0001","…z"]',
    ]) {
      expectSameAsParsed(text, caps(1, 4, 10, 4));
      expectSameAsParsed(text, caps(1, 1, 10, 4));
    }
  });

  it('digests 100 000 levels of nesting under a huge depth cap', () => {
    const depth = 100_000;
    for (const text of [
      `${'['.repeat(depth)}${']'.repeat(depth)}`,
      `${'[{"…":'.repeat(depth)}"leaf"${'}]'.repeat(depth)}`,
      `${'{"a":1,"a":['.repeat(depth)}0${']}'.repeat(depth)}`,
    ]) {
      const digest = expectSameAsParsed(text, caps(1, 1, 10, 1_000_000));
      expect(digest.text.length).toBeGreaterThanOrEqual(2 * depth);
      expectSameAsParsed(text, defaults);
      expectSameAsParsed(text, caps(1, 1, 10, 450));
    }
  });
});

describe.skipIf(!fixturesAvailable())('digestTape on the shared fixtures', () => {
  const json = fixturesAvailable() ? listFixtures({ kind: 'json' }) : [];
  it.each(json.map((fixture) => [fixture.path]))('%s: same digest as the parsed text', (path) => {
    const text = readFixture(path);
    expectSameAsParsed(text, defaults);
    expectSameAsParsed(text, caps(1, 3, 8, 3));
    expectSameAsParsed(text, caps(1000, 1000, 100_000, 1000));
    // Minified, most kept text is contiguous and copied in long runs.
    expectSameAsParsed(JSON.stringify(JSON.parse(text)), defaults);
  });
});
