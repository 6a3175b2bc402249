import { isAsciiDigit, isAsciiWordCode } from './ascii-class.js';

/**
 * The one non-zero-exit rule, for every reader: after an exit word (`exit`, `exit_code`,
 * `returncode`: the vocabulary's `exitWords`), past blanks, `:`, `=`, `(`, quotes, `-` and the
 * vocabulary's `exitFillers` (`with`, `code`, `status`), a number that is not zero says the
 * command failed (`exit code 137`, `exit_code=1`, `exited with status 2`); `exit code 0`, a
 * word that is no filler or nothing at all says nothing.
 */

/** UTF-16 units after an exit word looked at for its status. */
const EXIT_LOOKAHEAD = 32;
/** What else may stand before the status: blanks, `:`, `=`, `(`, quotes, `-`. */
const BETWEEN = new Set([0x20, 0x09, 0x3a, 0x3d, 0x28, 0x22, 0x27, 0x2d]);

/** Whether the status in `text` from `at` (just past an exit word), before `end`, is not zero. */
export function failedExitStatus(
  text: string,
  at: number,
  end: number,
  fillers: ReadonlySet<string>,
): boolean {
  const stop = Math.min(end, at + EXIT_LOOKAHEAD);
  let i = at;
  while (i < stop) {
    const code = text.charCodeAt(i);
    if (isAsciiDigit(code)) {
      while (i < stop && text.charCodeAt(i) === 0x30) i++;
      return i < stop && isAsciiDigit(text.charCodeAt(i));
    }
    if (isAsciiWordCode(code)) {
      const from = i;
      while (i < stop && isAsciiWordCode(text.charCodeAt(i))) i++;
      if (!fillers.has(text.slice(from, i).toLowerCase())) return false;
      continue;
    }
    if (!BETWEEN.has(code)) return false;
    i++;
  }
  return false;
}

/**
 * Whether an error word is an exit phrase (`exit code`, `exit status`: its first word is an
 * exit word), found only where `failedExitStatus` holds after it.
 */
export function isExitPhrase(errorWord: string, exitWords: ReadonlySet<string>): boolean {
  const first = /^[a-z0-9_]+/i.exec(errorWord);
  return first !== null && exitWords.has(first[0].toLowerCase());
}
