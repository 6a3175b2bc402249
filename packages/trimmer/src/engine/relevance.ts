import type { JsonTapeWordSearch, ResultProcessorContext } from '@compaction/core';
import { escapeRegExp } from '../escape-reg-exp.js';
import type { ErrorVocabulary } from '../json/json-inventory.js';
import { isAsciiDigit, isAsciiLetter, isAsciiWordCode } from '../readers/ascii-class.js';
import { failedExitStatus, isExitPhrase } from '../readers/exit-status.js';
import { isLetterOrDigit, isUnspacedScript } from '../readers/unicode-class.js';
import { DEFAULT_VOCABULARY } from '../vocabulary.js';
import { factoredAlternation } from './factored-alternation.js';
import { lowerBound } from './lower-bound.js';

/** One pattern the relevance scan looks for. */
export interface RelevanceTerm {
  /** Where the term comes from; each kind weighs differently. */
  kind: 'query' | 'key' | 'error';
  /** Regular-expression source (already escaped), matched case-insensitively. */
  source: string;
  /**
   * The match must be a whole token: no letter, digit or underscore right before or after it
   * (`state` does not match inside `alertstate`, `restart` not inside `restartPolicy`). Text in a
   * script written without spaces (CJK) is not held to it. Default false.
   */
  wholeToken?: boolean;
  /** The question word a `query` term looks for. */
  word?: string;
  /**
   * An exit phrase (`exit code`) is found only with a failed status after it
   * (`failedExitStatus`): the words that may stand between.
   */
  exitFillers?: ReadonlySet<string>;
  /**
   * Text every match starts with, in any case (a query word, a quoted key), so that a word
   * search can find where matches may start without running the pattern; none when unknown.
   */
  prefix?: string;
  /**
   * With `prefix`: the pattern matches exactly the prefix followed by the first of these texts
   * (in any case) found right after it, so that a match is told without running the pattern;
   * none when the pattern is not of that form.
   */
  suffixes?: readonly string[];
}

/** Matches of the relevance terms, in text order. */
export interface RelevanceHits {
  /** Offset of each match. */
  positions: number[];
  /** Index into `terms` of each match. */
  termOf: number[];
  /** Weight of each term (rarer terms weigh more). */
  weights: number[];
  terms: readonly RelevanceTerm[];
  /** Some query or preserved-key term matched (error terms alone do not count). */
  queryMatched: boolean;
}

const ASCII_LETTERS = /^[a-z]+$/;
const MAX_TERMS = 32;
/** Units of a query token kept (see `tokenCut`), and of the words looked for in all. */
const MAX_TOKEN_UNITS = 128;
const MAX_QUERY_UNITS = 512;

/** Whether `codePoint` may start or end a query token: a letter, a digit or `_`. */
function isTokenEdge(codePoint: number): boolean {
  return codePoint === 0x5f || isLetterOrDigit(codePoint);
}

/** Also inside a query token: `.:/@#+-` (`v1.2`, `ns/pod`, `a@b`, `c++`, `x-y`). */
const TOKEN_INSIDE = [0x2e, 0x3a, 0x2f, 0x40, 0x23, 0x2b, 0x2d];

/**
 * The tokens of a query, in order: a letter, digit or `_`, then any of those or `.:/@#+-`,
 * ending in a letter, digit or `_`; or a single letter or digit. (The matches of
 * `/[\p{L}\p{N}_][\p{L}\p{N}_.:/@#+-]*[\p{L}\p{N}_]|[\p{L}\p{N}]/gu`, found without one: see
 * `unicode-class.ts` for why.)
 */
export function queryTokens(text: string): string[] {
  const tokens: string[] = [];
  let i = 0;
  while (i < text.length) {
    const first = text.codePointAt(i)!;
    const firstEnd = i + (first > 0xffff ? 2 : 1);
    if (!isTokenEdge(first)) {
      i = firstEnd;
      continue;
    }
    // The longest run of inside characters, ended at its last edge character (a lone `_` is none).
    let end = first === 0x5f ? -1 : firstEnd;
    let j = firstEnd;
    while (j < text.length) {
      const c = text.codePointAt(j)!;
      if (!isTokenEdge(c) && !TOKEN_INSIDE.includes(c)) break;
      j += c > 0xffff ? 2 : 1;
      if (isTokenEdge(c)) end = j;
    }
    if (end < 0) {
      i = firstEnd;
      continue;
    }
    tokens.push(text.slice(i, tokenCut(text, i, end)));
    i = end;
  }
  return tokens;
}

