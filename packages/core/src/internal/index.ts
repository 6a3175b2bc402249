// Shared by the @compaction packages, not a public API: the JSON tape's layout, the text hash the
// trimmer's columns and the digest key on, byte measures, and the WebAssembly loader the
// trimmer's line scan compiles and instantiates its module with. It may change in any release;
// import the root entry point instead.
//
// It also re-exports a few root names (errors, argument checks, `utf8ByteLength`,
// `parseDuration`) for the modules of other packages that need nothing else: importing them from
// here, a one-shot command (`compaction store`, `compaction excerpt`) does not evaluate the whole
// root (45 modules, most of what its cold start spends loading modules).
export { assertSize } from '../assert-size.js';
export { assertString } from '../assert-string.js';
export { parseDuration } from '../config/parse-duration.js';
export { CompactionError, InvalidArgumentError } from '../errors.js';
export { createIdleRelease, type IdleRelease } from '../idle-release.js';
export {
  TAPE_ARRAY,
  TAPE_END,
  TAPE_ESCAPED_KEY,
  TAPE_ESCAPED_VALUE,
  TAPE_FLAGS,
  TAPE_KEY_END,
  TAPE_KEY_START,
  TAPE_KIND,
  TAPE_LITERAL,
  TAPE_NEXT,
  TAPE_NON_ASCII_KEY,
  TAPE_NON_ASCII_VALUE,
  TAPE_NUMBER,
  TAPE_OBJECT,
  TAPE_SIZE,
  TAPE_START,
  TAPE_STRIDE,
  TAPE_STRING,
} from '../json/json-tape.js';
export { minifiedJsonBytes } from '../json/minified-json-bytes.js';
export { TEXT_HASH_UNITS, textHash } from '../json/text-hash.js';
export {
  compileWasm,
  instantiateWasm,
  RETAINED_WASM_MEMORY_BYTES,
  type WasmMemory,
  type WasmModule,
} from '../json/wasm-module.js';
export { utf8ByteLength } from '../utf8.js';
