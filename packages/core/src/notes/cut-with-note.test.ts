import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { utf8ByteLength } from '../utf8.js';
import { cutWithNote } from './cut-with-note.js';
import {
  disclosureNotes,
  stripDisclosureNotes,
  trailingDisclosureNotes,
} from './disclosure-notes.js';

describe('cutWithNote', () => {
  it('keeps the longest head that fits with its note, never over budget (property)', () => {
    fc.assert(
      fc.property(
        fc.string({ unit: 'binary', maxLength: 3000 }),
        fc.integer({ min: 0, max: 4000 }),
        (text, maxBytes) => {
          const originalBytes = utf8ByteLength(text);
          const cut = cutWithNote(text, maxBytes, (keptBytes) =>
            disclosureNotes.trimmedBytes({ originalBytes, keptBytes }),
          );
          if (!cut) return;
          expect(utf8ByteLength(cut.text)).toBeLessThanOrEqual(maxBytes);
          const head = stripDisclosureNotes(cut.text);
          expect(text.startsWith(head)).toBe(true);
          expect(utf8ByteLength(head)).toBe(cut.keptBytes);
          expect(trailingDisclosureNotes(cut.text)[0]!.text).toContain(`→ ${cut.keptBytes} bytes`);
        },
      ),
      { numRuns: 1500 },
    );
  });

  it('returns undefined when not even the note fits', () => {
    expect(
      cutWithNote('x'.repeat(1000), 10, () =>
        disclosureNotes.trimmedBytes({ originalBytes: 1000, keptBytes: 0 }),
      ),
    ).toBeUndefined();
  });
});
