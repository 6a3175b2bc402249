import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { escapeRegExp } from '../escape-reg-exp.js';
import { DEFAULT_VOCABULARY } from '../vocabulary.js';
import { factoredAlternation } from './factored-alternation.js';

/** Every match of `source` in `text` (flags `gi`), as the scan in `findHits` steps through them. */
function matches(source: string, text: string): string[] {
  const pattern = new RegExp(source, 'gi');
  const found: string[] = [];
  for (let match = pattern.exec(text); match; match = pattern.exec(text)) {
    found.push(`${match.index}:${match[0]}`);
    if (match[0].length === 0) pattern.lastIndex++;
  }
  return found;
}

describe('factoredAlternation', () => {
  it('groups words by their shared openings, in order', () => {
    expect(factoredAlternation(['failed', 'failure', 'fatal'])).toBe('fa(?:il(?:ed|ure)|tal)');
    expect(factoredAlternation(['back', 'backoff'])).toBe('back');
    expect(factoredAlternation(['backoff', 'back'])).toBe('back(?:off|)');
    expect(factoredAlternation(['a.b', 'A(c'])).toBe('a(?:\\.b|\\(c)');
  });

  it('matches what the plain alternation matches, place by place', () => {
    const unit = fc.constantFrom('a', 'A', 'b', 'B', 'c', ' ', '.', '(', '|', '-');
    const word = fc.array(unit, { minLength: 1, maxLength: 4 }).map((units) => units.join(''));
    const text = fc
      .array(fc.oneof(unit, fc.constantFrom('\n', 'é', 'ſ', 'K', 'ab', 'AB')), { maxLength: 40 })
      .map((units) => units.join(''));
    fc.assert(
      fc.property(fc.array(word, { minLength: 1, maxLength: 8 }), text, (words, haystack) => {
        const plain = words.map(escapeRegExp).join('|');
        expect(matches(factoredAlternation(words), haystack)).toEqual(matches(plain, haystack));
      }),
      { numRuns: 3000 },
    );
  });

  it('matches what the plain alternation of the error words matches', () => {
    const words = DEFAULT_VOCABULARY.errorWords;
    const text = 'Error: exit code 3, exit status 0; FAILURE failed fatal CrashLoopBackOff backoff';
    expect(matches(factoredAlternation(words), text)).toEqual(
      matches(words.map(escapeRegExp).join('|'), text),
    );
  });
});
