import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { compileSearchPattern } from './search-pattern.js';

// Lines never hold '\n' (the search splits on it, and a CRLF's '\r' is not part of the line).
// Within a line the intended meaning of a regex is RE2's, which is JavaScript's with the `s`
// and `u` flags: `.` is any code point (a lone '\r' and U+2028 included, never half of a
// surrogate pair), classes and quantifiers apply to whole code points. Plain `RegExp` without
// `u` differs on emoji (`.` takes one UTF-16 unit) and, without `s`, on '\r' and U+2028; those
// differences are RE2 being right for a search, not a bug. One more is RE2's own: `\s` is ASCII
// whitespace (`[\t\n\f\r ]`), where JavaScript's also takes U+2028 and other Unicode spaces.
// Positions are UTF-16 indexes, the unit the columns of artifact_search and artifact_read
// count in.
const LINE_CHARS = ['a', 'b', 'x', ' ', '\r', '\u2028', '😀', 'é', 'É', '\t'];
const PATTERNS = ['a.b', '.', '😀.', '.x', '^.+$', '[^a]+', 'a|😀', '\\s+', 'x$', '^😀', '[😀é]+'];

function jsFind(pattern: string, line: string, from: number, ignoreCase: boolean) {
  const re = new RegExp(
    pattern.replaceAll('\\s', '[\\t\\n\\f\\r ]'),
    `gsu${ignoreCase ? 'i' : ''}`,
  );
  re.lastIndex = from;
  const match = re.exec(line);
  return match ? { start: match.index, end: match.index + match[0].length } : undefined;
}

describe('compileSearchPattern on lines with \\r and emoji', () => {
  it('finds what JavaScript finds with the s and u flags, at the same UTF-16 positions (property)', () => {
    fc.assert(
      fc.property(
        fc.array(fc.constantFrom(...LINE_CHARS), { maxLength: 24 }).map((chars) => chars.join('')),
        fc.constantFrom(...PATTERNS),
        fc.boolean(),
        (line, pattern, caseSensitive) => {
          const matcher = compileSearchPattern(pattern, { regex: true, caseSensitive });
          expect(matcher.find(line, 0)).toEqual(jsFind(pattern, line, 0, !caseSensitive));
        },
      ),
      { numRuns: 2000 },
    );
  });

  it('never starts or ends a match inside a surrogate pair, regex or literal', () => {
    const line = '😀😀x end 😀';
    expect(compileSearchPattern('.x', { regex: true }).find(line, 0)).toEqual({ start: 2, end: 5 });
    expect(compileSearchPattern('^.', { regex: true }).find(line, 0)).toEqual({ start: 0, end: 2 });
    expect(compileSearchPattern('😀', {}).find(line, 1)).toEqual({ start: 2, end: 4 });
    // Plain RegExp without `u` would match half an emoji here; RE2 does not.
    expect(/^./.exec(line)![0]).toBe('\ud83d');
  });

  it('takes \\s as ASCII whitespace, as RE2 does', () => {
    expect(compileSearchPattern('\\s', { regex: true }).find('a\u2028b', 0)).toBe(undefined);
    expect(compileSearchPattern('\\s', { regex: true }).find('a\rb', 0)).toEqual({
      start: 1,
      end: 2,
    });
    expect(/\s/.test('\u2028')).toBe(true);
  });

  it('lets `.` match a lone carriage return inside a line, as RE2 does', () => {
    expect(compileSearchPattern('a.b', { regex: true }).find('a\rb', 0)).toEqual({
      start: 0,
      end: 3,
    });
    expect(/a.b/.test('a\rb')).toBe(false);
  });
});
