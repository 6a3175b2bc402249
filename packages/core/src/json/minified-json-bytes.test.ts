import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { utf8ByteLength } from '../utf8.js';
import { fitsWhole, minifiedJsonBytes } from './minified-json-bytes.js';
import { jsonPair } from './test-support/json-text-arbitraries.js';

describe('minifiedJsonBytes / fitsWhole', () => {
  it('is the size of the minified document, token text kept (property)', () => {
    fc.assert(
      fc.property(jsonPair, ({ minified, pretty }) => {
        expect(minifiedJsonBytes(pretty)).toBe(utf8ByteLength(minified));
      }),
      { numRuns: 1000 },
    );
  });

  it('keeps escapes and whitespace inside strings, ignores a byte-order mark, refuses non-JSON', () => {
    expect(minifiedJsonBytes('\uFEFF{ "a b" : "\\u00e9 \\"x\\" " }')).toBe(
      utf8ByteLength('{"a b":"\\u00e9 \\"x\\" "}'),
    );
    expect(minifiedJsonBytes('not json')).toBeUndefined();
    expect(minifiedJsonBytes('{"a":1')).toBeUndefined();
  });

  it('fits a text that fits as it is or once minified, and nothing else', () => {
    const pretty = JSON.stringify(
      { items: Array.from({ length: 50 }, (_, i) => ({ i })) },
      null,
      2,
    );
    const minified = utf8ByteLength(JSON.stringify(JSON.parse(pretty)));
    expect(fitsWhole(pretty, minified)).toBe(true);
    expect(fitsWhole(pretty, minified - 1)).toBe(false);
    expect(fitsWhole('plain text', 10)).toBe(true);
    expect(fitsWhole('plain text here', 10)).toBe(false);
  });
});
