import { describe, expect, it } from 'vitest';
import { findHits, relevanceTerms } from '../engine/relevance.js';
import { collectErrorWords, errorMatcher } from '../json/json-inventory.js';
import { DEFAULT_VOCABULARY } from '../vocabulary.js';
import { failedExitStatus, isExitPhrase } from './exit-status.js';
import { detectLevel, LEVEL_ERROR, levelOf } from './line-level.js';
import { withTextUnits } from './text-units.js';

const FAILED = [
  'exit code 137',
  'exit code: 2',
  'exit code (2)',
  'exit status 1',
  'Exit Code=3',
  'exit code -1',
];
const FINE = ['exit code 0', 'exit code 000', 'exit code was ok', 'exit code', 'exit status: none'];

/** What each reader makes of `phrase`: the line scan, the JSON scan and the relevance scan. */
function verdicts(phrase: string): boolean[] {
  const line = `job 7 finished, ${phrase}`;
  const level = withTextUnits(line, (units) =>
    levelOf(detectLevel(units, line, 0, line.length, new Map())),
  );
  const json = JSON.stringify({ message: line });
  const at: number[] = [];
  const word: number[] = [];
  collectErrorWords(json, json, 0, false, false, at, word, 0, errorMatcher(DEFAULT_VOCABULARY));
  const terms = relevanceTerms({ words: [], preserveKeys: [], json: false });
  const hits = findHits(line, terms, 1);
  return [level === LEVEL_ERROR, at.length > 0, hits.positions.length > 0];
}

describe('the one non-zero-exit rule', () => {
  it('reads a failed status past blanks, punctuation and filler words', () => {
    for (const phrase of FAILED) {
      const after = phrase.replace(/^exit/i, '').length;
      expect(
        failedExitStatus(
          phrase,
          phrase.length - after,
          phrase.length,
          DEFAULT_VOCABULARY.exitFillers,
        ),
      ).toBe(true);
    }
    expect(failedExitStatus(' with status 2', 0, 14, DEFAULT_VOCABULARY.exitFillers)).toBe(true);
    for (const phrase of FINE) {
      expect(failedExitStatus(phrase, 4, phrase.length, DEFAULT_VOCABULARY.exitFillers)).toBe(
        false,
      );
    }
  });

  it('is the same rule in a log line, a JSON value and the relevance scan', () => {
    for (const phrase of FAILED) expect(verdicts(phrase)).toEqual([true, true, true]);
    for (const phrase of FINE) expect(verdicts(phrase)).toEqual([false, false, false]);
  });

  it('knows an exit phrase by its first word', () => {
    expect(isExitPhrase('exit code', DEFAULT_VOCABULARY.exitWords)).toBe(true);
    expect(isExitPhrase('exit status', DEFAULT_VOCABULARY.exitWords)).toBe(true);
    expect(isExitPhrase('timed out', DEFAULT_VOCABULARY.exitWords)).toBe(false);
    expect(isExitPhrase('exit code', new Set())).toBe(false);
  });
});
