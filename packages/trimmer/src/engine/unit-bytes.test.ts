import { utf8ByteLength } from '@compaction/core';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { unitBytes } from './unit-bytes.js';

describe('unitBytes', () => {
  it("counts each unit's UTF-8 bytes as its slice of the text measures", () => {
    const piece = fc.constantFrom(
      'a',
      ' ',
      '\n',
      '\r\n',
      'é',
      '€',
      '😀',
      '\ud800',
      '\udc00',
      '\x1b',
      'ascii only, longer than eight units',
    );
    fc.assert(
      fc.property(
        fc.array(piece, { minLength: 1, maxLength: 40 }),
        fc.uniqueArray(fc.nat(400), { minLength: 1, maxLength: 12 }),
        fc.boolean(),
        (pieces, cuts, offset) => {
          const text = pieces.join('');
          // Units at an odd offset too, as no 32-bit word holds two of them.
          const buffer = new Uint16Array(text.length + (offset ? 1 : 0));
          const units = buffer.subarray(offset ? 1 : 0);
          for (let i = 0; i < text.length; i++) units[i] = text.charCodeAt(i);
          // Any cuts, a surrogate pair's halves apart included.
          const starts = cuts.filter((cut) => cut < text.length).sort((a, b) => a - b);
          const bytes = unitBytes(text, units, starts, false);
          starts.forEach((from, u) => {
            expect(bytes[u]).toBe(utf8ByteLength(text.slice(from, starts[u + 1] ?? text.length)));
          });
        },
      ),
      { numRuns: 2000 },
    );
  });

  it('takes every unit of an ASCII text as a byte', () => {
    const text = 'GET /a 200\nGET /b 404\n';
    const units = Uint16Array.from({ length: text.length }, (_, i) => text.charCodeAt(i));
    expect([...unitBytes(text, units, [0, 11], true)]).toEqual([11, 11]);
  });
});
