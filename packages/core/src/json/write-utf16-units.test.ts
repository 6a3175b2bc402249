import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { writeUtf16Units, writeUtf16UnitsPortably } from './write-utf16-units.js';

/** What `writeUtf16Units` promises: every unit, a lone surrogate as U+FFFD. */
function expectedUnits(text: string): number[] {
  const units: number[] = [];
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    const next = text.charCodeAt(i + 1);
    if (code >= 0xd800 && code <= 0xdbff && next >= 0xdc00 && next <= 0xdfff) {
      units.push(code, next);
      i++;
    } else units.push(code >= 0xd800 && code <= 0xdfff ? 0xfffd : code);
  }
  return units;
}

type Writer = typeof writeUtf16Units;

function written(text: string, write: Writer = writeUtf16UnitsPortably): number[] {
  const target = new Uint16Array(text.length + 4).fill(0xabcd);
  write(text, target);
  expect(Array.from(target.subarray(text.length))).toEqual([0xabcd, 0xabcd, 0xabcd, 0xabcd]);
  return Array.from(target.subarray(0, text.length));
}

const unit = fc.oneof(
  fc.constantFrom('a', '"', '9', '\n', 'é', '中', '😀', '\ud800', '\udfff', '\u0000', '\uffff'),
  fc.integer({ min: 0, max: 0xffff }).map((code) => String.fromCharCode(code)),
);

describe('writeUtf16UnitsPortably (TextEncoder and WebAssembly)', () => {
  it('writes every unit of ASCII, accented, CJK and astral text', () => {
    for (const text of ['', 'plain ascii', '{"é":"中文","emoji":"😀👩‍💻"}', 'x'.repeat(40_000)]) {
      expect(written(text)).toEqual(expectedUnits(text));
    }
  });

  it('keeps indices aligned when a lone surrogate becomes U+FFFD', () => {
    expect(written('a\ud800b\udc00c')).toEqual([0x61, 0xfffd, 0x62, 0xfffd, 0x63]);
  });

  it('matches the string unit for unit across chunk boundaries (property)', () => {
    fc.assert(
      fc.property(
        fc.array(unit, { maxLength: 200 }),
        fc.integer({ min: 0, max: 40_000 }),
        (pieces, padding) => {
          // Pads with ASCII so the interesting units land on and around the 16384-unit chunks.
          const text = 'p'.repeat(padding) + pieces.join('') + 'q'.repeat(padding % 7);
          expect(written(text)).toEqual(expectedUnits(text));
        },
      ),
      { numRuns: 150 },
    );
  });

  it('does not split a surrogate pair that straddles a chunk boundary', () => {
    const text = `${'a'.repeat(16_383)}😀${'b'.repeat(10)}`;
    expect(written(text)).toEqual(expectedUnits(text));
  });
});

describe('writeUtf16Units (Node Buffer where present)', () => {
  it('writes every unit exactly, lone surrogates included (property)', () => {
    fc.assert(
      fc.property(fc.array(unit, { maxLength: 300 }), (pieces) => {
        const text = pieces.join('');
        const units = written(text, writeUtf16Units);
        expect(String.fromCharCode(...units)).toBe(text);
      }),
      { numRuns: 200 },
    );
  });

  it('writes into a view that starts inside its buffer', () => {
    const memory = new ArrayBuffer(64);
    const view = new Uint16Array(memory, 8, 10);
    writeUtf16Units('héllo', view);
    expect(Array.from(view.subarray(0, 5))).toEqual([...'héllo'].map((c) => c.charCodeAt(0)));
    expect(new Uint16Array(memory, 0, 4).every((code) => code === 0)).toBe(true);
  });
});
