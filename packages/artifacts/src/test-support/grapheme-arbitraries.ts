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
