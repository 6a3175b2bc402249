import { InvalidArgumentError } from '@compaction/core';
import { DEFAULT_VOCABULARY, LEVEL_NAMES, type LevelName, type Vocabulary } from './vocabulary.js';

/**
 * Word sets that replace the trimmer's own (`DEFAULT_VOCABULARY`), each as a whole and each as
 * `Vocabulary` says (a set or list as any iterable of strings): to add a word, spread the default
 * (`[...DEFAULT_VOCABULARY.errorWords, 'panicked']`); to switch key-name hints off, give empty
 * sets (`{ identityWords: {}, stateWords: [], timeKeyWords: [] }`).
 */
export type VocabularyOverride = {
  -readonly [K in keyof Vocabulary]?: Vocabulary[K] extends Readonly<Record<string, unknown>>
    ? Vocabulary[K]
    : Iterable<string>;
};

/** Sets of any non-blank words, matched lower-cased. */
const SET_NAMES = `stateWords codeOf timeKeyWords timeQuestionWords countWords newestWords
  oldestWords afterWords beforeWords stopwords`.split(/\s+/) as (keyof VocabularyOverride)[];

/** Sets of words the line scan finds as whole words: `[a-z0-9_]` only. */
const LINE_WORD_SETS = [
  'levelKeys',
  'exitWords',
  'exitFillers',
  'alertWords',
  'statusProtocols',
] as const;
/** Lists matched as written, case kept. */
const PHRASE_LISTS = ['exceptionSuffixes', 'exceptionOpeners', 'continuationOpeners'] as const;
/** Maps of a word, letter or mark to a level. */
const LEVEL_MAPS = ['levelWords', 'levelLetters', 'levelMarks'] as const;
/** What a word must be, and how an error says it. */
type Rule = [RegExp, string];
/** A word the line scan finds whole (a level word too). */
const LINE_WORD: Rule = [/^[a-z0-9_]{1,64}$/, 'ASCII letters, digits and _, at most 64'];
/** What each key of a level map must be. */
const LEVEL_KEY_RULES: Record<(typeof LEVEL_MAPS)[number], Rule> = {
  levelWords: LINE_WORD,
  levelLetters: [/^[A-Z]$/, 'one ASCII letter'],
  levelMarks: [/^[^\u0000-\u007f\ud800-\udfff]$/, 'one character outside ASCII'],
};
/** An error word the scans can find: they compare ASCII case-insensitively, letter first. */
const ERROR_WORD: Rule = [
  /^(?=..)[a-z][a-z0-9]*(?:[ -][a-z0-9]+)*$/,
  'ASCII letters and digits, a letter first, single spaces or hyphens between, two characters at least',
];
/** An exception name's suffix, matched as written. */
const SUFFIX: Rule = [/^[A-Za-z0-9_]+$/, 'ASCII letters, digits and _'];

function invalid(argument: string, message: string): never {
  throw new InvalidArgumentError({ argument: `vocabulary.${argument}`, message });
}

/** The items of `value`, an iterable other than a string, or a clear error. */
function itemsOf(name: string, value: unknown): Iterable<unknown> {
  if (typeof value !== 'object' || value === null || !(Symbol.iterator in value)) {
    invalid(name, `vocabulary.${name} must be an array (or other iterable) of strings`);
  }
  return value as Iterable<unknown>;
}

/** The words of `value`, lower-cased, each a non-empty string, or a clear error. */
function wordsOf(name: string, value: unknown): string[] {
  const words: string[] = [];
  for (const word of itemsOf(name, value)) {
    if (typeof word !== 'string' || word.trim() === '') {
      invalid(name, `vocabulary.${name} holds ${JSON.stringify(word)}, not a word`);
    }
    words.push(word.trim().toLowerCase());
  }
  return words;
}

