import {
  compileWasm,
  createIdleRelease,
  instantiateWasm,
  RETAINED_WASM_MEMORY_BYTES,
  type WasmMemory,
  type WasmModule,
} from '@compaction/core/internal';
import type { CodeSlots } from '../engine/code-slots.js';
import type { MeasuredNumbers } from '../engine/measured-numbers.js';
import type { StopCheck } from '../engine/stop-check.js';
import type { LevelTable } from '../readers/line-level.js';
import { LINE_SCAN_WASM_BASE64 } from './line-scan-wasm.js';

/** Which implementation reads lines' templates and codes: `textSignals`' choice, for tests. */
export type LineScanBackend = 'wasm' | 'js';

interface LineScanExports {
  memory: WasmMemory;
  templates: { value: number };
  templateRows(
    units: number,
    length: number,
    starts: number,
    rows: number,
    first: number,
    last: number,
    filled: number,
    template: number,
    counts: number,
    slotId: number,
    slotHash: number,
    mask: number,
    shift: number,
  ): void;
  codeRows(
    units: number,
    length: number,
    starts: number,
    rows: number,
    first: number,
    last: number,
    template: number,
    dense: number,
    slotValue: number,
    slotCount: number,
    slotSize: number,
    rowCodes: number,
  ): number;
  levelRows(
    units: number,
    length: number,
    starts: number,
    rows: number,
    first: number,
    last: number,
    filled: number,
    out: number,
    table: number,
    shift: number,
  ): void;
  measureWork: { readonly value: number };
  measureRows(
    units: number,
    length: number,
    starts: number,
    rows: number,
    first: number,
    last: number,
    outKey: number,
    outValue: number,
    outRow: number,
  ): number;
}

/** A row's level in `rowLevel` where `detectLevel` must read it. */
export const SCAN_ASKS_LEVEL = -2;

/** Bytes [0, TABLES_BYTES) of the memory hold the module's unit tables (two of every unit). */
const TABLES_BYTES = 131_072;
/** Codes a row has slots for, and values a slot holds (+ 1: past them it holds no code). */
const MAX_SLOTS = 8;
const SLOT_WIDTH = 9;
/** A template has slots from this many lines (`MIN_SLOT_ROWS` of rare-line-codes.ts). */
const MIN_SLOT_ROWS = 20;
/**
 * Rows a call reads before the caller polls its stop check again, as the JavaScript passes do
 * (rare-line-codes.ts polls every 1 024 rows).
 */
const CODE_CHUNK_ROWS = 1024;
/** Numbers a row measures at most (`MAX_NUMBERS` of line-measures.ts). */
const MAX_MEASURED = 8;

// undefined: not tried yet; null: WebAssembly is unavailable here (`node --jitless`).
let compiled: WasmModule | null | undefined;
/** The most memory a scan makes up front (WebAssembly addresses are 32 bits). */
const UPFRONT_MEMORY_LIMIT = 2 ** 31;
/**
 * A kept instance of more than `RETAINED_WASM_MEMORY_BYTES` (made for a text of more than about
 * 6 MB) is kept this long after its last use, then dropped by a timer that never keeps the
 * process alive: fresh memory for each big text costs its page faults (a 10 MB log: 30 MB of
 * memory, about 20 ms, as much as the scan saves), while texts that follow each other reuse it.
 * As core keeps its JSON tape's.
 */
const BIG_RETAINED_IDLE_MS = 1000;

let retained: { scan: LineScan; bytes: number } | undefined;
// True while a scan holds the retained instance: a scan opened meanwhile (a nested trim, from a
// caller's stop check) gets an instance of its own.
let retainedBusy = false;
const bigRetainedRelease = createIdleRelease(
  BIG_RETAINED_IDLE_MS,
  () => {
    if (retained !== undefined && retained.bytes > RETAINED_WASM_MEMORY_BYTES) retained = undefined;
  },
  () => retainedBusy,
);

function compiledModule(): WasmModule | null {
  if (compiled === undefined) compiled = compileWasm(LINE_SCAN_WASM_BASE64);
  return compiled;
}

