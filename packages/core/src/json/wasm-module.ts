// The part of the WebAssembly JavaScript API core uses. Core compiles without the DOM library,
// which is where TypeScript declares it, and must load where it is absent (`node --jitless`).

/** A compiled module. */
export interface WasmModule {
  readonly kind?: 'compiled';
}

interface WasmApi {
  Module: new (bytes: Uint8Array) => WasmModule;
  Instance: new (module: WasmModule, imports: object) => { readonly exports: object };
  Memory: new (descriptor: { initial: number }) => WasmMemory;
}

/** The memory an instance imports. */
export interface WasmMemory {
  readonly buffer: ArrayBuffer;
  grow(pages: number): number;
}

/** Bytes per WebAssembly memory page. */
export const WASM_PAGE_BYTES = 65_536;

/**
 * Memory an instance may keep between calls (resident: pages a text used). WebAssembly memory
 * never shrinks, so an instance that needs more for one big text is a throwaway one,
 * garbage-collected with its memory.
 */
export const RETAINED_WASM_MEMORY_BYTES = 16 * 2 ** 20;

/** The bytes of a base64 text, with `atob`, which browsers, edge runtimes and Node all have. */
function decodeBase64(base64: string): Uint8Array {
  const binary = atob(base64);
  const bytes = new Uint8Array(binary.length);
  for (let i = 0; i < binary.length; i++) bytes[i] = binary.charCodeAt(i);
  return bytes;
}

/**
 * Compiles a base64-encoded module, or returns null where WebAssembly (or its SIMD) is
 * unavailable, as under `node --jitless`.
 */
export function compileWasm(base64: string): WasmModule | null {
  const wasm = (globalThis as { WebAssembly?: WasmApi }).WebAssembly;
  if (wasm === undefined) return null;
  try {
    return new wasm.Module(decodeBase64(base64));
  } catch {
    return null;
  }
}

/**
 * A new instance of a compiled module, as its exports and `memory`: a new memory of at least
 * `bytes`, which it imports as `env.memory`. Throws a RangeError when there is no memory for it.
 *
 * Size the memory for the whole job up front rather than growing it: growing a memory detaches
 * the ArrayBuffer JavaScript saw it through, and the first detach in a process invalidates a V8
 * protector for good, after which optimised code checks every typed-array access for a detached
 * buffer (typed-array loops run measurably slower, ours and the host application's alike). Pages
 * made and never touched cost address space only.
 */
export function instantiateWasm<Exports>(
  module: WasmModule,
  bytes: number,
): Exports & { memory: WasmMemory } {
  const { Instance, Memory } = (globalThis as unknown as { WebAssembly: WasmApi }).WebAssembly;
  const memory = new Memory({ initial: Math.max(1, Math.ceil(bytes / WASM_PAGE_BYTES)) });
  const { exports } = new Instance(module, { env: { memory } });
  return Object.assign({ memory }, exports) as Exports & { memory: WasmMemory };
}

/**
 * Grows `memory` to at least `bytes`. Throws a RangeError when it cannot. Only where the need
 * could not be foreseen (see `instantiateWasm`).
 */
export function growWasmMemory(memory: WasmMemory, bytes: number): void {
  const missing = bytes - memory.buffer.byteLength;
  if (missing > 0) memory.grow(Math.ceil(missing / WASM_PAGE_BYTES));
}