/** The phrases of `value` as written (case kept), each non-empty and on one line. */
function phrasesOf(name: string, value: unknown): string[] {
  const phrases: string[] = [];
  for (const phrase of itemsOf(name, value)) {
    if (typeof phrase !== 'string' || phrase === '' || /[\r\n]/.test(phrase)) {
      invalid(name, `vocabulary.${name} holds ${JSON.stringify(phrase)}, not a phrase on one line`);
    }
    phrases.push(phrase);
  }
  return [...new Set(phrases)];
}

/** `words`, each checked against `rule`. */
function checked(name: string, words: string[], [pattern, told]: Rule): string[] {
  for (const word of words) {
    if (!pattern.test(word)) invalid(name, `vocabulary.${name} holds '${word}': ${told}`);
  }
  return words;
}

/** The entries of `value`, an object other than an array, or a clear error naming `what`. */
function entriesOf(name: string, value: unknown, what: string): [string, unknown][] {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) {
    invalid(name, `vocabulary.${name} must be an object of ${what}`);
  }
  return Object.entries(value as Record<string, unknown>);
}

/** A map of words, letters or marks to levels, checked: each key by its rule, each level known. */
function levelMap(
  name: (typeof LEVEL_MAPS)[number],
  value: unknown,
): Readonly<Record<string, LevelName>> {
  const [rule, told] = LEVEL_KEY_RULES[name];
  const map: Record<string, LevelName> = Object.create(null);
  for (const [rawKey, level] of entriesOf(name, value, 'word: level')) {
    const key = name === 'levelWords' ? rawKey.trim().toLowerCase() : rawKey;
    if (!rule.test(key)) invalid(name, `vocabulary.${name} holds '${rawKey}': ${told}`);
    if (!(LEVEL_NAMES as readonly unknown[]).includes(level)) {
      invalid(name, `vocabulary.${name}.${rawKey} must be one of ${LEVEL_NAMES.join(', ')}`);
    }
    map[key] = level as LevelName;
  }
  return Object.freeze(map);
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
  // The word sets an override may give are those of the vocabulary itself.
  for (const key of Object.keys(override)) {
    if (!Object.hasOwn(DEFAULT_VOCABULARY, key)) {
      const known = Object.keys(DEFAULT_VOCABULARY).join(', ');
      invalid(key, `vocabulary has no word set '${key}' (known: ${known})`);
    }
  }
  const resolved: Record<string, unknown> = { ...DEFAULT_VOCABULARY };
  for (const name of SET_NAMES) {
    const value = override[name];
    if (value !== undefined) resolved[name] = new Set(wordsOf(name, value));
  }
  const weights = override.identityWords;
  if (weights !== undefined) {
    const identityWords: Record<string, number> = Object.create(null);
    for (const [word, weight] of entriesOf('identityWords', weights, 'word: weight')) {
      if (!(typeof weight === 'number' && Number.isFinite(weight) && weight >= 0)) {
        invalid('identityWords', `vocabulary.identityWords.${word} must be a number ≥ 0`);
      }
      identityWords[word.trim().toLowerCase()] = weight;
    }
    resolved.identityWords = Object.freeze(identityWords);
  }
  if (override.errorWords !== undefined) {
    const words = [...new Set(wordsOf('errorWords', override.errorWords))];
    resolved.errorWords = Object.freeze(checked('errorWords', words, ERROR_WORD));
  }
  for (const name of LINE_WORD_SETS) {
    const value = override[name];
    if (value === undefined) continue;
    resolved[name] = new Set(checked(name, wordsOf(name, value), LINE_WORD));
  }
  for (const name of PHRASE_LISTS) {
    const value = override[name];
    if (value === undefined) continue;
    const phrases = phrasesOf(name, value);
    resolved[name] = Object.freeze(
      name === 'exceptionSuffixes' ? checked(name, phrases, SUFFIX) : phrases,
    );
  }
  for (const name of LEVEL_MAPS) {
    const value = override[name];
    if (value !== undefined) resolved[name] = levelMap(name, value);
  }
  return Object.freeze(resolved) as unknown as Vocabulary;
}
