import { lowerBound } from '../engine/lower-bound.js';

/** A text without its terminal escape codes, and the way back to the original's offsets. */
export interface StrippedText {
  /** The text with every escape sequence removed; newlines all stay where they were. */
  text: string;
  /** Code units removed, in all. */
  removed: number;
  /** The offset in the original of the code unit at `offset` in `text` (or of its end). */
  toOriginal(offset: number): number;
}

const ESC = 0x1b;
const BEL = 0x07;
const NEWLINE = 0x0a;

/** Whether the ESC at `at` starts a string sequence: `ESC ]`, `ESC P`, `ESC X`, `ESC ^`, `ESC _`. */
function startsString(text: string, at: number): boolean {
  const next = text.charCodeAt(at + 1);
  return next === 0x5d || next === 0x50 || next === 0x58 || next === 0x5e || next === 0x5f;
}

/**
 * End of the string sequence (OSC, DCS, SOS, PM, APC: `ESC _bk;t=1725840915929 BEL`, a CI's
 * timestamp; `ESC ]8;;url ESC \`, a hyperlink) starting at `at` (an ESC): after its BEL or
 * `ESC \`, or -1 when none starts there or another escape, a newline or `to` comes first.
 * Stopping at any escape keeps the scan linear: no unit is read by two scans.
 */
export function stringSequenceEnd(text: string, at: number, to = text.length): number {
  if (!startsString(text, at)) return -1;
  for (let j = at + 2; j < to; j++) {
    const code = text.charCodeAt(j);
    if (code === BEL) return j + 1;
    if (code === NEWLINE) return -1;
    if (code === ESC) return text.charCodeAt(j + 1) === 0x5c ? j + 2 : -1;
  }
  return -1;
}

/**
 * End of the presentation sequence starting at `at` (an ESC), or -1 when none does: ECMA-48's
 * control sequences (`ESC [`, parameters, intermediates, a final byte: colours, cursor moves,
 * erasures) and the short ones (intermediates then a final byte: `ESC ( B`, `ESC 7`, `ESC M`).
 * A string sequence is not one: what it carries (a hyperlink's address, a CI's timestamp) is
 * content, and so is the `ESC \` that ends it.
 */
function escapeEnd(text: string, at: number): number {
  const next = text.charCodeAt(at + 1);
  if (next === 0x5b) {
    let j = at + 2;
    while (j < text.length && text.charCodeAt(j) >= 0x30 && text.charCodeAt(j) <= 0x3f) j++;
    while (j < text.length && text.charCodeAt(j) >= 0x20 && text.charCodeAt(j) <= 0x2f) j++;
    const final = text.charCodeAt(j);
    return final >= 0x40 && final <= 0x7e ? j + 1 : cutShort(text, j);
  }
  if (next === 0x5c || startsString(text, at)) return -1;
  let j = at + 1;
  while (j < text.length && text.charCodeAt(j) >= 0x20 && text.charCodeAt(j) <= 0x2f) j++;
  const final = text.charCodeAt(j);
  return final >= 0x30 && final <= 0x7e ? j + 1 : cutShort(text, j);
}

/**
 * Where a sequence that stops at `j` without its final byte ends, when it was cut short (by
 * the end of the text or of its line, as a log cut mid-write leaves it): it goes too, not a
 * stray `ESC[3` left in a view whose note says the codes were removed. -1 otherwise.
 */
function cutShort(text: string, j: number): number {
  if (j >= text.length) return text.length;
  const code = text.charCodeAt(j);
  return code === NEWLINE || code === 0x0d ? j : -1;
}

/** Where the sequence `nextSequence` found last ends. */
let sequenceEnd = -1;

/**
 * Where the next presentation sequence at or after `from` starts (see `escapeEnd`), or -1; its
 * end is left in `sequenceEnd`, so it is parsed once. A string sequence is stepped over whole,
 * so an escape inside its end is not taken for one of its own.
 */
function nextSequence(text: string, from: number): number {
  let at = text.indexOf('\x1b', from);
  while (at >= 0) {
    if (startsString(text, at)) {
      const end = stringSequenceEnd(text, at);
      at = text.indexOf('\x1b', end < 0 ? at + 1 : end);
      continue;
    }
    sequenceEnd = escapeEnd(text, at);
    if (sequenceEnd >= 0) return at;
    at = text.indexOf('\x1b', at + 1);
  }
  return -1;
}

/**
 * Where in the stripped text each run of removed units was, and how many were removed up to and
 * including it: found again from `text` when first asked for, as few views need it.
 */
function removedRuns(text: string): { where: number[]; removedUpTo: number[] } {
  const where: number[] = [];
  const removedUpTo: number[] = [];
  let copied = 0;
  let length = 0;
  let removed = 0;
  for (let at = nextSequence(text, 0); at >= 0; at = nextSequence(text, copied)) {
    const end = sequenceEnd;
    length += at - copied;
    removed += end - at;
    if (where.length > 0 && where[where.length - 1] === length) {
      removedUpTo[removedUpTo.length - 1] = removed;
    } else {
      where.push(length);
      removedUpTo.push(removed);
    }
    copied = end;
  }
  return { where, removedUpTo };
}

/**
 * What `nextSequence` finds, as one pattern: a presentation sequence (see `escapeEnd`, cut short
 * included). No match starts or ends inside a string sequence (its body holds no ESC, and
 * neither the ESC opening it nor the one of its `ESC \` opens a match), so it needs no stepping
 * over here: replacing each match with nothing removes exactly the presentation sequences, in
 * one native replace that builds the stripped text flat (with a group kept for each string
 * sequence and put back, the replace took twice as long on a coloured CI log).
 */
const SEQUENCES =
  /\x1b\[[0-?]*[ -/]*(?:[@-~]|(?=[\r\n]|$))|\x1b(?![[\\\]PX^_])[ -/]*(?:[0-~]|(?=[\r\n]|$))/g;

/**
 * `text` without the terminal escape codes that only present it (a coloured log's
 * `ESC[32m…ESC[0m`, cursor moves), or `undefined` when it has none. String sequences (a
 * hyperlink, a CI's timestamp) stay whole, and so does an ESC that starts no complete
 * sequence. Linear in the text.
 */
export function stripTerminalEscapes(text: string): StrippedText | undefined {
  if (!text.includes('\x1b')) return undefined;
  const stripped = text.replace(SEQUENCES, '');
  if (stripped.length === text.length) return undefined;
  let runs: { where: number[]; removedUpTo: number[] } | undefined;
  return {
    text: stripped,
    removed: text.length - stripped.length,
    toOriginal(offset: number): number {
      runs ??= removedRuns(text);
      // After the last run removed at or before `offset`: the unit there comes after it.
      const after = lowerBound(runs.where, offset + 1);
      return after === 0 ? offset : offset + runs.removedUpTo[after - 1]!;
    },
  };
}
