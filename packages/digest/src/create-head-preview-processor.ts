import {
  assertString,
  BudgetTooSmallError,
  disclosureNotes,
  disclosureNotesByteLength,
  headCutView,
  type ResultProcessor,
  utf8ByteLength,
} from '@compaction/core';

const headNote = (sizes: { originalBytes: number; keptBytes: number }) =>
  disclosureNotes.trimmedBytes({ ...sizes, where: 'head' });

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
      const view = headCutView(result, maxBytes, headNote, 'bytes');
      if (view) return view;
      const widest = headNote({ originalBytes: utf8ByteLength(result), keptBytes: maxBytes });
      throw new BudgetTooSmallError({
        budgetBytes: maxBytes,
        minimumBytes: disclosureNotesByteLength([widest]),
        what: 'a head preview with its note',
      });
    },
  };
}
