import { InvalidArgumentError } from '@compaction/core/internal';
import {
  alignToCodePoint,
  clusterEnds,
  firstTrustedBoundary,
  safeCutAfter,
  safeCutBefore,
} from './grapheme-segmenter.js';

/** A run of whole grapheme clusters cut from one end of a text. */
export interface GraphemeSlice {
  /** The cut text. */
  text: string;
  /** Grapheme clusters in `text`. */
  count: number;
  /** True when `text` is the whole input. */
  whole: boolean;
}

/**
 * A `GraphemeSlice` that also gives any shorter run from the same end without segmenting again,
 * so a caller fitting a byte budget tries many lengths over one segmentation.
 */
export interface GraphemeRun extends GraphemeSlice {
  /** The first (head) or last (tail) `k` clusters of `text`, `0 <= k <= count`. */
  take(k: number): string;
}

const INITIAL_UNITS_PER_GRAPHEME = 2;
const SLACK_UNITS = 32;
/**
 * How far a window may reach, per wanted cluster, before it gives up on exact boundaries (a
 * family emoji with tags is about 14 units; hostile text can make one cluster of any length).
 */
const MAX_UNITS_PER_GRAPHEME = 32;
const MAX_SLACK_UNITS = 16_384;

/** The most units a head or tail window of `n` clusters walks: the bound on its cost. */
export function graphemeWindowLimit(n: number): number {
  return n * MAX_UNITS_PER_GRAPHEME + MAX_SLACK_UNITS;
}

function checkCount(n: number): number {
  if (!Number.isSafeInteger(n) || n < 0) {
    throw new InvalidArgumentError({
      argument: 'n',
      message: `the number of grapheme clusters must be a non-negative integer, got ${n}`,
    });
  }
  return n;
}

function headRunOf(text: string, cuts: readonly number[], whole: boolean): GraphemeRun {
  const take = (k: number) => (k <= 0 ? '' : text.slice(0, cuts[Math.min(k, cuts.length) - 1]));
  return { text: take(cuts.length), count: cuts.length, whole, take };
}

/**
 * The first `n` grapheme clusters of `text` (or all of it when it has fewer), with any shorter
 * head. Segmentation stops once `n` clusters are found and never reaches past
 * `graphemeWindowLimit(n)` units, so the cost follows the size of the answer, not of the input.
 * A first cluster longer than that limit (a base with thousands of combining marks) is cut
 * inside, on a code point and before a base where the window holds one, and counted as one.
 * With `openEnd`, `text` is a window that goes on past its end, so its last cluster (which the
 * rest could extend) is never taken.
 */
export function headGraphemeRun(text: string, n: number, openEnd = false): GraphemeRun {
  const want = checkCount(n);
  if (want === 0) return headRunOf(text, [], text.length === 0 && !openEnd);
  const limit = graphemeWindowLimit(want);
  const bounded = text.length > limit;
  const to = bounded ? alignToCodePoint(text, limit) : text.length;
  const cuts: number[] = [];
  for (const end of clusterEnds(text, 0, to, openEnd || bounded)) {
    cuts.push(end);
    if (cuts.length === want) break;
  }
  if (cuts.length === 0 && bounded) cuts.push(safeCutBefore(text, to));
  return headRunOf(text, cuts, !openEnd && (cuts.at(-1) ?? 0) === text.length);
}

/** The first `n` clusters of `run` (a head or a tail), sharing its segmentation. */
export function shorterRun(run: GraphemeRun, n: number): GraphemeRun {
  if (n >= run.count) return run;
  const count = checkCount(n);
  const take = (k: number) => run.take(Math.min(k, count));
  return { text: take(count), count, whole: false, take };
}

/** The first `n` grapheme clusters of `text`: `headGraphemeRun` without the shorter heads. */
export function headGraphemes(text: string, n: number, openEnd = false): GraphemeSlice {
  const { text: head, count, whole } = headGraphemeRun(text, n, openEnd);
  return { text: head, count, whole };
}

function tailRunOf(
  text: string,
  start: number,
  ends: readonly number[],
  want: number,
  whole: (from: number) => boolean,
): GraphemeRun {
  const count = Math.min(want, ends.length);
  // The last k clusters start where cluster (ends.length - k) ends, or at `start`.
  const from = (k: number) =>
    k <= 0 ? text.length : ends.length > k ? ends[ends.length - k - 1]! : start;
  const take = (k: number) => text.slice(from(Math.min(k, count)));
  return { text: take(count), count, whole: whole(from(count)), take };
}

/** Options of `tailGraphemeRun`. */
export interface TailGraphemeOptions {
  /**
   * `text` is a window that began mid-stream, so its first cluster is never taken and the run
   * starts only where a boundary holds whatever came before.
   */
  openStart?: boolean;
  /**
   * The run never starts before this index, which must be a cluster boundary of `text` (the
   * end of a head already taken), so a head and a tail of one text never overlap. Default 0.
   */
  floor?: number;
}

/**
 * The last `n` grapheme clusters of `text` (or all of it), with any shorter tail. A window at the
 * end is segmented from a boundary that holds whatever precedes it, doubled while it holds too
 * few clusters, up to `graphemeWindowLimit(n)` units. When no such boundary falls within that
 * reach (a run of regional indicators, one cluster of thousands of marks), the window starts at a
 * safe cut instead: on a code point, before a base where the window holds one.
 */
export function tailGraphemeRun(
  text: string,
  n: number,
  options: TailGraphemeOptions = {},
): GraphemeRun {
  const want = checkCount(n);
  const openStart = options.openStart ?? false;
  const floor = options.floor ?? 0;
  if (!Number.isSafeInteger(floor) || floor < 0 || floor > text.length) {
    throw new InvalidArgumentError({
      argument: 'floor',
      message: `floor must be an index into the text (0 to ${text.length}), got ${floor}`,
    });
  }
  const whole = (from: number) => from === 0 && !openStart;
  if (want === 0) return tailRunOf(text, text.length, [], 0, () => text.length === 0 && !openStart);
  const limit = graphemeWindowLimit(want);
  let window = Math.min(want * INITIAL_UNITS_PER_GRAPHEME + SLACK_UNITS, limit);
  for (;;) {
    const exhausted = window >= text.length - floor;
    const last = exhausted || window >= limit;
    let start = exhausted ? floor : alignToCodePoint(text, text.length - window);
    // The floor (or the start of a whole text) is a boundary; anywhere else needs an anchor.
    if (!exhausted || (floor === 0 && openStart)) {
      const anchor = firstTrustedBoundary(text, start);
      if (anchor !== undefined) start = anchor;
      else if (window >= limit) start = safeCutAfter(text, start);
      else if (exhausted) return tailRunOf(text, text.length, [], 0, () => false);
      else {
        window = Math.min(window * 2, limit);
        continue;
      }
    }
    const ends = [...clusterEnds(text, start, text.length)];
    if (ends.length >= want || last) return tailRunOf(text, start, ends, want, whole);
    window = Math.min(window * 2, limit);
  }
}

/**
 * The last `n` grapheme clusters of `text`: `tailGraphemeRun` without the shorter tails. With
 * `openStart`, `text` is a window that began mid-stream, so its first cluster is never taken.
 */
export function tailGraphemes(text: string, n: number, openStart = false): GraphemeSlice {
  const { text: tail, count, whole } = tailGraphemeRun(text, n, { openStart });
  return { text: tail, count, whole };
}