/**
 * Where the token `text[from, end)` is cut: after its first `MAX_TOKEN_UNITS` units (not
 * inside a surrogate pair). A scan for a word costs up to its length at every place of the
 * text, so a 16 000-character word over 300 KB ran 15 s; its first 128 units find the same
 * places, as specifically as any real word does.
 */
function tokenCut(text: string, from: number, end: number): number {
  if (end - from <= MAX_TOKEN_UNITS) return end;
  let cut = from + MAX_TOKEN_UNITS;
  const last = text.charCodeAt(cut - 1);
  if (last >= 0xd800 && last <= 0xdbff) cut--;
  return cut;
}

/** Every token of the user's query and the step's task, lower-cased, in order. */
export function questionTokens(context: ResultProcessorContext | undefined): string[] {
  return queryTokens(`${context?.userQuery ?? ''}\n${context?.stepTask ?? ''}`.toLowerCase());
}

/** The words of the user's query and the step's task worth looking for, lower-cased, unique. */
export function queryWords(
  context: ResultProcessorContext | undefined,
  stopwords: ReadonlySet<string> = DEFAULT_VOCABULARY.stopwords,
): string[] {
  const words: string[] = [];
  let units = 0;
  for (const word of questionTokens(context)) {
    // At most `MAX_TERMS` words: a list is as quick as a set.
    if (words.includes(word) || stopwords.has(word)) continue;
    if (word.length < 2 || (word.length < 3 && ASCII_LETTERS.test(word))) continue;
    // The scan tries every word at every place of the text: their length in all bounds it.
    if (units + word.length > MAX_QUERY_UNITS) break;
    units += word.length;
    words.push(word);
    if (words.length >= MAX_TERMS) break;
  }
  return words;
}

/**
 * Whether the character at `at` continues a token: a letter or digit (an underscore separates
 * the words of `latency_ms`, as a hyphen does).
 */
function tokenCharAt(text: string, at: number): boolean {
  // Most text is ASCII: its letters and digits are told without reading a code point.
  const code = text.charCodeAt(at);
  if (code < 0x80) return isAsciiLetter(code) || isAsciiDigit(code);
  const codePoint = text.codePointAt(at)!;
  return isLetterOrDigit(codePoint) && !isUnspacedScript(codePoint);
}

/** Whether `text[from, to)` stands as a whole token: no token character touches either end. */
export function isWholeToken(text: string, from: number, to: number): boolean {
  if (!startsToken(text, from)) return false;
  if (to < text.length && tokenCharAt(text, to) && !unspacedAt(text, to - 1)) return false;
  return true;
}

/** Whether a token may start at `from`: no token character touches it from before. */
function startsToken(text: string, from: number): boolean {
  if (from === 0) return true;
  const before = text.charCodeAt(from - 1);
  // The second half of a surrogate pair: look at the whole character.
  const at = before >= 0xdc00 && before <= 0xdfff && from > 1 ? from - 2 : from - 1;
  return !tokenCharAt(text, at) || unspacedAt(text, from);
}

function unspacedAt(text: string, at: number): boolean {
  return text.charCodeAt(at) >= 0x80 && isUnspacedScript(text.codePointAt(at)!);
}

/**
 * Whether an error-like word may start at `at` in plain text: at the start, after a character
 * that is not a letter, digit or underscore, or inside an identifier where a capital follows a
 * lower-case letter or a digit (`OutOfMemoryError`).
 */
export function errorWordBoundary(text: string, at: number): boolean {
  if (at === 0) return true;
  const before = text.charCodeAt(at - 1);
  // A unit, not a character: the second half of a surrogate pair is neither letter nor digit.
  if (before >= 0x80) return !isLetterOrDigit(before);
  if (!isTokenEdge(before)) return true;
  const first = text.charCodeAt(at);
  const lowerOrDigit = (before >= 0x61 && before <= 0x7a) || isAsciiDigit(before);
  return first >= 0x41 && first <= 0x5a && lowerOrDigit;
}

