import { InvalidArgumentError } from '@compaction/core';
import { DEFAULT_VOCABULARY, type Vocabulary } from './vocabulary.js';

/**
 * Word sets that replace the trimmer's own (`DEFAULT_VOCABULARY`), each as a whole: to add a
 * word, spread the default (`[...DEFAULT_VOCABULARY.errorWords, 'panicked']`); to switch key-name
 * hints off, give empty sets (`{ identityWords: {}, stateWords: [], timeKeyWords: [] }`). Words
 * are matched lower-cased.
 */
export interface VocabularyOverride {
  identityWords?: Readonly<Record<string, number>>;
  stateWords?: Iterable<string>;
  codeOf?: Iterable<string>;
  timeKeyWords?: Iterable<string>;
  timeQuestionWords?: Iterable<string>;
  countWords?: Iterable<string>;
  newestWords?: Iterable<string>;
  oldestWords?: Iterable<string>;
  afterWords?: Iterable<string>;
  beforeWords?: Iterable<string>;
  stopwords?: Iterable<string>;
  /**
   * Error-like words found in values: ASCII letters and digits, with single spaces or hyphens
   * between (`exit code`, `out-of-memory`), starting with a letter, at least two characters.
   */
  errorWords?: Iterable<string>;
}

const SET_NAMES = [
  'stateWords',
  'codeOf',
  'timeKeyWords',
  'timeQuestionWords',
  'countWords',
  'newestWords',
  'oldestWords',
  'afterWords',
  'beforeWords',
  'stopwords',
] as const;

/** An error word the scans can find: they compare ASCII case-insensitively, letter first. */
const ERROR_WORD = /^[a-z][a-z0-9]*(?:[ -][a-z0-9]+)*$/;

function invalid(argument: string, message: string): never {
  throw new InvalidArgumentError({ argument: `vocabulary.${argument}`, message });
}

/** The words of `value`, lower-cased, each a non-empty string, or a clear error. */
function wordsOf(name: string, value: unknown): string[] {
  if (typeof value === 'string' || value === null || typeof value !== 'object') {
    invalid(name, `vocabulary.${name} must be an array (or other iterable) of strings`);
  }
  if (!(Symbol.iterator in value)) {
    invalid(name, `vocabulary.${name} must be an array (or other iterable) of strings`);
  }
  const words: string[] = [];
  for (const word of value as Iterable<unknown>) {
    if (typeof word !== 'string' || word.trim() === '') {
      invalid(name, `vocabulary.${name} holds ${JSON.stringify(word)}, not a word`);
    }
    words.push(word.trim().toLowerCase());
  }
  return words;
}

/**
 * The vocabulary `override` makes, checked once (at `createStructuralTrimmer`): every set it
 * gives replaces the default one, the others stay. `DEFAULT_VOCABULARY` itself when it gives
 * none.
 */
export function resolveVocabulary(override: VocabularyOverride | undefined): Vocabulary {
  if (override === undefined) return DEFAULT_VOCABULARY;
  if (override === null || typeof override !== 'object' || Array.isArray(override)) {
    invalid('', 'vocabulary must be an object of word sets');
  }
  const known = new Set<string>(['identityWords', 'errorWords', ...SET_NAMES]);
  for (const key of Object.keys(override)) {
    if (!known.has(key)) {
      invalid(key, `vocabulary has no word set '${key}' (known: ${[...known].join(', ')})`);
    }
  }
  const resolved: Record<string, unknown> = { ...DEFAULT_VOCABULARY };
  for (const name of SET_NAMES) {
    const value = override[name];
    if (value !== undefined) resolved[name] = new Set(wordsOf(name, value));
  }
  if (override.identityWords !== undefined) {
    const weights = override.identityWords;
    if (weights === null || typeof weights !== 'object' || Array.isArray(weights)) {
      invalid('identityWords', 'vocabulary.identityWords must be an object of word: weight');
    }
    const identityWords: Record<string, number> = Object.create(null);
    for (const [word, weight] of Object.entries(weights)) {
      if (!(typeof weight === 'number' && Number.isFinite(weight) && weight >= 0)) {
        invalid('identityWords', `vocabulary.identityWords.${word} must be a number ≥ 0`);
      }
      identityWords[word.trim().toLowerCase()] = weight;
    }
    resolved.identityWords = Object.freeze(identityWords);
  }
  if (override.errorWords !== undefined) {
    const errorWords = [...new Set(wordsOf('errorWords', override.errorWords))];
    for (const word of errorWords) {
      if (word.length < 2 || !ERROR_WORD.test(word)) {
        invalid(
          'errorWords',
          `vocabulary.errorWords holds '${word}': ASCII letters and digits, a letter first, single spaces or hyphens between, two characters at least`,
        );
      }
    }
    resolved.errorWords = Object.freeze(errorWords);
  }
  return Object.freeze(resolved) as unknown as Vocabulary;
}
