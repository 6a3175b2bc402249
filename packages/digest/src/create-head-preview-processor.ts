import {
  assertSize,
  assertString,
  BudgetTooSmallError,
  cutWithNote,
  disclosureNotes,
  disclosureNotesByteLength,
  losslessMetadata,
  type ResultProcessor,
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
      assertString(result, 'result');
      assertSize(maxBytes, 'maxBytes', { allowInfinity: true });
      const originalBytes = utf8ByteLength(result);
      if (originalBytes <= maxBytes) {
        return { text: result, metadata: losslessMetadata(result, result) };
      }
      const widest = disclosureNotes.trimmedBytes({
        originalBytes,
        keptBytes: maxBytes,
        where: 'head',
      });
      const cut = cutWithNote(result, maxBytes, (keptBytes) =>
        disclosureNotes.trimmedBytes({ originalBytes, keptBytes, where: 'head' }),
      );
      if (!cut) {
        throw new BudgetTooSmallError({
          budgetBytes: maxBytes,
          minimumBytes: disclosureNotesByteLength([widest]),
          what: 'a head preview with its note',
        });
      }
      const { text, keptBytes } = cut;
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
