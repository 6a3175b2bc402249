import { utf8ByteLength } from '../utf8.js';

/**
 * UTF-8 bytes of `text` with the whitespace between its JSON tokens removed (every token keeps
 * its exact text, so nothing is lost), or undefined when `text` is not JSON. A leading
 * byte-order mark is not counted.
 */
export function minifiedJsonBytes(
  text: string,
  textBytes = utf8ByteLength(text),
): number | undefined {
  const source = text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
  try {
    JSON.parse(source);
  } catch {
    return undefined;
  }
  // Whitespace outside strings is one byte per unit; everything else stays.
  let blank = 0;
  let inString = false;
  for (let i = 0; i < source.length; i++) {
    const code = source.charCodeAt(i);
    if (inString) {
      if (code === 0x5c) i++;
      else if (code === 0x22) inString = false;
    } else if (code === 0x22) inString = true;
    else if (code === 0x20 || code === 0x0a || code === 0x0d || code === 0x09) blank++;
  }
  return textBytes - (source === text ? 0 : 3) - blank;
}

// Minifying pretty JSON rarely saves more than three quarters of it; a text over this many
// times the budget is not parsed to find out whether it would fit.
const MAX_MINIFY_RATIO = 4;

/**
 * True when `text` fits `maxBytes` UTF-8 bytes whole: as it is, or minified when it is JSON
 * (the lossless view the structural trimmer returns). Parses only a text within 4× the budget.
 */
export function fitsWhole(
  text: string,
  maxBytes: number,
  textBytes = utf8ByteLength(text),
): boolean {
  if (textBytes <= maxBytes) return true;
  if (textBytes > maxBytes * MAX_MINIFY_RATIO) return false;
  const minified = minifiedJsonBytes(text, textBytes);
  return minified !== undefined && minified <= maxBytes;
}
