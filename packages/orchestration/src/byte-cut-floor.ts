import {
  disclosureNotes,
  headCutView,
  type ProcessedResult,
  truncateUtf8,
  utf8ByteLength,
} from '@compaction/core';

/**
 * The last-resort view when no processor produced anything usable: the head of the result cut
 * on a code-point boundary, with `[reduced without model analysis: …]`. Never over `maxBytes`
 * (an integer ≥ 0 or Infinity); a result that fits is returned unchanged.
 */
export function byteCutFloor(result: string, maxBytes: number): ProcessedResult {
  const view = headCutView(result, maxBytes, disclosureNotes.reducedWithoutModelAnalysis, 'floor');
  if (view) return view;
  // A budget too small for the note gets the bare head: still within budget, still flagged.
  const originalBytes = utf8ByteLength(result);
  const text = truncateUtf8(result, maxBytes);
  const keptBytes = utf8ByteLength(text);
  return {
    text,
    metadata: {
      contentLost: true,
      originalBytes,
      outputBytes: keptBytes,
      strategy: 'floor',
      keptRatio: originalBytes > 0 ? keptBytes / originalBytes : 0,
    },
  };
}
