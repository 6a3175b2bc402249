import { InvalidArgumentError, utf8ByteLength } from '@compaction/core/internal';
import { countGraphemes } from '../text/count-graphemes.js';
import {
  type GraphemeRun,
  headGraphemeRun,
  shorterRun,
  tailGraphemeRun,
} from '../text/grapheme-window.js';
import { assertExcerptSource, type ExcerptSource, excerptMarker } from './excerpt-marker.js';

/** Options of `excerpt`. */
export interface ExcerptOptions {
  /** Share of the kept chars taken from the head, 0–1. Default 0.75 (seed 000). */
  headShare?: number;
  /**
   * Also keep the excerpt within this many UTF-8 bytes, marker included (for byte-budgeted
   * prompts). Default: no byte limit, only the char budget.
   */
  maxBytes?: number;
}

/** An excerpt: the text for the conversation and how it was made. */
export interface Excerpt {
  /**
   * `head + "\n" + marker + "\n" + tail`, or the whole input when it fits. Its length in
   * grapheme clusters never exceeds the budget.
   */
  text: string;
  /** True when `text` is not the whole input. */
  contentLost: boolean;
  /** The kept prefix (whole clusters). */
  head: string;
  /** The kept suffix (whole clusters); empty when nothing was elided. */
  tail: string;
  /** The marker line, absent when nothing was elided. */
  marker?: string;
  /** Clusters in `head`. */
  headChars: number;
  /** Clusters in `tail`. */
  tailChars: number;
  /** Clusters reported elided (`source.totalChars` minus the kept ones, never negative). */
  elidedChars: number;
}

/** The smallest budget `excerpt` accepts for `source`: the marker line and its two newlines. */
export function minimumExcerptBudget(source: ExcerptSource): number {
  assertExcerptSource(source);
  return excerptMarker(source.totalChars, source).length + 2;
}

function checkBudget(budgetChars: number): number {
  if (!Number.isSafeInteger(budgetChars) || budgetChars < 0) {
    throw new InvalidArgumentError({
      argument: 'budgetChars',
      message: `budgetChars must be a non-negative integer, got ${budgetChars}`,
    });
  }
  return budgetChars;
}

function checkOptions(options: ExcerptOptions): { headShare: number; maxBytes?: number } {
  if (typeof options !== 'object' || options === null) {
    throw new InvalidArgumentError({
      argument: 'options',
      message: `options must be an object, got ${String(options)}`,
    });
  }
  const headShare = options.headShare ?? 0.75;
  if (typeof headShare !== 'number' || !(headShare >= 0 && headShare <= 1)) {
    throw new InvalidArgumentError({
      argument: 'headShare',
      message: `headShare must be between 0 and 1, got ${String(headShare)}`,
    });
  }
  const { maxBytes } = options;
  if (maxBytes !== undefined && (!Number.isSafeInteger(maxBytes) || maxBytes < 0)) {
    throw new InvalidArgumentError({
      argument: 'maxBytes',
      message: `maxBytes must be a non-negative integer, got ${String(maxBytes)}`,
    });
  }
  return maxBytes === undefined ? { headShare } : { headShare, maxBytes };
}

/**
 * Checks an excerpt's budget and options before any work (the streaming path reads its whole
 * input first) and returns the budget; throws `InvalidArgumentError` as `excerpt` does.
 */
export function checkExcerptArguments(budgetChars: number, options: ExcerptOptions): number {
  checkOptions(options);
  return checkBudget(budgetChars);
}

/**
 * Cuts `text` to at most `budgetChars` grapheme clusters, marker included: the first ¾ and the
 * last ¼ of what the marker leaves, with one marker line between naming the artifact, the elided
 * chars, the total bytes and the SHA-256 (from `source`, which the caller measured once).
 *
 * Never cuts inside a code point, between a base and its combining marks, inside an emoji
 * sequence or between CR and LF. Only a window at each end is segmented, at most
 * `32 × budgetChars + 16 384` units each, so the cost follows the budget, not the input size;
 * on hostile text that holds no trusted cluster boundary within that reach (a run of flags, one
 * cluster of thousands of marks) the cut falls on a code point that keeps bases with their
 * marks where the window allows. Throws `InvalidArgumentError` when the budget is below
 * `minimumExcerptBudget(source)` and the text does not fit whole, or when an argument is not
 * of its type (a size that is not a non-negative integer, a source without `totalChars`...).
 */
