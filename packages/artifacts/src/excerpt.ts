import { InvalidArgumentError } from '@compaction/core';
import { type ExcerptSource, excerptMarker } from './excerpt-marker.js';
import { type GraphemeSlice, headGraphemes, tailGraphemes } from './grapheme-window.js';

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

function headCount(keep: number, headShare: number | undefined): number {
  const share = headShare ?? 0.75;
  if (!(share >= 0 && share <= 1)) {
    throw new InvalidArgumentError({
      argument: 'headShare',
      message: `headShare must be between 0 and 1, got ${share}`,
    });
  }
  return Math.floor(keep * share);
}

/**
 * Cuts `text` to at most `budgetChars` grapheme clusters, marker included: the first ¾ and the
 * last ¼ of what the marker leaves, with one marker line between naming the artifact, the elided
 * chars, the total bytes and the SHA-256 (from `source`, which the caller measured once).
 *
 * Never cuts inside a code point, between a base and its combining marks, inside an emoji
 * sequence or between CR and LF. Only a window at each end is segmented, so the cost follows
 * the budget, not the input size. Throws `InvalidArgumentError` when the budget is below
 * `minimumExcerptBudget(source)` and the text does not fit whole.
 */
export function excerpt(
  text: string,
  budgetChars: number,
  source: ExcerptSource,
  options: ExcerptOptions = {},
): Excerpt {
  const budget = checkBudget(budgetChars);
  const probe = headGraphemes(text, budget + 1);
  if (
    probe.whole &&
    probe.count <= budget &&
    (options.maxBytes === undefined || Buffer.byteLength(text) <= options.maxBytes)
  ) {
    return {
      text,
      contentLost: false,
      head: text,
      tail: '',
      headChars: probe.count,
      tailChars: 0,
      elidedChars: 0,
    };
  }
  return assembleExcerpt(
    budget,
    source,
    options,
    (n) => headGraphemes(text, n),
    (n) => tailGraphemes(text, n),
  );
}

/**
 * Builds an excerpt from separate sources for the head and the tail (the streaming path keeps
 * only a window at each end). The caller has established that the whole does not fit.
 */
export function assembleExcerpt(
  budgetChars: number,
  source: ExcerptSource,
  options: ExcerptOptions,
  takeHead: (n: number) => GraphemeSlice,
  takeTail: (n: number) => GraphemeSlice,
): Excerpt {
  const budget = checkBudget(budgetChars);
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
  const build = (kept: number): Excerpt => {
    const head = takeHead(headCount(kept, options.headShare));
    const tail = takeTail(kept - head.count);
    const elidedChars = Math.max(0, source.totalChars - head.count - tail.count);
    const marker = excerptMarker(elidedChars, source);
    return {
      text: `${head.text}\n${marker}\n${tail.text}`,
      contentLost: true,
      head: head.text,
      tail: tail.text,
      marker,
      headChars: head.count,
      tailChars: tail.count,
      elidedChars,
    };
  };
  const maxBytes = options.maxBytes;
  const fitsBytes = (candidate: Excerpt) =>
    maxBytes === undefined || Buffer.byteLength(candidate.text) <= maxBytes;
  let best = build(keep);
  if (fitsBytes(best)) return best;
  // Bytes grow with the chars kept: the largest keep that fits, by bisection.
  let low = 0;
  let high = keep - 1;
  best = build(0);
  if (!fitsBytes(best)) {
    throw new InvalidArgumentError({
      argument: 'maxBytes',
      message: `maxBytes of ${maxBytes} is below the ${Buffer.byteLength(best.text)} bytes the excerpt marker needs`,
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
