import { assertString } from '@compaction/core/internal';
import { clusterEnds, isCertainBoundary, walkClusters } from './grapheme-segmenter.js';
import { ClusterTally } from './walk-easy-clusters.js';

const SIMPLE_CLASS =
  '\\u0000-\\u02ff\\u0370-\\u0482\\u2010-\\u205f\\u2070-\\u20cf\\u2100-\\u2bff\\u3000-\\u3029\\u3030-\\u303f\\u3040-\\u3098\\u30a0-\\u30ff\\u3400-\\u4dbf\\u4e00-\\u9fff\\uac00-\\ud7a3\\uff01-\\uff9d';
/** A unit outside `SIMPLE_CLASS` (the units `isSimpleUnit` rejects), searched natively. */
const NON_SIMPLE = new RegExp(`[^${SIMPLE_CLASS}]`, 'g');

/** Where the first unit outside `SIMPLE_CLASS` is in `view` from `from` on, else its length. */
function nonSimpleIn(view: string, from: number): number {
  NON_SIMPLE.lastIndex = from;
  const match = NON_SIMPLE.exec(view);
  return match ? match.index : view.length;
}

/** Where the first CR LF is in `view` from `from` on, else its length. */
function crlfIn(view: string, from: number): number {
  const at = view.indexOf('\r\n', from);
  return at < 0 ? view.length : at;
}

/**
 * Simple units in a row past which the walk hands back to the native search: about where one
 * search (a call, then well under a nanosecond a unit) costs less than walking them.
 */
const NATIVE_RUN = 64;

/**
 * Exact grapheme count of `text[start, end)`, where both ends are grapheme boundaries. Runs of
 * simple units (ASCII, Latin, CJK, punctuation...) are counted without the segmenter (one unit,
 * one grapheme, CR LF aside), found by native searches for the next complex unit and the next
 * CR LF in the range alone (a slice of it, so no search runs past `end`), each resumed where
 * the last one stopped. From a complex unit on, `walkClusters` walks the clusters unit by unit
 * (the segmenter only where their shape needs it) until the next long simple run. The range is
 * read about once, whatever its mix.
 */
function countRange(text: string, start: number, end: number): number {
  const view = start === 0 && end === text.length ? text : text.slice(start, end);
  // In `view`'s positions: the next complex unit and the next CR LF at or after the scan.
  let complex = -1;
  let crlf = -1;
  const nextComplex = (from: number) => {
    if (complex < from) complex = nonSimpleIn(view, from);
    return complex;
  };
  /** CR LF pairs inside `view[from, to)`, for `from` never below the last call's. */
  const pairs = (from: number, to: number) => {
    if (crlf < from) crlf = crlfIn(view, from);
    let found = 0;
    while (crlf + 1 < to) {
      found++;
      crlf = crlfIn(view, crlf + 2);
    }
    return found;
  };
  const tally = new ClusterTally({ simpleRun: NATIVE_RUN });
  const length = end - start;
  let count = 0;
  let i = 0;
  while (i < length) {
    const j = nextComplex(i);
    if (j === length) {
      count += j - i - pairs(i, j);
      break;
    }
    // The simple unit just before another may take its combining marks: hand it over.
    let simpleEnd = j > i ? j - 1 : j;
    if (
      simpleEnd > i &&
      view.charCodeAt(simpleEnd - 1) === 0x0d &&
      view.charCodeAt(simpleEnd) === 0x0a
    ) {
      simpleEnd--;
    }
    count += simpleEnd - i - pairs(i, simpleEnd);
    i = walkClusters(text, start + simpleEnd, end, false, tally) - start;
  }
  return count + tally.count;
}

/**
 * The number of extended grapheme clusters in `text`, exactly as `Intl.Segmenter` counts them,
 * in one pass that is fast on ASCII. Linear in the input: callers that must stay flat (the
 * excerpt) take the count from the store's metadata instead.
 */
export function countGraphemes(text: string): number {
  assertString(text, 'text');
  return countRange(text, 0, text.length);
}

/** Counts graphemes across chunks that may split a cluster (or a surrogate pair) anywhere. */
export interface GraphemeCounter {
  /** Adds the next decoded chunk. */
  push(chunk: string): void;
  /** Counts what is held back and returns the total; the counter is done after this. */
  finish(): number;
}

/** Held-back text beyond which the counter falls back to the segmenter to find a boundary. */
const CARRY_LIMIT = 1 << 16;

/** Characters that join whatever precedes them (UAX #29 Extend and ZWJ). */
const JOINING = /[\p{Grapheme_Extend}\p{Emoji_Modifier}\u200d]/u;
const REGIONAL = /\p{Regional_Indicator}/u;
/** Units kept verbatim at the end of a compressed cluster: the last of them decides GB11. */
const CLUSTER_SUFFIX_UNITS = 64;

