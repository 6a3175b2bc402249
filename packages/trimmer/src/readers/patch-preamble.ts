/**
 * What opens a patch mailed by `git format-patch`, before its first file: the `Subject:` line
 * (what the change is), and the diffstat, the lines from the one after `---` up to the one that
 * counts the files changed (`N files changed, …`: the change in all). Units are the diff's
 * (`diffUnits`): those with no parent (`parents[i] < 0`) up to the first that holds hunks
 * (`holdsHunks`). -1 for what a preamble lacks; `undefined` for a diff with none of it.
 */
export interface PatchPreamble {
  subject: number;
  /** First line of the diffstat, -1 where there is none. */
  statFrom: number;
  /** The diffstat's summary line, -1 where there is none. */
  summary: number;
}

/** A diffstat's summary line: `1 file changed`, `58 files changed, 1708 insertions(+), …`. */
const SUMMARY = /^ \d+ files? changed(?:, \d+ (?:insertion|deletion)s?\([+-]\))*\s*$/;

export function patchPreamble(
  text: string,
  starts: readonly number[],
  parents: Int32Array,
  holdsHunks: (unit: number) => boolean,
): PatchPreamble | undefined {
  const found: PatchPreamble = { subject: -1, statFrom: -1, summary: -1 };
  let inHeader = true;
  let afterRule = -1;
  for (let i = 0; i < starts.length && parents[i]! < 0 && !holdsHunks(i); i++) {
    const at = starts[i]!;
    const end = i + 1 < starts.length ? starts[i + 1]! : text.length;
    let line = text.slice(at, Math.min(end, at + 200));
    line = line.replace(/\r?\n$/, '');
    // The mail header ends at its first blank line; its subject is what the change is.
    if (inHeader) {
      if (line === '') inHeader = false;
      else if (found.subject < 0 && line.startsWith('Subject: ')) found.subject = i;
      continue;
    }
    if (line === '---') afterRule = i + 1;
    else if (afterRule >= 0 && SUMMARY.test(line)) {
      found.statFrom = afterRule < i ? afterRule : -1;
      found.summary = i;
      break;
    }
  }
  return found.subject < 0 && found.summary < 0 ? undefined : found;
}
