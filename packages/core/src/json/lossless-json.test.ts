import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { InvalidArgumentError } from '../errors.js';
import { type JsonValue, parseJsonLossless, stringifyJsonLossless } from './lossless-json.js';
import { losslessJsonFeatures, withLosslessJsonFeatures } from './lossless-json-features.js';
import { LosslessNumber } from './lossless-number.js';
import { scanNumberTokensInJs } from './scan-number-tokens.js';
import { jsonPair, numberToken } from './test-support/json-text-arbitraries.js';

// An independent reference: every lossy token rewritten as a marked string before a native
// parse, the marks turned back into LosslessNumber by a full walk.
function referenceRoundTrip(text: string): string {
  const { spans } = scanNumberTokensInJs(text);
  let rewritten = '';
  let last = 0;
  for (let k = 0; k < spans.length; k += 3) {
    const token = text.slice(spans[k], spans[k + 1]);
    if (String(Number(token)) === token) continue;
    rewritten += `${text.slice(last, spans[k])}"\\u0001${token}"`;
    last = spans[k + 1]!;
  }
  const revive = (value: JsonValue): JsonValue => {
    if (typeof value === 'string' && value.startsWith('\u0001')) {
      return new LosslessNumber(value.slice(1));
    }
    if (Array.isArray(value)) return value.map(revive);
    if (typeof value === 'object' && value !== null && !LosslessNumber.isInstance(value)) {
      for (const key of Object.keys(value)) {
        Object.defineProperty(value, key, { value: revive(value[key]!) });
      }
    }
    return value;
  };
  return stringifyJsonLossless(revive(JSON.parse(rewritten + text.slice(last)) as JsonValue));
}

function roundTrip(text: string): string {
  const parsed = parseJsonLossless(text);
  if (!parsed.ok) throw parsed.error;
  return stringifyJsonLossless(parsed.value);
}