/** The memory addresses of one text's arrays (byte offsets), laid out one after the other. */
interface Layout {
  units: number;
  starts: number;
  filled: number;
  template: number;
  counts: number;
  slotId: number;
  slotHash: number;
  slots: number;
  dense: number;
  rowCodes: number;
  slotSize: number;
  slotValue: number;
  slotCount: number;
  /** A chunk of rows' measured numbers: their keys, values (8-byte aligned) and rows. */
  measureKey: number;
  measureValue: number;
  measureRow: number;
  /** Templates with slots at most: each has `MIN_SLOT_ROWS` rows. */
  slotted: number;
  /** The level table's image (`levelTableImage`), and each row's level as the scan reads it. */
  levelTable: number;
  level: number;
  /** Per row, the units before what is read of it (a diff line's marker). */
  shift: number;
  end: number;
}

function layoutFor(length: number, rows: number, tableBytes = 0): Layout {
  // As text-signals.ts sizes its table: every row may have a template of its own, at half load.
  let slots = 16;
  while (slots < 2 * rows) slots *= 2;
  const slotted = Math.floor(rows / MIN_SLOT_ROWS);
  const units = TABLES_BYTES;
  const starts = units + 4 * Math.ceil(length / 2);
  const filled = starts + 4 * rows;
  const template = filled + 4 * rows;
  const counts = template + 4 * rows;
  const slotId = counts + 4 * rows;
  const slotHash = slotId + 4 * slots;
  const dense = slotHash + 4 * slots;
  const rowCodes = dense + 4 * rows;
  const slotSize = rowCodes + 4 * rows;
  const slotValue = slotSize + 4 * Math.ceil((slotted * MAX_SLOTS) / 4);
  const slotCount = slotValue + 4 * slotted * MAX_SLOTS * SLOT_WIDTH;
  const chunkNumbers = CODE_CHUNK_ROWS * MAX_MEASURED;
  const measureValue = (slotCount + 4 * slotted * MAX_SLOTS * SLOT_WIDTH + 7) & ~7;
  const measureKey = measureValue + 8 * chunkNumbers;
  const measureRow = measureKey + 4 * chunkNumbers;
  const levelTable = measureRow + 4 * chunkNumbers;
  const level = levelTable + 4 * Math.ceil(tableBytes / 4);
  const shift = level + 4 * rows;
  const end = shift + 4 * Math.ceil(rows / 4);
  return {
    units,
    starts,
    filled,
    template,
    counts,
    slotId,
    slotHash,
    slots,
    dense,
    rowCodes,
    slotSize,
    slotValue,
    slotCount,
    measureKey,
    measureValue,
    measureRow,
    slotted,
    levelTable,
    level,
    shift,
    end,
  };
}

/** Where `levelTableImage` puts its parts past its header of ten i32. */
const IMAGE_LETTERS = 48;
const IMAGE_LEADS = 176;
const IMAGE_FIRST = 304;

const images = new WeakMap<LevelTable, Uint8Array>();

/**
 * A level table as line-scan.wat's `levelRows` reads it, made once per table. A header of i32:
 * the stride, the marks' count, and the offsets of `first`, `next`, the words' offsets, the
 * marks, the words' levels, their flags, the exception suffixes and the exception openers. Then
 * per ASCII unit, one more than the level of the level letter it is (at 48, 0 for none) and
 * whether an exception opener starts with it (at 176); `first` and `next` (i16, as the table has
 * them); each word's offset (i32) and its units (u16, each `| 0x20`, as `tableWord` compares
 * them); the marks (u16); per word its level (i8) and its `WORD_IS_*` flags (u8); and the
 * suffixes and openers, each a list: i32 count, per string i32 offset and length, its units.
 */
