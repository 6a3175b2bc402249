import { lineTemplate, NO_WORD, TEMPLATE_WORDS } from '../readers/line-template.js';
import type { StopCheck } from './stop-check.js';

/**
 * A word place that holds more than this many words among templates alike in every other word
 * is a variable (user names, host names); a place of fewer holds a statement's own words
 * (`started`, `finished`, `aborted`; the methods of a request), as a code slot of more than eight
 * values holds measures, not codes.
 */
const MAX_WORDS = 8;
/** Templates of fewer words are too short to tell a variable word from a statement's own. */
const MIN_WORDS = 4;
const FNV_OFFSET = 0x811c9dc5;
const FNV_PRIME = 0x01000193;
/** What a placeholder (a number, an id) is as a word. */
const PLACEHOLDER = 0x23;

/**
 * Which templates are one statement's lines with a variable word: each template's id → the id
 * of the template it merges into (dense, from 0), how many there are then, and per merged id the
 * word places its lines vary in (bit k for the k-th word); undefined where none merge. A line template folds words holding digits and long ones, not a user name or a
 * host name, so `Failed password for invalid user admin from …` and `… user oracle from …` are
 * templates apart, each rare, and a log of an attack reads as hundreds of rare lines. Templates
 * of as many words that differ in one place only, where more than `MAX_WORDS` of them do, are
 * merged. Each template is read through one of its lines: where it starts (`from`), ends (`to`)
 * and is filled (`filled`, as `lineTemplate` takes it).
 */
export function mergeVariableWords(
  units: Uint16Array,
  from: Int32Array,
  to: Int32Array,
  filled: Int32Array,
  templates: number,
  check: StopCheck,
): { map: Int32Array; count: number; varied: Int32Array } | undefined {
  const spans = new Int32Array(2 * TEMPLATE_WORDS);
  const own = new Int32Array(TEMPLATE_WORDS);
  const suffix = new Int32Array(TEMPLATE_WORDS + 1);
  // Per template and word place, the slot of the hash of every other word, plus one (0 where
  // none is taken). The hashes are counted in an open-addressed table of every place at half
  // load at most (a power of two): slot → hash (0 free), templates holding it, the first.
  const keys = new Int32Array(templates * TEMPLATE_WORDS);
  let slots = 16;
  while (slots < 2 * templates * TEMPLATE_WORDS) slots *= 2;
  const slotKey = new Int32Array(slots);
  const slotCount = new Int32Array(slots);
  const slotFirst = new Int32Array(slots);
  let work = 0;
  for (let t = 0; t < templates; t++) {
    spans.fill(NO_WORD);
    lineTemplate(units, from[t]!, to[t]!, filled[t]!, spans);
    let words = 0;
    while (words < TEMPLATE_WORDS && spans[2 * words] !== NO_WORD) {
      const start = spans[2 * words]!;
      const end = spans[2 * words + 1]!;
      let hash = FNV_OFFSET;
      if (start < 0) hash = PLACEHOLDER;
      else for (let i = start; i < end; i++) hash = Math.imul(hash ^ units[i]!, FNV_PRIME);
      own[words++] = hash;
      work += start < 0 ? 4 : end - start + 4;
    }
    if (words < MIN_WORDS) continue;
    suffix[words] = words;
    for (let k = words - 1; k >= 0; k--) suffix[k] = Math.imul(suffix[k + 1]! ^ own[k]!, FNV_PRIME);
    let prefix = FNV_OFFSET ^ words;
    for (let k = 0; k < words; k++) {
      if (own[k] !== PLACEHOLDER) {
        // Every word but the k-th, in place: the words before it, the place, the words after.
        let key = Math.imul(prefix ^ (k + 1), FNV_PRIME);
        key = Math.imul(key ^ suffix[k + 1]!, FNV_PRIME);
        key = (key ^ (key >>> 15)) | 1;
        let slot = Math.imul(key, 0x9e3779b1) >>> 0;
        slot &= slots - 1;
        while (slotKey[slot] !== 0 && slotKey[slot] !== key) slot = (slot + 1) & (slots - 1);
        if (slotKey[slot] === 0) {
          slotKey[slot] = key;
          slotFirst[slot] = t;
        }
        slotCount[slot]!++;
        keys[t * TEMPLATE_WORDS + k] = slot + 1;
      }
      prefix = Math.imul(prefix ^ own[k]!, FNV_PRIME);
    }
    if ((t & 255) === 255) {
      check(work);
      work = 0;
    }
  }
  check(work);
  // Templates that share a key held by more than `MAX_WORDS` of them are one: a union of each
  // with the first to hold the key.
  const root = new Int32Array(templates);
  for (let t = 0; t < templates; t++) root[t] = t;
  const find = (t: number): number => {
    let r = t;
    while (root[r] !== r) r = root[r]!;
    while (root[t] !== r) {
      const up = root[t]!;
      root[t] = r;
      t = up;
    }
    return r;
  };
  let merged = false;
  // Per template, the word places its merged shape varies in (bit k for the k-th word).
  const places = new Int32Array(templates);
  for (let t = 0; t < templates; t++) {
    for (let k = 0; k < TEMPLATE_WORDS; k++) {
      const slot = keys[t * TEMPLATE_WORDS + k]! - 1;
      if (slot < 0 || slotCount[slot]! <= MAX_WORDS) continue;
      places[t]! |= 1 << k;
      if (slotFirst[slot] === t) continue;
      const a = find(slotFirst[slot]!);
      const b = find(t);
      if (a !== b) {
        root[Math.max(a, b)] = Math.min(a, b);
        merged = true;
      }
    }
  }
  check(templates);
  if (!merged) return undefined;
  const map = new Int32Array(templates);
  const dense = new Int32Array(templates).fill(-1);
  const varied = new Int32Array(templates);
  let count = 0;
  for (let t = 0; t < templates; t++) {
    const r = find(t);
    if (dense[r] === -1) dense[r] = count++;
    map[t] = dense[r]!;
    varied[map[t]!]! |= places[t]!;
  }
  return { map, count, varied: varied.subarray(0, count) };
}