/**
 * A term with every field, in one order: each term is made here, so that all have one hidden
 * class. Terms other than the error words live only during a trim, and V8 drops a hidden class
 * no live object has at a major collection, throwing away the optimised code that reads it (see
 * `HITS_SHAPE`); `TERM_SHAPE` keeps this one alive.
 */
function term(
  kind: RelevanceTerm['kind'],
  source: string,
  fields: Omit<RelevanceTerm, 'kind' | 'source'> = {},
): RelevanceTerm {
  return {
    kind,
    source,
    wholeToken: fields.wholeToken ?? false,
    word: fields.word,
    exitFillers: fields.exitFillers,
    prefix: fields.prefix,
    suffixes: fields.suffixes,
  };
}

/** A term that lives as long as this module (see `term`). */
export const TERM_SHAPE: RelevanceTerm = term('query', '');

const errorTermsOf = new WeakMap<ErrorVocabulary, readonly RelevanceTerm[]>();

/**
 * The error words as terms, made once per list: escaping them per trim ran a replace per word,
 * right after the host's collections as often as not.
 */
function errorTerms(vocabulary: ErrorVocabulary): readonly RelevanceTerm[] {
  let terms = errorTermsOf.get(vocabulary);
  if (!terms) {
    terms = vocabulary.errorWords.map((word) =>
      Object.freeze(
        term('error', escapeRegExp(word), {
          exitFillers: isExitPhrase(word, vocabulary.exitWords)
            ? vocabulary.exitFillers
            : undefined,
        }),
      ),
    );
    errorTermsOf.set(vocabulary, terms);
  }
  return terms;
}

const LETTERS = /^[a-z]{3,}$/;

/**
 * A query word as a pattern that also takes its plural or singular (`pod` finds `pods`): what
 * every match starts with, and what may follow, first found first.
 */
function tokenForm(word: string): { source: string; prefix: string; suffixes: readonly string[] } {
  if (!LETTERS.test(word)) return { source: escapeRegExp(word), prefix: word, suffixes: [''] };
  const plural = word.length >= 4 && word.endsWith('s') && !word.endsWith('ss');
  const prefix = plural ? word.slice(0, -1) : word;
  const suffixes = plural ? ['ses', 's', ''] : ['es', 's', ''];
  return { source: `${prefix}(?:${suffixes.join('|')})`, prefix, suffixes };
}

/**
 * The terms to scan for: preserved keys (as `"key":` in JSON, `key:` or `key=` in text), the
 * query words, and error-like content.
 */
export function relevanceTerms(input: {
  words: readonly string[];
  preserveKeys: readonly string[];
  json: boolean;
  /** The vocabulary's error words (in the order of the scan's word indices) and exit words. */
  vocabulary?: ErrorVocabulary;
}): RelevanceTerm[] {
  const terms: RelevanceTerm[] = [];
  for (const key of input.preserveKeys) {
    const lower = key.toLowerCase();
    const literal = escapeRegExp(lower);
    const source = input.json ? `"${literal}"\\s*:` : `\\b${literal}\\s*[:=]`;
    terms.push(term('key', source, { prefix: input.json ? `"${lower}"` : lower }));
  }
  for (const word of input.words) {
    // In JSON, a word that is a whole string (a value or a key) is far more specific than the
    // same letters inside a longer string, so it is a term of its own, scanned first.
    if (input.json) {
      terms.push(
        term('query', `"${escapeRegExp(word)}"`, { word, prefix: `"${word}"`, suffixes: [''] }),
      );
    }
    const { source, prefix, suffixes } = tokenForm(word);
    terms.push(term('query', source, { wholeToken: true, word, prefix, suffixes }));
  }
  terms.push(...errorTerms(input.vocabulary ?? DEFAULT_VOCABULARY));
  return terms;
}

