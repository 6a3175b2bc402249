import type { JsonTapeWordSearch } from './json-tape.js';

/**
 * The structure and minified sizes of a tape's first values, as columns: entry `i` describes
 * record `i`. Offsets index the tape's text in UTF-16 units; sizes are UTF-8 bytes of the value
 * written minified (no whitespace outside strings, strings and numbers verbatim). The arrays are
 * the caller's own, unless borrowed (see `JsonTapeReader.inventory`).
 */
export interface JsonTapeInventory {
  /** Values described: the first `count` records of the tape. */
  readonly count: number;
  /**
   * The record's kind: `TAPE_OBJECT`, `TAPE_ARRAY`, `TAPE_STRING`, or `TAPE_NUMBER` for any
   * other scalar (`TAPE_LITERAL` is reported as `TAPE_NUMBER`).
   */
  readonly kind: Uint8Array;
  /** The record of the enclosing container; -1 for the root. */
  readonly parent: Int32Array;
  /** The record after the value's subtree (`TAPE_NEXT`), capped at `count`. */
  readonly next: Int32Array;
  /** For an object member, index of its key's opening quote; -1 otherwise. */
  readonly keyStart: Int32Array;
  /** UTF-8 bytes of a member's key as written, quotes included; 0 otherwise. */
  readonly keyBytes: Int32Array;
  /** For an object member, index just past its key's closing quote; -1 otherwise. */
  readonly keyEnd: Int32Array;
  /** Index of the value's first unit. */
  readonly start: Int32Array;
  /** Index just past the value's last unit. */
  readonly end: Int32Array;
  /** Minified UTF-8 bytes of the value, its whole subtree for a container. */
  readonly valueBytes: Int32Array;
  /**
   * Minified UTF-8 bytes of the value with its key: `keyBytes + 1 + valueBytes` for a member
   * (the colon), `valueBytes` otherwise.
   */
  readonly unitBytes: Int32Array;
  /** Position among the parent's children, from 0. */
  readonly childIndex: Int32Array;
  /** For an object member, `textHash` of its key between the quotes; 0 otherwise. */
  readonly keyHash: Int32Array;
  /**
   * For a scalar, `textHash` of its text (a string's between its quotes, escapes as written);
   * 0 for a container.
   */
  readonly valueHash: Int32Array;
  /** Minified UTF-8 bytes of the whole document (every record, described or not). */
  readonly rootBytes: number;
  /**
   * UTF-8 bytes of the whole text beyond one per UTF-16 unit: the text's UTF-8 size is
   * `text.length + extraBytes`. A surrogate pair is 4 bytes, a lone surrogate 3 (as
   * `TextEncoder` writes U+FFFD).
   */
  readonly extraBytes: number;
}

/**
 * The shape of an inventory's values (see `JsonTapeReader.signatures`): each value's signature,
 * its path from the root with array positions and map keys left out, so that the same field of
 * every record of a list shares one. Signatures are numbered in document order of their first
 * value; entry `s` of the per-signature columns describes signature `s`.
 */
export interface JsonTapeSignatures {
  /** Signatures in all (the per-signature columns' length). */
  readonly count: number;
  /** Signature of each value. */
  readonly of: Int32Array;
  /** Per value: the next value of its signature, -1 at the last. */
  readonly nextSame: Int32Array;
  /** Parent signature (-1 for the root's). */
  readonly parent: Int32Array;
  /** How it steps from its parent: 0 the root, 1 by key, 2 any item or map member, 3 a tuple position. */
  readonly step: Uint8Array;
  /** Its first value. */
  readonly first: Int32Array;
  /** Its last value. */
  readonly last: Int32Array;
  /** Its values. */
  readonly nodes: Int32Array;
  /** Its values that are objects. */
  readonly objects: Int32Array;
  /** Its values that are leaves (scalars, empty containers). */
  readonly leaves: Int32Array;
  /** Steps from the root. */
  readonly depth: Int32Array;
  /** Minified UTF-8 bytes of its values with their keys (`unitBytes`), summed; 0 for the root's. */
  readonly bytes: Float64Array;
  /** The biggest of its values, in the same bytes (0 for the root's). */
  readonly maxBytes: Int32Array;
}

/** What `JsonTapeReader.valueStatistics` counts as new units and as numbers. */
export interface JsonTapeValueOptions {
  /** Units of a value compared with the previous sampled value of its signature. */
  readonly prefix: number;
  /** Values of each signature sampled for new units: its first this many. */
  readonly samples: number;
  /** Digits of the longest number read (a sign besides): longer ones are ids. */
  readonly digits: number;
  /** `textHash` of `true`, `false` and `null`: a scalar with another hash is a number. */
  readonly literals: readonly [number, number, number];
}

