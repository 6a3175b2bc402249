import { seeded } from './generated-lists.js';

/** How each file of a generated diff is headed. */
export type DiffHeaderStyle =
  /** `diff -Npur old/x new/x`, then dated `---`/`+++` lines (GNU diff, recursive). */
  | 'recursive'
  /** `---`/`+++` lines alone (`diff -u` of two files, a patch pasted without its first line). */
  | 'bare'
  /** `Index: x` and a rule of `=`, then `---`/`+++` lines with revisions. */
  | 'index'
  /** `diff --git a/x b/x`, `index …`, `---`/`+++` lines. */
  | 'git';

export interface GeneratedDiff {
  text: string;
  /** Every file's path, in order (relative to the two trees). */
  paths: string[];
  /** Paths of the files only the new tree has. */
  added: string[];
  /** Paths of the files only the old tree has. */
  deleted: string[];
  /** The one line that says something went wrong (a changed line), where planted. */
  anomaly: string;
  /** The path of the file with the hostile hunk (removed `-- ` SQL comment lines). */
  hostile: string;
}

const WORDS = [
  'buffer',
  'count',
  'index',
  'length',
  'offset',
  'result',
  'status',
  'value',
  'entry',
  'table',
  'cursor',
  'limit',
];
const DIRS = ['src', 'src/net', 'src/db', 'lib', 'include', 'tools', 'doc'];

function pick<T>(random: () => number, of: readonly T[]): T {
  return of[Math.floor(random() * of.length)]!;
}

function codeLine(random: () => number): string {
  const a = pick(random, WORDS);
  const b = pick(random, WORDS);
  const n = Math.floor(random() * 500);
  switch (Math.floor(random() * 4)) {
    case 0:
      return `\t${a}_${n} = ${b}(${a}, ${n});`;
    case 1:
      return `\tif (${a} > ${b}_${n})`;
    case 2:
      return `\t\treturn ${a}_${b}(${n});`;
    default:
      return `\t/* ${a} of the ${b}, ${n} at most */`;
  }
}

/**
 * A unified diff of two trees, `files` files of C-like code headed in `style`: a few files only
 * in the new tree (added) and only in the old (deleted), one binary file, one changed line that
 * says something failed, and one hostile hunk that removes SQL comment lines (`-- note`, shown
 * as `--- note`) and adds lines starting with `++`, so a header read inside a hunk shows. The
 * same seed gives the same text.
 */
