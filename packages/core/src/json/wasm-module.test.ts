import { readFileSync } from 'node:fs';
import { afterEach, describe, expect, it, vi } from 'vitest';
import initWabt from 'wabt';
import { buildJsonTape, withJsonTape } from './build-json-tape.js';
import { JSON_TAPE_WASM_BASE64 } from './json-tape-wasm.js';
import { NUMBER_SCAN_WASM_BASE64 } from './number-scan-wasm.js';
import { scanNumberTokens } from './scan-number-tokens.js';
import { UTF16_UNITS_WASM_BASE64 } from './utf16-units-wasm.js';
import { writeUtf16UnitsPortably } from './write-utf16-units.js';

describe('the committed WebAssembly modules', () => {
  it.each([
    ['number-scan.wat', NUMBER_SCAN_WASM_BASE64],
    ['json-tape.wat', JSON_TAPE_WASM_BASE64],
    ['utf16-units.wat', UTF16_UNITS_WASM_BASE64],
  ])(
    '%s is what the committed module was compiled from (run `pnpm build:wasm` after editing it)',
    async (file, committed) => {
      const wabt = await initWabt();
      const source = readFileSync(new URL(`./${file}`, import.meta.url), 'utf8');
      const module = wabt.parseWat(file, source, { simd: true });
      module.validate();
      const { buffer } = module.toBinary({});
      module.destroy();
      expect(committed).toBe(Buffer.from(buffer).toString('base64'));
    },
  );
});

// Growing a memory detaches the ArrayBuffer JavaScript saw it through, and the first detach in a
// process makes V8 check every typed-array access for one from then on, the host application's
// included. A detached buffer reads as 0 bytes long.
describe('WebAssembly memory is sized up front, not grown', () => {
  afterEach(() => {
    vi.restoreAllMocks();
  });

  // Core compiles without the DOM library, which is where TypeScript declares WebAssembly.
  const memoryPrototype = (
    globalThis as unknown as {
      WebAssembly: { Memory: { prototype: { grow(pages: number): number } } };
    }
  ).WebAssembly.Memory.prototype;

  const records = (n: number) =>
    `[${'{"name":"pod-7f9c","status":"Running","restarts":3,"labels":{"app":"web"}},'.repeat(n)}null]`;

  it('lends a tape, searches it and takes its inventory without growing its memory', () => {
    const grow = vi.spyOn(memoryPrototype, 'grow');
    const text = records(3000);
    const read = withJsonTape(text, (tape, reader) => {
      const before = tape.records.buffer;
      reader.candidates(['error', 'failed'], 0);
      const inventory = reader.inventory(1_000_000);
      return { same: tape.records.buffer === before, attached: before.byteLength > 0, inventory };
    });
    expect(read.ok && read.value.inventory?.count).toBe(1 + 3000 * 6 + 1);
    expect(read.ok && read.value).toMatchObject({ same: true, attached: true });
    expect(grow).not.toHaveBeenCalled();
  });

  it('makes a new memory for a bigger text instead of growing the one it had', () => {
    const grow = vi.spyOn(memoryPrototype, 'grow');
    let first: ArrayBufferLike | undefined;
    withJsonTape(records(10), (tape, reader) => {
      first = tape.records.buffer;
      reader.inventory(100);
    });
    for (const n of [2_000, 20_000]) {
      const bigger = withJsonTape(records(n), (_tape, reader) => reader.inventory(1e9)?.count);
      expect(bigger).toEqual({ ok: true, value: 1 + n * 6 + 1 });
      expect(buildJsonTape(records(n)).ok).toBe(true);
    }
    // The first tape's memory was replaced, not grown: a view of it is still attached.
    expect(first?.byteLength).toBeGreaterThan(0);
    expect(grow).not.toHaveBeenCalled();
  });

  it('scans numbers and transcodes text of growing sizes without growing a memory', () => {
    const grow = vi.spyOn(memoryPrototype, 'grow');
    for (const n of [1, 500, 5_000, 50_000]) {
      const text = `[${'1.50,'.repeat(n)}"é\u{1F600}"]`;
      expect(scanNumberTokens(text).numbers).toBe(n);
      const units = new Uint16Array(text.length);
      writeUtf16UnitsPortably(text, units);
      expect(String.fromCharCode(...units.subarray(-5))).toBe(text.slice(-5));
    }
    expect(grow).not.toHaveBeenCalled();
  });

  it('still reads a text denser than its memory was sized for (the memory grows then)', () => {
    const text = `[${'0,'.repeat(200_000)}0]`;
    const read = withJsonTape(text, (_tape, reader) => reader.inventory(1e9)?.count);
    expect(read).toEqual({ ok: true, value: 200_002 });
  });
});
