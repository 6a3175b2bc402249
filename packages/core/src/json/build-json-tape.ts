import { createIdleRelease } from '../idle-release.js';
import {
  JSON_TAPE_MAX_WORD_UNITS,
  JSON_TAPE_MAX_WORDS,
  type JsonTape,
  type JsonTapeWordStarts,
  TAPE_START,
  TAPE_STRIDE,
} from './json-tape.js';
import type {
  JsonTapeInventory,
  JsonTapeReader,
  JsonTapeSignatures,
  JsonTapeValueOptions,
  JsonTapeValues,
} from './json-tape-reader.js';
import { JSON_TAPE_WASM_BASE64 } from './json-tape-wasm.js';
import {
  compileWasm,
  growWasmMemory,
  instantiateWasm,
  RETAINED_WASM_MEMORY_BYTES,
  WASM_PAGE_BYTES,
  type WasmMemory,
  type WasmModule,
} from './wasm-module.js';
import { writeUtf16Units } from './write-utf16-units.js';

/** The outcome of `buildJsonTape`. */
export type JsonTapeOutcome =
  | { ok: true; tape: JsonTape }
  /**
   * `invalid`: the text is not JSON (`JSON.parse` gives the reason). `unavailable`: no tape can
   * be built in this process (no WebAssembly, as under `node --jitless`, or no memory left for
   * it); parse the text instead.
   */
  | { ok: false; reason: 'invalid' | 'unavailable' };

interface JsonTapeExports {
  memory: WasmMemory;
  build(end: number, records: number): number;
  find(from: number, end: number, tables: number, out: number, max: number): number;
  verify(out: number, count: number, words: number, wordCount: number, masks: number): number;
  find_in_strings(
    records: number,
    stop: number,
    from: number,
    tables: number,
    out: number,
    max: number,
  ): number;
  inventory(records: number, total: number, count: number, out: number): number;
  signatures(columns: number, count: number, out: number, capacity: number, slots: number): number;
  values(
    columns: number,
    count: number,
    of: number,
    signatures: number,
    records: number,
    out: number,
    capacity: number,
    slots: number,
    prefix: number,
    samples: number,
    digits: number,
    trueHash: number,
    falseHash: number,
    nullHash: number,
  ): number;
}

const BOM = '\uFEFF';
const PADDING_BYTES = 64;
const RECORD_BYTES = 32;
/** Characters of each word the fingerprint `find` reads holds (json-tape.wat). */
const FINGERPRINT_UNITS = 5;
/** Bytes of the word fingerprint tables `find` reads: two 16-byte tables per character. */
const FINGERPRINT_BYTES = 32 * FINGERPRINT_UNITS;
/** Candidates `find` writes per call. */
const CANDIDATE_BATCH = 1024;
/** Bytes of the words `verify` reads: a length and an offset per word, then their units. */
const WORD_TABLE_BYTES = 8 * JSON_TAPE_MAX_WORDS + 2 * JSON_TAPE_MAX_WORD_UNITS;
/**
 * Between the padding and the records: the fingerprint tables, the candidates, the bits
 * `verify` writes beside them, then the words it reads.
 */
const SCRATCH_BYTES = FINGERPRINT_BYTES + 8 * CANDIDATE_BATCH + WORD_TABLE_BYTES;
/** Before the columns `inventory` writes: the root's bytes, the extra bytes, padding. */
const INVENTORY_HEADER_BYTES = 16;
/** Bytes per value of the columns `inventory` writes: twelve i32 columns and the kinds. */
const INVENTORY_VALUE_BYTES = 49;
/** Bytes per open container on the stack `inventory` keeps past its columns. */
const INVENTORY_FRAME_BYTES = 20;
/** Bytes per value of the columns `signatures` writes: four i32 columns and the steps. */
const SIGNATURE_VALUE_BYTES = 17;
/** Bytes of the record `signatures` keeps per signature. */
const SIGNATURE_RECORD_BYTES = 64;
/**
 * Signatures `signatures` first makes room for, of a document of `values` values: all of a
 * small one, else one per two values (lists of records have one per dozens; the fixtures with
 * the most, a provider schema and a list of resource definitions, one per four or five). A
 * document with more is passed again with room for one per value, when memory has it.
 */
function signatureCapacity(values: number): number {
  return Math.min(values, Math.max(1024, Math.ceil(values / 2)));
}

