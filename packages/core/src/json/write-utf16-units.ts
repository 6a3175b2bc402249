import { UTF16_UNITS_WASM_BASE64 } from './utf16-units-wasm.js';
import { compileWasm, instantiateWasm, type WasmMemory, type WasmModule } from './wasm-module.js';

// A string is copied in chunks: UTF-8 (at most 3 bytes a unit) in, UTF-16 out after it.
const CHUNK_UNITS = 16_384;
const OUTPUT_AT = CHUNK_UNITS * 3;

interface Utf16UnitsExports {
  memory: WasmMemory;
  widen(from: number, end: number, out: number): number;
}

interface Transcoder {
  exports: Utf16UnitsExports;
  utf8: Uint8Array;
}

const encoder = new TextEncoder();
// undefined: not tried yet; null: WebAssembly (or its SIMD) is unavailable here.
let transcoder: Transcoder | null | undefined;

function loadTranscoder(): Transcoder | null {
  if (transcoder !== undefined) return transcoder;
  const module: WasmModule | null = compileWasm(UTF16_UNITS_WASM_BASE64);
  if (module === null) {
    transcoder = null;
    return null;
  }
  const exports = instantiateWasm<Utf16UnitsExports>(module, OUTPUT_AT + CHUNK_UNITS * 2);
  transcoder = { exports, utf8: new Uint8Array(exports.memory.buffer, 0, OUTPUT_AT) };
  return transcoder;
}

function copyUnits(text: string, target: Uint16Array, from: number, to: number): void {
  for (let i = from; i < to; i++) target[i] = text.charCodeAt(i);
}

/**
 * Writes `text` as UTF-16 code units into `target` from index 0, one unit per string index,
 * with what every JavaScript runtime has: TextEncoder writes each chunk as UTF-8, an all-ASCII
 * chunk is widened by `Uint16Array.set`, any other is decoded by a small WebAssembly module
 * (utf16-units.wat), several times faster than a `charCodeAt` loop. Every unit is exact except a
 * lone surrogate, written as U+FFFD (one unit for one unit, so indices still line up); readers
 * that look only at ASCII units, as the number scan and the JSON tape do, see the string itself.
 */
export function writeUtf16UnitsPortably(text: string, target: Uint16Array): void {
  const length = text.length;
  const wasm = loadTranscoder();
  if (wasm === null) {
    copyUnits(text, target, 0, length);
    return;
  }
  let from = 0;
  while (from < length) {
    let to = Math.min(length, from + CHUNK_UNITS);
    // Never split a surrogate pair between chunks: each half would become U+FFFD.
    const last = text.charCodeAt(to - 1);
    if (to < length && last >= 0xd800 && last <= 0xdbff) to -= 1;
    const chunk = from === 0 && to === length ? text : text.slice(from, to);
    const { written } = encoder.encodeInto(chunk, wasm.utf8);
    if (written === to - from) {
      target.set(wasm.utf8.subarray(0, written), from);
    } else {
      const end = wasm.exports.widen(0, written, OUTPUT_AT);
      target.set(
        new Uint16Array(wasm.exports.memory.buffer, OUTPUT_AT, (end - OUTPUT_AT) >>> 1),
        from,
      );
    }
    from = to;
  }
}

/** The part of Node's Buffer used here, looked up at run time: core never requires it. */
interface NodeBufferApi {
  from(
    memory: ArrayBufferLike,
    byteOffset: number,
    length: number,
  ): {
    write(text: string, offset: number, encoding: 'utf16le'): number;
  };
}

/**
 * Writes `text` as UTF-16 code units into `target` from index 0 (see `writeUtf16UnitsPortably`).
 * Where Node's Buffer exists (Node, Bun, Deno) it copies the units itself: for a string with
 * characters beyond Latin-1 that is one memory copy, about ten times faster than encoding it,
 * which keeps the number scan and the tape near their cost on ASCII text. Browsers and edge
 * runtimes take the portable path.
 */
export function writeUtf16Units(text: string, target: Uint16Array): void {
  const buffer = (globalThis as { Buffer?: NodeBufferApi }).Buffer;
  if (buffer === undefined) {
    writeUtf16UnitsPortably(text, target);
    return;
  }
  buffer.from(target.buffer, target.byteOffset, text.length * 2).write(text, 0, 'utf16le');
}
