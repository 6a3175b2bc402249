/**
 * What a JSON view's note says when the trimmer analysed only the start of a document: one
 * segment of the note line, `; only the first 2999999 of 6595401 fields analysed, 1 query
 * match past them`. A document of more values than the trimmer records (`maxJsonNodes`) is
 * read in full but analysed only up to that many values; everything the note says of the
 * records then holds for the part analysed, and the reader learns that the rest, and any match
 * of the question in it, is only in the full result.
 */
export interface PartialAnalysis {
  /** Fields (values other than the root) the trimmer analysed, from the start. */
  analysed: number;
  /** Fields in the document. */
  total: number;
  /** Matches of the question's words in the part not analysed (0 when none or no question). */
  queryMatchesPast?: number;
}

const SEGMENT =
  /; only the first (\d+) of (\d+) fields analysed(?:, (\d+) query match(?:es)? past them)?(?=; |\]$)/;

function count(value: number | undefined): number {
  return value !== undefined && Number.isSafeInteger(value) && value > 0 ? value : 0;
}

/** The note segment for `analysis`, with a leading `; `, or `''` when there is none. */
export function formatPartialAnalysis(analysis: PartialAnalysis | undefined): string {
  if (!analysis) return '';
  let segment = `; only the first ${count(analysis.analysed)} of ${count(analysis.total)} fields analysed`;
  const past = count(analysis.queryMatchesPast);
  if (past > 0) segment += `, ${past} query ${past === 1 ? 'match' : 'matches'} past them`;
  return segment;
}

/** A parsed partial-analysis segment (see `formatPartialAnalysis`), or `undefined`. */
export function parsePartialAnalysis(note: string): PartialAnalysis | undefined {
  const found = SEGMENT.exec(note);
  if (!found) return undefined;
  const analysis: PartialAnalysis = { analysed: Number(found[1]), total: Number(found[2]) };
  if (found[3] !== undefined) analysis.queryMatchesPast = Number(found[3]);
  return analysis;
}
