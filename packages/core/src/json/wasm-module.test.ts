import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import initWabt from 'wabt';
import { JSON_TAPE_WASM_BASE64 } from './json-tape-wasm.js';
import { NUMBER_SCAN_WASM_BASE64 } from './number-scan-wasm.js';
import { UTF16_UNITS_WASM_BASE64 } from './utf16-units-wasm.js';

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