export function levelTableImage(table: LevelTable): Uint8Array {
  let image = images.get(table);
  if (image !== undefined) return image;
  const nextAt = IMAGE_FIRST + 2 * table.first.length;
  const wordsAt = (nextAt + 2 * table.next.length + 3) & ~3;
  let at = wordsAt + 4 * table.words.length;
  const wordAt: number[] = [];
  for (const word of table.words) {
    wordAt.push(at);
    at += 2 * word.length;
  }
  const marksAt = at;
  const marks = [...table.marks.keys()];
  const levelsAt = marksAt + 2 * marks.length;
  const flagsAt = levelsAt + table.words.length;
  const suffixesAt = (flagsAt + table.words.length + 3) & ~3;
  const listBytes = (strings: readonly string[]) =>
    4 + 8 * strings.length + strings.reduce((sum, each) => sum + 2 * each.length, 0);
  const openersAt = (suffixesAt + listBytes(table.exceptionSuffixes) + 3) & ~3;
  const bytes = openersAt + listBytes(table.exceptionOpeners);
  image = new Uint8Array(bytes);
  const view = new DataView(image.buffer);
  const header = [table.stride, marks.length, IMAGE_FIRST, nextAt, wordsAt, marksAt];
  header.push(levelsAt, flagsAt, suffixesAt, openersAt);
  for (let k = 0; k < header.length; k++) view.setInt32(4 * k, header[k]!, true);
  for (const [code, level] of table.letters) {
    if (code < 0x80) image[IMAGE_LETTERS + code] = level + 1;
  }
  image.set(table.openerLeads, IMAGE_LEADS);
  for (let k = 0; k < table.first.length; k++) {
    view.setInt16(IMAGE_FIRST + 2 * k, table.first[k]!, true);
  }
  for (let index = 0; index < table.words.length; index++) {
    const word = table.words[index]!;
    view.setInt16(nextAt + 2 * index, table.next[index]!, true);
    view.setInt32(wordsAt + 4 * index, wordAt[index]!, true);
    for (let k = 0; k < word.length; k++) {
      view.setUint16(wordAt[index]! + 2 * k, (word.charCodeAt(k) | 0x20) & 0xffff, true);
    }
    view.setInt8(levelsAt + index, table.wordLevel[index]!);
    view.setUint8(flagsAt + index, table.wordFlags[index]!);
  }
  for (let k = 0; k < marks.length; k++) view.setUint16(marksAt + 2 * k, marks[k]!, true);
  for (const [listAt, strings] of [
    [suffixesAt, table.exceptionSuffixes],
    [openersAt, table.exceptionOpeners],
  ] as const) {
    view.setInt32(listAt, strings.length, true);
    let unitsAt = listAt + 4 + 8 * strings.length;
    strings.forEach((string, k) => {
      view.setInt32(listAt + 4 + 8 * k, unitsAt, true);
      view.setInt32(listAt + 8 + 8 * k, string.length, true);
      for (let u = 0; u < string.length; u++) {
        view.setUint16(unitsAt + 2 * u, string.charCodeAt(u), true);
      }
      unitsAt += 2 * string.length;
    });
  }
  images.set(table, image);
  return image;
}

/**
 * The WebAssembly line scan of one text (line-scan.wat): each row's template, interned, and its
 * rare-code slots, exactly as `lineTemplate` with text-signals.ts' interning and
 * `rareLineCodes`' per-row loop give them, several times faster. Holds a copy of the text's
 * units; `close` gives its instance back for the next text. The kept instance keeps one scan
 * object, opened again for each text, and `LINE_SCAN_SHAPE` is one more: the hidden class then
 * outlives every trim, and so does the optimised code that reads it (a class whose last object
 * died is collected with it, and code that read such objects is thrown away at the next GC).
 */
export class LineScan {
  /** Per row: where its first unit other than a space or tab lies, within `LEVEL_WINDOW`. */
  rowFilled: Int32Array;
  /** Per row: its template id (dense, in order of first row); rows read so far. */
  rowTemplate: Int32Array;
  /** Per template id: its rows read so far. */
  templateCounts: Int32Array;
  /**
   * Per row read so far, with a level table given to `open`, its level as line-scan.wat's
   * `levelRows` reads it: `NO_LEVEL` where it states none for sure; `SCAN_ASKS_LEVEL` where
   * `detectLevel` must read it; else the signature `detectLevel` gives unless an exit or alert
   * word starts in the row's level window (its `LevelTailCues` tell).
   */
  rowLevel: Int32Array;
  private readonly memory: ArrayBuffer;
  private levels = false;
  private shifted = false;
  private layout: Layout;
  private length = 0;
  private rows = 0;
  private read = 0;

  /** `exports` undefined: a scan of nothing, `LINE_SCAN_SHAPE`. */
  constructor(
    private readonly exports: LineScanExports | undefined,
    private readonly owned: boolean,
  ) {
    this.memory = exports?.memory.buffer ?? new ArrayBuffer(0);
    this.layout = layoutFor(0, 0);
    this.rowFilled = new Int32Array(this.memory, 0, 0);
    this.rowTemplate = this.rowFilled;
    this.templateCounts = this.rowFilled;
    this.rowLevel = this.rowFilled;
  }

