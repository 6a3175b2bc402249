import type { JsonInventory } from '../json/json-inventory.js';
import { STEP_KEY, signatureKey } from '../json/json-signatures.js';
import type { RecordGroup } from '../readers/json-records.js';
import { DEFAULT_VOCABULARY, type Vocabulary } from '../vocabulary.js';
import type { RecordAnalysis } from './analyze-records.js';
import { CLASS_NONE, CLASS_TIME } from './column-roles.js';
import { keyWords } from './key-hints.js';
import { recordFieldDepth } from './record-field-depth.js';
import { holdsScalarList } from './scalar-list.js';

/** Columns a question projects at most. */
const MAX_ASKED = 3;
/** Lists besides the main one a question may be about, the biggest first. */
const MAX_ASKED_GROUPS = 8;

const TWO_LETTERS = /^[a-z]{2}$/;
/** Whether a question asks how many records hold each value (`countWords`). */
export function asksForCounts(
  tokens: readonly string[],
  vocabulary: Vocabulary = DEFAULT_VOCABULARY,
): boolean {
  return tokens.some((token) => vocabulary.countWords.has(token));
}

/** `key` lower-cased, of its letters and digits only. */
function alphanumeric(key: string): string {
  return key.toLowerCase().replace(/[^\p{L}\p{N}]+/gu, '');
}

/** A word without its plural or verb ending (`authored` → author, `restarts` → restart). */
function stem(word: string): string {
  if (word.length > 4 && word.endsWith('ies')) return `${word.slice(0, -3)}y`;
  if (word.length > 4 && (word.endsWith('ing') || word.endsWith('ed'))) {
    return word.slice(0, word.endsWith('ing') ? -3 : -2);
  }
  if (word.length > 3 && word.endsWith('es') && !word.endsWith('ses')) return word.slice(0, -2);
  if (word.length > 3 && word.endsWith('s') && !word.endsWith('ss')) return word.slice(0, -1);
  return word;
}

/**
 * The fields of `group`'s records a question names, best first: a question word that is a key
 * (`restartCount`), or a word of one (`node` in `spec.nodeName`, `authored` in
 * `commit.author.date`), weighing a word of the field's own key over one of a key above it, and
 * several words naming one field over one. A word found in the values of most records
 * (`pod` in a list of pods) says which records, not which field: `commonWords` names only a
 * key that is all of it. A field of one value for every record is named too: the note tells it once (see
 * `shownForEach`). `tokens` are all the question's words: one that asks when (`when`, `date`) takes the time fields among those it names,
 * or the records' main time field when it names none.
 */
export function askedColumns(
  inventory: JsonInventory,
  analysis: RecordAnalysis,
  group: RecordGroup,
  words: readonly string[],
  tokens: readonly string[],
  commonWords: ReadonlySet<string> = new Set(),
): number[] {
  const asksWhen = tokens.some((token) => analysis.vocabulary.timeQuestionWords.has(token));
  const { scored, firstTime } = scoredColumns(
    inventory,
    analysis,
    group,
    words,
    tokens,
    commonWords,
  );
  let picked = scored;
  if (asksWhen) {
    const times = scored.filter((entry) => entry.time);
    if (times.length > 0) picked = times;
    else if (firstTime >= 0) return [firstTime];
  }
  if (picked.length === 0) return [];
  const best = Math.max(...picked.map((entry) => entry.score));
  const top = picked.filter((entry) => entry.score === best);
  // The record's own field before one of something it holds (`created_at`, not `user.created_at`).
  const shallowest = Math.min(...top.map((entry) => entry.depth));
  return top
    .filter((entry) => entry.depth === shallowest)
    .sort((a, b) => a.s - b.s)
    .slice(0, MAX_ASKED)
    .map((entry) => entry.s);
}

/**
 * The list a question asks about: the main one, unless the question names no field of its
 * records and some of another list's (a compare's `author.date` is a commit's, not a changed
 * file's): then the list whose fields it names best.
 */