export function generatedDiff(
  files: number,
  {
    style = 'recursive',
    eol = '\n',
    seed = 7,
  }: {
    style?: DiffHeaderStyle;
    eol?: '\n' | '\r\n';
    seed?: number;
  } = {},
): GeneratedDiff {
  const random = seeded(seed);
  const out: string[] = [];
  const paths: string[] = [];
  const added: string[] = [];
  const deleted: string[] = [];
  const anomaly = '+\tpanic("ledger checksum mismatch: refusing to start");';
  let hostile = '';
  const oldDate = '2020-10-20 05:17:33.000000000 +0200';
  const newDate = '2021-01-16 16:09:29.000000000 +0100';
  const epoch = '1970-01-01 01:00:00.000000000 +0100';
  const header = (path: string, kind: 'changed' | 'added' | 'deleted'): void => {
    const oldName = style === 'git' ? `a/${path}` : style === 'index' ? path : `old/${path}`;
    const newName = style === 'git' ? `b/${path}` : style === 'index' ? path : `new/${path}`;
    if (style === 'recursive') out.push(`diff -Npur ${oldName} ${newName}`);
    if (style === 'git') {
      out.push(`diff --git a/${path} b/${path}`);
      if (kind === 'added') out.push('new file mode 100644');
      if (kind === 'deleted') out.push('deleted file mode 100644');
      out.push(
        `index ${(1000000 + paths.length).toString(16)}..${(2000000 + paths.length).toString(16)} 100644`,
      );
    }
    if (style === 'index') out.push(`Index: ${path}`, '='.repeat(67));
    const dated = style === 'recursive' || style === 'bare';
    const revision = style === 'index' ? `\t(revision ${1200 + paths.length})` : '';
    const from =
      style === 'git' && kind === 'added'
        ? '/dev/null'
        : dated
          ? `${oldName}\t${kind === 'added' ? epoch : oldDate}`
          : `${oldName}${revision}`;
    const to =
      style === 'git' && kind === 'deleted'
        ? '/dev/null'
        : dated
          ? `${newName}\t${kind === 'deleted' ? epoch : newDate}`
          : `${newName}${style === 'index' ? '\t(working copy)' : ''}`;
    out.push(`--- ${from}`, `+++ ${to}`);
  };
  for (let f = 0; f < files; f++) {
    const dir = pick(random, DIRS);
    const kind = f % 23 === 5 ? 'added' : f % 31 === 9 ? 'deleted' : 'changed';
    const path = `${dir}/${pick(random, WORDS)}_${f}.${dir === 'doc' ? 'txt' : dir === 'include' ? 'h' : 'c'}`;
    paths.push(path);
    if (f === Math.floor(files / 2) + 1) {
      // A binary file: one line, no hunk.
      const blob = `${dir}/logo_${f}.png`;
      paths[paths.length - 1] = blob;
      if (style === 'git')
        out.push(`diff --git a/${blob} b/${blob}`, 'index 3f2a1b0..9c8d7e6 100644');
      if (style === 'recursive') out.push(`diff -Npur old/${blob} new/${blob}`);
      if (style === 'index')
        out.push(`Index: ${blob}`, '='.repeat(67), 'Cannot display: file marked as a binary type.');
      else
        out.push(
          `Binary files ${style === 'git' ? 'a' : 'old'}/${blob} and ${style === 'git' ? 'b' : 'new'}/${blob} differ`,
        );
      continue;
    }
    if (kind === 'added') added.push(path);
    if (kind === 'deleted') deleted.push(path);
    header(path, kind);
    if (kind !== 'changed') {
      const length = 20 + Math.floor(random() * 60);
      out.push(kind === 'added' ? `@@ -0,0 +1,${length} @@` : `@@ -1,${length} +0,0 @@`);
      for (let i = 0; i < length; i++)
        out.push(`${kind === 'added' ? '+' : '-'}${codeLine(random)}`);
      continue;
    }
    const hostileFile = f === Math.floor(files / 3);
    if (hostileFile) hostile = path;
    const hunks = 1 + Math.floor(random() * 4);
    let line = 10 + Math.floor(random() * 50);
    for (let h = 0; h < hunks; h++) {
      const body: string[] = [];
      for (let c = 0; c < 3; c++) body.push(` ${codeLine(random)}`);
      if (hostileFile && h === 0) {
        // Removed SQL comments read as `--- ` lines, added ones as `+++ ` lines, a pair of
        // each, as a file header would be.
        body.push('--- note: the ledger table is rebuilt nightly', '-- drop it first');
        body.push('+++ counter kept for the audit', '++ counter kept twice');
        body.push('--- a/ledger.sql', '+++ b/ledger.sql');
      }
      const removed = 1 + Math.floor(random() * 3);
      const addedLines = 1 + Math.floor(random() * 4);
      for (let r = 0; r < removed; r++) body.push(`-${codeLine(random)}`);
      for (let a = 0; a < addedLines; a++) body.push(`+${codeLine(random)}`);
      if (f === Math.floor((files * 3) / 4) && h === 0) body.push(anomaly);
      for (let c = 0; c < 3; c++) body.push(` ${codeLine(random)}`);
      const before = body.filter((l) => l[0] === ' ' || l[0] === '-').length;
      const after = body.filter((l) => l[0] === ' ' || l[0] === '+').length;
      out.push(
        `@@ -${line},${before} +${line},${after} @@ ${pick(random, WORDS)}_fn(void)`,
        ...body,
      );
      line += before + 20 + Math.floor(random() * 80);
    }
  }
  if (style === 'recursive') out.push(`Only in new/doc: NOTES_${files}.txt`);
  return {
    text: `${out.join(eol)}${eol}`,
    paths,
    added,
    deleted,
    anomaly,
    hostile,
  };
}
