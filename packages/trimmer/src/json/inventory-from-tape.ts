import type { JsonTape, JsonTapeReader } from '@compaction/core';
import type { StopCheck } from '../engine/stop-check.js';
import { collectErrorWordsWith, type ErrorMatcher, type JsonInventory } from './json-inventory.js';

/**
 * The `JsonInventory` of a validated text, read off its JSON tape by the reader's pass in
 * WebAssembly (`JsonTapeReader.inventory`): the same inventory as `scanJson(tape.text,
 * maxNodes)` field for field, but whitespace and structure cost no JavaScript, and error-like
 * words are found by the reader's word search of the string values under the rules of the
 * string scan. As there, the first `maxNodes` values in text order are recorded, the rest only
 * counted and sized. With `borrow`, the columns are views of the lent memory: the inventory is
 * then valid only while the reader is lent. `undefined` when the pass cannot run (a text whose
 * frames would not fit in the module's memory): `scanJson` reads it then.
 */
export function inventoryFromTape(
  tape: JsonTape,
  maxNodes: number,
  reader: JsonTapeReader,
  check?: StopCheck,
  borrow = false,
  matcher?: ErrorMatcher,
): JsonInventory | undefined {
  // The pass in WebAssembly cannot poll: it is polled once for all of its work (it costs less
  // than building the tape).
  if (check) check(tape.count);
  const columns = reader.inventory(maxNodes, borrow);
  if (!columns) return undefined;
  // Read after the pass: memory that grew for it moved, and the lent tape's view with it.
  const { text } = tape;
  const total = tape.count;
  const { count } = columns;
  // Characters beyond ASCII are the only ones of more than one UTF-8 byte.
  const textBytes = text.length + columns.extraBytes;
  const errorAt: number[] = [];
  const errorWord: number[] = [];
  collectErrorWordsWith(reader, text, errorAt, errorWord, matcher);
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
    tapeReader: borrow ? reader : undefined,
  };
}
