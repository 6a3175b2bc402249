import { utf8ByteLength, withJsonTape } from '@compaction/core';
import { type StopCheck, TrimStoppedError } from '../engine/stop-check.js';
import { inventoryFromTape } from './inventory-from-tape.js';
import { type ErrorMatcher, type JsonInventory, scanJson } from './json-inventory.js';

/**
 * Runs `use` with the inventory of `source` when it is a JSON document, else with `undefined`,
 * and returns what it returns. `sourceBytes` is the UTF-8 size of `source`, or -1 when not
 * measured yet; `maxNodes` bounds the values recorded, `matcher` finds error-like words. The
 * inventory is valid only while `use` runs: read off the WebAssembly tape, its columns are views
 * of the tape's memory (copying them out would cost more than the pass that wrote them), which
 * the next text reuses. A failure to take the inventory (other than being asked to stop) is no
 * inventory.
 */
export function withJsonInventory<R>(
  source: string,
  sourceBytes: number,
  maxNodes: number,
  matcher: ErrorMatcher,
  check: StopCheck,
  use: (inventory: JsonInventory | undefined) => R,
): R {
  let first = 0;
  while (first < source.length && source.charCodeAt(first) <= 0x20) first++;
  const opening = source.charCodeAt(first);
  if (opening !== 0x7b && opening !== 0x5b && opening !== 0x22) return use(undefined);
  // The WebAssembly tape validates and indexes the text for a fraction of a parse; the scan in
  // JavaScript stands in where there is no WebAssembly or its inventory pass cannot run.
  const read = withJsonTape(source, (tape, search) => {
    const inventory = attempt(() =>
      inventoryFromTape(tape, maxNodes, search, check, true, matcher),
    );
    return inventory ? { used: use(inventory) } : undefined;
  });
  if (read.ok && read.value) return read.value.used;
  if (!read.ok && read.reason === 'invalid') return use(undefined);
  const inventory = attempt(() => {
    const bytes = sourceBytes >= 0 ? sourceBytes : utf8ByteLength(source);
    const scanned = scanJson(source, maxNodes, bytes === source.length, check, matcher);
    if (scanned) scanned.textBytes = bytes;
    return scanned;
  });
  return use(inventory);
}

/** What `take` returns, or `undefined` when it fails other than by being asked to stop. */
function attempt<T>(take: () => T | undefined): T | undefined {
  try {
    return take();
  } catch (error) {
    if (error instanceof TrimStoppedError) throw error;
    return undefined;
  }
}
