import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { layOutJson, restoreJsonLayout, storedFormOf } from './json-layout.js';
import { sha256Hex } from './sha256-hex.js';

/** One-line JSON texts: compact, or with the blanks of a pretty print turned into spaces, tabs or CRs. */
const oneLine = fc
  .tuple(
    fc.oneof(
      fc.array(fc.jsonValue(), { maxLength: 6 }),
      fc.dictionary(fc.string(), fc.jsonValue()),
    ),
    fc.constantFrom('', ' ', '\t', '\r', ' \r\t '),
    fc.constantFrom('', ' ', '\n', ' \n\n'),
  )
  .map(([value, blank, around]) =>
    blank === ''
      ? `${around}${JSON.stringify(value)}${around}`
      : `${around}${JSON.stringify(value, null, 1).replace(/\n/g, blank)}${around}`,
  );

describe('layOutJson', () => {
  it('puts one value on a line and restores the original byte for byte (property)', () => {
    fc.assert(
      fc.property(oneLine, (text) => {
        const laidOut = layOutJson(text);
        const value = JSON.parse(text);
        if (laidOut === undefined) {
          // Only a container with nothing in it is left alone.
          expect(JSON.stringify(value)).toMatch(/^(\{\}|\[\])$/);
          return;
        }
        expect(restoreJsonLayout(laidOut)).toBe(text);
        expect(JSON.parse(laidOut)).toEqual(value);
        // Each line holds at most one scalar (a key and its value count as one).
        for (const line of laidOut.trim().split('\n')) {
          expect(
            line
              .replace(/"(?:[^"\\]|\\.)*"\s*:/g, '')
              .match(/"(?:[^"\\]|\\.)*"|-?\d[\d.eE+-]*|true|false|null/g)?.length ?? 0,
          ).toBeLessThanOrEqual(1);
        }
      }),
      { numRuns: 400 },
    );
  });

  it('keeps numbers, escapes and whitespace as written', () => {
    const text =
      '{"id":12345678901234567890123, "f":1.50E+3,"s":"a\\"b\\\\c\\u00e9\\n","e":[],"o":{ },"n":[ null ,true]}\n';
    const laidOut = layOutJson(text)!;
    expect(laidOut).toBe(
      '{\n  "id":12345678901234567890123, \n  "f":1.50E+3,\n  "s":"a\\"b\\\\c\\u00e9\\n",\n  "e":[],\n  "o":{ },\n  "n":[ \n    null ,\n    true\n  ]\n}\n',
    );
    expect(restoreJsonLayout(laidOut)).toBe(text);
  });

  it('refuses what is not one whole JSON object or array on one line', () => {
    for (const text of [
      '',
      '42',
      '"a string"',
      'null',
      '{}',
      '[ ]',
      '{"a":1}{"b":2}',
      '{"a":1} trailing',
      '[1,]',
      '[1 2]',
      '{"a"}',
      '{"a":}',
      '{a:1}',
      '[01]',
      '[1.]',
      '["tab\there"]',
      '["bad \\x escape"]',
      '[tru]',
      '{"a":[1,2}',
      '[1,\n2]',
      '\ufeff[1,2]',
      '[1,2',
    ]) {
      expect(layOutJson(text), JSON.stringify(text)).toBeUndefined();
    }
  });

  it('never lays out text JSON.parse refuses (property)', () => {
    const mangled = fc
      .tuple(oneLine, fc.nat(), fc.string({ maxLength: 3 }))
      .map(([text, at, insert]) => {
        const cut = at % (text.length + 1);
        return text.slice(0, cut) + insert + text.slice(cut + (at % 3));
      });
    fc.assert(
      fc.property(fc.oneof(mangled, fc.string()), (text) => {
        const laidOut = layOutJson(text);
        if (laidOut === undefined) return;
        expect(() => JSON.parse(text)).not.toThrow();
        expect(restoreJsonLayout(laidOut)).toBe(text);
      }),
      { numRuns: 1000 },
    );
  });

  it('caps the indentation of deep nesting, and restores it all the same', () => {
    const text = `${'['.repeat(200)}1${']'.repeat(200)}`;
    const laidOut = layOutJson(text)!;
    expect(Math.max(...laidOut.split('\n').map((line) => line.length))).toBeLessThanOrEqual(33);
    expect(restoreJsonLayout(laidOut)).toBe(text);
  });
});

describe('storedFormOf', () => {
  it('says how the stored text was laid out and what the original hashes to', () => {
    const text = '{"a":[1,2,3],"b":"x"}';
    expect(storedFormOf(text)).toEqual({
      text: '{\n  "a":[\n    1,\n    2,\n    3\n  ],\n  "b":"x"\n}',
      original: { layout: 'json-lines', digest: sha256Hex(text), bytes: Buffer.byteLength(text) },
    });
    expect(storedFormOf('plain log line\n')).toEqual({ text: 'plain log line\n' });
  });
});
