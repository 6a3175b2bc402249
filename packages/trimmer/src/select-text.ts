import { findHits, type RelevanceTerm, type TermCache } from './relevance.js';

/** How a text is split into units. */
export type TextUnit = 'lines' | 'sentences' | 'records' | 'hunks';

/** The kept view of a text, or `undefined` when no whole unit could be kept. */
export interface TextSelection {
  /** The kept units in their original order, each with its own separator. */
  body: string;
  unitsKept: number;
  unitsTotal: number;
  unit: TextUnit;
}

/** Shares of the budget given to the end and the start of a text before scored units. */
const TAIL_SHARE = 0.15;
const HEAD_SHARE = 0.1;
/** Average line length (UTF-16 units) above which a text is treated as prose. */
const PROSE_LINE_LENGTH = 400;
const NON_ASCII = /[^\x00-\x7f]/;
const SENTENCE_END = /[.!?。！？]+["')\]]*[ \t]+|\n+/g;

const DIFF_FILE_START = /(^|\n)diff --git [^\n]*\n/;
const HUNK_START = /(^|\n)@@ -\d+(?:,\d+)? \+\d+(?:,\d+)? @@/;

/** True when `text` is a unified diff with `diff --git` file headers and `@@` hunks. */
export function isUnifiedDiff(text: string): boolean {
  return DIFF_FILE_START.test(text) && HUNK_START.test(text);
}

/** True when `text` reads as lines (logs, tables, diffs, YAML) rather than prose. */
export function isLineOriented(text: string): boolean {
  let lines = 1;
  for (let i = text.indexOf('\n'); i >= 0; i = text.indexOf('\n', i + 1)) lines++;
  return lines >= 3 && text.length / lines <= PROSE_LINE_LENGTH;
}

/**
 * Unit boundaries of a unified diff: each file header block (from `diff --git` to its first
 * hunk) and each hunk is a unit, and every hunk names its header block as its parent, so a hunk
 * is never shown without the file it changes. Text before the first file header (a mail header
 * of `git format-patch`) is one unit of its own.
 */
function splitDiff(text: string): { starts: number[]; parents: Int32Array } {
  const starts: number[] = [0];
  const isHeader: boolean[] = [text.startsWith('diff --git ')];
  for (let i = text.indexOf('\n'); i >= 0 && i + 1 < text.length; i = text.indexOf('\n', i + 1)) {
    const at = i + 1;
    if (text.startsWith('diff --git ', at)) {
      starts.push(at);
      isHeader.push(true);
    } else if (text.startsWith('@@ ', at)) {
      starts.push(at);
      isHeader.push(false);
    }
  }
  const parents = new Int32Array(starts.length).fill(-1);
  let header = -1;
  for (let i = 0; i < starts.length; i++) {
    if (isHeader[i]) header = i;
    else if (header >= 0) parents[i] = header;
  }
  return { starts, parents };
}

/** Unit boundaries: `starts[i]` is where unit `i` begins; units tile the text. */
function splitUnits(text: string, unit: TextUnit): number[] {
  const starts = [0];
  if (unit === 'sentences') {
    SENTENCE_END.lastIndex = 0;
    for (let m = SENTENCE_END.exec(text); m; m = SENTENCE_END.exec(text)) {
      const at = m.index + m[0].length;
      if (at < text.length) starts.push(at);
    }
  } else {
    for (let i = text.indexOf('\n'); i >= 0 && i + 1 < text.length; i = text.indexOf('\n', i + 1)) {
      starts.push(i + 1);
    }
  }
  return starts;
}

/**
 * Keyword-scored selection of whole units (lines, sentences or records) to fit `budget` UTF-8
 * bytes, restored to their original order. The end of the text keeps a share of the budget (a
 * log's totals and failures sit there) and so does the start; the rest goes to the units that
 * match the most (and the rarest) terms, error-like ones included; what is left extends the head
 * and then the tail. Returns `undefined` when no unit is scored and `requireScore` is set, or when
 * no whole unit fits.
 */
export function selectText(input: {
  text: string;
  budget: number;
  unit: TextUnit;
  terms: readonly RelevanceTerm[];
  requireScore: boolean;
  termCache?: TermCache;
}): TextSelection | undefined {
  const { text, budget, unit } = input;
  const diff = unit === 'hunks' ? splitDiff(text) : undefined;
  const starts = diff ? diff.starts : splitUnits(text, unit);
  const parents = diff?.parents;
  const total = starts.length;
  const ascii = !NON_ASCII.test(text);
  const sizes = new Float64Array(total);
  for (let i = 0; i < total; i++) {
    const from = starts[i]!;
    const to = i + 1 < total ? starts[i + 1]! : text.length;
    sizes[i] = ascii ? to - from : Buffer.byteLength(text.slice(from, to), 'utf8');
  }

  const hits = findHits(text, input.terms, total, undefined, input.termCache);
  const scores = new Float64Array(total);
  let scored = 0;
  {
    let current = -1;
    let seen = new Set<number>();
    let u = 0;
    for (let h = 0; h < hits.positions.length; h++) {
      const position = hits.positions[h]!;
      while (u + 1 < total && starts[u + 1]! <= position) u++;
      if (u !== current) {
        current = u;
        seen = new Set();
      }
      const term = hits.termOf[h]!;
      if (seen.has(term)) continue;
      seen.add(term);
      if (scores[u] === 0) scored++;
      scores[u]! += hits.weights[term]!;
    }
  }
  if (scored === 0 && input.requireScore) return undefined;
  if (parents) {
    // A file whose header matches (its path names what was asked about) lends its hunks that
    // relevance, scaled down so a hunk that matches itself still ranks first.
    for (let i = 0; i < total; i++) {
      const parent = parents[i]!;
      if (parent >= 0 && scores[parent]! > 0) {
        if (scores[i] === 0) scored++;
        scores[i]! += scores[parent]! / 2;
      }
    }
  }

  const keep = new Uint8Array(total);
  let used = 0;
  const take = (i: number, limit: number): boolean => {
    if (keep[i] === 1) return true;
    const parent = parents ? parents[i]! : -1;
    const extra = parent >= 0 && keep[parent] === 0 ? sizes[parent]! : 0;
    if (used + sizes[i]! + extra > limit) return false;
    if (extra > 0) {
      keep[parent] = 1;
      used += extra;
    }
    keep[i] = 1;
    used += sizes[i]!;
    return true;
  };
  let tailEnd = total;
  const tailLimit = Math.floor(budget * TAIL_SHARE);
  while (tailEnd > 0 && take(tailEnd - 1, tailLimit)) tailEnd--;
  let headEnd = 0;
  const headLimit = used + Math.floor(budget * HEAD_SHARE);
  while (headEnd < tailEnd && take(headEnd, headLimit)) headEnd++;
  if (scored > 0) {
    const ranked: number[] = [];
    for (let i = 0; i < total; i++) if (scores[i]! > 0 && keep[i] === 0) ranked.push(i);
    ranked.sort((a, b) => scores[b]! - scores[a]! || a - b);
    for (const i of ranked) {
      if (budget - used < 1) break;
      take(i, budget);
    }
  }
  while (headEnd < tailEnd && take(headEnd, budget)) headEnd++;
  while (tailEnd > headEnd && take(tailEnd - 1, budget)) tailEnd--;

  const parts: string[] = [];
  let kept = 0;
  for (let i = 0; i < total; i++) {
    if (keep[i] !== 1) continue;
    kept++;
    parts.push(text.slice(starts[i]!, i + 1 < total ? starts[i + 1]! : text.length));
  }
  if (kept === 0) return undefined;
  return { body: parts.join(''), unitsKept: kept, unitsTotal: total, unit };
}