describe('parseJsonLossless / stringifyJsonLossless', () => {
  it('writes every number back exactly as it was written', () => {
    const text =
      '{"id":12345678901234567890,"a":1.0,"b":1e400,"c":-0,"d":1E5,"e":0.0000001,"f":1.5,"g":-0.0}';
    expect(roundTrip(text)).toBe(text);
  });

  it('keeps numbers that round-trip as plain numbers and the rest as LosslessNumber', () => {
    const parsed = parseJsonLossless('[1, 2.5, 9007199254740993, 1.50]');
    expect(parsed.ok && parsed.losslessNumbers).toBe(2);
    const value = parsed.ok ? (parsed.value as JsonValue[]) : [];
    expect(value[0]).toBe(1);
    expect(value[1]).toBe(2.5);
    expect(LosslessNumber.isInstance(value[2])).toBe(true);
    expect((value[2] as LosslessNumber).text).toBe('9007199254740993');
    expect((value[3] as LosslessNumber).text).toBe('1.50');
  });

  it('minifies any document without changing a number, string or key (property)', () => {
    fc.assert(
      fc.property(jsonPair, ({ minified, pretty }) => {
        expect(roundTrip(pretty)).toBe(minified);
      }),
      { numRuns: 2000 },
    );
  });

  it.each([
    '-0',
    '-0.0',
    '0.0000001',
    '0.000001',
    '1E5',
    '1e+5',
    '1e-7',
    '100',
    '1.5e3',
    '123456789012345.6',
    '12345678901234.5',
    '9007199254740993',
    '900719925474099',
    '-12345678901234567890',
    '0.1000000000000000055511151231257827',
  ])('keeps the number %s exactly inside a document', (token) => {
    const text = `{"a":[${token}],"b":{"c":${token}}}`;
    expect(roundTrip(text)).toBe(text);
  });

  it('skips strings with escaped quotes and backslashes when looking for numbers', () => {
    const text = String.raw`["a\\",1.0,"b\\\"1.0",-0,"\\\\",12345678901234567890]`;
    expect(roundTrip(text)).toBe(text);
  });

  it('handles a top-level lossless number', () => {
    expect(roundTrip(' 123456789012345678901234567890 ')).toBe('123456789012345678901234567890');
    expect(roundTrip('1.0')).toBe('1.0');
  });

  it('leaves number-like text inside strings alone', () => {
    const text = '{"s":"12345678901234567890 and 1.0","k":"-0"}';
    expect(roundTrip(text)).toBe(text);
  });

  it('treats __proto__ and constructor keys as data, never as prototype changes', () => {
    const parsed = parseJsonLossless(
      '{"__proto__":{"polluted":12345678901234567890},"constructor":{"prototype":1}}',
    );
    expect(parsed.ok).toBe(true);
    if (!parsed.ok) return;
    const value = parsed.value as Record<string, JsonValue>;
    expect(Object.getPrototypeOf(value)).toBe(Object.prototype);
    expect(Object.keys(value)).toEqual(['__proto__', 'constructor']);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    expect(stringifyJsonLossless(parsed.value)).toBe(
      '{"__proto__":{"polluted":12345678901234567890},"constructor":{"prototype":1}}',
    );
  });

  it('parses and serializes 100 000-deep nesting without overflowing the stack', () => {
    const depth = 100_000;
    const text = `${'['.repeat(depth)}12345678901234567890${']'.repeat(depth)}`;
    expect(roundTrip(text)).toBe(text);
    const objects = `${'{"a":'.repeat(depth)}1.0${'}'.repeat(depth)}`;
    expect(roundTrip(objects)).toBe(objects);
  });

  it.each([
    ['{"a":[1.0],"b":2,"a":3}', '{"a":3,"b":2}'],
    ['{"a":[],"b":1.0,"a":5}', '{"a":5,"b":1.0}'],
    ['{"a":"x","b":1.0,"a":12345678901234567890}', '{"a":12345678901234567890,"b":1.0}'],
    ['{"b":1.0,"2":12345678901234567890,"c":-0}', '{"2":12345678901234567890,"b":1.0,"c":-0}'],
    ['[{"x":1.0},{"10":2.50,"9":1e5}]', '[{"x":1.0},{"9":1e5,"10":2.50}]'],
  ])('puts each exact number where JSON.parse puts its value: %s', (text, expected) => {
    expect(roundTrip(text)).toBe(expected);
  });

  it('agrees with a reference on objects with duplicate and index-like keys (property)', () => {
    const { value: document } = fc.letrec<{ value: string }>((tie) => ({
      value: fc.oneof(
        { depthSize: 'small' },
        numberToken,
        fc.constantFrom('"s"', 'true', 'null', '"1.0"'),
        fc.array(tie('value'), { maxLength: 4 }).map((items) => `[${items.join(',')}]`),
        fc
          .array(
            fc.tuple(fc.constantFrom('a', 'b', '0', '1', '10', '__proto__', '1x'), tie('value')),
            { maxLength: 5 },
          )
          .map((entries) => `{${entries.map(([key, item]) => `"${key}":${item}`).join(',')}}`),
      ),
    }));
    fc.assert(
      fc.property(document, (text) => {
        expect(roundTrip(text)).toBe(referenceRoundTrip(text));
      }),
      { numRuns: 3000 },
    );
  });

  it('orders index-like keys first, as JavaScript objects do (same object, RFC 8259 leaves order open)', () => {
    expect(roundTrip('{"b":1,"10":2,"2":3}')).toBe('{"2":3,"10":2,"b":1}');
  });

  it('ignores a byte-order mark', () => {
    expect(roundTrip('\uFEFF{"a": 1}')).toBe('{"a":1}');
  });

  it.each(['', '{', '{"a":1', '[1,]', 'NaN', "{'a':1}", '{"a":1}x', '\u0000'])(
    'reports invalid JSON %j without throwing',
    (text) => {
      const parsed = parseJsonLossless(text);
      expect(parsed.ok).toBe(false);
      if (!parsed.ok) expect(parsed.error).toBeInstanceOf(SyntaxError);
    },
  );

  it.each([
    '{1.0:2}',
    '{12345678901234567890 : 2}',
    '[1.0.0]',
    '[1.0-2]',
    '[01.0]',
    '[-0.]',
    '[1.0e]',
    '[1.0',
    '{"a":1.0,}',
    '["x"1.0]',
  ])('reports the error of %j itself, never of its rewritten lossless form', (text) => {
    const parsed = parseJsonLossless(text);
    let expected = '';
    try {
      JSON.parse(text);
    } catch (error) {
      expected = (error as Error).message;
    }
    expect(parsed.ok).toBe(false);
    if (!parsed.ok) expect(parsed.error.message).toBe(expected);
  });

  it('never reads properties inherited from an extended Object.prototype', () => {
    let reads = 0;
    const text = '{"a":{"id":12345678901234567890},"b":[1.0,{"c":{}}]}';
    Object.defineProperty(Object.prototype, 'polluted', {
      get: () => {
        reads++;
        return { deep: [1, 2, 3] };
      },
      enumerable: true,
      configurable: true,
    });
    let written: string | false;
    try {
      const parsed = parseJsonLossless(text);
      written = parsed.ok && stringifyJsonLossless(parsed.value);
    } finally {
      delete (Object.prototype as { polluted?: unknown }).polluted;
    }
    expect(reads).toBe(0);
    expect(written).toBe(text);
  });

  it('keeps lone surrogates and control characters in strings as escapes', () => {
    const text = '["\\ud800","\\u0000","\\udfff x"]';
    const parsed = parseJsonLossless(text);
    expect(parsed.ok && (parsed.value as string[])[0]).toBe('\ud800');
    expect(roundTrip(text)).toBe(text);
  });

  it('is deterministic', () => {
    const text = '{"b":[1.0,2,{"c":null}],"a":"x"}';
    expect(roundTrip(text)).toBe(roundTrip(text));
  });
});