/** The compiled form of a term list, reusable across calls with the same terms. */
export interface CompiledTerms {
  /** All terms, one alternation, global and case-insensitive. */
  pattern: RegExp;
  /** Each term alone, sticky, to name the term a match belongs to. */
  each: RegExp[];
  /** Error term index by lower-cased match text. */
  errorTerm: Map<string, number>;
  /** Per term, whether its matches must be whole tokens. */
  wholeToken: boolean[];
  /**
   * What the matches start with, one per distinct prefix, for a word search; undefined unless
   * every term has one of printable ASCII (what the search takes) and none is an error term.
   */
  prefixes: string[] | undefined;
  /** With `prefixes`, each term's prefix, lower-cased. */
  termPrefix: string[];
  /** With `prefixes`, each term's `suffixes` (lower-cased), if it has them. */
  termSuffixes: Array<readonly string[] | undefined>;
  /** With `prefixes`: the distinct `termPrefix`es, for a word search that checks them. */
  startWords: string[];
  /** With `prefixes`: per term, the bit of its prefix among `startWords`. */
  termBit: number[];
  /** The bits of the `startWords` that only whole-token terms start with. */
  tokenStarts: number;
}

/** A small per-trimmer cache of compiled term lists, keyed by their sources. */
export type TermCache = Map<string, CompiledTerms>;

const TERM_CACHE_LIMIT = 64;

function compileTerms(terms: readonly RelevanceTerm[], cache?: TermCache): CompiledTerms {
  const key = terms
    .map(
      (term) =>
        `${term.kind}:${term.wholeToken ? 't' : ''}:${term.prefix ?? ''}:${term.suffixes ?? ''}:${term.source}`,
    )
    .join('\u0000');
  const cached = cache?.get(key);
  if (cached) return cached;
  const errorTerm = new Map<string, number>();
  terms.forEach((term, index) => {
    if (term.kind === 'error') errorTerm.set(term.source.replace(/\\/g, ''), index);
  });
  const searchable = terms.every(
    (term) => term.kind !== 'error' && PRINTABLE_ASCII.test(term.prefix ?? ''),
  );
  const termPrefix = terms.map((term) => (term.prefix ?? '').toLowerCase());
  const startWords = [...new Set(termPrefix)];
  const compiled: CompiledTerms = {
    pattern: new RegExp(alternation(terms), 'gi'),
    each: terms.map((term) => new RegExp(term.source, 'iy')),
    errorTerm,
    wholeToken: terms.map((term) => term.wholeToken === true),
    prefixes: searchable ? [...new Set(terms.map((term) => term.prefix!))] : undefined,
    termPrefix,
    termSuffixes: terms.map((term) => term.suffixes?.map((suffix) => suffix.toLowerCase())),
    startWords,
    // Past 32 words no bit is given (the search takes 32 at most): `candidates` then.
    termBit: termPrefix.map((prefix) => {
      const index = startWords.indexOf(prefix);
      return index < 32 ? 1 << index : 0;
    }),
    tokenStarts: startWords.reduce(
      (bits, word, k) =>
        k < 32 && terms.every((term, t) => termPrefix[t] !== word || term.wholeToken === true)
          ? bits | (1 << k)
          : bits,
      0,
    ),
  };
  if (cache) {
    if (cache.size >= TERM_CACHE_LIMIT) cache.clear();
    cache.set(key, compiled);
  }
  return compiled;
}

const PRINTABLE_ASCII = /^[\x20-\x7e]+$/;

/**
 * The terms' sources as one alternation, in order: the error words, last, factored by the
 * openings they share (`factoredAlternation`) when every one is a literal of printable ASCII
 * (a 230 KB page: 0.9 ms against 1.2 for `error|…|unhealthy`).
 */
function alternation(terms: readonly RelevanceTerm[]): string {
  let errorsFrom = terms.findIndex((term) => term.kind === 'error');
  if (errorsFrom < 0) errorsFrom = terms.length;
  const words = terms.slice(errorsFrom).map((term) => term.source.replace(/\\(.)/g, '$1'));
  const literal = words.every(
    (word, index) =>
      PRINTABLE_ASCII.test(word) && escapeRegExp(word) === terms[errorsFrom + index]!.source,
  );
  if (words.length === 0 || !literal) return terms.map((term) => term.source).join('|');
  return [
    ...terms.slice(0, errorsFrom).map((term) => term.source),
    factoredAlternation(words),
  ].join('|');
}

/**
 * Finds every match of `terms` in `haystack` (at most `maxHits`), weighting rare terms up.
 * `cache` keeps compiled patterns between calls (and lets V8 keep their native code).
 */
