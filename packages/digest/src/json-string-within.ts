import { assertSize, assertString } from '@compaction/core';

/** Bytes of the JSON escape of an ASCII control character, quote or backslash. */
function escapedAsciiBytes(code: number): number {
  // \b \t \n \f \r \" \\ have two-character escapes; other controls are \u00XX.
  if (code === 0x08 || code === 0x09 || code === 0x0a || code === 0x0c || code === 0x0d) return 2;
  if (code === 0x22 || code === 0x5c) return 2;
  return code < 0x20 ? 6 : 1;
}

/**
 * The JSON string literal of the longest prefix of `text` whose literal, escapes included, fits
 * `maxBytes` UTF-8 bytes, as `JSON.stringify` writes it (a lone surrogate becomes `\uXXXX`). A
 * surrogate pair is never split. Below 2 bytes no literal fits and `""` is returned. Costs
 * O(length of the prefix), whatever the size of `text`. `maxBytes` is an integer ≥ 0 or Infinity.
 */
export function jsonStringWithin(text: string, maxBytes: number): string {
  assertString(text, 'text');
  const budget = assertSize(maxBytes, 'maxBytes', { allowInfinity: true }) - 2;
  let used = 0;
  let index = 0;
  while (index < text.length) {
    const code = text.charCodeAt(index);
    let bytes: number;
    let units = 1;
    if (code < 0x80) bytes = escapedAsciiBytes(code);
    else if (code < 0x800) bytes = 2;
    else if (code >= 0xd800 && code <= 0xdbff) {
      const next = text.charCodeAt(index + 1);
      if (next >= 0xdc00 && next <= 0xdfff) {
        bytes = 4;
        units = 2;
      } else bytes = 6;
    } else if (code >= 0xdc00 && code <= 0xdfff) bytes = 6;
    else bytes = 3;
    if (used + bytes > budget) break;
    used += bytes;
    index += units;
  }
  return JSON.stringify(index === text.length ? text : text.slice(0, index));
}
