// Baselines a text view is compared with, and the keyword needles generated from a text, shared
// by the trimmer's retention bench and the log informativeness bench.
import { truncateUtf8, truncateUtf8Start } from '@compaction/core';

/** Occurrences of `needle` in `haystack`. */
export const countOf = (haystack, needle) => {
  let n = 0;
  for (let at = haystack.indexOf(needle); at >= 0; at = haystack.indexOf(needle, at + 1)) n++;
  return n;
};

// Terminal escape codes that only present a text (colours, cursor moves): ECMA-48 control
// sequences and the short ones. String sequences (hyperlinks, a CI's timestamps) carry content
// and are matched only to be kept whole.
const ESCAPES =
  /\u001b(?:\[[0-?]*[ -/]*[@-~]|[\]PX^_][^\u0007\u001b\n]*(?:\u0007|\u001b\\)|[ -/]*[0-~])/g;
const STRING_OR_END = /^\u001b[\]PX^_\\]/;

/** What a reader sees of `text`: the text without the escape codes that only present it. */
export const readable = (text) =>
  text.replace(ESCAPES, (sequence) => (STRING_OR_END.test(sequence) ? sequence : ''));

/**
 * Whether a view shows `part` as a reader sees it: a view that leaves out a line's colour codes
 * still shows the line.
 */
export const shows = (view, part) => readable(view).includes(readable(part));

/** The first bytes that fit. */
export const headCut = (text, budget) => truncateUtf8(text, budget);

/** Half the budget from the start, the rest from the end. */
export const headTail = (text, budget) => {
  const head = truncateUtf8(text, Math.floor(budget / 2));
  return `${head}\n${truncateUtf8Start(text, budget - Buffer.byteLength(head) - 1)}`;
};

const STOP = new Set(
  'what the and for with that this does about find line tell show there near from value entry record item whose need identified mentioning reported anything happened look too its say log'.split(
    ' ',
  ),
);

/** Lines sharing the most words with the question, in their original order, within budget. */
export const lineFilter = (text, budget, question) => {
  const words = [...new Set(question.toLowerCase().match(/[\p{L}\p{N}_.:-]+/gu) ?? [])]
    .map((word) => word.replace(/[.:?-]+$/, ''))
    .filter((word) => word.length >= 3 && !STOP.has(word));
  const lines = text.split('\n');
  const scored = [];
  lines.forEach((line, index) => {
    const lower = line.toLowerCase();
    let score = 0;
    for (const word of words) if (lower.includes(word)) score++;
    if (score > 0) scored.push({ index, score, bytes: Buffer.byteLength(line) + 1 });
  });
  scored.sort((a, b) => b.score - a.score || a.index - b.index);
  const keep = [];
  let used = 0;
  for (const line of scored) {
    if (used + line.bytes > budget) continue;
    keep.push(line.index);
    used += line.bytes;
  }
  return keep
    .sort((a, b) => a - b)
    .map((index) => lines[index])
    .join('\n');
};

const WORD = /[A-Za-z0-9_][A-Za-z0-9_.:-]*[A-Za-z0-9_]/g;
const TEXT_PHRASES = [
  (a, b) => `What does the log say about ${a} and ${b}?`,
  (a, b) => `Find the line mentioning ${a} ${b}.`,
  (a, b) => `Is there anything about ${a}? Look for ${b} too.`,
  (a, b) => `${a} ${b}: what happened there?`,
  (a, b) => `Show me what is reported for ${b} near ${a}.`,
];

/**
 * Needles of a text: near each depth of `positions`, its rarest unique line, asked about by its
 * two rarest words; a hit needs the whole line in the view.
 */
export function textNeedles(path, text, positions) {
  const lines = text.split('\n');
  const frequency = new Map();
  const wordsOf = lines.map((line) => {
    const words = new Set(
      (line.match(WORD) ?? []).filter((word) => word.length >= 4).map((w) => w.toLowerCase()),
    );
    for (const word of words) frequency.set(word, (frequency.get(word) ?? 0) + 1);
    return words;
  });
  const needles = [];
  positions.forEach((position) => {
    const center = Math.floor(lines.length * position);
    const window = Math.max(5, Math.floor(lines.length * 0.02));
    let best;
    for (let i = Math.max(0, center - window); i < Math.min(lines.length, center + window); i++) {
      const line = lines[i].trim();
      if (line.length < 20 || line.length > 400 || countOf(text, line) !== 1) continue;
      const rare = [...wordsOf[i]].sort(
        (a, b) => frequency.get(a) - frequency.get(b) || (a < b ? -1 : a > b ? 1 : 0),
      );
      if (rare.length < 2) continue;
      const score = frequency.get(rare[0]) + frequency.get(rare[1]);
      if (!best || score < best.score) best = { score, line, words: rare.slice(0, 2) };
    }
    if (!best) return;
    const phrase = TEXT_PHRASES[(needles.length + path.length) % TEXT_PHRASES.length];
    needles.push({
      fixture: path,
      kind: 'text',
      question: phrase(best.words[0], best.words[1]),
      mustContain: [best.line],
    });
  });
  return needles;
}
