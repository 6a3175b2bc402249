import { skipTerminalEscape } from './line-level.js';

/** UTF-16 units of a line that shape its template, and words counted. */
const TEMPLATE_WINDOW = 200;
const TEMPLATE_WORDS = 12;
/** A word this long (a hash, an id, base64) is a variable, like one holding a digit. */
const LONG_WORD = 20;
const ESC = 0x1b;
const FNV_OFFSET = 0x811c9dc5;
const FNV_PRIME = 0x01000193;
const VARIABLE = 0x23;

function isDigit(code: number): boolean {
  return code >= 0x30 && code <= 0x39;
}

function isWordCode(code: number): boolean {
  return (
    (code >= 0x61 && code <= 0x7a) ||
    (code >= 0x41 && code <= 0x5a) ||
    (code >= 0x30 && code <= 0x39) ||
    code === 0x5f ||
    code >= 0x80
  );
}

/**
 * A hash of the shape of the line `text[from, to)`: its first words with every word that holds
 * a digit (a `-` before a digit joins the word: `blk_-6952`) or is very long (timestamps, ids, counts, hashes) folded into one placeholder, and
 * punctuation, spacing and terminal escapes ignored. Lines printed by the same statement share
 * it, so how often a template occurs says how routine its lines are. Looks at no more than
 * `TEMPLATE_WINDOW` units.
 */
export function lineTemplate(text: string, from: number, to: number): number {
  const end = Math.min(to, from + TEMPLATE_WINDOW);
  let hash = FNV_OFFSET;
  let words = 0;
  let lastVariable = false;
  let i = from;
  while (i < end && words < TEMPLATE_WORDS) {
    const code = text.charCodeAt(i);
    if (code === ESC) {
      i = skipTerminalEscape(text, i, end);
      continue;
    }
    if (!isWordCode(code)) {
      i++;
      continue;
    }
    const start = i;
    let variable = false;
    for (; i < end; i++) {
      const c = text.charCodeAt(i);
      if (isDigit(c)) variable = true;
      else if (c === 0x2d && i + 1 < end && isDigit(text.charCodeAt(i + 1))) variable = true;
      else if (!isWordCode(c)) break;
    }
    if (variable || i - start >= LONG_WORD) {
      if (lastVariable) continue;
      lastVariable = true;
      hash = Math.imul(hash ^ VARIABLE, FNV_PRIME);
    } else {
      lastVariable = false;
      for (let k = start; k < i; k++) hash = Math.imul(hash ^ text.charCodeAt(k), FNV_PRIME);
    }
    hash = Math.imul(hash ^ 0x20, FNV_PRIME);
    words++;
  }
  return hash | 0;
}
