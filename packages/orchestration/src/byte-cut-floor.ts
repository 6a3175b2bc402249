import {
  assertSize,
  cutWithNote,
  disclosureNotes,
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
  assertSize(maxBytes, 'maxBytes', { allowInfinity: true });
  const originalBytes = utf8ByteLength(result);
  if (originalBytes <= maxBytes) {
    return {
      text: result,
      metadata: {
        contentLost: false,
        originalBytes,
        outputBytes: originalBytes,
        strategy: 'unchanged',
      },
    };
  }
  const cut = cutWithNote(result, maxBytes, (keptBytes) =>
    disclosureNotes.reducedWithoutModelAnalysis({ originalBytes, keptBytes }),
  );
  // A budget too small for the note gets the bare head: still within budget, still flagged.
  const text = cut ? cut.text : truncateUtf8(result, maxBytes);
  const keptBytes = cut ? cut.keptBytes : utf8ByteLength(text);
  return {
    text,
    metadata: {
      contentLost: true,
      originalBytes,
      outputBytes: utf8ByteLength(text),
      strategy: 'floor',
      keptRatio: originalBytes > 0 ? keptBytes / originalBytes : 0,
    },
  };
}
