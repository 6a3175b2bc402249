import type { JsonTape, JsonTapeInventory, JsonTapeReader } from '@compaction/core';
import {
  TAPE_ARRAY,
  TAPE_END,
  TAPE_FLAGS,
  TAPE_KEY_END,
  TAPE_KEY_START,
  TAPE_KIND,
  TAPE_NEXT,
  TAPE_NON_ASCII_KEY,
  TAPE_NON_ASCII_VALUE,
  TAPE_OBJECT,
  TAPE_START,
  TAPE_STRIDE,
  TAPE_STRING,
} from '@compaction/core/internal';
import type { StopCheck } from '../engine/stop-check.js';
import {
  collectErrorWords,
  collectErrorWordsWith,
  type ErrorMatcher,
  type JsonInventory,
  type KeyCheck,
  NODE_ARRAY,
  NODE_OBJECT,
  NODE_SCALAR,
  NODE_STRING,
} from './json-inventory.js';
import { textHashColumns } from './text-hash-columns.js';

/**
 * UTF-8 bytes beyond one per UTF-16 unit in `text[from, to)`: 1 for U+0080–U+07FF, 2 for the
 * rest of the BMP and for a lone surrogate (3 bytes, as `TextEncoder` writes U+FFFD), 2 for a
 * surrogate pair (4 bytes for 2 units).
 */
function extraUtf8Bytes(text: string, from: number, to: number): number {
  let extra = 0;
  for (let i = from; i < to; i++) {
    const c = text.charCodeAt(i);
    if (c < 0x80) continue;
    if (c < 0x800) extra += 1;
    else {
      extra += 2;
      if (c >= 0xd800 && c <= 0xdbff) {
        const low = text.charCodeAt(i + 1);
        if (low >= 0xdc00 && low <= 0xdfff && i + 1 < to) i++;
      }
    }
  }
  return extra;
}

const EMPTY_RECORDS = new Int32Array(0);

/**
 * Whether an offset lies inside a key of the tape, asked with ascending offsets: keys are in
 * text order on the tape, so one cursor walks them. A class, not a closure: a closure made per
 * call gets its own optimised code, compiled again on every call.
 */
class TapeKeys implements KeyCheck {
  private records: Int32Array = EMPTY_RECORDS;
  private total = 0;
  private cursor = 0;

  /** Starts over on `records` (`total` of them). */
  reset(records: Int32Array, total: number): void {
    this.records = records;
    this.total = total;
    this.cursor = 0;
  }

  contains(at: number): boolean {
    const { records, total } = this;
    let cursor = this.cursor;
    while (
      cursor < total &&
      (records[cursor * TAPE_STRIDE + TAPE_KEY_START]! < 0 ||
        records[cursor * TAPE_STRIDE + TAPE_KEY_END]! <= at)
    ) {
      cursor++;
    }
    this.cursor = cursor;
    return cursor < total && records[cursor * TAPE_STRIDE + TAPE_KEY_START]! <= at;
  }
}

/**
 * The key cursor between calls. Keeping one alive keeps its hidden class alive: V8 reaches the
 * class of an instance with all its fields through transitions it holds only weakly, so once
 * the last instance is collected, a full garbage collection frees that class and throws away
 * the optimised code of every reader that expects it (this file's loop and the error-word
 * search), and the next trim runs them unoptimised (twice the time of a warm one on the bench's
 * fixtures). A re-entrant call (a stop check that trims) makes its own.
 */
let spareKeys: TapeKeys | undefined = new TapeKeys();

/**
 * The tape's inventory computed in JavaScript, as `JsonTapeReader.inventory` computes it in
 * WebAssembly, for a tape that was not lent (a copy from `buildJsonTape`) or when that pass
 * cannot run. Parents, child positions and minified sizes come from one pass over the records
 * with a stack of open containers; string contents are visited only where the tape flags
 * characters beyond ASCII in them, to size them in UTF-8.
 */
