/**
 * A validated JSON text as a flat index of its values, built without creating them: one record
 * per value, in text order (pre-order), so a reader visits only the parts it keeps and slices
 * numbers and strings from the text verbatim.
 *
 * Record `i` occupies `records[i * TAPE_STRIDE ... + TAPE_STRIDE)`; record 0 is the root. The
 * children of a container record `i` are `i + 1`, then `next` of each child in turn, up to
 * `next` of `i`.
 */
export interface JsonTape {
  /** The text the offsets index (a leading byte-order mark already removed). */
  readonly text: string;
  /** Records on the tape. */
  readonly count: number;
  /** `count * TAPE_STRIDE` fields. */
  readonly records: Int32Array;
}

/** Where words may start in a tape's text, read where the text already is (see `withJsonTape`). */
export interface JsonTapeWordSearch {
  /**
   * A batch of offsets in the text, ascending, from `from` on, where one of `words` (printable
   * ASCII, matched in any case) may start; empty once there are no more. Every place where one
   * of them starts is in some batch (ask again from just past the last offset), but not every
   * offset given is such a place (only a fingerprint of the words' first five characters is
   * compared), so check each. The array is valid until the next call. Pass the same `words` array each
   * time: its fingerprint is computed once per array. Throws a RangeError for a word that is
   * empty or not printable ASCII.
   */
  candidates(words: readonly string[], from: number): Int32Array;
  /**
   * As `candidates`, but only offsets inside string values, between their quotes (keys are not
   * values): every place in a string value where one of `words` starts is in some batch. Where
   * a document's words are, and for a list of records a fraction of its text to search.
   */
  stringCandidates(words: readonly string[], from: number): Int32Array;
  /**
   * As `candidates`, but only the offsets where one of `words` starts, each checked in full
   * (A–Z in the text read as a–z), with a bit per word that starts there (bit k for
   * `words[k]`). `words` must be lower-case printable ASCII, not empty. A word whose bit is set
   * in `tokenStarts` (default none) is looked for only where no ASCII letter or digit comes
   * right before it: for a word only a whole token matches, which then costs nothing inside a
   * long token. Undefined where the words are more than `JSON_TAPE_MAX_WORDS` or longer in all
   * than `JSON_TAPE_MAX_WORD_UNITS` units: `candidates` then, each checked by the caller.
   */
  wordStarts?(
    words: readonly string[],
    from: number,
    tokenStarts?: number,
  ): JsonTapeWordStarts | undefined;
}

/** A batch of `JsonTapeWordSearch.wordStarts`. */
export interface JsonTapeWordStarts {
  /** Offsets in the text, ascending. */
  at: Int32Array;
  /** Per offset, the bits of the words that start there. */
  words: Int32Array;
  /** Where to ask from for the next batch, -1 when there is none. The arrays are valid until the next call. */
  next: number;
}

/** The most words `JsonTapeWordSearch.wordStarts` takes (a bit each in an i32). */
export const JSON_TAPE_MAX_WORDS = 32;
/** The most units all words of `JsonTapeWordSearch.wordStarts` may have together. */
export const JSON_TAPE_MAX_WORD_UNITS = 2048;

/** Fields per record. */
export const TAPE_STRIDE = 8;

/** Field: the value's kind, one of the `TAPE_*` kinds below. */
export const TAPE_KIND = 0;
/** Field: index in the text of the value's first unit. */
export const TAPE_START = 1;
/** Field: index in the text just past the value's last unit. */
export const TAPE_END = 2;
/** Field: the record after this value's subtree (its next sibling, or its parent's next). */
export const TAPE_NEXT = 3;
/**
 * Field: for an array its items, for an object its members as written (a duplicate key counts
 * each time; JSON.parse keeps the last value at the first one's place); 0 for scalars.
 */
export const TAPE_SIZE = 4;
/** Field: for an object member, index of its key's opening quote; -1 otherwise. */
export const TAPE_KEY_START = 5;
/** Field: for an object member, index just past its key's closing quote; -1 otherwise. */
export const TAPE_KEY_END = 6;
/**
 * Field: the `TAPE_ESCAPED_VALUE`, `TAPE_ESCAPED_KEY`, `TAPE_NON_ASCII_VALUE` and
 * `TAPE_NON_ASCII_KEY` bits.
 */
export const TAPE_FLAGS = 7;

/** Kind: an object. */
export const TAPE_OBJECT = 1;
/** Kind: an array. */
export const TAPE_ARRAY = 2;
/** Kind: a string. */
export const TAPE_STRING = 3;
/** Kind: a number (its text is exactly the source token). */
export const TAPE_NUMBER = 4;
/** Kind: `true`, `false` or `null`. */
export const TAPE_LITERAL = 5;

/** Flag: the string value contains a backslash (an escape), so its text is not its value. */
export const TAPE_ESCAPED_VALUE = 1;
/** Flag: the member's key contains a backslash. */
export const TAPE_ESCAPED_KEY = 2;
/**
 * Flag: the string value's text holds a unit beyond ASCII (U+0080 on), so its UTF-8 size exceeds
 * its length. An escape such as `\u00e9` is ASCII text and does not set it.
 */
export const TAPE_NON_ASCII_VALUE = 4;
/** Flag: the member's key text holds a unit beyond ASCII. */
export const TAPE_NON_ASCII_KEY = 8;