/** Slots of the hash table of `signatures` for `capacity` signatures: half full at most. */
function signatureSlots(capacity: number): number {
  let slots = 16;
  while (slots < 2 * capacity) slots *= 2;
  return slots;
}

/** Memory `signatures` writes for `values` values and up to `capacity` signatures. */
function signatureBytes(values: number, capacity: number): number {
  const records = Math.ceil((SIGNATURE_VALUE_BYTES * values) / 16) * 16;
  return records + SIGNATURE_RECORD_BYTES * capacity + 4 * signatureSlots(capacity);
}

/** Bytes per value of the columns `values` writes: three i32 columns. */
const VALUE_COLUMN_BYTES = 12;
/** Bytes of the record `values` keeps per signature. */
const VALUE_RECORD_BYTES = 80;
/** Bytes per entry `values` keeps: four i32 columns and an i32 hash-table slot, two slots at most. */
const VALUE_ENTRY_BYTES = 24;

/**
 * Entries `values` first makes room for, of `values` values: up to three per four, so the pass
 * runs once where most values are distinct (a list of ids, hashes, links and times, beside the
 * objects that hold them), without filling a table for one per value.
 */
function entryCapacity(values: number): number {
  return Math.min(values, Math.max(1024, Math.ceil(0.75 * values)));
}

/**
 * Where `values` writes its columns after the signatures' flags at `flagsAt`, for `values` values
 * and `signatures` signatures, and the bytes it writes from `flagsAt` on for `capacity` entries.
 */
function valueLayout(flagsAt: number, values: number, signatures: number, capacity: number) {
  const out = Math.ceil((flagsAt + signatures) / 16) * 16;
  const statsAt = Math.ceil((out + VALUE_COLUMN_BYTES * values) / 16) * 16;
  const entriesAt = statsAt + VALUE_RECORD_BYTES * signatures;
  const slots = signatureSlots(capacity);
  return { out, statsAt, entriesAt, slots, end: entriesAt + 16 * capacity + 4 * slots };
}

/** WebAssembly addresses are 32 bits: memory for `inventory` must end below them. */
const ADDRESS_LIMIT = 2 ** 32 - WASM_PAGE_BYTES;

// undefined: not tried yet; null: unavailable here.
let compiledTape: WasmModule | null | undefined;
let retainedBuilder: JsonTapeExports | undefined;
// True while a `withJsonTape` reader holds a view of the retained instance's memory.
let retainedInUse = false;
/** The end of the memory any text wrote in the retained instance: past it, no page is resident. */
let retainedTouched = 0;
/** Whether the retained instance holds more memory than any instance is kept for while idle. */
function isBig(): boolean {
  return retainedTouched > RETAINED_TAPE_MEMORY_BYTES;
}

/** A tape whose records are a view of `builder`'s memory. */
interface BuiltTape {
  builder: JsonTapeExports;
  /** Its `records` is made again when memory grows (memory that grows moves). */
  tape: { readonly text: string; readonly count: number; records: Int32Array };
  /** Where the scratch space for `find` starts in `builder`'s memory. */
  scratchAt: number;
  /** Where the records start in `builder`'s memory. */
  recordsAt: number;
  /** The end of the memory the text and the passes over it wrote (no page past it is touched). */
  touched: number;
}

/** Values per text unit the memory is first sized for: denser texts (`[0,0,0,…]`) grow it. */
const VALUES_PER_UNIT = 1 / 6;
/**
 * Memory the retained tape instance may keep for good, as the pages texts wrote (resident; its
 * address space, made for a text denser than most, see `memoryFor`, costs nothing untouched):
 * the memory of a list of records of up to 6 MB or so (6 to 10 bytes a unit). Counted as
 * address space, the same size held a text of 2.7 MB at most: a bigger one made new memory
 * after an idle second, and paid its page faults again (a third of a 4 MB trim).
 */
const RETAINED_TAPE_MEMORY_BYTES = 4 * RETAINED_WASM_MEMORY_BYTES;
/** The most memory made up front for one text (see `memoryFor`). */
const UPFRONT_MEMORY_LIMIT = 2 ** 31;
/**
 * A retained instance that holds more than `RETAINED_TAPE_MEMORY_BYTES` (written by a text of
 * more than about 6 MB) is kept this long after its last use, then dropped by a timer that
 * never keeps the process alive. Making a new memory for each big text costs its page faults, zeroing and a
 * garbage collection to free the last one: a third of a 4 MB trim. Texts that follow each other
 * reuse it; a process that goes quiet holds it no longer than this.
 */
