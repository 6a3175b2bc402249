import type { DiffFileChange } from '@compaction/core';
import { BLOCK_FILE, type DiffBlocks } from './diff-blocks.js';

/** A file of a diff (`diffFiles`): its path, what it gains and loses, and its state. */
export interface DiffFile extends DiffFileChange {
  /** The file's header block in `DiffBlocks`. */
  block: number;
}

/** A `---`/`+++` side that names no file: `/dev/null`, or a time of 0 (GNU diff's `-N`). */
const ABSENT_DATE = /^1970-01-01[ T]00:00:00(?:\.0+)? \+0000$/;
/** The header lines that say a file is new, deleted or binary, past what `---`/`+++` say. */
const NEW_FILE = 'new file mode ';
const DELETED_FILE = 'deleted file mode ';

/** Text of line `at` without its line ending. */
function lineAt(text: string, at: number, to: number): string {
  let end = text.indexOf('\n', at);
  if (end < 0 || end > to) end = to;
  if (end > at && text.charCodeAt(end - 1) === 0x0d) end--;
  return text.slice(at, end);
}

/** The name and whether it is absent, of a `--- `/`+++ ` line's rest (`name\tdate`). */
function side(rest: string): { name: string; absent: boolean } {
  const tab = rest.indexOf('\t');
  const name = tab < 0 ? rest : rest.slice(0, tab);
  const date = tab < 0 ? '' : rest.slice(tab + 1);
  return { name, absent: name === '/dev/null' || ABSENT_DATE.test(utc(date)) };
}

/** A `YYYY-MM-DD hh:mm:ss[.frac] ±hhmm` time as the same time at `+0000`, or `date` itself. */
function utc(date: string): string {
  const parts = /^(\d{4})-(\d\d)-(\d\d) (\d\d):(\d\d):(\d\d)(\.\d+)? ([+-])(\d\d)(\d\d)$/.exec(
    date,
  );
  if (!parts) return date;
  const offset = (parts[8] === '-' ? -1 : 1) * (Number(parts[9]) * 60 + Number(parts[10])) * 60_000;
  const time = Date.UTC(
    Number(parts[1]),
    Number(parts[2]) - 1,
    Number(parts[3]),
    Number(parts[4]),
    Number(parts[5]),
    Number(parts[6]),
  );
  const iso = new Date(time - offset).toISOString();
  return `${iso.slice(0, 10)} ${iso.slice(11, 19)} +0000`;
}

/**
 * The path two sides of a file name: the new side's, the old side's for a deleted file, less
 * the top directory where only that differs between them (`a/x` and `b/x`, `old/src/x` and
 * `new/src/x` are `x` and `src/x`).
 */
function pathOf(old: string | undefined, now: string | undefined, deleted: boolean): string {
  const named = (deleted ? old : now) ?? old ?? now ?? '';
  if (old === undefined || now === undefined) return named;
  const oldSlash = old.indexOf('/');
  const newSlash = now.indexOf('/');
  if (oldSlash > 0 && newSlash > 0 && old.slice(oldSlash) === now.slice(newSlash)) {
    return now.slice(newSlash + 1);
  }
  return named;
}

/** A side's name, none for `/dev/null`. */
function nameOf(name: string | undefined): string | undefined {
  return name === '/dev/null' ? undefined : name;
}

/**
 * The files of a diff read into `blocks` (`diffBlocks`), one per file header block, in order:
 * each one's path (from its `---`/`+++` lines, else its `Index:`, `Only in`, `Binary files` or
 * `diff` line), the lines its hunks add and remove, and whether it is new or deleted (one side
 * `/dev/null`, dated 0 as GNU diff's `-N` dates a file it lacks, or said so by git's `new file
 * mode`/`deleted file mode`) or binary. Reads only the header blocks' lines.
 */
export function diffFiles(text: string, blocks: DiffBlocks): DiffFile[] {
  const files: DiffFile[] = [];
  const { starts, kinds } = blocks;
  for (let b = 0; b < starts.length; b++) {
    if (kinds[b] !== BLOCK_FILE) continue;
    const to = b + 1 < starts.length ? starts[b + 1]! : text.length;
    let old: string | undefined;
    let now: string | undefined;
    let added = false;
    let deleted = false;
    let binary = false;
    let named: string | undefined;
    // The two sides a `diff` command line names, where one has.
    let lineOld: string | undefined;
    let lineNew: string | undefined;
    for (let at = starts[b]!; at < to; ) {
      const line = lineAt(text, at, to);
      if (line.startsWith('--- ') || line.startsWith('+++ ')) {
        const read = side(line.slice(4));
        if (line[0] === '-') {
          old = read.name;
          added ||= read.absent;
        } else {
          now = read.name;
          deleted ||= read.absent;
        }
      } else if (line.startsWith(NEW_FILE)) added = true;
      else if (line.startsWith(DELETED_FILE)) deleted = true;
      else if (line.startsWith('Binary files ') && line.endsWith(' differ')) {
        binary = true;
        const names = line.slice('Binary files '.length, -' differ'.length).split(' and ');
        if (names.length === 2 && old === undefined && now === undefined) {
          old = names[0]!;
          now = names[1]!;
          added ||= old === '/dev/null';
          deleted ||= now === '/dev/null';
        }
      } else if (line.startsWith('Index: ')) named ??= line.slice('Index: '.length);
      else if (line.startsWith('Only in ')) {
        const colon = line.indexOf(': ');
        if (colon > 0)
          named ??= `${line.slice('Only in '.length, colon).replace(/\/$/, '')}/${line.slice(colon + 2)}`;
      } else if (line.startsWith('diff ') && named === undefined) {
        // The command line's last two words are the two sides (`diff -Npur old/x new/x`).
        const words = line.split(' ');
        if (words.length >= 3) {
          lineOld = words[words.length - 2]!;
          lineNew = words[words.length - 1]!;
        }
      }
      const next = text.indexOf('\n', at);
      at = next < 0 ? to : next + 1;
    }
    let plus = 0;
    let minus = 0;
    for (let h = b + 1; h < starts.length && kinds[h] !== BLOCK_FILE; h++) {
      plus += blocks.plus[h]!;
      minus += blocks.minus[h]!;
    }
    // A side that is `/dev/null` names no path: the command line's two sides do.
    const bothNamed =
      old !== undefined && now !== undefined && old !== '/dev/null' && now !== '/dev/null';
    const path =
      named ??
      (bothNamed
        ? pathOf(old, now, deleted)
        : pathOf(lineOld ?? nameOf(old), lineNew ?? nameOf(now), deleted));
    const file: DiffFile = { block: b, path, plus, minus };
    if (binary) file.state = 'binary';
    else if (added && !deleted) file.state = 'new';
    else if (deleted && !added) file.state = 'deleted';
    files.push(file);
  }
  return files;
}
