import { isSimpleUnit } from './is-simple-unit.js';
import { ClusterTally, isEasyBoundary, walkEasyClusters } from './walk-easy-clusters.js';

let segmenter: Intl.Segmenter | undefined;

/**
 * The shared extended-grapheme-cluster segmenter. Grapheme segmentation is locale-independent,
 * so one instance serves every caller; it is created on first use, not at import.
 */
export function graphemeSegmenter(): Intl.Segmenter {
  segmenter ??= new Intl.Segmenter(undefined, { granularity: 'grapheme' });
  return segmenter;
}

const CR = 0x0d;
const LF = 0x0a;

/**
 * Index of the first unit in `text[from, end)` that is not simple, or `end`: a scan of that
 * range only, so a window's cost never depends on how far the next complex unit lies past it.
 */
export function nextNonSimple(text: string, from: number, end: number): number {
  for (let i = from; i < end; i++) if (!isSimpleUnit(text.charCodeAt(i))) return i;
  return end;
}

/**
 * True when a grapheme boundary certainly falls before index `i`, judged from the two code
 * units around it alone: after LF, or between two simple units (`isSimpleUnit`) other than
 * CR LF. No rule of UAX #29 joins two such units, whatever came before them.
 */
export function isCertainBoundary(text: string, i: number): boolean {
  if (i <= 0 || i >= text.length) return true;
  const before = text.charCodeAt(i - 1);
  if (before === LF) return true;
  const after = text.charCodeAt(i);
  return isSimpleUnit(before) && isSimpleUnit(after) && !(before === CR && after === LF);
}

const EXTENDING = /[\p{Grapheme_Extend}\u200d]/u;
const REGIONAL = /\p{Regional_Indicator}/u;
const PICTOGRAPHIC_OR_REGIONAL = /[\p{Extended_Pictographic}\p{Regional_Indicator}]/u;

/**
 * True when a boundary that a segmenter reported at `i`, having started somewhere before
 * `i - 1`, holds whatever came before the start. The rules that look further back than one
 * character (emoji ZWJ sequences, Indic conjuncts, regional-indicator pairs) only join after an
 * extending character or ZWJ, or before a regional indicator; and they only join before an
 * emoji, a regional indicator or an Indic consonant, none of which is a simple unit. So a
 * boundary before a simple unit that is no emoji (the `e` of decomposed `e\u0301e\u0301`) holds.
 */
export function isContextFreeBoundary(text: string, i: number): boolean {
  if (isCertainBoundary(text, i)) return true;
  const after = String.fromCodePoint(text.codePointAt(i)!);
  if (isSimpleUnit(text.charCodeAt(i)) && !PICTOGRAPHIC_OR_REGIONAL.test(after)) return true;
  const before = String.fromCodePoint(text.codePointAt(codePointStartBefore(text, i))!);
  return !EXTENDING.test(before) && !REGIONAL.test(after);
}

/** Characters that attach to what precedes them: marks, emoji modifiers, ZWJ, tags. */
const ATTACHING = /[\p{M}\p{Grapheme_Extend}\p{Emoji_Modifier}\u200d]/u;

/**
 * True when a cut before `i` keeps a base with its marks: the code point at `i` does not attach
 * to what precedes it and the one before is no ZWJ. Not a grapheme boundary in general (a
 * regional-indicator pair or an Indic conjunct may still be split): the fallback of a window
 * that found no trusted boundary within its reach.
 */
function isSafeCut(text: string, i: number): boolean {
  if (i <= 0 || i >= text.length) return true;
  const unit = text.charCodeAt(i);
  if (unit >= 0xdc00 && unit <= 0xdfff && isHighSurrogate(text.charCodeAt(i - 1))) return false;
  if (text.charCodeAt(i - 1) === 0x200d) return false;
  if (unit < 0x300) return true;
  return !ATTACHING.test(String.fromCodePoint(text.codePointAt(i)!));
}

function isHighSurrogate(unit: number): boolean {
  return unit >= 0xd800 && unit <= 0xdbff;
}

/**
 * The last safe cut (`isSafeCut`) in `(0, i]`, or `i` moved off a surrogate pair when there is
 * none: never splits a code point, and keeps a base with its marks when the text allows it.
 */
export function safeCutBefore(text: string, i: number): number {
  for (let p = i; p > 0; p--) if (isSafeCut(text, p)) return p;
  return alignToCodePoint(text, i);
}

/**
 * The first safe cut (`isSafeCut`) in `[i, text.length)`, never 0 (the start of a window that
 * began mid-stream is no cut to trust), or `i` moved off a surrogate pair when there is none.
 */
export function safeCutAfter(text: string, i: number): number {
  for (let p = Math.max(i, 1); p < text.length; p++) if (isSafeCut(text, p)) return p;
  return alignToCodePoint(text, i);
}