const BIG_RETAINED_IDLE_MS = 1000;

// Drops a retained instance past `RETAINED_TAPE_MEMORY_BYTES` once idle (and not read).
const bigRetainedRelease = createIdleRelease(
  BIG_RETAINED_IDLE_MS,
  () => {
    if (retainedBuilder !== undefined && isBig()) retainedBuilder = undefined;
  },
  () => retainedInUse,
);

/**
 * Memory for a text of `units` units whose records start at `recordsAt`: its records, the
 * columns and first frames `inventory` writes after them and the signatures `signatures` writes
 * in place of the frames, for up to a value every six units (a
 * value every thirteen in the densest fixture, the GeoJSON), so that memory grows only for a
 * denser text or one nested more than 256 deep (see `instantiateWasm`). What a text does not use
 * is never touched.
 */
function memoryFor(recordsAt: number, units: number): number {
  const values = Math.min(units + 1, Math.ceil(units * VALUES_PER_UNIT) + 64);
  const columnsAt = recordsAt + RECORD_BYTES * values + INVENTORY_HEADER_BYTES;
  const bytes =
    columnsAt +
    INVENTORY_VALUE_BYTES * values +
    16 +
    Math.max(INVENTORY_FRAME_BYTES * 256, signatureBytes(values, signatureCapacity(values)));
  // Past a few hundred megabytes of text, address space is worth more than a detach: room for
  // the text and a first share of records, the module growing memory for more.
  return bytes <= UPFRONT_MEMORY_LIMIT
    ? bytes
    : recordsAt + RECORD_BYTES * Math.min(units + 1, 4096);
}

function build(text: string): BuiltTape | 'invalid' | 'unavailable' {
  compiledTape ??= compileWasm(JSON_TAPE_WASM_BASE64);
  if (compiledTape === null) return 'unavailable';
  const source = text.startsWith(BOM) ? text.slice(1) : text;
  const textBytes = source.length * 2;
  const scratchAt = (textBytes + PADDING_BYTES + 15) & ~15;
  const recordsAt = scratchAt + SCRATCH_BYTES;
  const bytes = memoryFor(recordsAt, source.length);
  let builder: JsonTapeExports;
  let count: number;
  try {
    if (!retainedInUse && retainedBuilder && bytes <= retainedBuilder.memory.buffer.byteLength) {
      builder = retainedBuilder;
    } else if (retainedInUse || bytes > UPFRONT_MEMORY_LIMIT) {
      builder = instantiateWasm<JsonTapeExports>(compiledTape, bytes);
    } else {
      // A bigger retained instance replaces the old one, with room to spare for the next texts
      // (address space only: pages never touched are not resident). Past
      // `RETAINED_TAPE_MEMORY_BYTES` it is kept only while in use (see `BIG_RETAINED_IDLE_MS`).
      const room =
        bytes <= RETAINED_TAPE_MEMORY_BYTES ? RETAINED_TAPE_MEMORY_BYTES : UPFRONT_MEMORY_LIMIT;
      builder = instantiateWasm<JsonTapeExports>(compiledTape, Math.min(room, 2 * bytes));
      retainedBuilder = builder;
      retainedTouched = 0;
    }
    const units = new Uint16Array(builder.memory.buffer, 0, (textBytes + PADDING_BYTES) / 2);
    writeUtf16Units(source, units);
    units.fill(0, source.length);
    count = builder.build(textBytes, recordsAt);
  } catch (error) {
    // Memory that cannot be made or grow surfaces as a RangeError.
    if (!(error instanceof RangeError)) throw error;
    if (!retainedInUse) retainedBuilder = undefined;
    return 'unavailable';
  }
  if (count < 0) {
    // Where it stopped is not known: a record per unit at most.
    release(
      builder,
      Math.min(builder.memory.buffer.byteLength, recordsAt + RECORD_BYTES * (source.length + 1)),
    );
    return count === -2 ? 'unavailable' : 'invalid';
  }
  const records = new Int32Array(builder.memory.buffer, recordsAt, count * TAPE_STRIDE);
  const touched = recordsAt + count * RECORD_BYTES;
  return { builder, tape: { text: source, count, records }, scratchAt, recordsAt, touched };
}

/**
 * After a use of `builder` that wrote its memory up to `touched`: drops the retained instance
 * once it grew past the most made up front, and keeps one that holds more than
 * `RETAINED_TAPE_MEMORY_BYTES` only until it has been idle for `BIG_RETAINED_IDLE_MS`.
 */