export function findHits(
  haystack: string,
  terms: readonly RelevanceTerm[],
  unitCount: number,
  maxHits = 200_000,
  cache?: TermCache,
  foundErrors?: { at: readonly number[]; word: readonly number[] },
  search?: JsonTapeWordSearch,
): RelevanceHits {
  let positions: number[] = [];
  let termOf: number[] = [];
  const counts = new Array<number>(terms.length).fill(0);
  let errorsFrom = terms.findIndex((term) => term.kind === 'error');
  if (errorsFrom < 0) errorsFrom = terms.length;
  // Error words already found by the caller (the JSON scanner) are not scanned for again.
  const scanned = foundErrors ? terms.slice(0, errorsFrom) : terms;
  const compiled =
    scanned.length > 0 && haystack.length > 0 ? compileTerms(scanned, cache) : undefined;
  if (compiled && search && compiled.prefixes) {
    const found = scanCandidates(haystack, compiled, search, maxHits, counts);
    positions = arrayOf(scanPositions, found);
    termOf = arrayOf(scanTerms, found);
  } else if (compiled) {
    // One scan without capture groups; each match is then attributed to the first term that
    // matches at its position, as the alternation would.
    const { pattern, each, errorTerm, wholeToken } = compiled;
    // V8 runs a regular expression in its interpreter until it has run once; one scan over a
    // large input that finds nothing would run interpreted throughout, so tier it up first.
    pattern.exec('');
    pattern.exec('');
    pattern.lastIndex = 0;
    const attributed = new Map<string, number>();
    for (let match = pattern.exec(haystack); match; match = pattern.exec(haystack)) {
      if (match[0].length === 0) {
        pattern.lastIndex++;
        continue;
      }
      // Which term matched depends only on the text matched and, for a term opening on `\b`,
      // on whether a word character comes before it: found once per such pair, not per hit
      // (with error terms only, there is nothing to find).
      const before = match.index > 0 && isAsciiWordCode(haystack.charCodeAt(match.index - 1));
      const key = errorsFrom === 0 ? '' : (before ? '1' : '0') + match[0];
      let term = errorsFrom === 0 ? -1 : attributed.get(key);
      if (term === undefined) {
        term = -1;
        // Error terms come last: a match no other term makes is looked up by its text.
        for (let t = 0; t < errorsFrom; t++) {
          const probe = each[t]!;
          probe.lastIndex = match.index;
          const found = probe.exec(haystack);
          if (found && found[0].length === match[0].length) {
            term = t;
            break;
          }
        }
        attributed.set(key, term);
      }
      const rejected =
        term >= 0 &&
        wholeToken[term]! &&
        !isWholeToken(haystack, match.index, match.index + match[0].length);
      if (rejected) {
        // Another term may still match here or just after (overlapping words).
        pattern.lastIndex = match.index + 1;
        continue;
      }
      if (term < 0) {
        const lower = match[0].toLowerCase();
        term = errorTerm.get(lower) ?? -1;
        if (term < 0) continue;
        if (!errorWordBoundary(haystack, match.index)) {
          pattern.lastIndex = match.index + 1;
          continue;
        }
        const fillers = scanned[term]!.exitFillers;
        if (
          fillers !== undefined &&
          !failedExitStatus(haystack, match.index + match[0].length, haystack.length, fillers)
        ) {
          continue;
        }
      }
      positions.push(match.index);
      termOf.push(term);
      counts[term]!++;
      if (positions.length >= maxHits) break;
    }
  }
  if (foundErrors && foundErrors.at.length > 0 && errorsFrom < terms.length) {
    // Merge the two position-ordered lists.
    const mergedAt: number[] = [];
    const mergedTerm: number[] = [];
    let a = 0;
    let b = 0;
    const limit = Math.min(maxHits, positions.length + foundErrors.at.length);
    while (mergedAt.length < limit) {
      const takeError =
        b < foundErrors.at.length && (a >= positions.length || foundErrors.at[b]! < positions[a]!);
      if (takeError) {
        const term = errorsFrom + foundErrors.word[b]!;
        mergedAt.push(foundErrors.at[b++]!);
        mergedTerm.push(term);
        counts[term]!++;
      } else {
        mergedAt.push(positions[a]!);
        mergedTerm.push(termOf[a++]!);
      }
    }
    positions = mergedAt;
    termOf = mergedTerm;
  }
  const units = Math.max(1, unitCount);
  const weights = terms.map((term, index) => {
    const seen = counts[index]!;
    if (seen === 0) return 0;
    const idf = Math.log(1 + units / seen);
    if (term.kind === 'key') return 8 + idf;
    if (term.kind === 'error') return 0.5 * idf;
    return idf;
  });
  const queryMatched = terms.some((term, index) => term.kind !== 'error' && counts[index]! > 0);
  return { positions, termOf, weights, terms, queryMatched };
}

