/**
 * The account of a diff's files a lossy view of it adds to its note: how many files it changes,
 * how many of those are new, deleted or binary, and the most changed of them with the lines each
 * gains and loses, most changed first: `; files 100 (4 new, 3 deleted, 1 binary): src/db/a.c +63
 * new, lib/b.c +2 -40, +94 more`. It tells what changed where the view has room for the hunks
 * of only a few files.
 */
export interface DiffFiles {
  /** Files the diff changes (each file header, a file on one side only included). */
  total: number;
  /** Files only the new side has. */
  added: number;
  /** Files only the old side has. */
  deleted: number;
  /** Files whose change is told as binary, with no lines. */
  binary: number;
  /** The files told, most changed first. */
  told: ReadonlyArray<DiffFileChange>;
}

/** One file of a diff: its path and the lines it gains and loses. */
export interface DiffFileChange {
  path: string;
  /** Lines added (`+`) in its hunks. */
  plus: number;
  /** Lines removed (`-`) in its hunks. */
  minus: number;
  /** Set for a file only one side has, or one told as binary. */
  state?: 'new' | 'deleted' | 'binary';
}

/** A path told as it is: no separator of the segment, no space at an end, one line. */
const TELLABLE =
  /^[^\s;,[\]\u0000-\u001f\u007f](?:[^;,[\]\u0000-\u001f\u007f]*[^\s;,[\]\u0000-\u001f\u007f])?$/;
/** Longest path told. */
const MAX_PATH = 160;

/** Whether `path` can be told in the segment as it is (one that cannot is counted, not named). */
export function tellsDiffPath(path: string): boolean {
  return path.length <= MAX_PATH && TELLABLE.test(path);
}

/** The note segment of `files`, empty for none. Paths `tellsDiffPath` refuses are counted. */
export function formatDiffFiles(files: DiffFiles | undefined): string {
  if (!files) return '';
  const kinds: string[] = [];
  if (files.added > 0) kinds.push(`${files.added} new`);
  if (files.deleted > 0) kinds.push(`${files.deleted} deleted`);
  if (files.binary > 0) kinds.push(`${files.binary} binary`);
  let segment = `; files ${files.total}${kinds.length > 0 ? ` (${kinds.join(', ')})` : ''}`;
  const named: string[] = [];
  for (const file of files.told) {
    if (!tellsDiffPath(file.path)) continue;
    let change = file.plus > 0 || file.minus === 0 ? `+${file.plus}` : '';
    if (file.minus > 0) change += `${change ? ' ' : ''}-${file.minus}`;
    if (file.state === 'binary') change = 'binary';
    else if (file.state) change += ` ${file.state}`;
    // A file only one side has, with no lines told (`Only in`): its path alone.
    else if (file.plus === 0 && file.minus === 0) change = '';
    named.push(change ? `${file.path} ${change}` : file.path);
  }
  const more = files.total - named.length;
  if (named.length > 0) segment += `: ${named.join(', ')}${more > 0 ? `, +${more} more` : ''}`;
  return segment;
}

const HEAD = /; files (\d{1,15})(?: \(([^)]*)\))?(?::|;|\]|$)/;
const KIND = /^(\d{1,15}) (new|deleted|binary)$/;
const CHANGE = /^(.*?) (?:(?:\+(\d{1,15}))(?: -(\d{1,15}))?|-(\d{1,15}))(?: (new|deleted))?$/;

/**
 * Reads back the segment `formatDiffFiles` writes, `undefined` where a note has none. Files
 * counted but not named (`+94 more`) are in `total`, not in `told`.
 */
export function parseDiffFiles(note: string): DiffFiles | undefined {
  const head = HEAD.exec(note);
  if (!head) return undefined;
  const files: { total: number; added: number; deleted: number; binary: number } = {
    total: Number(head[1]),
    added: 0,
    deleted: 0,
    binary: 0,
  };
  for (const kind of head[2]?.split(', ') ?? []) {
    const match = KIND.exec(kind);
    if (!match) return undefined;
    const count = Number(match[1]);
    if (match[2] === 'new') files.added = count;
    else if (match[2] === 'deleted') files.deleted = count;
    else files.binary = count;
  }
  const told: DiffFileChange[] = [];
  const after = head.index + head[0].length;
  if (note.charAt(after - 1) === ':') {
    // The named files run to the segment's end: a `;` or the note's `]`.
    let end = after;
    while (end < note.length && note[end] !== ';' && note[end] !== ']') end++;
    for (const entry of note.slice(after + 1, end).split(', ')) {
      if (/^\+\d{1,15} more$/.test(entry)) break;
      if (entry.endsWith(' binary')) {
        told.push({ path: entry.slice(0, -' binary'.length), plus: 0, minus: 0, state: 'binary' });
        continue;
      }
      const change = CHANGE.exec(entry);
      if (!change) {
        told.push({ path: entry, plus: 0, minus: 0 });
        continue;
      }
      const file: DiffFileChange = {
        path: change[1]!,
        plus: Number(change[2] ?? 0),
        minus: Number(change[3] ?? change[4] ?? 0),
      };
      told.push(change[5] ? { ...file, state: change[5] as 'new' | 'deleted' } : file);
    }
  }
  return { ...files, told };
}