function inventoryInJavaScript(
  tape: JsonTape,
  maxNodes: number,
  check: StopCheck | undefined,
): JsonTapeInventory {
  const { text, records } = tape;
  const total = tape.count;
  const count = maxNodes > 0 ? Math.min(total, Math.ceil(maxNodes)) : 0;
  const kinds = new Uint8Array(count);
  const parents = new Int32Array(count);
  const nexts = new Int32Array(count);
  const keyStarts = new Int32Array(count);
  const keyBytes = new Int32Array(count);
  const keyEnds = new Int32Array(count);
  const starts = new Int32Array(count);
  const ends = new Int32Array(count);
  const valueBytes = new Int32Array(count);
  const unitBytes = new Int32Array(count);
  const childIndexes = new Int32Array(count);

  // Open containers: record index, the record past their subtree, their key's bytes, the
  // minified bytes of their units so far, and their children so far.
  const stackRecord: number[] = [];
  const stackNext: number[] = [];
  const stackKey: number[] = [];
  const stackUnits: number[] = [];
  const stackChildren: number[] = [];
  let depth = 0;
  // Characters beyond ASCII all sit inside strings. `extraTotal` sums their bytes beyond one per
  // unit.
  let extraTotal = 0;
  let rootBytes = 0;
  // The tape's field offsets and kinds as locals: the loop reads them for every record.
  const stride = TAPE_STRIDE;
  const kindField = TAPE_KIND;
  const startField = TAPE_START;
  const endField = TAPE_END;
  const nextField = TAPE_NEXT;
  const keyStartField = TAPE_KEY_START;
  const keyEndField = TAPE_KEY_END;
  const flagsField = TAPE_FLAGS;
  const nonAsciiKey = TAPE_NON_ASCII_KEY;
  const nonAsciiValue = TAPE_NON_ASCII_VALUE;
  const objectKind = TAPE_OBJECT;
  const arrayKind = TAPE_ARRAY;
  const stringKind = TAPE_STRING;

  // One step past the last record, so that its closing pass closes every container left open.
  for (let r = 0; r <= total; r++) {
    if ((r & 16383) === 0 && check) check(16384);
    // Close the containers whose subtree ended before this record.
    while (depth > 0 && stackNext[depth - 1]! <= r) {
      depth--;
      const children = stackChildren[depth]!;
      const size = 2 + stackUnits[depth]! + (children > 0 ? children - 1 : 0);
      const key = stackKey[depth]!;
      const unit = key > 0 ? size + key + 1 : size;
      const id = stackRecord[depth]!;
      if (id < count) {
        valueBytes[id] = size;
        unitBytes[id] = unit;
      }
      if (depth > 0) stackUnits[depth - 1] = stackUnits[depth - 1]! + unit;
      else rootBytes = size;
    }
    if (r === total) break;
    const at = r * stride;
    const kind = records[at + kindField]!;
    const start = records[at + startField]!;
    const end = records[at + endField]!;
    const keyStart = records[at + keyStartField]!;
    const flags = records[at + flagsField]!;
    let key = 0;
    const keyEnd = records[at + keyEndField]!;
    if (keyStart >= 0) {
      key = keyEnd - keyStart;
      if ((flags & nonAsciiKey) !== 0) {
        const extra = extraUtf8Bytes(text, keyStart, keyEnd);
        key += extra;
        extraTotal += extra;
      }
    }
    let position = 0;
    if (depth > 0) {
      position = stackChildren[depth - 1]!;
      stackChildren[depth - 1] = position + 1;
    }
    const container = kind === objectKind || kind === arrayKind;
    if (r < count) {
      kinds[r] =
        kind === objectKind
          ? NODE_OBJECT
          : kind === arrayKind
            ? NODE_ARRAY
            : kind === stringKind
              ? NODE_STRING
              : NODE_SCALAR;
      parents[r] = depth > 0 ? stackRecord[depth - 1]! : -1;
      const next = records[at + nextField]!;
      nexts[r] = Math.min(next, count);
      keyStarts[r] = keyStart;
      keyBytes[r] = key;
      keyEnds[r] = keyStart >= 0 ? keyEnd : -1;
      starts[r] = start;
      ends[r] = end;
      childIndexes[r] = position;
    }
    if (container) {
      stackRecord[depth] = r;
      stackNext[depth] = records[at + nextField]!;
      stackKey[depth] = key;
      stackUnits[depth] = 0;
      stackChildren[depth] = 0;
      depth++;
      continue;
    }
    let bytes = end - start;
    if ((flags & nonAsciiValue) !== 0) {
      const extra = extraUtf8Bytes(text, start, end);
      bytes += extra;
      extraTotal += extra;
    }
    const unit = key > 0 ? bytes + key + 1 : bytes;
    if (r < count) {
      valueBytes[r] = bytes;
      unitBytes[r] = unit;
    }
    if (depth > 0) stackUnits[depth - 1] = stackUnits[depth - 1]! + unit;
    else rootBytes = bytes;
  }

  return {
    count,
    kind: kinds,
    parent: parents,
    next: nexts,
    keyStart: keyStarts,
    keyBytes,
    keyEnd: keyEnds,
    start: starts,
    end: ends,
    valueBytes,
    unitBytes,
    childIndex: childIndexes,
    ...textHashColumns(text, count, kinds, keyStarts, keyEnds, starts, ends),
    rootBytes,
    extraBytes: extraTotal,
  };
}

