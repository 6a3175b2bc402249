import { DEFAULT_VOCABULARY, type Vocabulary } from '../vocabulary.js';

/** The lower-case words of a key: `exitCode` → exit, code; `f:restartPolicy` → f, restart, policy. */
export function keyWords(key: string): string[] {
  return key
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .replace(/([A-Z]+)([A-Z][a-z])/g, '$1 $2')
    .toLowerCase()
    .split(/[^a-z0-9]+/)
    .filter((word) => word.length > 0);
}

/** What the words of a key suggest, cached per key text. */
export interface KeyHints {
  identity: number;
  /** The identity word that gives `identity` (`name`, `id`…), '' when none. */
  identityWord: string;
  /** The key reads as a state (`status`, `phase`, `exitCode`…). */
  state: boolean;
}

/**
 * Hints by key text per vocabulary, kept across calls: the same documents' keys come back trim
 * after trim, and splitting a key into words costs more than the rest of its signature's
 * analysis. Bounded, as keys are data: emptied when full.
 */
const KEY_HINTS = new WeakMap<Vocabulary, Map<string, KeyHints>>();
const KEY_HINTS_MAX = 8192;

export function keyHints(key: string, vocabulary: Vocabulary = DEFAULT_VOCABULARY): KeyHints {
  let cache = KEY_HINTS.get(vocabulary);
  if (!cache) {
    cache = new Map();
    KEY_HINTS.set(vocabulary, cache);
  }
  const { identityWords, stateWords, codeOf } = vocabulary;
  let hints = cache.get(key);
  if (!hints) {
    const words = keyWords(key);
    // A key that is the word itself says more than one that merely ends in it.
    let identity = 0;
    let identityWord = '';
    words.forEach((word, i) => {
      const weight = Object.hasOwn(identityWords, word) ? identityWords[word]! : 0;
      const share = words.length === 1 ? 1 : i === words.length - 1 ? 0.6 : 0.4;
      if (weight * share > identity) {
        identity = weight * share;
        identityWord = word;
      }
    });
    // The last word says what a key holds: `exitCode` and `health_status` are states,
    // `in_reply_to_status_id` and `readyReplicas` are not. A code is one after a word that
    // says which (`exit`, `status`, `error`, `response`…) or alone, not a `language_code`.
    const last = words[words.length - 1];
    const before = words[words.length - 2];
    const state =
      last !== undefined &&
      stateWords.has(last) &&
      (last !== 'code' || before === undefined || stateWords.has(before) || codeOf.has(before));
    hints = { identity, identityWord, state };
    if (cache.size >= KEY_HINTS_MAX) cache.clear();
    cache.set(key, hints);
  }
  return hints;
}

/** Whether a key's words say it holds a time (`created_at`, `ts`, `lastSeen`). */
export function timeLikeKey(key: string, vocabulary: Vocabulary = DEFAULT_VOCABULARY): boolean {
  return keyWords(key).some((word) => vocabulary.timeKeyWords.has(word));
}
