import type { JsonTape } from './json-tape.js';
import { JSON_TAPE_WASM_BASE64 } from './json-tape-wasm.js';
import {
  compileWasm,
  growWasmMemory,
  instantiateWasm,
  type WasmMemory,
  type WasmModule,
} from './wasm-module.js';

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
}

const BOM = '\uFEFF';
const PADDING_BYTES = 64;
const RECORD_BYTES = 32;
/**
 * One instance is kept and reused while its memory stays under this size. WebAssembly memory
 * never shrinks, so an instance that grew past it for a big text is dropped after the build and
 * garbage-collected with its memory.
 */
const RETAINED_MEMORY_BYTES = 16 * 2 ** 20;

// undefined: not tried yet; null: unavailable here.
let compiledTape: WasmModule | null | undefined;
let retainedBuilder: JsonTapeExports | undefined;
// True while a `withJsonTape` reader holds a view of the retained instance's memory.
let retainedInUse = false;

/** A tape whose records are a view of `builder`'s memory. */
interface BuiltTape {
  builder: JsonTapeExports;
  tape: JsonTape;
}

function build(text: string): BuiltTape | 'invalid' | 'unavailable' {
  compiledTape ??= compileWasm(JSON_TAPE_WASM_BASE64);
  if (compiledTape === null) return 'unavailable';
  const source = text.startsWith(BOM) ? text.slice(1) : text;
  const textBytes = source.length * 2;
  const recordsAt = (textBytes + PADDING_BYTES + 7) & ~7;
  // Room for the text and a first share of records; the module grows memory for more.
  const firstBytes = recordsAt + RECORD_BYTES * Math.min(source.length + 1, 4096);
  let builder: JsonTapeExports;
  let count: number;
  try {
    if (firstBytes > RETAINED_MEMORY_BYTES || retainedInUse) {
      builder = instantiateWasm<JsonTapeExports>(compiledTape);
    } else {
      retainedBuilder ??= instantiateWasm<JsonTapeExports>(compiledTape);
      builder = retainedBuilder;
    }
    growWasmMemory(builder.memory, firstBytes);
    const units = globalThis.Buffer.from(builder.memory.buffer, 0, textBytes + PADDING_BYTES);
    units.write(source, 0, 'utf16le');
    units.fill(0, textBytes);
    count = builder.build(textBytes, recordsAt);
  } catch (error) {
    // Memory that cannot grow surfaces as a RangeError.
    if (!(error instanceof RangeError)) throw error;
    if (!retainedInUse) retainedBuilder = undefined;
    return 'unavailable';
  }
  if (count === -2) return 'unavailable';
  if (count < 0) return 'invalid';
  const records = new Int32Array(builder.memory.buffer, recordsAt, count * 8);
  return { builder, tape: { text: source, count, records } };
}

/** Drops the retained instance once it grew past the size worth keeping. */
function release(builder: JsonTapeExports): void {
  if (builder === retainedBuilder && builder.memory.buffer.byteLength > RETAINED_MEMORY_BYTES) {
    retainedBuilder = undefined;
  }
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
  const { builder, tape } = built;
  const records = tape.records.slice();
  release(builder);
  return { ok: true, tape: { text: tape.text, count: tape.count, records } };
}

/**
 * Like `buildJsonTape`, but hands the tape to `read` without copying its records out of
 * WebAssembly memory, and returns what `read` returns. The tape is valid only while `read` runs:
 * it must not be kept. A `read` that builds tapes itself gets them from fresh instances.
 */
export function withJsonTape<R>(
  text: string,
  read: (tape: JsonTape) => R,
): { ok: true; value: R } | { ok: false; reason: 'invalid' | 'unavailable' } {
  const built = build(text);
  if (typeof built === 'string') return { ok: false, reason: built };
  const retained = built.builder === retainedBuilder;
  if (retained) retainedInUse = true;
  try {
    return { ok: true, value: read(built.tape) };
  } finally {
    if (retained) retainedInUse = false;
    release(built.builder);
  }
}
