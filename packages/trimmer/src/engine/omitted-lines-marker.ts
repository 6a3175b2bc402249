/**
 * The line that stands in a text view for lines left out between two kept ones: `[line 57
 * omitted]` or `[lines 1203-1240 omitted]`, numbered from 1 as the artifact tools number the
 * full output, so a reader can tell kept lines that were neighbours from ones that were not
 * (a compiler's `--> file:45` under the error it belongs to) and read what was left out.
 */
export function omittedLinesMarker(first: number, last: number, eol: string): string {
  return first === last
    ? `[line ${first} omitted]${eol}`
    : `[lines ${first}-${last} omitted]${eol}`;
}

const MARKER = /^\[lines? (\d+)(?:-(\d+))? omitted\]\r?$/;

/** The line range a marker line stands for, or `undefined` when `line` is not one. */
export function parseOmittedLinesMarker(line: string): { first: number; last: number } | undefined {
  const match = MARKER.exec(line);
  if (!match) return undefined;
  const first = Number(match[1]);
  return { first, last: match[2] === undefined ? first : Number(match[2]) };
}