// Both serializer paths run on every engine: the raw-JSON one where the engine has it (Node 21+),
// and the marker fallback always, forced where the engine would not pick it.
const serializerPaths = [
  ...(losslessJsonFeatures().rawJson ? [['JSON.rawJSON', {}] as const] : []),
  ['marker fallback', { rawJson: false }] as const,
];

/** A document with 64-bit ids (and other lossy numbers) at random places. */
const bigIdDocument = fc.letrec<{ value: string }>((tie) => ({
  value: fc.oneof(
    { depthSize: 'small' },
    fc.bigInt({ min: 2n ** 53n + 1n, max: 2n ** 64n }).map(String),
    numberToken,
    fc.string().map((s) => JSON.stringify(s)),
    fc.array(tie('value'), { maxLength: 4 }).map((items) => `[${items.join(',')}]`),
    fc
      .uniqueArray(fc.tuple(fc.constantFrom('id', 'a', 'b', '7', 'user_id'), tie('value')), {
        maxLength: 4,
        selector: ([key]) => key,
      })
      .map((entries) => `{${entries.map(([key, item]) => `"${key}":${item}`).join(',')}}`),
  ),
})).value;

describe.each(serializerPaths)('serializing LosslessNumber (%s)', (_name, features) => {
  const run = <T>(fn: () => T): T => withLosslessJsonFeatures(features, fn);

  it('writes a 64-bit id exactly with stringifyJsonLossless and never leaks a marker', () => {
    const parsed = parseJsonLossless('{"id":12345678901234567890,"n":[1.0,-0,1e400]}');
    expect(parsed.ok).toBe(true);
    if (!parsed.ok) return;
    const text = run(() => stringifyJsonLossless(parsed.value));
    expect(text).toBe('{"id":12345678901234567890,"n":[1.0,-0,1e400]}');
  });

  it('gives JSON.stringify the exact number (raw JSON) or its exact digits as a string, never a NUL', () => {
    const parsed = parseJsonLossless(
      '{"id":12345678901234567890,"deep":{"ids":[9007199254740993]}}',
    );
    if (!parsed.ok) throw parsed.error;
    const text = run(() => JSON.stringify(parsed.value));
    expect(text).not.toMatch(/\u0000|\0/);
    expect(text).toBe(
      run(() => losslessJsonFeatures().rawJson)
        ? '{"id":12345678901234567890,"deep":{"ids":[9007199254740993]}}'
        : '{"id":"12345678901234567890","deep":{"ids":["9007199254740993"]}}',
    );
    // Indented output and a top-level number go through the same hook.
    expect(run(() => JSON.stringify(new LosslessNumber('1.0')))).toMatch(/^"?1\.0"?$/);
    expect(run(() => JSON.stringify(parsed.value, null, 2))).toContain('12345678901234567890');
  });

  it('keeps every id digit for digit through parse, stringify and JSON.stringify (property)', () => {
    fc.assert(
      fc.property(bigIdDocument, (text) => {
        const parsed = parseJsonLossless(text);
        if (!parsed.ok) throw parsed.error;
        const lossless = run(() => stringifyJsonLossless(parsed.value));
        const native = run(() => JSON.stringify(parsed.value)) ?? '';
        expect(lossless).toBe(roundTrip(text));
        for (const written of [lossless, native]) expect(written).not.toContain('\u0000');
        for (const id of text.match(/\d{16,}/g) ?? []) {
          expect(lossless).toContain(id);
          expect(native).toContain(id);
        }
        // The native form parses back to the same ids (as numbers or as digit strings).
        expect(JSON.parse(native)).toBeDefined();
      }),
      { numRuns: 1000 },
    );
  });

  it('serializes nesting too deep for the native serializer', () => {
    const depth = 100_000;
    const text = `${'['.repeat(depth)}12345678901234567890${']'.repeat(depth)}`;
    const parsed = parseJsonLossless(text);
    if (!parsed.ok) throw parsed.error;
    expect(run(() => stringifyJsonLossless(parsed.value))).toBe(text);
  });
});

describe('LosslessNumber', () => {
  it.each(['', 'abc', '1.', '.5', '01', '+1', '1e', ' 1', 'NaN', '0x10'])(
    'refuses %j, which is not a JSON number',
    (text) => {
      expect(() => new LosslessNumber(text)).toThrow(InvalidArgumentError);
    },
  );

  it('restores the engine path after a forced fallback, even when the callback throws', () => {
    const before = losslessJsonFeatures();
    expect(() =>
      withLosslessJsonFeatures({ rawJson: false }, () => {
        expect(losslessJsonFeatures().rawJson).toBe(false);
        throw new Error('boom');
      }),
    ).toThrow('boom');
    expect(losslessJsonFeatures()).toEqual(before);
  });
});