/**
 * The `JsonInventory` of a validated text, read off its JSON tape: the same inventory as
 * `scanJson(tape.text, maxNodes)` field for field, but whitespace and structure cost no
 * JavaScript. With `reader`, the reader of a lent tape, the structure and sizes come from its
 * pass in WebAssembly, else from the same pass in JavaScript; error-like words are found by one
 * search of the whole text under the rules of the string scan (every letter of a JSON text that
 * can start one is inside a string): with the reader's word search when given (a fraction of
 * the cost), else with a regular expression. As there, the first `maxNodes` values in text
 * order are recorded, the rest only counted and sized. Keeps nothing of the tape, so it may read
 * a lent one. With `borrow`, the columns the reader computes are views of the lent memory (see
 * `JsonTapeReader.inventory`): the inventory is then valid only while the reader is lent.
 */
export function inventoryFromTape(
  tape: JsonTape,
  maxNodes: number,
  reader?: JsonTapeReader,
  check?: StopCheck,
  borrow = false,
  matcher?: ErrorMatcher,
): JsonInventory {
  const total = tape.count;
  // The pass in WebAssembly cannot poll: it is polled once for all of its work (it costs less
  // than building the tape).
  if (reader && check) check(total);
  const computed = reader?.inventory(maxNodes, borrow);
  const columns = computed ?? inventoryInJavaScript(tape, maxNodes, check);
  // Read after the pass: memory that grew for it moved, and the lent tape's view with it.
  const { text, records } = tape;
  const { count } = columns;
  // Characters beyond ASCII are the only ones of more than one UTF-8 byte.
  const textBytes = text.length + columns.extraBytes;
  const errorAt: number[] = [];
  const errorWord: number[] = [];
  if (reader) collectErrorWordsWith(reader, text, errorAt, errorWord, matcher);
  else {
    const inKey = spareKeys ?? new TapeKeys();
    spareKeys = undefined;
    inKey.reset(records, total);
    try {
      collectErrorWords(text, text, 0, false, false, errorAt, errorWord, inKey, 0, matcher);
    } finally {
      // A lent tape's records must not outlive the reader.
      inKey.reset(EMPTY_RECORDS, 0);
      spareKeys = inKey;
    }
  }
  return {
    text,
    count,
    totalValues: total > 0 ? total - 1 : 0,
    truncated: total > count,
    // Whitespace outside strings is the only difference between the text's UTF-8 size and the
    // minified document's.
    minified: columns.rootBytes === textBytes,
    textBytes,
    kind: columns.kind,
    parent: columns.parent,
    next: columns.next,
    keyStart: columns.keyStart,
    keyBytes: columns.keyBytes,
    keyEnd: columns.keyEnd,
    start: columns.start,
    end: columns.end,
    valueBytes: columns.valueBytes,
    unitBytes: columns.unitBytes,
    childIndex: columns.childIndex,
    keyHash: columns.keyHash,
    valueHash: columns.valueHash,
    errorAt,
    errorWord,
    // Only borrowed columns are still where the reader's signature pass reads them.
    tapeReader: borrow && computed ? reader : undefined,
  };
}