function release(builder: JsonTapeExports, touched: number): void {
  if (builder !== retainedBuilder) return;
  retainedTouched = Math.max(retainedTouched, touched);
  if (!isBig()) return;
  if (builder.memory.buffer.byteLength > UPFRONT_MEMORY_LIMIT) {
    retainedBuilder = undefined;
    return;
  }
  bigRetainedRelease.touch();
}

/**
 * Validates a JSON text and indexes its values without creating them (see `JsonTape`), with a
 * SIMD WebAssembly pass (json-tape.wat) that costs a fraction of a `JSON.parse` of the same
 * text. It accepts exactly what `JSON.parse` accepts; a leading byte-order mark is ignored.
 * Never throws. The tape's records are the caller's own; `withJsonTape` saves copying them.
 */
export function buildJsonTape(text: string): JsonTapeOutcome {
  const built = build(text);
  if (typeof built === 'string') return { ok: false, reason: built };
  const { tape } = built;
  const records = tape.records.slice();
  release(built.builder, built.touched);
  return { ok: true, tape: { text: tape.text, count: tape.count, records } };
}

// Fingerprint tables by word list (see `fingerprintOf`), computed once per list.
const fingerprints = new WeakMap<readonly string[], Uint8Array>();

/**
 * The tables json-tape.wat's `find` reads for `words`: their distinct first five characters (in
 * either case for a letter), spread over 8 groups; a word shorter than five characters matches
 * any unit at the positions it lacks. Five, not three: the error words' first three letters
 * start common words too ("cri" in every "description", "tim" in every "time").
 */
function fingerprintOf(words: readonly string[]): Uint8Array {
  const cached = fingerprints.get(words);
  if (cached) return cached;
  const prefixes = new Set<string>();
  for (const word of words) {
    if (typeof word !== 'string' || !/^[\x20-\x7e]+$/.test(word)) {
      throw new RangeError(`not a word of printable ASCII: ${JSON.stringify(word)}`);
    }
    prefixes.add(word.slice(0, FINGERPRINT_UNITS).toLowerCase());
  }
  const tables = new Uint8Array(FINGERPRINT_BYTES);
  let group = 0;
  for (const prefix of prefixes) {
    const bit = 1 << (group++ % 8);
    for (let k = 0; k < FINGERPRINT_UNITS; k++) {
      const low = 32 * k;
      const high = low + 16;
      if (k >= prefix.length) {
        for (let nibble = 0; nibble < 16; nibble++) {
          tables[low + nibble]! |= bit;
          tables[high + nibble]! |= bit;
        }
        continue;
      }
      const unit = prefix.charCodeAt(k);
      const isLetter = unit >= 0x61 && unit <= 0x7a;
      for (const variant of isLetter ? [unit, unit - 0x20] : [unit]) {
        tables[low + (variant & 15)]! |= bit;
        tables[high + (variant >> 4)]! |= bit;
      }
    }
  }
  fingerprints.set(words, tables);
  return tables;
}

// The words `verify` reads, by word list and `tokenStarts` (see `wordTableOf`); null: too many
// or too long.
const wordTables = new WeakMap<
  readonly string[],
  { tokenStarts: number; table: Uint8Array | null }
>();

/**
 * The table json-tape.wat's `verify` reads for `words`: per word its length in units (the top
 * bit set for a word of `tokenStarts`) and the offset of its units from the table's start, then
 * the units. Null where the words do not fit (`JSON_TAPE_MAX_WORDS`, `JSON_TAPE_MAX_WORD_UNITS`).
 */
function wordTableOf(words: readonly string[], tokenStarts: number): Uint8Array | null {
  const cached = wordTables.get(words);
  if (cached !== undefined && cached.tokenStarts === tokenStarts) return cached.table;
  let units = 0;
  for (const word of words) {
    if (typeof word !== 'string' || !/^[\x20-\x40\x5b-\x7e]+$/.test(word)) {
      throw new RangeError(`not a lower-case word of printable ASCII: ${JSON.stringify(word)}`);
    }
    units += word.length;
  }
  let table: Uint8Array | null = null;
  if (words.length <= JSON_TAPE_MAX_WORDS && units <= JSON_TAPE_MAX_WORD_UNITS) {
    table = new Uint8Array(WORD_TABLE_BYTES);
    const view = new DataView(table.buffer);
    let at = 8 * words.length;
    words.forEach((word, k) => {
      view.setInt32(8 * k, word.length | (tokenStarts & (1 << k) ? 0x80000000 : 0), true);
      view.setInt32(8 * k + 4, at, true);
      for (let i = 0; i < word.length; i++, at += 2) view.setUint16(at, word.charCodeAt(i), true);
    });
  }
  wordTables.set(words, { tokenStarts, table });
  return table;
}