/**
 * What the scan in `findHits` finds, found from the places where a term may start (`search`,
 * given where `haystack` is the searched text) rather than by running the alternation over all
 * of it: at each such place past the last match, the first term that matches there, as the
 * alternation would take it. No term is an error term, and `compiled` has `prefixes`.
 */
function scanCandidates(
  haystack: string,
  compiled: CompiledTerms,
  search: JsonTapeWordSearch,
  maxHits: number,
  counts: number[],
): number {
  let found = 0;
  const { each, wholeToken, prefixes, termPrefix, termSuffixes, startWords, termBit, tokenStarts } =
    compiled;
  // Where the next match may start: past the last one, or past a place whose match was not a
  // whole token.
  let next = 0;
  const firstUnit = termPrefix.map((prefix) => prefix.charCodeAt(0));
  // A place that starts as a term does (the search compares a fingerprint of its first units)
  // most often ends otherwise (`"request"` at `"request_id"`): its last unit is compared next.
  const lastAt = termPrefix.map((prefix) => prefix.length - 1);
  const lastUnit = termPrefix.map((prefix) => prefix.charCodeAt(prefix.length - 1));
  for (let from = 0; from >= 0; ) {
    // Places whose words the search checked in full, with the words that start at each (a unit
    // at a time here was most of this scan); else places a fingerprint found, checked here.
    const starts = search.wordStarts?.(startWords, from, tokenStarts);
    let batch: Int32Array;
    let words: Int32Array | undefined;
    if (starts) {
      batch = starts.at;
      words = starts.words;
      from = starts.next;
    } else {
      batch = search.candidates(prefixes!, from);
      if (batch.length === 0) return found;
      from = batch[batch.length - 1]! + 1;
    }
    for (let i = 0; i < batch.length; i++) {
      const at = batch[i]!;
      if (at < next) continue;
      const starting = words === undefined ? 0 : words[i]!;
      let term = -1;
      let end = at;
      const folded = words === undefined ? foldedAt(haystack, at) : 0;
      // No whole-token term is found inside a token, so it is not compared there: a run of
      // 28 000 `x` is not compared with a long `xxx…x0` at each of its places (the terms' length
      // per unit). The terms that may match inside one open with `"` (a whole string, a key),
      // where no whole-token term matches: which term a place gives is unchanged. Whether a
      // token starts here is read once a whole-token term's ends match (1 yes, 0 no, -1 unread).
      let tokenStart = -1;
      for (let t = 0; t < each.length; t++) {
        if (words !== undefined) {
          if ((starting & termBit[t]!) === 0) continue;
        } else if (firstUnit[t] !== folded || foldedAt(haystack, at + lastAt[t]!) !== lastUnit[t]) {
          // Most places fail a term's prefix (the search compares a fingerprint), at its first unit.
          continue;
        }
        if (wholeToken[t]) {
          if (tokenStart < 0) tokenStart = startsToken(haystack, at) ? 1 : 0;
          if (tokenStart === 0) continue;
        }
        if (words === undefined && !startsWithFolded(haystack, at, termPrefix[t]!)) continue;
        const suffixes = termSuffixes[t];
        if (suffixes) {
          const after = at + termPrefix[t]!.length;
          for (const suffix of suffixes) {
            if (startsWithFolded(haystack, after, suffix)) {
              term = t;
              end = after + suffix.length;
              break;
            }
          }
          if (term >= 0) break;
          continue;
        }
        const probe = each[t]!;
        probe.lastIndex = at;
        if (probe.test(haystack)) {
          term = t;
          end = probe.lastIndex;
          break;
        }
      }
      if (term < 0) continue;
      if (end === at || (wholeToken[term]! && !isWholeToken(haystack, at, end))) {
        next = at + 1;
        continue;
      }
      if (found === scanPositions.length) {
        scanPositions = widened(scanPositions);
        scanTerms = widened(scanTerms);
      }
      scanPositions[found] = at;
      scanTerms[found++] = term;
      counts[term]!++;
      if (found >= maxHits) return found;
      next = end;
    }
  }
  return found;
}

