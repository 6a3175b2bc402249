import { describe, expect, it } from 'vitest';
import { isLetterOrDigit, isUnspacedScript } from './unicode-class.js';

const LETTER_OR_DIGIT = /[\p{L}\p{N}]/u;
const UNSPACED =
  /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}\p{Script=Thai}]/u;

describe('Unicode classes answered from the table', () => {
  it('agree with the runtime’s \\p{…} classes on every code point, surrogates included', () => {
    const wrong: string[] = [];
    // Twice: the first pass fills the table, the second reads it.
    for (let pass = 0; pass < 2; pass++) {
      for (let cp = 0; cp <= 0x10ffff; cp++) {
        const char = String.fromCodePoint(cp);
        if (isLetterOrDigit(cp) !== LETTER_OR_DIGIT.test(char))
          wrong.push(`L/N U+${cp.toString(16)}`);
        if (isUnspacedScript(cp) !== UNSPACED.test(char))
          wrong.push(`unspaced U+${cp.toString(16)}`);
        if (wrong.length > 10) break;
      }
    }
    expect(wrong).toEqual([]);
  });

  it('reads the usual cases right', () => {
    expect(isLetterOrDigit(0x61)).toBe(true);
    expect(isLetterOrDigit(0x5f)).toBe(false);
    expect(isLetterOrDigit(0xe9)).toBe(true); // é
    expect(isLetterOrDigit(0x301)).toBe(false); // a combining mark
    expect(isLetterOrDigit(0x663)).toBe(true); // an Arabic-Indic digit
    expect(isLetterOrDigit(0x1d400)).toBe(true); // 𝐀
    expect(isLetterOrDigit(0x1f600)).toBe(false); // 😀
    expect(isLetterOrDigit(0xd800)).toBe(false);
    expect(isUnspacedScript(0x65e5)).toBe(true); // 日
    expect(isUnspacedScript(0xe9)).toBe(false);
  });
});
