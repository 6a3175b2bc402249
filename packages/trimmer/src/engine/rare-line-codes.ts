import { DIGIT, JOIN, LETTER, NUMBER_UNIT_KIND, OTHER } from '../readers/number-unit-kind.js';
import type { CodeSlots } from './code-slots.js';
import type { StopCheck } from './stop-check.js';

/** UTF-16 units of a line read for its codes (as many as its template is read over). */
const CODE_WINDOW = 200;
/** Codes read per line: the n-th whole integer of up to `CODE_DIGITS` digits is its n-th slot. */
const MAX_SLOTS = 8;
/** Digits of a code at most (longer integers are ids, counts or times). */
const CODE_DIGITS = 6;
/** Lines of one template a slot needs before one of its values can be rare among them. */
const MIN_SLOT_ROWS = 20;
/** A slot of more values than this holds measures or ids, not codes. */
const MAX_CODES = 8;
/** A code is rare where at most this share of its slot's lines hold it. */
const RARE_CODE_SHARE = 0.02;
/** Weight of a rare code's rarity (as a rare template's: `TEMPLATE_WEIGHT`). */
const CODE_WEIGHT = 0.5;

/**
 * How much each row stands out by a rare code among the lines of its template: the analogue, in
 * a log, of a record's rare categorical value. Lines of one template differ only in their
 * variables; where one variable, a whole integer of up to six digits in the same place among
 * the line's integers (its slot), takes a few values far apart (HTTP statuses `200` and `400`,
 * tenants `1218`, `3648`, `75`), a value at most 2% of the template's lines hold stands out,
 * by how rare it is. A slot whose values fill half the run from their least to their greatest
 * (seconds, minutes, line numbers of one function) is a count or a time, not a code. Integers
 * inside a word, a decimal or a dotted version are no codes. Reads at most `CODE_WINDOW` units
 * of each row. `rowTemplate` is each row's template id (`lineTemplate`, interned); `bounds`
 * gives where row `r` starts (`bounds[r]`) and ends (`bounds[r + 1]`, or `units.length`).
 */
export function rareLineCodes(
  units: Uint16Array,
  bounds: readonly number[],
  rowTemplate: Int32Array,
  templates: number,
  templateCounts: Int32Array,
  check: StopCheck,
): Float64Array | undefined {
  const slots = codeSlots(units, bounds, rowTemplate, templates, templateCounts, check);
  return slots && rareCodeScores(slots, rowTemplate, check);
}

/**
 * The per-row pass of `rareLineCodes`: each row's codes, interned in its template's slots (only
 * templates of at least `MIN_SLOT_ROWS` rows have slots). Undefined when no template has. The
 * JavaScript twin of line-scan.wat's `codeRows`, its fallback where WebAssembly is unavailable.
 */