/** Index of the code point that ends just before `i` (steps back over a surrogate pair). */
export function codePointStartBefore(text: string, i: number): number {
  const low = text.charCodeAt(i - 1);
  if (i >= 2 && low >= 0xdc00 && low <= 0xdfff) {
    const high = text.charCodeAt(i - 2);
    if (high >= 0xd800 && high <= 0xdbff) return i - 2;
  }
  return i - 1;
}

/** `i` moved back off the low half of a surrogate pair, so a slice never splits one. */
export function alignToCodePoint(text: string, i: number): number {
  if (i <= 0 || i >= text.length) return i;
  const unit = text.charCodeAt(i);
  const previous = text.charCodeAt(i - 1);
  if (unit >= 0xdc00 && unit <= 0xdfff && previous >= 0xd800 && previous <= 0xdbff) return i - 1;
  return i;
}

/**
 * Units handed to `Intl.Segmenter` at once. V8's segment iterator slows down with the length of
 * the string it walks (quadratically, measured on Node 20), so long texts are fed in slices.
 */
const SLICE_UNITS = 2048;

function* segmenterClusterEnds(
  text: string,
  from: number,
  to: number,
  openEnd = false,
): Generator<number, void, undefined> {
  if (openEnd && to > from) {
    // A window cut between the halves of a surrogate pair ends before the pair.
    const last = text.charCodeAt(to - 1);
    if (last >= 0xd800 && last <= 0xdbff) to--;
  }
  let start = from;
  let span = SLICE_UNITS;
  while (start < to) {
    const end = start + span >= to ? to : alignToCodePoint(text, start + span);
    let pending = -1;
    let lastStart = start;
    let yielded = false;
    for (const segment of graphemeSegmenter().segment(text.slice(start, end))) {
      if (pending >= 0) {
        yield pending;
        yielded = true;
      }
      lastStart = start + segment.index;
      pending = lastStart + segment.segment.length;
    }
    if (end === to) {
      if (!openEnd && pending >= 0) yield pending;
      return;
    }
    // The slice's last cluster may go on past the slice: start the next slice with it.
    if (!yielded) {
      span *= 2;
      continue;
    }
    start = lastStart;
    span = SLICE_UNITS;
  }
}

/**
 * True when `text[from, end)` is regional indicators only (U+1F1E6 to U+1F1FF, each a surrogate
 * pair). No boundary inside such a run holds whatever came before it (`isContextFreeBoundary`:
 * a regional indicator follows), so the search for one skips it without segmenting it.
 */
function isRegionalRun(text: string, from: number, end: number): boolean {
  if ((end - from) % 2 !== 0) return false;
  for (let i = from; i < end; i += 2) if (!isRegionalAt(text, i)) return false;
  return true;
}

/** True when a regional indicator (U+1F1E6 to U+1F1FF) starts at `i`. */
function isRegionalAt(text: string, i: number): boolean {
  const low = text.charCodeAt(i + 1);
  return text.charCodeAt(i) === 0xd83c && low >= 0xdde6 && low <= 0xddff;
}

/**
 * The first boundary after `start` (and before `limit`) that is exact whatever came before
 * `start`, scanning slices of about 2 KiB (a slice of regional indicators only, which holds
 * none, is skipped unsegmented); `undefined` when there is none.
 */
export function firstTrustedBoundary(
  text: string,
  start: number,
  limit = text.length,
): number | undefined {
  // Between two simple units the next unit starts a cluster whatever came before: plain text
  // needs no segmenter (the first one a process creates costs ~15 ms of ICU set-up).
  if (start + 1 < limit && isCertainBoundary(text, start + 1)) return start + 1;
  let from = start;
  while (from < limit - 1) {
    const end = from + SLICE_UNITS >= limit ? limit : alignToCodePoint(text, from + SLICE_UNITS);
    const slice = isRegionalRun(text, from, end)
      ? []
      : graphemeSegmenter().segment(text.slice(from, end));
    for (const segment of slice) {
      if (segment.index === 0) continue;
      const at = from + segment.index;
      if (isContextFreeBoundary(text, at)) return at;
    }
    if (end === limit) return undefined;
    // Overlap by one code point so a boundary at the slice's end is judged in the next slice.
    from = codePointStartBefore(text, end);
  }
  return undefined;
}

/** Simple runs shorter than this between two complex stretches are segmented with them. */
export const MERGE_GAP = 48;

/**
 * The tally of `segmenterStretchEnd`'s trial walks (their count is not used), kept for good. It
 * also keeps `ClusterTally`'s hidden class alive: V8 reaches a hidden class only through
 * transitions it holds weakly, so once the last tally died, a full garbage collection freed the
 * class and threw away `walkEasyClusters`'s optimised code, and the next count of a long text
 * ran unoptimised (up to ten times the time on the bench, which collects before each run).
 */
const PROBE = new ClusterTally();

/**
 * Where the segmenter's stretch from `at` (a boundary where `walkEasyClusters` stopped) ends:
 * at the first `isEasyBoundary` after it, unless the easy walk stops again within `MERGE_GAP`
 * units of that, so dense complex text goes to the segmenter in one piece, not one call each.
 */
