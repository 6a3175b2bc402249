import { disclosureNotes, disclosureNotesByteLength, utf8ByteLength } from '@compaction/core';
import { describe, expect, it } from 'vitest';
import { fitDistilledText } from './fit-distilled-text.js';

const notes = [disclosureNotes.distilled({ originalBytes: 500_000, model: 'gpt-5-mini' })];
const whole = disclosureNotes.findingsUnreduced({ extracts: 3, reason: 'reduce_failed' });
const cutNote = (keptBytes: number) =>
  disclosureNotes.findingsTruncated({ reason: 'reduce_failed', budgetBytes: keptBytes });
const body = 'finding one\nfinding two\nfinding three';

describe('fitDistilledText with a note for a whole body', () => {
  it('adds the whole-body note when the body fits with it', () => {
    const maxBytes = utf8ByteLength(body) + disclosureNotesByteLength([...notes, whole]);
    const fitted = fitDistilledText(body, notes, maxBytes, cutNote, whole);
    expect(fitted).toEqual({ text: `${body}\n${notes[0]}\n${whole}`, cut: false });
  });

  it('cuts a body that fits only without the whole-body note, with the cut note (every budget)', () => {
    const fitsWithout = utf8ByteLength(body) + disclosureNotesByteLength(notes);
    let cut = 0;
    for (
      let maxBytes = fitsWithout;
      maxBytes < fitsWithout + 1 + utf8ByteLength(whole);
      maxBytes++
    ) {
      const fitted = fitDistilledText(body, notes, maxBytes, cutNote, whole);
      if (!fitted) continue;
      expect(fitted.cut).toBe(true);
      expect(utf8ByteLength(fitted.text)).toBeLessThanOrEqual(maxBytes);
      expect(fitted.text).not.toContain(whole);
      const kept = fitted.text.slice(0, fitted.text.indexOf(`\n${notes[0]}`));
      expect(utf8ByteLength(kept)).toBeLessThan(utf8ByteLength(body));
      expect(fitted.text.endsWith(cutNote(utf8ByteLength(kept)))).toBe(true);
      cut++;
    }
    expect(cut).toBeGreaterThan(0);
  });
});
