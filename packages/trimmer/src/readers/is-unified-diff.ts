import { diffBlocks } from './diff-blocks.js';
import { lineStarts } from './line-starts.js';

const GIT_FILE_HEADER = 'diff --git ';
const OLD_FILE = '--- ';
const NEW_FILE = '+++ ';
const HUNK_START = /(^|\n)@@ -\d+(?:,\d+)? \+\d+(?:,\d+)? @@/;
/** Of a text headed only by `---`/`+++` pairs, the share of lines the diff's must be. */
const DIFF_LINE_SHARE = 0.5;

/**
 * True when `text` is a unified diff: a file header and an `@@` hunk. A `diff --git` line with
 * a line after it heads a file wherever it is. A `--- ` line right before a `+++ ` line, as
 * every other header has (`diff -u`, `diff -Npur`, `Index:`), is also how a log quotes a diff
 * (a failed test's expected and actual text): it makes the text a diff where the diff's lines
 * (`diffBlocks`) are at least half of the text's. `starts`, where its lines begin
 * (`lineStarts`), when the caller has them: a header is then looked for at each line's start
 * rather than searched for through the text.
 */
export function isUnifiedDiff(text: string, starts?: readonly number[]): boolean {
  // A header found by a native search or at line starts: a pattern that may start at any line
  // reads a text that is no diff several times slower.
  let git = false;
  let pair = false;
  const read = (at: number): void => {
    if (text.startsWith(GIT_FILE_HEADER, at)) {
      git ||= text.indexOf('\n', at + GIT_FILE_HEADER.length) >= 0;
    } else if (!pair && text.startsWith(OLD_FILE, at)) {
      const end = text.indexOf('\n', at + OLD_FILE.length);
      pair = end >= 0 && text.startsWith(NEW_FILE, end + 1);
    }
  };
  if (starts) {
    for (let i = 0; i < starts.length && !git; i++) {
      const start = starts[i]!;
      const code = text.charCodeAt(start);
      if (code === 0x64 || code === 0x2d) read(start);
    }
  } else {
    read(0);
    for (const lead of [`\n${GIT_FILE_HEADER}`, `\n${OLD_FILE}`]) {
      for (let at = text.indexOf(lead); at >= 0 && !git && !pair; at = text.indexOf(lead, at + 1)) {
        read(at + 1);
      }
    }
  }
  if (!(git || pair) || !HUNK_START.test(text)) return false;
  if (git) return true;
  const lines = starts ?? lineStarts(text, () => {});
  return diffBlocks(text, lines, () => {}).diffLines >= DIFF_LINE_SHARE * lines.length;
}
