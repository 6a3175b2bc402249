import { alignToCodePoint, clusterEnds, firstTrustedBoundary } from './grapheme-segmenter.js';

/** A run of whole grapheme clusters cut from one end of a text. */
export interface GraphemeSlice {
  /** The cut text. */
  text: string;
  /** Grapheme clusters in `text`. */
  count: number;
  /** True when `text` is the whole input. */
  whole: boolean;
}

const INITIAL_UNITS_PER_GRAPHEME = 2;
const SLACK_UNITS = 32;

/**
 * The first `n` grapheme clusters of `text` (or all of it when it has fewer). Segmentation stops
 * once `n` clusters are found, so the cost follows the size of the answer, not of the input.
 * With `openEnd`, `text` is a window that goes on past its end, so its last cluster (which the
 * rest could extend) is never taken.
 */
export function headGraphemes(text: string, n: number, openEnd = false): GraphemeSlice {
  const want = Math.max(0, Math.floor(n));
  if (want === 0) return { text: '', count: 0, whole: text.length === 0 && !openEnd };
  let count = 0;
  let cut = 0;
  for (const end of clusterEnds(text, 0, text.length, openEnd)) {
    count++;
    cut = end;
    if (count === want) break;
  }
  return { text: text.slice(0, cut), count, whole: !openEnd && cut === text.length };
}

/**
 * The last `n` grapheme clusters of `text` (or all of it). A window at the end is segmented from
 * a boundary that holds whatever precedes it, doubled while it holds too few clusters. With
 * `openStart`, `text` is a window that began mid-stream, so its first cluster is never taken.
 */
export function tailGraphemes(text: string, n: number, openStart = false): GraphemeSlice {
  const want = Math.max(0, Math.floor(n));
  if (want === 0) return { text: '', count: 0, whole: text.length === 0 && !openStart };
  let window = want * INITIAL_UNITS_PER_GRAPHEME + SLACK_UNITS;
  for (;;) {
    const exhausted = window >= text.length;
    let start = exhausted ? 0 : alignToCodePoint(text, text.length - window);
    if (start > 0 || openStart) {
      const anchor = firstTrustedBoundary(text, start);
      if (anchor === undefined) {
        if (exhausted) return { text: '', count: 0, whole: false };
        window *= 2;
        continue;
      }
      start = anchor;
    }
    const ends = [...clusterEnds(text, start, text.length)];
    if (ends.length >= want || exhausted) {
      const from = ends.length > want ? ends[ends.length - want - 1]! : start;
      return {
        text: text.slice(from),
        count: Math.min(want, ends.length),
        whole: from === 0 && !openStart,
      };
    }
    window *= 2;
  }
}
