import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { isNdjson } from './is-ndjson.js';

describe('isNdjson', () => {
  it('takes lines that each parse as an object or an array', () => {
    expect(isNdjson('{"level":30,"msg":"ok"}\n{"level":50,"msg":"failed"}\n')).toBe(true);
    expect(isNdjson('[1,2]\n\n  [3]\n')).toBe(true);
  });

  it('refuses a log whose lines open with a bracket, a single record and plain lines', () => {
    expect(isNdjson('[Sun Dec 04 04:47:44 2005] [notice] ok\n[Sun Dec 04] [error] x\n')).toBe(
      false,
    );
    expect(isNdjson('{"only":"one"}')).toBe(false);
    expect(isNdjson('{"a":1}\nstdout:\n{"b":2}')).toBe(false);
    // U+2028 and a lone CR end a line as a newline does (a JSON string may hold U+2028).
    expect(isNdjson('{"a":"\u2028x"}\n{"b":2}\n')).toBe(false);
  });

  it('answers as parsing every sampled line would', () => {
    const byParsing = (text: string) => {
      const lines = text
        .split('\n')
        .map((line) => line.trim())
        .filter((line) => line !== '')
        .slice(0, 64);
      if (/^[ \t]*[^\s{[]/m.test(text)) return false;
      for (const line of lines) {
        try {
          JSON.parse(line);
        } catch {
          return false;
        }
      }
      return lines.length >= 2;
    };
    const piece = fc.constantFrom('"a"', ...'{}[]:1, \nx\t\r\u2028\u00a0');
    fc.assert(
      fc.property(fc.array(piece, { maxLength: 16 }), (pieces) => {
        const text = pieces.join('');
        expect(isNdjson(text)).toBe(byParsing(text));
      }),
      { numRuns: 3000 },
    );
  });
});
