import type { StopCheck } from '../engine/stop-check.js';

/** A block of a unified diff that is text before its first file. */
export const BLOCK_TEXT = 0;
/** A block that heads a file: from its first header line to its first hunk. */
export const BLOCK_FILE = 1;
/** A block that is a hunk, from its `@@` line (with what follows it up to the next block). */
export const BLOCK_HUNK = 2;

/** The blocks of a unified diff, in order; they tile the text at line boundaries. */
export interface DiffBlocks {
  /** Where each block begins; the first is 0. */
  starts: number[];
  /** Each block's kind: `BLOCK_TEXT`, `BLOCK_FILE` or `BLOCK_HUNK`. */
  kinds: Uint8Array;
  /** Lines that are the diff's: file header lines, `@@` lines and the lines hunks count. */
  diffLines: number;
  /** Per block, the lines its hunk adds (`+`) and removes (`-`); 0 for other blocks. */
  plus: Int32Array;
  minus: Int32Array;
}

/** A hunk's header: the lines it spans in the old and the new file (each 1 when left out). */
const HUNK_HEADER = /^@@ -\d+(?:,(\d+))? \+\d+(?:,(\d+))? @@/;

/**
 * The file headers and hunks of a unified diff, whatever heads its files: `diff --git`, a
 * `diff` command line (`diff -u a b`, `diff -Npur old new`) before `---`/`+++` lines or a
 * `Binary files … differ` line, an `Index:` line over a rule of `=`, or a `---`/`+++` pair
 * alone. A line a file has only on one side (`Only in dir: name`) and a `Binary files … differ`
 * line outside a header are a file header each, with no hunk. A `---`/`+++` pair (or any line)
 * inside a hunk is the hunk's: a hunk spans the lines its `@@ -a,b +c,d @@` header counts (a
 * removed SQL comment `-- note` reads `--- note`), and ends early at a line no hunk holds.
 * `diff --git` and `@@` lines start a block wherever they are. Linear in the text: each line is
 * read at its start, and a line after it at most.
 */
export function diffBlocks(
  text: string,
  lineStarts: readonly number[],
  check: StopCheck,
): DiffBlocks {
  const starts: number[] = [0];
  const kinds: number[] = [BLOCK_TEXT];
  const plus: number[] = [0];
  const minus: number[] = [0];
  const lines = lineStarts.length;
  /** Where the line after line `i` starts, or -1. */
  const next = (i: number): number => (i + 1 < lines ? lineStarts[i + 1]! : -1);
  const block = (at: number, kind: number): void => {
    if (at === 0) kinds[0] = kind;
    else {
      starts.push(at);
      kinds.push(kind);
      plus.push(0);
      minus.push(0);
    }
  };
  // Lines of the hunk being read left to count on each side; in a file's header, whether it has
  // its `---`/`+++` pair yet.
  let oldLeft = 0;
  let newLeft = 0;
  let inHeader = false;
  let headerHasPair = false;
  let diffLines = 0;
  let sinceCheck = 0;
  for (let i = 0; i < lines; i++) {
    const at = lineStarts[i]!;
    if (at - sinceCheck >= 4096) {
      check(at - sinceCheck);
      sinceCheck = at;
    }
    const first = text.charCodeAt(at);
    if (first === 0x40 && text.startsWith('@@ ', at)) {
      block(at, BLOCK_HUNK);
      diffLines++;
      inHeader = false;
      const end = text.indexOf('\n', at);
      const counts = HUNK_HEADER.exec(
        text.slice(at, Math.min(end < 0 ? text.length : end, at + 120)),
      );
      // A hunk whose header gives no counts runs as far as its lines read as a hunk's.
      oldLeft = counts ? Number(counts[1] ?? 1) : Number.POSITIVE_INFINITY;
      newLeft = counts ? Number(counts[2] ?? 1) : Number.POSITIVE_INFINITY;
      continue;
    }
    if (first === 0x64 && text.startsWith('diff --git ', at)) {
      block(at, BLOCK_FILE);
      diffLines++;
      inHeader = true;
      headerHasPair = false;
      oldLeft = 0;
      newLeft = 0;
      continue;
    }
    if (oldLeft > 0 || newLeft > 0) {
      // A line of the hunk: a context line (blank where trailing spaces were cut) counts on
      // both sides, a removed one on the old, an added one on the new; `\ No newline` on none.
      const both = first === 0x20 || first === 0x0a || first === 0x0d || Number.isNaN(first);
      diffLines++;
      if (both && oldLeft > 0 && newLeft > 0) {
        oldLeft--;
        newLeft--;
        continue;
      }
      if (first === 0x2d && oldLeft > 0) {
        oldLeft--;
        minus[minus.length - 1]!++;
        continue;
      }
      if (first === 0x2b && newLeft > 0) {
        newLeft--;
        plus[plus.length - 1]!++;
        continue;
      }
      if (first === 0x5c) continue;
      diffLines--;
      oldLeft = 0;
      newLeft = 0;
    }
    const after = next(i);
    if (first === 0x2d) {
      // `--- old` then `+++ new`: the pair a `diff` or `Index:` line opened, or a file's header.
      if (!text.startsWith('--- ', at) || after < 0 || !text.startsWith('+++ ', after)) continue;
      if (!(inHeader && !headerHasPair)) block(at, BLOCK_FILE);
      diffLines += 2;
      inHeader = true;
      headerHasPair = true;
      i++;
      continue;
    }
    if (first === 0x64 && text.startsWith('diff ', at)) {
      if (
        after >= 0 &&
        (text.startsWith('--- ', after) || text.startsWith('Binary files ', after))
      ) {
        block(at, BLOCK_FILE);
        inHeader = true;
        headerHasPair = false;
      }
      continue;
    }
    if (first === 0x49 && text.startsWith('Index: ', at)) {
      if (after >= 0 && text.startsWith('====', after)) {
        block(at, BLOCK_FILE);
        diffLines++;
        inHeader = true;
        headerHasPair = false;
      }
      continue;
    }
    if (
      !inHeader &&
      ((first === 0x4f && text.startsWith('Only in ', at)) ||
        (first === 0x42 && text.startsWith('Binary files ', at)))
    ) {
      // A file of one line: what follows it is not its header.
      block(at, BLOCK_FILE);
      diffLines++;
    }
  }
  check(text.length - sinceCheck);
  return {
    starts,
    kinds: Uint8Array.from(kinds),
    diffLines,
    plus: Int32Array.from(plus),
    minus: Int32Array.from(minus),
  };
}
