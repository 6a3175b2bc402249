import { utf8ByteLength } from '@compaction/core';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { jsonStringWithin } from './json-string-within.js';

describe('jsonStringWithin', () => {
  it('fits a JSON string literal to a byte limit', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'binary' }), fc.integer({ min: 2, max: 50 }), (text, max) => {
        const literal = jsonStringWithin(text, max);
        expect(utf8ByteLength(literal)).toBeLessThanOrEqual(max);
        expect(text.startsWith(JSON.parse(literal))).toBe(true);
        // Longest: one more code point would not fit.
        const kept = JSON.parse(literal) as string;
        if (kept.length < text.length) {
          const code = text.charCodeAt(kept.length);
          const step = code >= 0xd800 && code <= 0xdbff && text.length > kept.length + 1 ? 2 : 1;
          const longer = JSON.stringify(text.slice(0, kept.length + step));
          expect(utf8ByteLength(longer)).toBeGreaterThan(max);
        }
      }),
    );
  });

  it('escapes quotes, control characters and lone surrogates within the limit', () => {
    expect(jsonStringWithin('a"b', 5)).toBe('"a\\""');
    expect(jsonStringWithin('a"b', 4)).toBe('"a"');
    expect(jsonStringWithin('\ud800\ud800', 8)).toBe('"\\ud800"');
    expect(jsonStringWithin('anything', 1)).toBe('""');
  });
});
