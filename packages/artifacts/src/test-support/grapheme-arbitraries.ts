import fc from 'fast-check';

/** Pieces that stress grapheme segmentation: marks, ZWJ emoji, flags, CR LF, conjuncts, surrogates. */
export const TRICKY_PIECES = [
  'a',
  'Z',
  ' ',
  '\n',
  '\r',
  '\r\n',
  'e\u0301',
  'o\u0308\u0304',
  '\u0301',
  '\u200d',
  '\ufeff',
  '👍',
  '👍🏽',
  '👨‍👩‍👧‍👦',
  '🏳️‍🌈',
  '🇫',
  '🇫🇷',
  '🇩🇪',
  '🏴󠁧󠁢󠁳󠁣󠁴󠁿',
  'ക്ഷ',
  'ന്‍',
  'क्षि',
  '한',
  '\u1100\u1161\u11a8',
  '中文',
  '\ud800',
  '\udc00',
  'ـ',
  '\u0600\u0661',
  'x\u20dd',
  'ア\u3099',
  '가\u11a8',
  '€—…',
  '©\u200d🔥',
  'Ωж',
  '\uff76\uff9e',
  '\u0915\u094d\u0937',
  '1\ufe0f\u20e3',
  '❤\ufe0f\u200d🔥',
  '👩🏽\u200d💻',
  '\u200d👍',
  '👍\u200d',
  '🇦🇧🇨',
  'e\u0301\u200d',
  '\r\u0301',
  'Ж\u0483',
  '한\u0301',
  '\u0600x',
];

/** Strings built from tricky pieces, with runs of ASCII between them. */
export const trickyText = (maxPieces = 80): fc.Arbitrary<string> =>
  fc
    .array(
      fc.oneof(
        { weight: 3, arbitrary: fc.constantFrom(...TRICKY_PIECES) },
        { weight: 1, arbitrary: fc.string({ maxLength: 12 }) },
        { weight: 1, arbitrary: fc.string({ unit: 'grapheme', maxLength: 6 }) },
        { weight: 1, arbitrary: fc.string({ unit: 'binary', maxLength: 6 }) },
      ),
      { maxLength: maxPieces },
    )
    .map((pieces) => pieces.join(''));

/**
 * Pieces at the edges of the shapes counted without the segmenter (`walkEasyClusters`): Hangul
 * jamo and syllables of every type, marks inside and just outside its list, SpacingMark and
 * Prepend, BMP pictographs with and without ZWJ, modifiers and tags with no emoji, CJK
 * punctuation, kana voicing marks, supplementary ideographs and symbols, and lone surrogates.
 */
export const EDGE_PIECES = [
  '\u1100',
  '\u115f',
  '\ua960',
  '\u1160',
  '\ud7b0',
  '\u11a8',
  '\ud7fb',
  '가',
  '각',
  '\ud7a3',
  '\u0483',
  '\u036f',
  '\u0370',
  '\u0903',
  '\u093f',
  '\u0e33',
  '\u0600',
  '\u200c',
  '\u200d',
  '\u2764',
  '\u2764\ufe0f\u200d🔥',
  '🏴\u200d\u2620\ufe0f',
  '👍\u200d\u2713',
  '👍\u200d\u200d👍',
  '👍\u0301\u200d👍',
  'a\u200d👍',
  '\u2713\u200d👍',
  '🏽',
  '\u{e0067}',
  '\u{e0001}',
  '、',
  '。',
  '「',
  '\u302a',
  '\u3099',
  '\uff9e',
  '\u00ad',
  '\u2028',
  '\u{20000}',
  '\u{2a6d6}',
  '\u{1d165}',
  '\u{1fb00}',
  '\u{1faff}',
  '\u{1f000}',
  '\ud83c',
  '\udffb',
  '\ud83c\udde6',
  '\ud83d',
  '\r',
  '\n',
  'x',
  '日',
];

/** Strings of tricky and edge pieces with short runs of anything between them. */
export const edgeText = (maxPieces = 60): fc.Arbitrary<string> =>
  fc
    .array(
      fc.oneof(
        { weight: 4, arbitrary: fc.constantFrom(...EDGE_PIECES) },
        { weight: 2, arbitrary: fc.constantFrom(...TRICKY_PIECES) },
        { weight: 1, arbitrary: fc.string({ unit: 'binary', maxLength: 4 }) },
      ),
      { maxLength: maxPieces },
    )
    .map((pieces) => pieces.join(''));

let reference: Intl.Segmenter | undefined;

/** Start indexes of every grapheme cluster plus the end, by `Intl.Segmenter` over the whole text. */
export function referenceBoundaries(text: string): Set<number> {
  reference ??= new Intl.Segmenter(undefined, { granularity: 'grapheme' });
  const boundaries = new Set<number>([text.length]);
  for (const segment of reference.segment(text)) boundaries.add(segment.index);
  return boundaries;
}

/** Grapheme clusters in `text`, by `Intl.Segmenter`. */
export function referenceCount(text: string): number {
  reference ??= new Intl.Segmenter(undefined, { granularity: 'grapheme' });
  let count = 0;
  for (const _ of reference.segment(text)) count++;
  return count;
}
