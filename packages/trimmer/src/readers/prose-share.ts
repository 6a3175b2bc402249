import type { JsonInventory } from '../json/json-inventory.js';
import { NODE_STRING } from '../json/json-inventory.js';
import { type JsonSignatures, signatureKey } from '../json/json-signatures.js';
import { readsAsProse } from './reads-as-prose.js';

/** Values of a string field looked at to tell whether it reads as prose. */
const PROSE_SAMPLES = 3;
/** Values of a prose field compared to tell how many differ. */
const DISTINCT_SAMPLES = 16;

/** Units read from each end of a text to tell it from others of the field (see `proseShare`). */
const TEXT_END_UNITS = 12;

/** A fingerprint of `text[from, to)`: its length and up to twelve units from each end. */
function endsFingerprint(text: string, from: number, to: number): number {
  let h = Math.imul(0x811c9dc5 ^ (to - from), 0x01000193);
  const head = Math.min(to, from + TEXT_END_UNITS);
  for (let i = from; i < head; i++) h = Math.imul(h ^ text.charCodeAt(i), 0x01000193);
  for (let i = Math.max(head, to - TEXT_END_UNITS); i < to; i++) {
    h = Math.imul(h ^ text.charCodeAt(i), 0x01000193);
  }
  return h;
}

/**
 * For string field `s`: 0 unless its values read as prose (`readsAsProse`: most of the first
 * few; decided once per key of the document and kept in `byKey`), else the share of its first values that differ
 * (a post repeated across records, or a template's first line, says little), told apart by their
 * length and ends.
 */
export function proseShare(
  inventory: JsonInventory,
  signatures: JsonSignatures,
  s: number,
  byKey: Map<string, boolean>,
): number {
  const { text, kind, start, end } = inventory;
  const { first, nextSame } = signatures;
  // A schema's thousand `description` fields are one kind of value.
  const key = signatureKey(inventory, signatures, s);
  let prose = key === '' ? undefined : byKey.get(key);
  if (prose === undefined) {
    let sampled = 0;
    let proseValues = 0;
    for (let u = first[s]!; u >= 0 && sampled < PROSE_SAMPLES; u = nextSame[u]!) {
      if (kind[u] !== NODE_STRING) continue;
      sampled++;
      if (readsAsProse(text, start[u]! + 1, end[u]! - 1)) proseValues++;
    }
    prose = sampled > 0 && 2 * proseValues > sampled;
    if (key !== '') byKey.set(key, prose);
  }
  if (!prose) return 0;
  const seen = new Int32Array(DISTINCT_SAMPLES);
  let strings = 0;
  let differ = 0;
  for (let u = first[s]!; u >= 0 && strings < DISTINCT_SAMPLES; u = nextSame[u]!) {
    if (kind[u] !== NODE_STRING) continue;
    strings++;
    const fingerprint = endsFingerprint(text, start[u]! + 1, end[u]! - 1);
    let k = 0;
    while (k < differ && seen[k] !== fingerprint) k++;
    if (k === differ) seen[differ++] = fingerprint;
  }
  return strings === 0 ? 0 : differ / strings;
}