/** The unit at `at`, an ASCII capital lower-cased (NaN past the end). */
function foldedAt(text: string, at: number): number {
  const c = text.charCodeAt(at);
  return c >= 0x41 && c <= 0x5a ? c | 0x20 : c;
}

// Where `scanCandidates` writes its matches: a list pushed to match by match cost more than
// the comparisons that find them (its store grows through large-object space).
let scanPositions: Int32Array = new Int32Array(1024);
let scanTerms: Int32Array = new Int32Array(1024);

function widened(array: Int32Array): Int32Array {
  const wider = new Int32Array(2 * array.length);
  wider.set(array);
  return wider;
}

/** The first `length` items of `array`, as a list. */
function arrayOf(array: Int32Array, length: number): number[] {
  const list = new Array<number>(length);
  for (let i = 0; i < length; i++) list[i] = array[i]!;
  return list;
}

/** Whether `text` has `prefix` (lower-case ASCII) at `at`, in any case. */
function startsWithFolded(text: string, at: number, prefix: string): boolean {
  if (at + prefix.length > text.length) return false;
  for (let k = 0; k < prefix.length; k++) {
    let c = text.charCodeAt(at + k);
    if (c >= 0x41 && c <= 0x5a) c |= 0x20;
    if (c !== prefix.charCodeAt(k)) return false;
  }
  return true;
}

/**
 * An object of the shape `findHits` returns that lives as long as this module. Optimised code
 * that reads hits depends on their hidden class, and V8 drops a hidden class that no live object
 * has at a major collection, throwing that code away with it. Hits live only during a trim, so
 * in a host that collects between trims (the bench collects before each run) the renderer ran
 * unoptimised in one trim in three until compiled again: 0.85x the trim time on the Twitter
 * search without it.
 */
export const HITS_SHAPE: RelevanceHits = {
  positions: [],
  termOf: [],
  weights: [],
  terms: [],
  queryMatched: false,
};

/**
 * Sum over the distinct terms matched in `[from, to)` of their weights; error-like terms only
 * with `errors` (default true).
 */
export function rangeScore(hits: RelevanceHits, from: number, to: number, errors = true): number {
  let index = lowerBound(hits.positions, from);
  if (index >= hits.positions.length || hits.positions[index]! >= to) return 0;
  let score = 0;
  // The terms seen so far: a bit each for the first 32 (most lists), a set past them.
  let seenBits = 0;
  let seen: Set<number> | undefined;
  let seenCount = 0;
  // Past the terms any hit is of, none is left to find: a range over most of the text (a list
  // of every record) stops there rather than at its end.
  let matched = hits.terms.length;
  const first = index;
  for (; index < hits.positions.length && hits.positions[index]! < to; index++) {
    if (index - first === LONG_RANGE_HITS) matched = matchedTerms(hits);
    const term = hits.termOf[index]!;
    if (term < 32) {
      if ((seenBits & (1 << term)) !== 0) continue;
      seenBits |= 1 << term;
    } else {
      seen ??= new Set();
      if (seen.has(term)) continue;
      seen.add(term);
    }
    seenCount++;
    if (!errors && hits.terms[term]!.kind === 'error') continue;
    score += hits.weights[term]!;
    if (seenCount >= matched) break;
  }
  return score;
}

/** Hits past which `rangeScore` counts the terms that match at all. */
const LONG_RANGE_HITS = 64;

const matchedTermsOf = new WeakMap<RelevanceHits, number>();

/** How many of `hits`' terms some hit is of. */
function matchedTerms(hits: RelevanceHits): number {
  let matched = matchedTermsOf.get(hits);
  if (matched === undefined) {
    const of = new Uint8Array(hits.terms.length);
    matched = 0;
    for (const term of hits.termOf) {
      if (of[term] === 0) {
        of[term] = 1;
        matched++;
      }
    }
    matchedTermsOf.set(hits, matched);
  }
  return matched;
}