  /**
   * Makes this scan one of the text of `units` split at `rowStarts`, laid out by `layout`, that
   * reads the rows' levels by `levelTable` (the image of one) where given, and each row's
   * template and level from `rowShift[r]` units past its start where given.
   */
  open(
    units: Uint16Array,
    rowStarts: readonly number[],
    layout: Layout,
    levelTable: Uint8Array | undefined,
    rowShift: Uint8Array | undefined,
  ): this {
    const { memory, wasm } = this;
    const length = units.length;
    const rows = rowStarts.length;
    this.layout = layout;
    this.length = length;
    this.rows = rows;
    this.read = 0;
    this.rowFilled = new Int32Array(memory, layout.filled, rows);
    this.rowTemplate = new Int32Array(memory, layout.template, rows);
    this.templateCounts = new Int32Array(memory, layout.counts, rows);
    this.rowLevel = new Int32Array(memory, layout.level, rows);
    this.levels = levelTable !== undefined;
    if (levelTable) new Uint8Array(memory, layout.levelTable, levelTable.length).set(levelTable);
    this.shifted = rowShift !== undefined;
    if (rowShift) new Uint8Array(memory, layout.shift, rows).set(rowShift);
    new Uint16Array(memory, layout.units, length).set(units);
    new Int32Array(memory, layout.starts, rows).set(rowStarts);
    // What a text before left in a kept instance: counts and the intern table start empty.
    this.templateCounts.fill(0);
    new Int32Array(memory, layout.slotId, layout.slots).fill(0);
    wasm.templates.value = 0;
    if (!this.owned) retainedBusy = true;
    return this;
  }

  private get wasm(): LineScanExports {
    if (this.exports === undefined) throw new Error('LINE_SCAN_SHAPE reads no text');
    return this.exports;
  }

  /** Templates interned so far. */
  get templates(): number {
    return this.wasm.templates.value;
  }

  /**
   * Reads rows up to `last` (rows are read in order, each once): their templates, and their
   * levels where the scan was opened with a level table.
   */
  readTemplates(last: number): void {
    const { layout } = this;
    const end = Math.min(last, this.rows);
    if (end <= this.read) return;
    this.wasm.templateRows(
      layout.units,
      this.length,
      layout.starts,
      this.rows,
      this.read,
      end,
      layout.filled,
      layout.template,
      layout.counts,
      layout.slotId,
      layout.slotHash,
      layout.slots - 1,
      this.shifted ? layout.shift : 0,
    );
    if (this.levels) {
      this.wasm.levelRows(
        layout.units,
        this.length,
        layout.starts,
        this.rows,
        this.read,
        end,
        layout.filled,
        layout.level,
        layout.levelTable,
        this.shifted ? layout.shift : 0,
      );
    }
    this.read = end;
  }

  /**
   * The code slots of the rows (`rareLineCodes`' per-row loop) by `rowTemplate`, the rows'
   * template ids below `templates`, with `templateCounts` rows each: the scan's own, or those
   * after shapes were merged (`mergeVariableWords`), once every row's template is read. Views of
   * this scan's memory, valid until `close`.
   */
  codeSlots(
    rowTemplate: Int32Array,
    templates: number,
    templateCounts: Int32Array,
    check: StopCheck,
  ): CodeSlots | undefined {
    const { layout, rows, memory } = this;
    this.readTemplates(rows);
    if (rowTemplate !== this.rowTemplate) this.rowTemplate.set(rowTemplate);
    const dense = new Int32Array(memory, layout.dense, templates);
    let slotted = 0;
    for (let id = 0; id < templates; id++) {
      dense[id] = templateCounts[id]! >= MIN_SLOT_ROWS ? slotted++ : -1;
    }
    if (slotted === 0) return undefined;
    const values = slotted * MAX_SLOTS * SLOT_WIDTH;
    const slots: CodeSlots = {
      dense,
      slotted,
      slotValue: new Int32Array(memory, layout.slotValue, values).fill(0),
      slotCount: new Int32Array(memory, layout.slotCount, values).fill(0),
      slotSize: new Int8Array(memory, layout.slotSize, slotted * MAX_SLOTS).fill(0),
      rowCodes: new Int32Array(memory, layout.rowCodes, rows).fill(0),
    };
    const template = this.rowTemplate;
    let work = 0;
    // Polled as the JavaScript loop polls: after each 1 024 rows whose last row has slots.
    for (let first = 0; first < rows; first += CODE_CHUNK_ROWS) {
      const last = Math.min(rows, first + CODE_CHUNK_ROWS);
      work += this.wasm.codeRows(
        layout.units,
        this.length,
        layout.starts,
        rows,
        first,
        last,
        layout.template,
        layout.dense,
        layout.slotValue,
        layout.slotCount,
        layout.slotSize,
        layout.rowCodes,
      );
      if (last - first === CODE_CHUNK_ROWS && dense[template[last - 1]!]! >= 0) {
        check(work);
        work = 0;
      }
    }
    check(work);
    return slots;
  }