function segmenterStretchEnd(text: string, at: number, to: number): number {
  const probe = PROBE;
  let from = at + 1;
  for (;;) {
    let stop = from;
    while (stop < to && !isEasyBoundary(text, stop, to)) stop++;
    if (stop >= to) return to;
    const reach = Math.min(to, stop + MERGE_GAP);
    const stopped = walkEasyClusters(text, stop, reach, probe);
    if (stopped === reach) return stop;
    from = stopped + 1;
  }
}

/**
 * Walks the grapheme clusters of `text[from, to)`, where `from` is a boundary, adding each to
 * `tally`, and returns where it stopped: `to`, or the start of a long run of simple units when
 * `tally.simpleRun` asks for that. Clusters of the shapes `walkEasyClusters` knows are walked
 * unit by unit; only the stretches around the others go to `Intl.Segmenter`. With `openEnd`,
 * the text goes on after `to` and the last cluster (which it could extend) is left out;
 * without, `to` must be a boundary.
 */
export function walkClusters(
  text: string,
  from: number,
  to: number,
  openEnd: boolean,
  tally: ClusterTally,
): number {
  let at = from;
  while (at < to) {
    at = walkEasyClusters(text, at, to, tally);
    if (tally.inSimpleRun) return at;
    if (at >= to) {
      // The walk's last cluster ends at `to`, where the text may go on to extend it.
      if (openEnd) {
        tally.count--;
        tally.ends?.pop();
      }
      break;
    }
    const stop = segmenterStretchEnd(text, at, to);
    for (const clusterEnd of segmenterClusterEnds(text, at, stop, openEnd && stop === to)) {
      tally.count++;
      tally.ends?.push(clusterEnd);
    }
    at = stop;
  }
  return to;
}

/** End index of every grapheme cluster in `text[from, to)` (see `walkClusters`). */
function clusterEndsIn(text: string, from: number, to: number, openEnd: boolean): number[] {
  const ends: number[] = [];
  walkClusters(text, from, to, openEnd, new ClusterTally({ ends }));
  return ends;
}

/** Longest complex stretch handed to the segmenter at once by `clusterEnds`. */
const REGION_UNITS = 4096;

/**
 * End index of every grapheme cluster in `text[from, to)`, in order, where `from` is a true
 * boundary. With `openEnd`, the text goes on after `to`, so the last cluster (which it could
 * extend) is not reported. Runs of simple units are walked without the segmenter; the complex
 * stretches between them go to `Intl.Segmenter` in slices of about 2 KiB (V8's iterator slows
 * down with the length of the string it walks), so the cost is linear in `to - from`.
 */
export function* clusterEnds(
  text: string,
  from: number,
  to: number,
  openEnd = false,
): Generator<number, void, undefined> {
  let start = from;
  while (start < to) {
    // GB12/13: regional indicators pair from the start of their run, and `start` is a boundary,
    // so a pair followed by another indicator is a whole cluster: no segmenter needed.
    while (start + 4 <= to && isRegionalAt(text, start) && isRegionalAt(text, start + 2)) {
      const end = start + 4;
      if (end === to) {
        if (!openEnd) yield end;
        return;
      }
      if (!isRegionalAt(text, end)) break;
      yield end;
      start = end;
    }
    const complex = nextNonSimple(text, start, to);
    // Every boundary inside a simple run is certain; the run's last unit may take marks.
    let runEnd = complex === to ? to : complex - 1;
    if (
      runEnd > start &&
      runEnd < to &&
      text.charCodeAt(runEnd - 1) === 0x0d &&
      text.charCodeAt(runEnd) === 0x0a
    ) {
      runEnd--;
    }
    for (let p = start + 1; p <= runEnd; p++) {
      if (p === to && openEnd) return;
      if (text.charCodeAt(p - 1) === 0x0d && text.charCodeAt(p) === 0x0a) continue;
      yield p;
    }
    if (runEnd >= to) return;
    start = Math.max(start, runEnd);
    // The stretch ends at a certain boundary, taking in nearby complex units, but stays short
    // so that walking a window costs what the window holds, not what the text holds.
    // On a code point, so the walk does not give up on an emoji cut in half by the reach.
    const limit = start + REGION_UNITS >= to ? to : alignToCodePoint(text, start + REGION_UNITS);
    let end = complex + 1;
    for (;;) {
      while (end < limit && !isCertainBoundary(text, end)) end++;
      const next = end < limit ? nextNonSimple(text, end, limit) : limit;
      if (next >= limit || next - end >= MERGE_GAP) break;
      end = next + 1;
    }
    if (end === to || isCertainBoundary(text, end)) {
      yield* clusterEndsIn(text, start, end, openEnd && end === to);
      start = end;
      continue;
    }
    // No certain boundary within reach: keep every cluster but the last, which may go on.
    const found = clusterEndsIn(text, start, end, true);
    yield* found;
    if (found.length === 0) {
      yield* segmenterClusterEnds(text, start, to, openEnd);
      return;
    }
    start = found.at(-1)!;
  }
}