/** Column `k` of the `count`-entry i32 columns `inventory` wrote at `at`: a copy, or a view. */
function column(
  buffer: ArrayBuffer,
  at: number,
  count: number,
  k: number,
  borrow: boolean,
): Int32Array {
  const view = new Int32Array(buffer, at + 4 * count * k, count);
  return borrow ? view : view.slice();
}

/** `length` i32 from byte `at` of `buffer`: a copy, or a view. */
function int32s(buffer: ArrayBuffer, at: number, length: number, borrow: boolean): Int32Array {
  const view = new Int32Array(buffer, at, length);
  return borrow ? view : view.slice();
}

/**
 * The reader of a lent tape (its word search and its inventory), in its builder's memory, from
 * `lend()` to `end()`. A class, not an object of closures made per call: optimised code that
 * inlines a closure holds it weakly and is thrown away once a garbage collection frees it.
 */
class LentTapeReader implements JsonTapeReader {
  private built: BuiltTape | undefined;
  private written: Uint8Array | undefined;
  private wordsWritten: Uint8Array | undefined;
  /** Where the last `inventory` wrote its columns, for how many values, and where after them the signatures go (-1: no inventory). */
  private columnsAt = -1;
  private valueCount = 0;
  private signaturesAt = 0;
  /** Signatures the last `signatures` found (-1: none yet), and where its writes end. */
  private found = -1;
  private signaturesEnd = 0;

  lend(built: BuiltTape): void {
    this.built = built;
    this.written = undefined;
    this.wordsWritten = undefined;
    this.columnsAt = -1;
    this.found = -1;
  }

  end(): void {
    this.built = undefined;
    this.written = undefined;
    this.wordsWritten = undefined;
    this.columnsAt = -1;
    this.found = -1;
  }

  candidates(words: readonly string[], from: number): Int32Array {
    return this.search(words, from, false);
  }

  stringCandidates(words: readonly string[], from: number): Int32Array {
    return this.search(words, from, true);
  }

  wordStarts(
    words: readonly string[],
    from: number,
    tokenStarts = 0,
  ): JsonTapeWordStarts | undefined {
    const built = this.built;
    if (!built) throw new Error('the tape was lent only while its reader ran');
    const table = wordTableOf(words, tokenStarts);
    if (table === null) return undefined;
    const { builder, tape, scratchAt } = built;
    const tables = fingerprintOf(words);
    const out = scratchAt + FINGERPRINT_BYTES;
    const masks = out + 4 * CANDIDATE_BATCH;
    const wordsAt = masks + 4 * CANDIDATE_BATCH;
    if (tables !== this.written) {
      new Uint8Array(builder.memory.buffer, scratchAt, FINGERPRINT_BYTES).set(tables);
      this.written = tables;
    }
    if (table !== this.wordsWritten) {
      new Uint8Array(builder.memory.buffer, wordsAt, WORD_TABLE_BYTES).set(table);
      this.wordsWritten = table;
    }
    const length = tape.text.length;
    // A batch of places none of which a word starts at is passed over.
    for (let start = Math.max(0, Math.ceil(from)); start < length; ) {
      const found = builder.find(start * 2, length * 2, scratchAt, out, CANDIDATE_BATCH);
      if (found === 0) break;
      const last = new Int32Array(builder.memory.buffer, out + 4 * (found - 1), 1)[0]!;
      const kept = builder.verify(out, found, wordsAt, words.length, masks);
      const next = found < CANDIDATE_BATCH ? -1 : last + 1;
      if (kept > 0 || next < 0) {
        return {
          at: new Int32Array(builder.memory.buffer, out, kept),
          words: new Int32Array(builder.memory.buffer, masks, kept),
          next,
        };
      }
      start = next;
    }
    return { at: new Int32Array(0), words: new Int32Array(0), next: -1 };
  }

