import {
  appendDisclosureNotes,
  disclosureNotes,
  disclosureNotesByteLength,
  type ProcessedResult,
  truncateUtf8,
  utf8ByteLength,
} from '@compaction/core';

/**
 * The last-resort view when no processor produced anything usable: the head of the result cut
 * on a code-point boundary, with `[reduced without model analysis: …]`. Never over `maxBytes`;
 * a result that fits is returned unchanged.
 */
export function byteCutFloor(result: string, maxBytes: number): ProcessedResult {
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
  // The note's own digits depend on the kept size; size it with the largest possible value.
  const probe = disclosureNotes.reducedWithoutModelAnalysis({ originalBytes, keptBytes: maxBytes });
  const room = Math.max(0, maxBytes - disclosureNotesByteLength([probe]));
  const body = truncateUtf8(result, room);
  const keptBytes = utf8ByteLength(body);
  let text = appendDisclosureNotes(body, [
    disclosureNotes.reducedWithoutModelAnalysis({ originalBytes, keptBytes }),
  ]);
  if (utf8ByteLength(text) > maxBytes) text = truncateUtf8(text, maxBytes);
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