export function codeSlots(
  units: Uint16Array,
  bounds: readonly number[],
  rowTemplate: Int32Array,
  templates: number,
  templateCounts: Int32Array,
  check: StopCheck,
): CodeSlots | undefined {
  const rows = rowTemplate.length;
  // Only templates of enough lines have slots: numbered densely.
  const dense = new Int32Array(templates);
  let slotted = 0;
  for (let id = 0; id < templates; id++) {
    dense[id] = templateCounts[id]! >= MIN_SLOT_ROWS ? slotted++ : -1;
  }
  if (slotted === 0) return undefined;
  // Per slot (template × ordinal): its values and their counts, at most `MAX_CODES + 1`
  // (`size` -1 once past it: no code); per row, each slot's value index + 1, four bits a slot.
  const width = MAX_CODES + 1;
  const slotValue = new Int32Array(slotted * MAX_SLOTS * width);
  const slotCount = new Int32Array(slotted * MAX_SLOTS * width);
  const slotSize = new Int8Array(slotted * MAX_SLOTS);
  const rowCodes = new Int32Array(rows);
  let work = 0;
  for (let r = 0; r < rows; r++) {
    const d = dense[rowTemplate[r]!]!;
    if (d < 0) continue;
    const from = bounds[r]!;
    const to = Math.min(r + 1 < bounds.length ? bounds[r + 1]! : units.length, from + CODE_WINDOW);
    let slot = 0;
    let packed = 0;
    for (let i = from; i < to && slot < MAX_SLOTS; ) {
      const kind = NUMBER_UNIT_KIND[units[i]!]!;
      if (kind !== DIGIT) {
        // A word is stepped over whole: a digit inside it is no code (`v1`, `0x1f`, `u-c484ac`).
        i++;
        if (kind === LETTER) while (i < to && NUMBER_UNIT_KIND[units[i]!]! >= LETTER) i++;
        continue;
      }
      const start = i;
      let value = 0;
      for (; i < to && NUMBER_UNIT_KIND[units[i]!] === DIGIT; i++)
        value = value * 10 + units[i]! - 0x30;
      const before = start > from ? NUMBER_UNIT_KIND[units[start - 1]!]! : OTHER;
      const after = i < to ? NUMBER_UNIT_KIND[units[i]!]! : OTHER;
      // Past the word it ends, if it ends inside one (`3648ms`).
      if (after >= LETTER) {
        while (i < to && NUMBER_UNIT_KIND[units[i]!]! >= LETTER) i++;
        continue;
      }
      // Whole: no `.`, `:`, `-` or `/` joining it to more digits (1.5, 10.0.3, 13:06:56,
      // 2024-05-02); a longer integer (an id, a hash of digits only) is no code, nor a slot:
      // the codes after it keep their places.
      if (
        before >= LETTER ||
        (before === JOIN && start - 2 >= from && NUMBER_UNIT_KIND[units[start - 2]!] === DIGIT) ||
        (after === JOIN && i + 1 < to && NUMBER_UNIT_KIND[units[i + 1]!] === DIGIT) ||
        i - start > CODE_DIGITS
      ) {
        continue;
      }
      const at = d * MAX_SLOTS + slot;
      const size = slotSize[at]!;
      if (size >= 0) {
        let j = 0;
        const base = at * width;
        while (j < size && slotValue[base + j] !== value) j++;
        if (j === size) {
          if (size === width) slotSize[at] = -1;
          else {
            slotValue[base + j] = value;
            slotSize[at] = size + 1;
          }
        }
        if (j < width) {
          slotCount[base + j]!++;
          packed |= (j + 1) << (4 * slot);
        }
      }
      slot++;
    }
    rowCodes[r] = packed;
    work += to - from + 8;
    if ((r & 1023) === 1023) {
      check(work);
      work = 0;
    }
  }
  check(work);
  return { dense, slotted, slotValue, slotCount, slotSize, rowCodes };
}

/**
 * How much each row stands out by a rare code among the lines of its template, from the slots
 * of `codeSlots` (or line-scan.wat's); undefined when no row does.
 */
export function rareCodeScores(
  slots: CodeSlots,
  rowTemplate: Int32Array,
  check: StopCheck,
): Float64Array | undefined {
  const { dense, slotValue, slotCount, slotSize, rowCodes } = slots;
  const rows = rowTemplate.length;
  const width = MAX_CODES + 1;
  // Each rare value's weight, by slot and value index; 0 for the rest and for slots of no code.
  const rarity = new Float64Array(slotValue.length);
  let any = false;
  for (let at = 0; at < slotSize.length; at++) {
    const size = slotSize[at]!;
    if (size < 2 || size > MAX_CODES) continue;
    const base = at * width;
    let total = 0;
    let least = Number.POSITIVE_INFINITY;
    let most = Number.NEGATIVE_INFINITY;
    for (let j = 0; j < size; j++) {
      total += slotCount[base + j]!;
      least = Math.min(least, slotValue[base + j]!);
      most = Math.max(most, slotValue[base + j]!);
    }
    // Values that fill half their run are a count or a time (three days, two hours in a row),
    // but for two values from zero (an exit status of 0 or 1).
    const run = size > 2 ? 2 * size >= most - least + 1 : most - least === 1 && least > 0;
    if (total < MIN_SLOT_ROWS || run) continue;
    for (let j = 0; j < size; j++) {
      const count = slotCount[base + j]!;
      if (count <= RARE_CODE_SHARE * total) {
        rarity[base + j] = CODE_WEIGHT * Math.log(1 + total / count);
        any = true;
      }
    }
  }
  if (!any) return undefined;
  const score = new Float64Array(rows);
  for (let r = 0; r < rows; r++) {
    let packed = rowCodes[r]!;
    if (packed === 0) continue;
    const d = dense[rowTemplate[r]!]!;
    for (let slot = 0; packed !== 0; slot++, packed >>>= 4) {
      const j = packed & 15;
      if (j === 0) continue;
      const weight = rarity[(d * MAX_SLOTS + slot) * width + j - 1]!;
      if (weight > score[r]!) score[r] = weight;
    }
  }
  check(rows);
  return score;
}
