import { NUMBER_SCAN_WASM_BASE64 } from './number-scan-wasm.js';
import {
  compileWasm,
  instantiateWasm,
  RETAINED_WASM_MEMORY_BYTES,
  type WasmMemory,
  type WasmModule,
} from './wasm-module.js';
import { writeUtf16Units } from './write-utf16-units.js';

/** Which implementation `scanNumberTokens` runs on in this process. */
export type NumberScanBackend = 'wasm' | 'js';

/** What `scanNumberTokens` found in a JSON text. */
export interface NumberTokenScan {
  /**
   * One triple per number token whose shape allows loss, in text order: its start and end index
   * in the text, and its ordinal among all number tokens (0 for the first number of the text).
   */
  spans: number[];
  /** Number tokens in the text. */
  numbers: number;
  /** String tokens in the text, object keys included. */
  strings: number;
}

const QUOTE = 34;
const BACKSLASH = 92;
const MINUS = 45;
const PLUS = 43;
const DOT = 46;
const ZERO = 48;
const NINE = 57;

/** Index of the quote that closes the string opened at `open`, or -1. */
function closingQuote(text: string, open: number): number {
  let end = text.indexOf('"', open + 1);
  while (end > 0 && text.charCodeAt(end - 1) === BACKSLASH) {
    let backslashes = 0;
    for (let k = end - 1; text.charCodeAt(k) === BACKSLASH; k--) backslashes++;
    if (backslashes % 2 === 0) break;
    end = text.indexOf('"', end + 1);
  }
  return end;
}

/**
 * The JavaScript implementation of `scanNumberTokens`: the fallback where WebAssembly is
 * unavailable (for example `node --jitless`) and the reference the WebAssembly scan is tested
 * against. Strings are skipped with native `indexOf`; everything else is read unit by unit.
 */
export function scanNumberTokensInJs(text: string): NumberTokenScan {
  const spans: number[] = [];
  const length = text.length;
  let numbers = 0;
  let strings = 0;
  let i = 0;
  while (i < length) {
    const code = text.charCodeAt(i);
    if (code === QUOTE) {
      strings++;
      const end = closingQuote(text, i);
      if (end < 0) break;
      i = end + 1;
      continue;
    }
    if (code !== MINUS && (code < ZERO || code > NINE)) {
      i++;
      continue;
    }
    const start = i;
    numbers++;
    let digits = 0;
    let last = 0;
    let dot = false;
    let exponent = false;
    for (i = start + 1, digits = code === MINUS ? 0 : 1, last = code; i < length; i++) {
      const c = text.charCodeAt(i);
      if (c >= ZERO && c <= NINE) {
        digits++;
        last = c;
      } else if (c === DOT) dot = true;
      else if (c === 101 || c === 69 || c === PLUS || c === MINUS) exponent = true;
      else break;
    }
    const first = text.charCodeAt(code === MINUS ? start + 1 : start);
    const suspicious =
      exponent ||
      digits >= 15 ||
      (dot && last === ZERO) ||
      (code === MINUS && digits === 1 && first === ZERO) ||
      (dot && first === ZERO && digits > 6);
    if (suspicious) spans.push(start, i, numbers - 1);
  }
  return { spans, numbers, strings };
}

// Memory layout of the WebAssembly scan: span triples first, then the text as UTF-16 units, then
// zero padding for the 16-unit vector loads that read past the text's end.
const SPAN_CAPACITY = 1024;
const TEXT_OFFSET = SPAN_CAPACITY * 12;
const PADDING_BYTES = 32;

interface NumberScanExports {
  memory: WasmMemory;
  count: { readonly value: number };
  numbers: { value: number };
  strings: { value: number };
  scan(from: number, end: number, out: number, capacity: number): number;
}

/** An instance with views over its memory. */
interface NumberScanner {
  exports: NumberScanExports;
  memory: ArrayBuffer;
  units: Uint16Array;
  triples: Int32Array;
}

// undefined: not tried yet; null: WebAssembly (or its SIMD) is unavailable here.
let compiledScan: WasmModule | null | undefined;
let retainedScanner: NumberScanner | undefined;

function compiledModule(): WasmModule | null {
  if (compiledScan === undefined) compiledScan = compileWasm(NUMBER_SCAN_WASM_BASE64);
  return compiledScan;
}

/** A scanner whose memory holds `bytes`: made that big, never grown (see `instantiateWasm`). */
function createScanner(module: WasmModule, bytes: number): NumberScanner {
  const exports = instantiateWasm<NumberScanExports>(module, bytes);
  const memory = exports.memory.buffer;
  return {
    exports,
    memory,
    units: new Uint16Array(memory, TEXT_OFFSET),
    triples: new Int32Array(memory, 0, SPAN_CAPACITY * 3),
  };
}

function scannerFor(module: WasmModule, bytes: number): NumberScanner {
  if (retainedScanner !== undefined && bytes <= retainedScanner.memory.byteLength) {
    return retainedScanner;
  }
  if (bytes > RETAINED_WASM_MEMORY_BYTES) return createScanner(module, bytes);
  // A bigger retained scanner replaces the old one, with room to spare for the next texts.
  retainedScanner = createScanner(module, Math.min(RETAINED_WASM_MEMORY_BYTES, 2 * bytes));
  return retainedScanner;
}

function scanNumberTokensInWasm(text: string, module: WasmModule): NumberTokenScan {
  const textBytes = text.length * 2;
  const { exports, units, triples } = scannerFor(module, TEXT_OFFSET + textBytes + PADDING_BYTES);
  writeUtf16Units(text, units);
  units.fill(0, text.length, text.length + PADDING_BYTES / 2);
  exports.numbers.value = 0;
  exports.strings.value = 0;
  const spans: number[] = [];
  const end = TEXT_OFFSET + textBytes;
  let at = TEXT_OFFSET;
  while (at < end) {
    at = exports.scan(at, end, 0, SPAN_CAPACITY);
    const written = exports.count.value * 3;
    for (let k = 0; k < written; k += 3) {
      spans.push(
        (triples[k]! - TEXT_OFFSET) >>> 1,
        (triples[k + 1]! - TEXT_OFFSET) >>> 1,
        triples[k + 2]!,
      );
    }
    if (written < SPAN_CAPACITY * 3) break;
  }
  return { spans, numbers: exports.numbers.value, strings: exports.strings.value };
}

/** `'wasm'` when the WebAssembly scan runs in this process, `'js'` when it falls back. */
export function numberScanBackend(): NumberScanBackend {
  return compiledModule() === null ? 'js' : 'wasm';
}

/**
 * Finds, in `text` (which must be valid JSON: it is not validated), every number token whose
 * shape allows a JavaScript number to change it: an exponent, 15 or more digits, a fraction
 * ending in 0, `-0`, or a fraction small enough for exponent notation. Every other token
 * round-trips exactly, so callers check only these. Number-like text inside strings is never
 * reported. Also counts all number and string tokens.
 *
 * Runs a SIMD WebAssembly scan over the text's UTF-16 units (number-scan.wat), several times
 * faster than a JavaScript loop, and falls back to `scanNumberTokensInJs` where WebAssembly is
 * unavailable or there is no memory for it.
 */
export function scanNumberTokens(text: string): NumberTokenScan {
  const module = compiledModule();
  if (module !== null) {
    try {
      return scanNumberTokensInWasm(text, module);
    } catch (error) {
      // Making memory fails with a RangeError when the process is out of it.
      if (!(error instanceof RangeError)) throw error;
    }
  }
  return scanNumberTokensInJs(text);
}