  /**
   * The numbers the rows measure (`lineMeasureOutliers`' per-row pass), added to `numbers` in
   * text order. Polled as the JavaScript loop polls: after each 1 024 rows.
   */
  measureNumbers(numbers: MeasuredNumbers, check: StopCheck): void {
    const { layout, rows, memory, wasm } = this;
    const keys = new Int32Array(memory, layout.measureKey, CODE_CHUNK_ROWS * MAX_MEASURED);
    const values = new Float64Array(memory, layout.measureValue, CODE_CHUNK_ROWS * MAX_MEASURED);
    const numberRows = new Int32Array(memory, layout.measureRow, CODE_CHUNK_ROWS * MAX_MEASURED);
    let work = 0;
    for (let first = 0; first < rows; first += CODE_CHUNK_ROWS) {
      const last = Math.min(rows, first + CODE_CHUNK_ROWS);
      const count = wasm.measureRows(
        layout.units,
        this.length,
        layout.starts,
        rows,
        first,
        last,
        layout.measureKey,
        layout.measureValue,
        layout.measureRow,
      );
      for (let k = 0; k < count; k++) numbers.add(keys[k]!, values[k]!, numberRows[k]!);
      work += wasm.measureWork.value;
      if (last - first === CODE_CHUNK_ROWS) {
        check(work);
        work = 0;
      }
    }
    check(work);
  }

  /** Gives the instance back; no view of this scan may be read after. */
  close(): void {
    if (this.owned) return;
    retainedBusy = false;
    if (this.memory.byteLength > RETAINED_WASM_MEMORY_BYTES) bigRetainedRelease.touch();
  }
}

/**
 * Keeps the scans' hidden class alive between trims, and the optimised code using it, while no
 * instance is kept (a big one dropped once idle, before the next text makes another).
 */
export const LINE_SCAN_SHAPE = new LineScan(undefined, true);

/**
 * A line scan of the text whose UTF-16 `units` are split into rows at `rowStarts` (row `r` is
 * `[rowStarts[r], rowStarts[r + 1])`, the last one to the text's end), or undefined where
 * WebAssembly is unavailable or there is no memory for it: the caller reads the rows in
 * JavaScript then. The memory is sized for the whole text up front and never grown (see core's
 * `instantiateWasm`); the instance is kept for the next text, one of more than
 * `RETAINED_WASM_MEMORY_BYTES` only until idle for `BIG_RETAINED_IDLE_MS`. With `levelTable`
 * (the vocabulary's), the scan also reads the rows' levels as far as it can (`rowLevel`). With
 * `rowShift`, each row's template and level are read from that many units past its start (a
 * diff's lines, past their markers); its codes and measures from its start.
 */
export function openLineScan(
  units: Uint16Array,
  rowStarts: readonly number[],
  levelTable?: LevelTable,
  rowShift?: Uint8Array,
): LineScan | undefined {
  const module = compiledModule();
  if (module === null) return undefined;
  const image = levelTable && levelTableImage(levelTable);
  const layout = layoutFor(units.length, rowStarts.length, image?.length);
  if (layout.end > UPFRONT_MEMORY_LIMIT) return undefined;
  try {
    if (!retainedBusy && retained !== undefined && layout.end <= retained.bytes) {
      return retained.scan.open(units, rowStarts, layout, image, rowShift);
    }
    if (retainedBusy) {
      return new LineScan(instantiateWasm<LineScanExports>(module, layout.end), true).open(
        units,
        rowStarts,
        layout,
        image,
        rowShift,
      );
    }
    // A bigger kept instance replaces the old one, with room to spare for the next texts
    // (address space only: pages never touched are not resident); past
    // `RETAINED_WASM_MEMORY_BYTES` it is kept only while texts follow each other.
    const room =
      layout.end <= RETAINED_WASM_MEMORY_BYTES ? RETAINED_WASM_MEMORY_BYTES : UPFRONT_MEMORY_LIMIT;
    const bytes = Math.min(room, 2 * layout.end);
    const scan = new LineScan(instantiateWasm<LineScanExports>(module, bytes), false);
    retained = { scan, bytes };
    return scan.open(units, rowStarts, layout, image, rowShift);
  } catch (error) {
    // Making memory fails with a RangeError when the process is out of it.
    if (error instanceof RangeError) return undefined;
    throw error;
  }
}