export function askedGroup(
  inventory: JsonInventory,
  analysis: RecordAnalysis,
  words: readonly string[],
  tokens: readonly string[],
  commonOf: (group: RecordGroup) => ReadonlySet<string>,
): number {
  const { main, groups } = analysis;
  const bestOf = (group: RecordGroup) =>
    Math.max(
      0,
      ...scoredColumns(inventory, analysis, group, words, tokens, commonOf(group)).scored.map(
        (entry) => entry.score,
      ),
    );
  if (main < 0 || bestOf(groups[main]!) > 0) return main;
  // The biggest few lists: each look reads every field of the document once.
  const others = groups
    .map((group, g) => ({ group, g }))
    .filter(({ group, g }) => g !== main && group.primary && group.records.length >= 2)
    .sort((a, b) => b.group.bytes - a.group.bytes || a.g - b.g)
    .slice(0, MAX_ASKED_GROUPS);
  let asked = main;
  let best = 0;
  for (const { group, g } of others) {
    const score = bestOf(group);
    if (score > best) [asked, best] = [g, score];
  }
  return asked;
}

/** Each field of `group`'s records the question names, with how well (see `askedColumns`). */
function scoredColumns(
  inventory: JsonInventory,
  analysis: RecordAnalysis,
  group: RecordGroup,
  words: readonly string[],
  tokens: readonly string[],
  commonWords: ReadonlySet<string>,
): {
  scored: Array<{ s: number; score: number; time: boolean; depth: number }>;
  firstTime: number;
} {
  const { timeQuestionWords: timeWords, stopwords } = analysis.vocabulary;
  const asksWhen = tokens.some((token) => timeWords.has(token));
  // Words of two letters are too short to look for in values, but name a key they are whole
  // (`ts`, `rc`, `st` of abbreviated keys).
  const short = tokens.filter(
    (token) => token.length === 2 && TWO_LETTERS.test(token) && !stopwords.has(token),
  );
  if (words.length === 0 && short.length === 0 && !asksWhen) return { scored: [], firstTime: -1 };
  const { signatures, classOf, values } = analysis;
  const stems = new Map<string, string>();
  for (const word of words) {
    if (!timeWords.has(word) && !commonWords.has(word)) stems.set(word, stem(word));
  }
  // A word most records hold as a value still names a key that is all of it (`text` where every
  // message holds a `"type": "text"` block), not one it is a word of (`pod` of `podIP`).
  const wholeOnly = new Set(short.filter((word) => !stems.has(word)));
  for (const word of words) {
    if (!timeWords.has(word) && commonWords.has(word)) wholeOnly.add(alphanumeric(word));
  }
  // A word written as a path (`involvedObject.kind`) names the field whose keys end with its
  // steps, over a field that has only its last key.
  const paths = words
    .filter((word) => word.includes('.'))
    .map((word) => word.split('.').map((step) => stem(alphanumeric(step))))
    .filter((steps) => steps.length > 1 && steps.every((step) => step.length > 0));
  const scored: Array<{ s: number; score: number; time: boolean; depth: number }> = [];
  let firstTime = -1;
  for (let s = group.sig + 1; s < signatures.count; s++) {
    // A field of the records themselves: a field of the items they hold (the `status` of each
    // of a pod's conditions) is not what a word of the question names.
    const { depth } = recordFieldDepth(analysis, group, s);
    if (depth < 1 || depth > 3) continue;
    // A short list of values (`change.actions: ["delete", "create"]`) is a column too.
    const list = classOf[s] === CLASS_NONE && holdsScalarList(inventory, signatures, s);
    if (!list && (classOf[s] === CLASS_NONE || values[s] === 0)) continue;
    const time = classOf[s] === CLASS_TIME;
    if (time && firstTime < 0) firstTime = s;
    let score = 0;
    let own = true;
    const chain: string[] = [];
    for (let t = s; t !== group.sig && signatures.step[t] === STEP_KEY; t = signatures.parent[t]!) {
      const key = signatureKey(inventory, signatures, t);
      const whole = alphanumeric(key);
      const tokens = keyWords(key).map(stem);
      for (const [word, stemmed] of stems) {
        if (alphanumeric(word) === whole) score += own ? 3 : 1.5;
        else if (tokens.includes(stemmed)) score += own ? 1 : 0.5;
      }
      if (wholeOnly.has(whole)) score += own ? 3 : 1.5;
      if (paths.length > 0) chain.push(stem(whole));
      own = false;
    }
    for (const steps of paths) {
      if (steps.every((step, i) => chain[steps.length - 1 - i] === step)) score += 3 * steps.length;
    }
    if (score > 0) scored.push({ s, score, time, depth });
  }
  return { scored, firstTime };
}

/**
 * Of the fields a question names, those to show for each record: not one every record holds
 * alike, which the note tells once.
 */
export function shownForEach(analysis: RecordAnalysis, asked: readonly number[]): number[] {
  return asked.filter((s) => analysis.distinct[s]! >= 2 || analysis.classOf[s] === CLASS_NONE);
}