/**
 * True when segmenting from `i` decides every later boundary as segmenting from the cluster's
 * start does: the rules that look back past one character (GB9c conjuncts, GB11 emoji ZWJ
 * sequences, GB12/13 flag pairs) look back only over joining characters or regional indicators,
 * so they stop at a character that is neither (or at the first of a pair of indicators).
 */
function isRestartPoint(text: string, i: number): boolean {
  const point = String.fromCodePoint(text.codePointAt(i)!);
  if (JOINING.test(point)) return false;
  if (!REGIONAL.test(point) || i === 0) return true;
  const before = String.fromCodePoint(text.codePointAt(codePointStart(text, i - 1))!);
  return !REGIONAL.test(before);
}

function codePointStart(text: string, i: number): number {
  const unit = text.charCodeAt(i);
  if (i > 0 && unit >= 0xdc00 && unit <= 0xdfff) {
    const high = text.charCodeAt(i - 1);
    if (high >= 0xd800 && high <= 0xdbff) return i - 1;
  }
  return i;
}

/**
 * A short text that the segmenter reads as it reads `text`, which lies inside one grapheme
 * cluster that goes on: from its last restart point, and within the joining characters after
 * it, one of each distinct code point followed by the last units verbatim. Every rule that
 * looks across a run of joining characters asks only whether all of them, or any of them, are
 * of a kind, and no boundary falls between joining characters, so the order and repetition
 * within the run change nothing.
 */
function compressCluster(text: string): string {
  // A high surrogate at the end may start a cluster of its own with the next chunk's low half.
  const last = text.charCodeAt(text.length - 1);
  const end = last >= 0xd800 && last <= 0xdbff ? text.length - 1 : text.length;
  let restart = 0;
  for (let i = codePointStart(text, end - 1); i > 0; i = codePointStart(text, i - 1)) {
    if (isRestartPoint(text, i)) {
      restart = i;
      break;
    }
  }
  // The restart character (with the second of a flag pair), then the run of joining ones.
  let run = restart + (text.codePointAt(restart)! > 0xffff ? 2 : 1);
  if (run < text.length && REGIONAL.test(String.fromCodePoint(text.codePointAt(run)!))) run += 2;
  const suffix = Math.max(run, codePointStart(text, text.length - CLUSTER_SUFFIX_UNITS));
  if (suffix - run <= CLUSTER_SUFFIX_UNITS) return text.slice(restart);
  const distinct = new Set<string>();
  for (let i = run; i < suffix; ) {
    const point = text.codePointAt(i)!;
    distinct.add(String.fromCodePoint(point));
    i += point > 0xffff ? 2 : 1;
  }
  return text.slice(restart, run) + [...distinct].join('') + text.slice(suffix);
}

/**
 * A `GraphemeCounter` whose memory is the last unfinished cluster (plus a short run), so a
 * stream of any size is counted with a small fixed footprint. A cluster longer than the
 * counter's limit (a base with millions of marks) is counted once and kept compressed, so the
 * time stays linear too.
 */
export function createGraphemeCounter(): GraphemeCounter {
  return createGraphemeCounterWithLimit(CARRY_LIMIT);
}

/** `createGraphemeCounter` with another limit on held-back text (small ones for tests). */
export function createGraphemeCounterWithLimit(carryLimit: number): GraphemeCounter {
  let carry = '';
  let count = 0;
  // True when `carry` starts inside a cluster already counted (a compressed long cluster), so
  // the first cluster the segmenter finds in it is that one.
  let continued = false;
  const add = (clusters: number) => {
    if (clusters === 0) return;
    count += continued ? clusters - 1 : clusters;
    continued = false;
  };
  return {
    push(chunk) {
      if (chunk === '') return;
      const text = carry + chunk;
      // The carry holds no certain boundary past its start, so only the new part is scanned.
      const floor = Math.max(1, carry.length);
      let cut = text.length - 1;
      while (cut >= floor && !isCertainBoundary(text, cut)) cut--;
      if (cut < floor) cut = 0;
      if (cut <= 0 && text.length > carryLimit) {
        // No ASCII anchor: every boundary the segmenter reports from a true start is exact
        // except the last, which the next chunk may still extend.
        let last = 0;
        let clusters = 0;
        for (const end of clusterEnds(text, 0, text.length, true)) {
          clusters++;
          last = end;
        }
        add(clusters);
        if (last > 0) {
          carry = text.slice(last);
          return;
        }
        // One cluster holds all of it: count it now and keep only what decides where it ends.
        if (!continued) count++;
        continued = true;
        carry = compressCluster(text);
        return;
      }
      if (cut <= 0) {
        carry = text;
        return;
      }
      add(countRange(text, 0, cut));
      carry = text.slice(cut);
    },
    finish() {
      add(countRange(carry, 0, carry.length));
      carry = '';
      return count;
    },
  };
}
