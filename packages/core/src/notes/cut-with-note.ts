import { assertSize } from '../assert-size.js';
import { truncateUtf8, utf8ByteLength } from '../utf8.js';
import { appendDisclosureNotes, disclosureNotesByteLength } from './disclosure-notes.js';

/** A head cut and its note. */
export interface NotedCut {
  /** The kept head followed by the note. */
  text: string;
  /** UTF-8 bytes of the kept head. */
  keptBytes: number;
}

/**
 * The longest head of `text` that fits `maxBytes` UTF-8 bytes together with the note
 * `makeNote(keptBytes)` on its own line. The note is sized first with the largest count it
 * could name, so the final one never grows past the room left for it. Returns undefined when
 * not even the note fits. `maxBytes` is an integer ≥ 0 or Infinity (`InvalidArgumentError`
 * otherwise).
 */
export function cutWithNote(
  text: string,
  maxBytes: number,
  makeNote: (keptBytes: number) => string,
): NotedCut | undefined {
  assertSize(maxBytes, 'maxBytes', { allowInfinity: true });
  const room = maxBytes - disclosureNotesByteLength([makeNote(Math.max(0, maxBytes))]);
  if (room < 0) return undefined;
  const head = truncateUtf8(text, room);
  const keptBytes = utf8ByteLength(head);
  return { text: appendDisclosureNotes(head, [makeNote(keptBytes)]), keptBytes };
}
