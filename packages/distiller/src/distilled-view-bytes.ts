import { disclosureNotes, disclosureNotesByteLength, truncateUtf8 } from '@compaction/core';

/** Longest model name a `[distilled: … by MODEL …]` note names; longer names are cut. */
export const MAX_NOTE_MODEL_BYTES = 64;

const LARGEST = 999_999_999_999;
const SEGMENTS = 99_999;
const CUT_WHERE = 'model output cut to fit the budget';

/** The reason a `[partial: …]` note gives when segment calls failed. */
export function failedSegmentsReason(failed: number): string {
  return `${failed} segment model call${failed === 1 ? '' : 's'} failed`;
}

/** The model named in a distilled note: the distinct models that answered, cut to a bound. */
export function noteModel(models: Iterable<string | undefined>): string | undefined {
  const distinct = [...new Set([...models].filter((model): model is string => Boolean(model)))];
  return distinct.length === 0
    ? undefined
    : truncateUtf8(distinct.join(', '), MAX_NOTE_MODEL_BYTES);
}

/**
 * Bytes the notes of a distilled view can take at most, newlines included: the `[distilled: …]`
 * note with the longest model name, the coverage note (`[partial source: …]` or `[partial: …]`)
 * and the note of a cut body (`[trimmed: …]` or `[findings truncated: …]`) or, in its place, of
 * unreduced extracts kept whole (`[findings unreduced: …]`), each with its largest numbers.
 * Measured from the registry's own builders.
 */
export const DISTILLED_NOTE_ROOM_BYTES = (() => {
  const distilled = disclosureNotes.distilled({
    originalBytes: LARGEST,
    model: 'm'.repeat(MAX_NOTE_MODEL_BYTES),
  });
  const coverage = [
    disclosureNotes.partialSource({ coverageRatio: 0.055 }),
    disclosureNotes.partial({
      analyzed: SEGMENTS,
      total: SEGMENTS,
      reason: failedSegmentsReason(SEGMENTS),
    }),
    disclosureNotes.partial({
      analyzed: SEGMENTS,
      total: SEGMENTS,
      reason: 'the compaction deadline was reached',
    }),
  ];
  const cut = [
    disclosureNotes.trimmedBytes({ originalBytes: LARGEST, keptBytes: LARGEST, where: CUT_WHERE }),
    disclosureNotes.findingsTruncated({ reason: 'reduce_failed', budgetBytes: LARGEST }),
    disclosureNotes.findingsTruncated({ reason: 'over_context', budgetBytes: LARGEST }),
    ...(['reduce_failed', 'deadline', 'over_context'] as const).map((reason) =>
      disclosureNotes.findingsUnreduced({ extracts: SEGMENTS, reason }),
    ),
  ];
  const longest = (notes: string[]) =>
    Math.max(...notes.map((note) => disclosureNotesByteLength([note])));
  return disclosureNotesByteLength([distilled]) + longest(coverage) + longest(cut);
})();

/**
 * The budget a distilled view needs: the summary the model is asked for (`targetBytes`) and room
 * for its notes, so a summary of about the target size is never cut to make the notes fit. The
 * synthesis allocation sizes a result that will be distilled at this footprint.
 */
export function distilledViewBytes(targetBytes: number): number {
  return targetBytes + DISTILLED_NOTE_ROOM_BYTES;
}

/** The summary size to ask the model for within `maxBytes`: the target, less when the budget is tighter. */
export function summaryTargetBytes(targetBytes: number, maxBytes: number): number {
  return Math.max(1, Math.min(targetBytes, maxBytes - DISTILLED_NOTE_ROOM_BYTES));
}
