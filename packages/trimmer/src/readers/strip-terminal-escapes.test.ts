import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { stripTerminalEscapes } from './strip-terminal-escapes.js';

const ESC = '\u001b';
/** The pattern stripping used to run: each string sequence matched whole and put back. */
const STEPPING_OVER_STRINGS =
  /(\x1b[\]PX^_][^\x07\n\x1b]*(?:\x07|\x1b\\))|\x1b\[[0-?]*[ -/]*(?:[@-~]|(?=[\r\n]|$))|\x1b(?![[\\\]PX^_])[ -/]*(?:[0-~]|(?=[\r\n]|$))/g;

describe('stripTerminalEscapes', () => {
  it('removes colours, cursor moves and character sets', () => {
    const cases: Array<[string, string]> = [
      [`${ESC}[32mINFO${ESC}[0m ready`, 'INFO ready'],
      [`${ESC}[1;38;5;196mFATAL${ESC}[m`, 'FATAL'],
      [`${ESC}[2K${ESC}[1Aprogress 50%`, 'progress 50%'],
      [`${ESC}(B${ESC}7x${ESC}8${ESC}Mz`, 'xz'],
    ];
    for (const [input, output] of cases) expect(stripTerminalEscapes(input)?.text).toBe(output);
  });

  it('keeps string sequences whole: a hyperlink address and a CI timestamp are content', () => {
    const link = `${ESC}]8;;https://x.test/run/7${ESC}\\run 7${ESC}]8;;${ESC}\\`;
    expect(stripTerminalEscapes(`${ESC}[1m${link}${ESC}[0m failed`)?.text).toBe(`${link} failed`);
    const stamp = `${ESC}_bk;t=1725840919098\u0007`;
    expect(stripTerminalEscapes(`${stamp}${ESC}[90m$${ESC}[0m make`)?.text).toBe(`${stamp}$ make`);
    expect(stripTerminalEscapes(`${ESC}]0;title\u0007text`)).toBeUndefined();
    // An `ESC [` inside a string sequence's end is not a colour of its own.
    expect(stripTerminalEscapes(`${ESC}]8;;u${ESC}\\x`)).toBeUndefined();
  });

  it('strips a text of more pieces than one chain holds, and maps its offsets back', () => {
    const line = `${ESC}[32mok${ESC}[0m ${ESC}[90m12 ms${ESC}[0m\n`;
    const text = line.repeat(40_000);
    const stripped = stripTerminalEscapes(text)!;
    expect(stripped.text).toBe('ok 12 ms\n'.repeat(40_000));
    const last = stripped.text.length - 3;
    expect(text.slice(stripped.toOriginal(last), stripped.toOriginal(last) + 2)).toBe('ms');
  });

  it('removes a sequence cut short by the end of the text or of its line', () => {
    expect(stripTerminalEscapes(`a${ESC}`)?.text).toBe('a');
    expect(stripTerminalEscapes(`a${ESC}[12`)?.text).toBe('a');
    expect(stripTerminalEscapes(`ok${ESC}[3\nnext${ESC}(\r\nend`)?.text).toBe('ok\nnext\r\nend');
  });

  it('leaves an ESC that starts no complete sequence, and text without ESC alone', () => {
    expect(stripTerminalEscapes('plain text')).toBeUndefined();
    expect(stripTerminalEscapes(`a${ESC}\tb`)).toBeUndefined();
    expect(stripTerminalEscapes(`a${ESC}[12é`)).toBeUndefined();
    // A hyperlink left open at the line's end is not a sequence: nothing past it is eaten.
    expect(stripTerminalEscapes(`${ESC}]8;;https://x.test\nERROR disk full`)).toBeUndefined();
    expect(stripTerminalEscapes(`${ESC}[31m${ESC}]8;;u\nnext`)?.text).toBe(`${ESC}]8;;u\nnext`);
  });

  it('maps every kept unit back to its place in the original', () => {
    const complete = [`${ESC}[0m`, `${ESC}[38;5;12m`, `${ESC}(B`];
    const piece = fc.oneof(
      fc.string({ unit: 'grapheme', maxLength: 6 }),
      fc.constantFrom(
        ...complete,
        `${ESC}]8;;u${ESC}\\`,
        `${ESC}]2;t\u0007`,
        `${ESC}_bk;t=1`,
        `${ESC}P`,
        '\u0007',
        `${ESC}\\`,
        ESC,
        `${ESC}[`,
        `${ESC}]`,
        '\n',
        '\r\n',
      ),
    );
    fc.assert(
      fc.property(fc.array(piece, { maxLength: 40 }), (pieces) => {
        const original = pieces.join('');
        const stripped = stripTerminalEscapes(original);
        if (!stripped) {
          expect(pieces.some((p) => complete.includes(p))).toBe(false);
          expect(original.replace(STEPPING_OVER_STRINGS, '$1')).toBe(original);
          return;
        }
        const { text, toOriginal } = stripped;
        expect(text.length + stripped.removed).toBe(original.length);
        let previous = -1;
        for (let i = 0; i < text.length; i++) {
          const at = toOriginal(i);
          expect(at).toBeGreaterThan(previous);
          expect(original[at]).toBe(text[i]);
          previous = at;
        }
        expect(toOriginal(text.length)).toBeLessThanOrEqual(original.length);
        // Newlines are never removed: lines keep their numbers.
        expect(text.split('\n').length).toBe(original.split('\n').length);
        // String sequences need no stepping over: the pattern that kept each one whole in a
        // group and put it back removes the same units.
        expect(text).toBe(original.replace(STEPPING_OVER_STRINGS, '$1'));
        // Stripping line by line is stripping the whole: no sequence spans a newline.
        expect(
          original
            .split('\n')
            .map((line) => stripTerminalEscapes(line)?.text ?? line)
            .join('\n'),
        ).toBe(text);
      }),
      { numRuns: 2000 },
    );
  });
});