/**
 * What the values of each signature are (see `JsonTapeReader.valueStatistics`): per value, per entry
 * (a distinct value of one signature and kind, told apart by its hash, and past 48 units by its
 * length and units too), and
 * per signature. Only values inside a record count.
 */
export interface JsonTapeValues {
  /** Per value: the nearest record above it, -1 when none is. */
  readonly recordAbove: Int32Array;
  /** Per value: its entry, -1 when it has none (a container, or a value outside records). */
  readonly entryOf: Int32Array;
  /** Entries in all (the per-entry columns' length), numbered in order of their first value. */
  readonly entries: number;
  /** Per entry: its signature. */
  readonly entrySignature: Int32Array;
  /** Per entry: its values. */
  readonly entryCount: Int32Array;
  /** Per entry: its first value. */
  readonly entryFirst: Int32Array;
  /** Per signature: records with any of its values. */
  readonly presence: Int32Array;
  /** Per signature: its leaf values. */
  readonly values: Int32Array;
  /** Per signature: its distinct values. */
  readonly distinct: Int32Array;
  /** Per signature: its values over 48 units. */
  readonly unhashed: Int32Array;
  /** Per signature: its numbers read (integers; see `unreadNumbers`). */
  readonly numbers: Int32Array;
  /**
   * Per signature: 1 when one of its numbers has a fraction or an exponent, which the pass does
   * not read (reading them as `Number` does needs JavaScript): `numbers`, `numberSum` and
   * `numberSquares` then count none of its numbers, and the caller reads them all.
   */
  readonly unreadNumbers: Uint8Array;
  /**
   * Per signature: 1 when every one of its nodes inside a record (a container too) is a string
   * that opens with an ISO 8601 date (`dddd-dd-dd`, between its quotes) and is, as text, at or
   * after the one before it in the document (unit by unit, a prefix first: as `<` orders
   * strings), so in time order; else 0.
   */
  readonly isoInOrder: Uint8Array;
  /** Per signature: its values' units (a string's between its quotes). */
  readonly valueUnits: Float64Array;
  /**
   * Per signature: of its first `samples` values, the units past the prefix each shares with the
   * one before it (compared up to `prefix` units; one at least each; all shared for the same
   * value again).
   */
  readonly novelUnits: Float64Array;
  /** Per signature: the units of those first `samples` values. */
  readonly sampledUnits: Float64Array;
  /** Per signature: the sum of its numbers read. */
  readonly numberSum: Float64Array;
  /** Per signature: the sum of their squares. */
  readonly numberSquares: Float64Array;
}

/** What `withJsonTape` lends its reader besides the tape: work done where the tape already is. */
export interface JsonTapeReader extends JsonTapeWordSearch {
  /**
   * The inventory of the tape's first `maxValues` records (all of them when there are fewer; a
   * count below 1 gives none), computed in WebAssembly in one pass over the records, or
   * undefined when that pass cannot run (no memory left for it): compute it from the records
   * instead. Every record is still sized into its ancestors and into `rootBytes`. The pass may
   * grow the memory the tape's records are a view of, so read `tape.records` again after it
   * (the lent tape's `records` is updated).
   *
   * With `borrow`, the columns are views of that memory rather than copies: valid only while
   * the reader is lent (the memory is reused for the next text), and they must not be written.
   * Copying them costs more than the pass itself on a text of few, long values, mostly in the
   * fresh memory the copies touch; a caller that is done with the inventory before its reader
   * returns saves that.
   */
  inventory(maxValues: number, borrow?: boolean): JsonTapeInventory | undefined;
  /**
   * The signatures of the last `inventory`'s values, computed in WebAssembly where its columns
   * are, as the trimmer's `jsonSignatures` computes them from the same columns (a trimmer test
   * compares the two): a container's children step by key, or as items when it is an array of
   * more than 16 items or of any container, or an object of at least 8 members that are all
   * non-empty objects (a map), or by position in a shorter array of scalars (a tuple). Undefined
   * when no inventory was computed in WebAssembly, or when its signatures need more memory than
   * there is (memory never grows for them: that would detach a borrowed inventory). With
   * `borrow`, `of` and `nextSame` are views of the lent memory, as `inventory`'s columns are.
   */
  signatures(borrow?: boolean): JsonTapeSignatures | undefined;
  /**
   * What the values of each of the last `signatures`' signatures are, over its values, computed
   * in WebAssembly where the columns are, as the trimmer's record analysis gathers them (a
   * trimmer test compares the two): `records` holds a byte per signature, 1 for those whose
   * objects are records, and values count only inside a record. Undefined when the last
   * `signatures` gave nothing, or when memory lacks room (it never grows for this: it uses the
   * room the tape's memory has past the signatures). With `borrow`, the per-value and per-entry
   * columns are views of the lent memory.
   */
  valueStatistics(
    records: Uint8Array,
    options: JsonTapeValueOptions,
    borrow?: boolean,
  ): JsonTapeValues | undefined;
}