  private search(words: readonly string[], from: number, inStrings: boolean): Int32Array {
    const built = this.built;
    if (!built) throw new Error('the tape was lent only while its reader ran');
    const { builder, tape, scratchAt, recordsAt } = built;
    const tables = fingerprintOf(words);
    const start = Math.max(0, Math.ceil(from));
    if (!(start < tape.text.length)) return new Int32Array(0);
    if (tables !== this.written) {
      new Uint8Array(builder.memory.buffer, scratchAt, FINGERPRINT_BYTES).set(tables);
      this.written = tables;
    }
    const out = scratchAt + FINGERPRINT_BYTES;
    let found: number;
    if (inStrings) {
      // From the last record starting at or before `start` (records are in text order).
      const { records, count } = tape;
      let low = 0;
      let high = count - 1;
      while (low < high) {
        const middle = (low + high + 1) >>> 1;
        if (records[middle * TAPE_STRIDE + TAPE_START]! <= start) low = middle;
        else high = middle - 1;
      }
      found = builder.find_in_strings(
        recordsAt + low * RECORD_BYTES,
        recordsAt + count * RECORD_BYTES,
        start * 2,
        scratchAt,
        out,
        CANDIDATE_BATCH,
      );
    } else {
      found = builder.find(start * 2, tape.text.length * 2, scratchAt, out, CANDIDATE_BATCH);
    }
    return new Int32Array(builder.memory.buffer, out, found);
  }

  inventory(maxValues: number, borrow = false): JsonTapeInventory | undefined {
    const built = this.built;
    if (!built) throw new Error('the tape was lent only while its reader ran');
    const { builder, tape, recordsAt } = built;
    const total = tape.count;
    const count = maxValues > 0 ? Math.min(total, Math.ceil(maxValues)) : 0;
    const out = recordsAt + total * RECORD_BYTES;
    const columnsAt = out + INVENTORY_HEADER_BYTES;
    const framesAt = Math.ceil((columnsAt + INVENTORY_VALUE_BYTES * count) / 16) * 16;
    // At worst every record is a container open at once.
    if (framesAt + INVENTORY_FRAME_BYTES * (total + 1) > ADDRESS_LIMIT) return undefined;
    this.columnsAt = -1;
    this.found = -1;
    let status = -2;
    try {
      // Memory was sized for this (see `memoryFor`) unless the text is denser than most:
      // exactly the columns and a first share of frames then (or the room `signatures` first
      // takes in their place: it must not grow memory, which would detach borrowed columns), as
      // `inventory` grows memory by half again, which would often take the retained instance
      // past the size worth keeping.
      const frames = INVENTORY_FRAME_BYTES * Math.min(total + 1, 256);
      const shapes = signatureBytes(count, signatureCapacity(count));
      growWasmMemory(
        builder.memory,
        framesAt + (framesAt + shapes <= ADDRESS_LIMIT ? Math.max(frames, shapes) : frames),
      );
      status = builder.inventory(recordsAt, total, count, out);
    } catch (error) {
      // Memory that cannot grow surfaces as a RangeError.
      if (!(error instanceof RangeError)) throw error;
    }
    const { buffer } = builder.memory;
    // Memory that grew moved, whether or not the pass then ran out of it.
    if (tape.records.buffer !== buffer) {
      tape.records = new Int32Array(buffer, recordsAt, total * TAPE_STRIDE);
    }
    // The frames past the columns take a few pages at most.
    built.touched = Math.max(built.touched, framesAt + INVENTORY_FRAME_BYTES * 256);
    if (status !== 0) return undefined;
    this.columnsAt = columnsAt;
    this.valueCount = count;
    this.signaturesAt = framesAt;
    const header = new Int32Array(buffer, out, 2);
    const kind = new Uint8Array(buffer, columnsAt + 48 * count, count);
    return {
      count,
      parent: column(buffer, columnsAt, count, 0, borrow),
      next: column(buffer, columnsAt, count, 1, borrow),
      keyStart: column(buffer, columnsAt, count, 2, borrow),
      keyBytes: column(buffer, columnsAt, count, 3, borrow),
      keyEnd: column(buffer, columnsAt, count, 4, borrow),
      start: column(buffer, columnsAt, count, 5, borrow),
      end: column(buffer, columnsAt, count, 6, borrow),
      valueBytes: column(buffer, columnsAt, count, 7, borrow),
      unitBytes: column(buffer, columnsAt, count, 8, borrow),
      childIndex: column(buffer, columnsAt, count, 9, borrow),
      keyHash: column(buffer, columnsAt, count, 10, borrow),
      valueHash: column(buffer, columnsAt, count, 11, borrow),
      kind: borrow ? kind : kind.slice(),
      rootBytes: header[0]!,
      extraBytes: header[1]!,
    };
  }

