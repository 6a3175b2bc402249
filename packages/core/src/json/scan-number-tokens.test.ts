import { execFileSync } from 'node:child_process';
import { fixturesAvailable, listFixtures, readFixture } from '@compaction/fixtures';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { numberScanBackend, scanNumberTokens, scanNumberTokensInJs } from './scan-number-tokens.js';
import { jsonPair, numberToken, rawStringLiteral } from './test-support/json-text-arbitraries.js';

const tokens = (text: string): string[] => {
  const { spans } = scanNumberTokens(text);
  const out: string[] = [];
  for (let k = 0; k < spans.length; k += 3) out.push(text.slice(spans[k], spans[k + 1]));
  return out;
};

const document = fc
  .array(
    fc.oneof(
      jsonPair.map((pair) => pair.pretty),
      rawStringLiteral,
      numberToken,
      fc.tuple(rawStringLiteral, numberToken).map(([key, value]) => `{${key}:${value}}`),
    ),
    { maxLength: 12 },
  )
  .chain((items) =>
    fc
      .constantFrom(',', ' ,\n', ',\r\n\t', ' ,      ')
      .map((separator) => `[${items.join(separator)}]`),
  );

describe('scanNumberTokens', () => {
  it('runs on WebAssembly in Node', () => {
    expect(numberScanBackend()).toBe('wasm');
  });

  it('reports exactly the tokens whose shape allows loss, never number-like text in strings', () => {
    const text =
      '{"id":12345678901234567890,"n":42,"s":"1.0 and 1e5\\" -0 99999999999999999","a":[1.0,-0,1E5,0.0000001,1.5,-0.5,123456789012345],"t":true}';
    expect(tokens(text)).toEqual([
      '12345678901234567890',
      '1.0',
      '-0',
      '1E5',
      '0.0000001',
      '123456789012345',
    ]);
  });

  it('finds the same spans as the JavaScript scan on any document (property)', () => {
    fc.assert(
      fc.property(document, (text) => {
        JSON.parse(text);
        expect(scanNumberTokens(text)).toEqual(scanNumberTokensInJs(text));
      }),
      { numRuns: 3000 },
    );
  });

  it('carries strings, escapes and numbers across vector boundaries', () => {
    const body =
      '"a\\\\\\"b", 12345678901234567890, "\\\\", 1.0, "x\\"1.0", -0, "\u0122\\\\", 1e5, "\\""';
    for (let shift = 0; shift <= 140; shift++) {
      // A run of escaped backslashes whose length moves the next quote across a boundary.
      const run = `${'\\\\'.repeat(shift >> 1)}${shift & 1 ? 'x' : ''}`;
      const text = `[${' '.repeat(shift)}${body}, "${run}", "${run}\\"", 1.50]`;
      JSON.parse(text);
      expect(scanNumberTokens(text), `shift ${shift}`).toEqual(scanNumberTokensInJs(text));
      expect(tokens(text)).toEqual(['12345678901234567890', '1.0', '-0', '1e5', '1.50']);
    }
  });

  it('finds the same spans as the JavaScript scan wherever vectors split a document (property)', () => {
    fc.assert(
      fc.property(fc.nat({ max: 200 }), document, document, (shift, a, b) => {
        const text = `[${' '.repeat(shift)}${a},\n${b}]`;
        expect(scanNumberTokens(text)).toEqual(scanNumberTokensInJs(text));
      }),
      { numRuns: 2000 },
    );
  });

  it('keeps scanning past a full span buffer (thousands of suspicious tokens)', () => {
    const values = Array.from({ length: 5000 }, (_, i) => (i % 3 === 0 ? `${i}.0` : `${i}`));
    const text = `[${values.join(',')}]`;
    const scan = scanNumberTokens(text);
    expect(scan).toEqual(scanNumberTokensInJs(text));
    expect(scan.numbers).toBe(5000);
    expect(tokens(text)).toEqual(values.filter((_, i) => i % 3 === 0));
    // Each span carries its token's ordinal among all numbers.
    expect(scan.spans.filter((_, k) => k % 3 === 2)).toEqual(
      values.flatMap((_, i) => (i % 3 === 0 ? [i] : [])),
    );
  });

  it('does not mistake units whose low byte is a quote or a backslash for either', () => {
    // U+0122 and U+2222 end in 0x22 ("), U+225C in 0x5C (\): none may end or escape a string.
    const text = '["\u0122 1.0", "\u225c", 1.50, "\u2222\u225c\\"", -0, "\ud800", 1e3]';
    expect(tokens(text)).toEqual(['1.50', '-0', '1e3']);
  });

  it('scans a text too big for the retained instance on an instance of its own', () => {
    const record = '{"message":"ok, 1.0 retries","id":12345678901234567890,"ratio":0.5},\n';
    const text = `[${record.repeat(300_000)}{}]`;
    expect(text.length * 2).toBeGreaterThan(16 * 2 ** 20);
    const { spans, numbers, strings } = scanNumberTokens(text);
    expect(spans.length).toBe(3 * 300_000);
    expect(numbers).toBe(600_000);
    expect(strings).toBe(1_200_000);
    expect(text.slice(spans.at(-3), spans.at(-2))).toBe('12345678901234567890');
    // The retained instance still works afterwards.
    expect(tokens('[1.0]')).toEqual(['1.0']);
  });

  it('reports no span for empty and number-free documents', () => {
    for (const text of ['', '[]', '{}', '"1.0"', '[true,false,null]']) {
      expect(scanNumberTokens(text).spans).toEqual([]);
    }
  });

  describe.skipIf(!fixturesAvailable())('on every JSON fixture', () => {
    it('matches the JavaScript scan', () => {
      for (const fixture of listFixtures({ kind: 'json' })) {
        const text = readFixture(fixture.path);
        expect(scanNumberTokens(text), fixture.path).toEqual(scanNumberTokensInJs(text));
      }
    });
  });

  it('falls back to the JavaScript scan where WebAssembly is unavailable (node --jitless)', () => {
    const dist = new URL('../../dist/index.js', import.meta.url);
    const script = `
      const { parseJsonLossless } = await import(${JSON.stringify(dist.href)});
      const parsed = parseJsonLossless('{"id":12345678901234567890,"a":1.0,"b":2}');
      console.log(typeof WebAssembly, parsed.losslessNumbers, parsed.value.id.text, parsed.value.a.text);
    `;
    const output = execFileSync(
      process.execPath,
      ['--jitless', '--input-type=module', '-e', script],
      {
        encoding: 'utf8',
      },
    );
    expect(output.trim()).toBe('undefined 2 12345678901234567890 1.0');
  });
});
