/**
 * The codes a text's rows hold, interned per slot (a template's n-th code, `rareLineCodes`):
 * what the per-row pass gives, in JavaScript or WebAssembly (line-scan.wat), and the scoring
 * reads.
 */
export interface CodeSlots {
  /** Per template id: its number among the templates of enough rows to have slots, or -1. */
  dense: Int32Array;
  /** Templates with slots. */
  slotted: number;
  /** Per slot (dense × 8 + ordinal) × 9 + value index: the value. */
  slotValue: Int32Array;
  /** Per slot × 9 + value index: rows holding the value there. */
  slotCount: Int32Array;
  /** Per slot: values seen (up to 9), or -1 once past nine (a measure, no code). */
  slotSize: Int8Array;
  /** Per row: each slot's value index + 1, four bits a slot (slot 0 lowest); 0 for none. */
  rowCodes: Int32Array;
}