  signatures(borrow = false): JsonTapeSignatures | undefined {
    const built = this.built;
    if (!built) throw new Error('the tape was lent only while its reader ran');
    if (this.columnsAt < 0) return undefined;
    const { builder } = built;
    const { columnsAt, valueCount: values, signaturesAt: at } = this;
    const room = Math.min(builder.memory.buffer.byteLength, ADDRESS_LIMIT) - at;
    let found = -1;
    this.found = -1;
    for (const capacity of [signatureCapacity(values), values]) {
      if (signatureBytes(values, capacity) > room) break;
      found = builder.signatures(columnsAt, values, at, capacity, signatureSlots(capacity));
      this.signaturesEnd = at + signatureBytes(values, capacity);
      built.touched = Math.max(built.touched, this.signaturesEnd);
      if (found >= 0 || capacity === values) break;
    }
    if (found < 0) return undefined;
    this.found = found;
    const { buffer } = builder.memory;
    const recordsAt = Math.ceil((at + SIGNATURE_VALUE_BYTES * values) / 16) * 16;
    const fields = new Int32Array(buffer, recordsAt, (found * SIGNATURE_RECORD_BYTES) / 4);
    const sums = new Float64Array(buffer, recordsAt, (found * SIGNATURE_RECORD_BYTES) / 8);
    const parent = new Int32Array(found);
    const step = new Uint8Array(found);
    const first = new Int32Array(found);
    const nodes = new Int32Array(found);
    const objects = new Int32Array(found);
    const depth = new Int32Array(found);
    const last = new Int32Array(found);
    const maxBytes = new Int32Array(found);
    const leaves = new Int32Array(found);
    const bytes = new Float64Array(found);
    // Each record's fields (see `$new_signature` in json-tape.wat), one column each.
    for (let s = 0, f = 0; s < found; s++, f += 16) {
      parent[s] = fields[f]!;
      step[s] = fields[f + 1]!;
      first[s] = fields[f + 2]!;
      nodes[s] = fields[f + 3]!;
      objects[s] = fields[f + 4]!;
      depth[s] = fields[f + 5]!;
      last[s] = fields[f + 10]!;
      maxBytes[s] = fields[f + 11]!;
      leaves[s] = fields[f + 12]!;
      bytes[s] = sums[(f >> 1) + 7]!;
    }
    const of = new Int32Array(buffer, at, values);
    const nextSame = new Int32Array(buffer, at + 4 * values, values);
    return {
      count: found,
      of: borrow ? of : of.slice(),
      nextSame: borrow ? nextSame : nextSame.slice(),
      parent,
      step,
      first,
      last,
      nodes,
      objects,
      leaves,
      depth,
      bytes,
      maxBytes,
    };
  }

