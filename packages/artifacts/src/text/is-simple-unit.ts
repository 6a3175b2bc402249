/**
 * Code units that are a whole code point of grapheme class Other, Control or LF (or one Hangul
 * syllable) and never join with their neighbours on their own: no Extend, ZWJ, SpacingMark,
 * Prepend, Regional_Indicator or Hangul jamo. Latin, Greek, Cyrillic, general punctuation,
 * symbols, CJK punctuation, kana, CJK ideographs, Hangul syllables and fullwidth forms.
 */
export function isSimpleUnit(unit: number): boolean {
  if (unit < 0x300) return true;
  if (unit < 0x2010) return unit >= 0x370 && unit <= 0x482;
  if (unit <= 0x2bff) return unit <= 0x205f || (unit >= 0x2070 && unit <= 0x20cf) || unit >= 0x2100;
  if (unit < 0xac00) {
    return (
      // CJK punctuation (、。「」〜...) but the tone and other marks U+302A to U+302F.
      (unit >= 0x3000 && unit <= 0x3029) ||
      (unit >= 0x3030 && unit <= 0x303f) ||
      (unit >= 0x3040 && unit <= 0x3098) ||
      (unit >= 0x30a0 && unit <= 0x30ff) ||
      (unit >= 0x3400 && unit <= 0x4dbf) ||
      (unit >= 0x4e00 && unit <= 0x9fff)
    );
  }
  return unit <= 0xd7a3 || (unit >= 0xff01 && unit <= 0xff9d);
}
