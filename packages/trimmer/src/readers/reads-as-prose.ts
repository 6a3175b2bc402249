import { isAsciiLetter } from './ascii-class.js';
import { isLetterOrDigit, isUnspacedScript } from './unicode-class.js';

/** Units of a value looked at. */
const PROSE_WINDOW = 64;
/** Spaced text: at least this many words (runs of two letters or more)… */
const MIN_WORDS = 3;
/** …with spaces between them… */
const MIN_SPACES = 2;
/** …and letters for at least this share of the units that are not spaces. */
const MIN_LETTER_SHARE = 0.5;
/** Words after which, with spaces and letters for two units in three, the rest is not read. */
const SETTLED_WORDS = 4;
/** Text in a script written without spaces: at least this many of its letters. */
const MIN_UNSPACED_LETTERS = 4;

/**
 * Whether `text[from, to)` (a string's content) reads as words written for people: a message,
 * a description, a post, in any script. Within its first 64 units, either three words or more
 * (runs of two letters or more) with spaces between them and letters for at least half of what
 * is not a space (`Back-off restarting failed container`), or four letters of a script written
 * without spaces (Han, kana, Hangul, Thai). Dates (`Sat Feb 16 13:40:25 +0000 2013`), URLs and
 * paths (no spaces), identifiers, hashes and markup (a value opening with `<`) do not.
 */
export function readsAsProse(text: string, from: number, to: number): boolean {
  // Markup (`<a href="…">Twitter for iPhone</a>`) is made of words too.
  let first = from;
  while (first < to && text.charCodeAt(first) === 0x20) first++;
  if (text.charCodeAt(first) === 0x3c) return false;
  // A JSON object written into a string, as long as a line a service logs (escaped or not):
  // its keys and values are words between quotes, which part them as spaces do. (A short
  // one, an id under a key, says no more than the id.)
  const quoted =
    to - first >= PROSE_WINDOW &&
    text.charCodeAt(first) === 0x7b &&
    (text.charCodeAt(first + 1) === 0x22 || text.startsWith('\\"', first + 1));
  const stop = Math.min(to, from + PROSE_WINDOW);
  let words = 0;
  let spaces = 0;
  let letters = 0;
  let others = 0;
  let unspaced = 0;
  let run = 0;
  for (let i = from; i < stop; i++) {
    const c = text.charCodeAt(i);
    let letter: boolean;
    if (c < 0x80) {
      letter = isAsciiLetter(c);
      if (c === 0x20 || (quoted && c === 0x22)) spaces++;
    } else if (c >= 0xd800 && c <= 0xdfff) {
      // Astral characters (emoji, rare ideographs) neither make nor break a word.
      letter = false;
    } else {
      letter = isLetterOrDigit(c);
      if (letter && isUnspacedScript(c)) unspaced++;
    }
    if (letter) {
      letters++;
      run++;
      continue;
    }
    if (run >= 2) {
      words++;
      // Four words with spaces between them and letters for most of the way settle it.
      if (words >= SETTLED_WORDS && spaces >= MIN_SPACES && letters >= 2 * others) return true;
    }
    run = 0;
    if (c !== 0x20 && !(quoted && c === 0x22)) others++;
  }
  if (run >= 2) words++;
  if (unspaced >= MIN_UNSPACED_LETTERS) return true;
  return (
    words >= MIN_WORDS && spaces >= MIN_SPACES && letters >= MIN_LETTER_SHARE * (letters + others)
  );
}
