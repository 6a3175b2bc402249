import { utf8ByteLength } from '@compaction/core';
import type { StopCheck } from '../engine/stop-check.js';
import { BLOCK_FILE, type DiffBlocks } from './diff-blocks.js';

/** The units of a unified diff and what each one needs shown with it. */
export interface DiffUnits {
  /** Where each unit begins; units tile the text at line boundaries. */
  starts: number[];
  /**
   * The unit that must be kept with each unit, or -1: a hunk's file header block; a line of a
   * split hunk's, the hunk's header line (whose own parent is the file header).
   */
  parents: Int32Array;
  /** Set for the header line (`@@ … @@`) of a hunk split into lines. */
  splitHeader: Uint8Array;
  /** Some hunk was split into lines. */
  split: boolean;
}

/**
 * Units of a unified diff read into `blocks` (`diffBlocks`): each file header block (from its
 * first header line to its first hunk) and each hunk, every hunk naming its header block as its
 * parent, so a hunk is never shown without the file it changes. Text before the first file header (a mail header of `git format-patch`,
 * its message and diffstat) is a unit per line. A hunk of more than `splitAbove` UTF-8 bytes,
 * too big to be one unit of a view, becomes its header line and then one unit per line, each
 * needing the header line: a long hunk can then be shown around what matters in it, never
 * without its `@@` line. The hunks of the files whose header starts at an offset in
 * `splitFiles` are split whatever their size.
 */
export function diffUnits(
  text: string,
  blocks: DiffBlocks,
  splitAbove: number,
  ascii: boolean,
  check: StopCheck,
  splitFiles?: ReadonlySet<number>,
): DiffUnits {
  const { starts: blockStarts, kinds } = blocks;
  const starts: number[] = [];
  const parents: number[] = [];
  const splitHeader: number[] = [];
  let split = false;
  let fileHeader = -1;
  let splitAll = false;
  /** Each line of `text[from, to)` after its first, as a unit that needs `parent`. */
  const lineUnits = (from: number, to: number, parent: number): void => {
    for (let at = text.indexOf('\n', from) + 1; at > 0 && at < to; ) {
      starts.push(at);
      parents.push(parent);
      splitHeader.push(0);
      const next = text.indexOf('\n', at);
      at = next < 0 || next + 1 > to ? to : next + 1;
    }
    check(to - from);
  };
  for (let b = 0; b < blockStarts.length; b++) {
    const from = blockStarts[b]!;
    const to = b + 1 < blockStarts.length ? blockStarts[b + 1]! : text.length;
    const unit = starts.length;
    starts.push(from);
    splitHeader.push(0);
    if (kinds[b] === BLOCK_FILE) {
      fileHeader = unit;
      splitAll = splitFiles?.has(from) === true;
      parents.push(-1);
      continue;
    }
    parents.push(fileHeader);
    if (fileHeader < 0) {
      // Before the first file: a mail header, the commit message, a diffstat, one unit a line,
      // so the view can open with the subject however long the rest is.
      lineUnits(from, to, -1);
      continue;
    }
    // Every other block is a hunk.
    const bytes = ascii ? to - from : utf8ByteLength(text.slice(from, to));
    check(ascii ? 1 : to - from);
    if (bytes <= splitAbove && !splitAll) continue;
    const firstBreak = text.indexOf('\n', from);
    if (firstBreak < 0 || firstBreak + 1 >= to) continue;
    split = true;
    splitHeader[unit] = 1;
    lineUnits(from, to, unit);
  }
  return {
    starts,
    parents: Int32Array.from(parents),
    splitHeader: Uint8Array.from(splitHeader),
    split,
  };
}