  valueStatistics(
    records: Uint8Array,
    options: JsonTapeValueOptions,
    borrow = false,
  ): JsonTapeValues | undefined {
    const built = this.built;
    if (!built) throw new Error('the tape was lent only while its reader ran');
    const signatures = this.found;
    if (this.columnsAt < 0 || signatures < 0 || records.length !== signatures) return undefined;
    const { builder } = built;
    const { columnsAt, valueCount: values } = this;
    const flagsAt = this.signaturesEnd;
    const limit = Math.min(builder.memory.buffer.byteLength, ADDRESS_LIMIT);
    // Room for a first share of entries, else for as many as there is room for; then for one
    // per value when there were more. Memory never grows here (it would detach borrowed columns).
    const fixed = valueLayout(flagsAt, values, signatures, 0).entriesAt;
    const fits = Math.floor((limit - fixed) / VALUE_ENTRY_BYTES);
    const first = Math.min(entryCapacity(values), fits);
    let entries = -1;
    let capacity = 0;
    let layout = valueLayout(flagsAt, values, signatures, 0);
    for (const room of [first, values]) {
      if (room < 0) break;
      capacity = room;
      layout = valueLayout(flagsAt, values, signatures, capacity);
      if (layout.end > limit) break;
      built.touched = Math.max(built.touched, layout.end);
      new Uint8Array(builder.memory.buffer, flagsAt, signatures).set(records);
      entries = builder.values(
        columnsAt,
        values,
        this.signaturesAt,
        signatures,
        flagsAt,
        layout.out,
        capacity,
        layout.slots,
        options.prefix,
        options.samples,
        options.digits,
        options.literals[0],
        options.literals[1],
        options.literals[2],
      );
      if (entries >= 0 || capacity === values) break;
    }
    if (entries < 0) return undefined;
    const { buffer } = builder.memory;
    const ints = new Int32Array(buffer, layout.statsAt, (signatures * VALUE_RECORD_BYTES) / 4);
    const sums = new Float64Array(buffer, layout.statsAt, (signatures * VALUE_RECORD_BYTES) / 8);
    const presence = new Int32Array(signatures);
    const counted = new Int32Array(signatures);
    const distinct = new Int32Array(signatures);
    const unhashed = new Int32Array(signatures);
    const numbers = new Int32Array(signatures);
    const unread = new Uint8Array(signatures);
    const isoInOrder = new Uint8Array(signatures);
    const valueUnits = new Float64Array(signatures);
    const novelUnits = new Float64Array(signatures);
    const sampledUnits = new Float64Array(signatures);
    const numberSum = new Float64Array(signatures);
    const numberSquares = new Float64Array(signatures);
    // Each record's fields (see `values` in json-tape.wat), one column each.
    for (let s = 0, i = 0, f = 0; s < signatures; s++, i += 20, f += 10) {
      presence[s] = ints[i]!;
      counted[s] = ints[i + 3]!;
      distinct[s] = ints[i + 4]!;
      unhashed[s] = ints[i + 5]!;
      numbers[s] = ints[i + 6]!;
      unread[s] = ints[i + 7]!;
      isoInOrder[s] = ints[i + 9] === 0 ? 1 : 0;
      valueUnits[s] = sums[f + 5]!;
      novelUnits[s] = sums[f + 6]!;
      sampledUnits[s] = sums[f + 7]!;
      numberSum[s] = sums[f + 8]!;
      numberSquares[s] = sums[f + 9]!;
    }
    return {
      recordAbove: int32s(buffer, layout.out, values, borrow),
      entryOf: int32s(buffer, layout.out + 4 * values, values, borrow),
      entries,
      entrySignature: int32s(buffer, layout.entriesAt, entries, borrow),
      entryCount: int32s(buffer, layout.entriesAt + 8 * capacity, entries, borrow),
      entryFirst: int32s(buffer, layout.entriesAt + 12 * capacity, entries, borrow),
      presence,
      values: counted,
      distinct,
      unhashed,
      numbers,
      unreadNumbers: unread,
      isoInOrder,
      valueUnits,
      novelUnits,
      sampledUnits,
      numberSum,
      numberSquares,
    };
  }
}

/**
 * The reader between lendings. Keeping one alive keeps its hidden class alive: V8 reaches the
 * class of an instance with all its fields through transitions it holds only weakly, so once the
 * last instance is collected, a full garbage collection frees that class and throws away the
 * optimised code of every reader that expects it, and the next read runs unoptimised. A nested
 * lending (a reader that lends a tape itself) makes its own.
 */
let spareReader: LentTapeReader | undefined = new LentTapeReader();

/**
 * Like `buildJsonTape`, but hands the tape to `read` without copying its records out of
 * WebAssembly memory, and returns what `read` returns. The tape is valid only while `read` runs:
 * it must not be kept. A `read` that builds tapes itself gets them from fresh instances. `reader`
 * works where the text and the records already are, in WebAssembly memory: it finds where words
 * may start in the text for a fraction of a regular-expression search, and computes the tape's
 * inventory (structure and minified sizes) in one pass; it too works only while `read` runs (and
 * the same object may be lent to a later reader, so it must not be kept either), but what its
 * `inventory` returns is the caller's own unless borrowed.
 */
export function withJsonTape<R>(
  text: string,
  read: (tape: JsonTape, reader: JsonTapeReader) => R,
): { ok: true; value: R } | { ok: false; reason: 'invalid' | 'unavailable' } {
  const built = build(text);
  if (typeof built === 'string') return { ok: false, reason: built };
  const retained = built.builder === retainedBuilder;
  if (retained) retainedInUse = true;
  const reader = spareReader ?? new LentTapeReader();
  spareReader = undefined;
  reader.lend(built);
  try {
    return { ok: true, value: read(built.tape, reader) };
  } finally {
    reader.end();
    spareReader = reader;
    if (retained) retainedInUse = false;
    release(built.builder, built.touched);
  }
}