export function excerpt(
  text: string,
  budgetChars: number,
  source: ExcerptSource,
  options: ExcerptOptions = {},
): Excerpt {
  if (typeof text !== 'string') {
    throw new InvalidArgumentError({
      argument: 'text',
      message: `text must be a string, got ${typeof text}`,
    });
  }
  const budget = checkBudget(budgetChars);
  assertExcerptSource(source);
  const { maxBytes } = checkOptions(options);
  const probe = headGraphemeRun(text, budget + 1);
  // A text longer than the probe's window may still hold few (huge) clusters: count it then.
  let count: number | undefined;
  if (probe.whole) count = probe.count;
  else if (probe.count <= budget && source.totalChars <= budget) count = countGraphemes(text);
  if (
    count !== undefined &&
    count <= budget &&
    (maxBytes === undefined || utf8ByteLength(text) <= maxBytes)
  ) {
    return {
      text,
      contentLost: false,
      head: text,
      tail: '',
      headChars: count,
      tailChars: 0,
      elidedChars: 0,
    };
  }
  let headEnd = 0;
  return assembleExcerpt(
    budget,
    source,
    options,
    (n) => {
      // The probe walked the same clusters from the start: the head is a prefix of it.
      const head = shorterRun(probe, n);
      headEnd = head.text.length;
      return head;
    },
    // The tail never starts inside the head: on one text, the two windows may meet.
    (n) => tailGraphemeRun(text, n, { floor: headEnd }),
  );
}

/**
 * Builds an excerpt from separate sources for the head and the tail (the streaming path keeps
 * only a window at each end). The caller has established that the whole does not fit. Each end
 * is segmented once; with `maxBytes`, shorter runs of the same segmentation are tried.
 */
export function assembleExcerpt(
  budgetChars: number,
  source: ExcerptSource,
  options: ExcerptOptions,
  takeHead: (n: number) => GraphemeRun,
  takeTail: (n: number) => GraphemeRun,
): Excerpt {
  const budget = checkBudget(budgetChars);
  assertExcerptSource(source);
  const { headShare, maxBytes } = checkOptions(options);
  // Sized with the largest elided count it could show: the real marker is never longer.
  const reserved = excerptMarker(source.totalChars, source).length + 2;
  if (budget < reserved) {
    throw new InvalidArgumentError({
      argument: 'budgetChars',
      message: `budget of ${budget} chars is below the ${reserved} chars the excerpt marker needs`,
    });
  }
  // Fewer than all the chars, so head and tail never overlap even when the streaming path's
  // windows hold less than a text that would have fitted whole.
  const keep = Math.min(budget - reserved, Math.max(0, source.totalChars - 1));
  const headRun = takeHead(Math.floor(keep * headShare));
  const tailRun = takeTail(keep - headRun.count);
  // Kept chars k split as the full keep does: ¾ to the head (as far as its run goes), the rest
  // to the tail.
  const build = (kept: number): Excerpt => {
    const headChars = Math.min(Math.floor(kept * headShare), headRun.count);
    const tailChars = Math.min(kept - headChars, tailRun.count);
    const head = headRun.take(headChars);
    const tail = tailRun.take(tailChars);
    const elidedChars = Math.max(0, source.totalChars - headChars - tailChars);
    const marker = excerptMarker(elidedChars, source);
    return {
      text: `${head}\n${marker}\n${tail}`,
      contentLost: true,
      head,
      tail,
      marker,
      headChars,
      tailChars,
      elidedChars,
    };
  };
  const fitsBytes = (candidate: Excerpt) =>
    maxBytes === undefined || utf8ByteLength(candidate.text) <= maxBytes;
  let best = build(keep);
  if (fitsBytes(best)) return best;
  // Bytes grow with the chars kept: the largest keep that fits, by bisection over the runs
  // already segmented (each try only slices and measures).
  let low = 0;
  let high = keep - 1;
  best = build(0);
  if (!fitsBytes(best)) {
    throw new InvalidArgumentError({
      argument: 'maxBytes',
      message: `maxBytes of ${maxBytes} is below the ${utf8ByteLength(best.text)} bytes the excerpt marker needs`,
    });
  }
  while (low < high) {
    const middle = Math.ceil((low + high) / 2);
    const candidate = build(middle);
    if (fitsBytes(candidate)) {
      best = candidate;
      low = middle;
    } else high = middle - 1;
  }
  return best;
}
