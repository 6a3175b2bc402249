import {
  appendDisclosureNotes,
  BudgetTooSmallError,
  disclosureNotes,
  disclosureNotesByteLength,
  losslessMetadata,
  type ResultProcessor,
  truncateUtf8,
  utf8ByteLength,
} from '@compaction/core';

/**
 * The default floor of the planning section when none is injected: the head of the text, cut
 * on a code-point boundary, followed by a `[trimmed: …]` disclosure note when anything was cut.
 * The orchestration and the CLI inject `@compaction/trimmer`'s structural trimmer instead.
 * Throws a `BudgetTooSmallError` when `maxBytes` cannot hold the note itself.
 */
export function createHeadPreviewProcessor(): ResultProcessor {
  return {
    async process(result, maxBytes) {
      const originalBytes = utf8ByteLength(result);
      if (originalBytes <= maxBytes) {
        return { text: result, metadata: losslessMetadata(result, result) };
      }
      // Size the note for the largest count it could name, so the final note never grows.
      const widest = disclosureNotes.trimmedBytes({
        originalBytes,
        keptBytes: maxBytes,
        where: 'head',
      });
      const room = maxBytes - disclosureNotesByteLength([widest]);
      if (room < 0) {
        throw new BudgetTooSmallError({
          budgetBytes: maxBytes,
          minimumBytes: disclosureNotesByteLength([widest]),
          what: 'a head preview with its note',
        });
      }
      const head = truncateUtf8(result, room);
      const keptBytes = utf8ByteLength(head);
      const text = appendDisclosureNotes(head, [
        disclosureNotes.trimmedBytes({ originalBytes, keptBytes, where: 'head' }),
      ]);
      return {
        text,
        metadata: {
          contentLost: true,
          originalBytes,
          outputBytes: utf8ByteLength(text),
          strategy: 'bytes',
          keptRatio: keptBytes / originalBytes,
        },
      };
    },
  };
}
