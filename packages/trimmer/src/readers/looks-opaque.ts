import { isAsciiDigit, isAsciiLetter } from './ascii-class.js';

/** Characters of an opaque run: letters, digits and base64's `+`, `/` and `=`. */
function inRun(c: number): boolean {
  return isAsciiLetter(c) || isAsciiDigit(c) || c === 0x2b || c === 0x2f || c === 0x3d;
}

/** A run this long, with letters and digits mixed, reads as opaque. */
const OPAQUE_RUN = 20;
/**
 * Turns between letters and digits that make a run mixed: a number inside it, not only one
 * that ends it (a test's `TestCreateUserProfileHandler12` is words and a number).
 */
const MIXED_TURNS = 2;
/** Units of a value looked at. */
const OPAQUE_WINDOW = 128;

/**
 * Whether `text[from, to)` holds, within its first 128 units, a run of at least 20 letters,
 * digits, `+`, `/` or `=` that mixes letters and digits (turns from one to the other twice or
 * more): a hash, base64, a token (bulk, not information). Names with a generated suffix (`coredns-64fd4b4794-p72lf`) are runs of words,
 * not opaque. A unit that cannot belong to a run rules out every run through it, so the scan
 * looks at one unit in twenty of prose and reads a run only where one could be long enough.
 */
export function looksOpaque(text: string, from: number, to: number): boolean {
  const stop = Math.min(to, from + OPAQUE_WINDOW);
  // No run reaches back before `i`: `i` is `from` or follows a unit outside runs.
  let i = from;
  while (i + OPAQUE_RUN <= stop) {
    const probe = i + OPAQUE_RUN - 1;
    if (!inRun(text.charCodeAt(probe))) {
      i = probe + 1;
      continue;
    }
    let j = probe;
    while (j > i && inRun(text.charCodeAt(j - 1))) j--;
    let run = 0;
    // Turns between letters and digits, and what the last of either was (1 digit, 2 letter).
    let turns = 0;
    let last = 0;
    for (; j < stop; j++) {
      const c = text.charCodeAt(j);
      if (!inRun(c)) break;
      run++;
      const now = isAsciiDigit(c) ? 1 : c !== 0x2b && c !== 0x2f && c !== 0x3d ? 2 : last;
      if (last !== 0 && now !== last) turns++;
      last = now;
      if (run >= OPAQUE_RUN && turns >= MIXED_TURNS) return true;
    }
    i = j + 1;
  }
  return false;
}
