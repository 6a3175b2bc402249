/**
 * The line that comes before a window of a line too long to keep whole: `[line 57 cut: columns
 * 30001-37000 of 60000]`, columns counted in UTF-16 code units from 1 as the artifact tools count
 * them (`artifact_read` with that line and column shows the rest). The window follows on the
 * next line.
 */
export function cutLineMarker(
  line: number,
  from: number,
  to: number,
  length: number,
  eol: string,
): string {
  return `[line ${line} cut: columns ${from}-${to} of ${length}]${eol}`;
}

const MARKER = /^\[line (\d+) cut: columns (\d+)-(\d+) of (\d+)\]\r?$/;

/** The line and columns a cut-line marker names, or `undefined` when `line` is not one. */
export function parseCutLineMarker(
  line: string,
): { line: number; from: number; to: number; length: number } | undefined {
  const match = MARKER.exec(line);
  if (!match) return undefined;
  return {
    line: Number(match[1]),
    from: Number(match[2]),
    to: Number(match[3]),
    length: Number(match[4]),
  };
}
