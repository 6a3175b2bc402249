import {
  appendDisclosureNotes,
  disclosureNotes,
  disclosureNotesByteLength,
  truncateUtf8,
  utf8ByteLength,
} from '@compaction/core';

/** A distilled body fitted to its budget with its notes. */
export interface FittedText {
  text: string;
  /** True when the body had to be cut. */
  cut: boolean;
}

// A cut prefers to end at a line break when one is this close to the byte limit, so a copied
// log line or record is not left half-written.
const LINE_SNAP_SHARE = 0.2;

function cutBody(body: string, maxBytes: number): string {
  const head = truncateUtf8(body, maxBytes);
  const newline = head.lastIndexOf('\n');
  if (newline > 0 && utf8ByteLength(head.slice(newline)) <= maxBytes * LINE_SNAP_SHARE) {
    return head.slice(0, newline);
  }
  return head;
}

/**
 * `body` with `notes` appended, within `maxBytes` UTF-8 bytes. When the body does not fit it is
 * cut and one more note is added: `cutNote(keptBytes)` (default: a byte-cut note). `wholeNote`,
 * when given, is added instead when the body is kept whole: a body with either note is never
 * without both (when the body fits only without `wholeNote`, it is cut). Returns undefined when
 * not even the notes fit, so the caller can fall back to the structural floor.
 */
export function fitDistilledText(
  body: string,
  notes: readonly string[],
  maxBytes: number,
  cutNote?: (keptBytes: number, bodyBytes: number) => string,
  wholeNote?: string,
): FittedText | undefined {
  const bodyBytes = utf8ByteLength(body);
  const notesBytes = disclosureNotesByteLength(notes);
  const wholeNotes = wholeNote === undefined ? notes : [...notes, wholeNote];
  const wholeNotesBytes =
    wholeNote === undefined ? notesBytes : notesBytes + disclosureNotesByteLength([wholeNote]);
  if (bodyBytes + wholeNotesBytes <= maxBytes) {
    return { text: appendDisclosureNotes(body, wholeNotes), cut: false };
  }
  const makeNote =
    cutNote ??
    ((keptBytes: number, originalBytes: number) =>
      disclosureNotes.trimmedBytes({
        originalBytes,
        keptBytes,
        where: 'model output cut to fit the budget',
      }));
  // The note names the kept size, so size it first with an upper bound of the digits.
  // Below the body's size even when the cut note is shorter than `wholeNote`: a cut cuts.
  const room = Math.min(
    bodyBytes - 1,
    maxBytes - notesBytes - disclosureNotesByteLength([makeNote(bodyBytes, bodyBytes)]),
  );
  if (room <= 0) return undefined;
  const kept = cutBody(body, room);
  const all = [...notes, makeNote(utf8ByteLength(kept), bodyBytes)];
  return { text: appendDisclosureNotes(kept, all), cut: true };
}
