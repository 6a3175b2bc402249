import type { LineScan } from '../line-scan/line-scan.js';
import { DIGIT, JOIN, LETTER, NUMBER_UNIT_KIND, OTHER } from '../readers/number-unit-kind.js';
import { MeasuredNumbers } from './measured-numbers.js';
import { outlierScore, robustSpread, SPREAD_COUNTS, SPREAD_LOG } from './robust-spread.js';
import type { StopCheck } from './stop-check.js';

/** UTF-16 units of a line read for its measures (as many as its template is read over). */
const MEASURE_WINDOW = 200;
/** Numbers read per line at most. */
const MAX_NUMBERS = 8;
/** Digits of a number at most (more is no measure that a double holds exactly). */
const MAX_DIGITS = 15;
/** Letters of a unit joined to a number at most (`ms`, `KiB`); a longer run is an id's. */
const MAX_UNIT = 4;
/** Values a measure needs before one of them can stand out. */
const MIN_VALUES = 20;
/** Values of a measure read for its median and spread at most (evenly spread over them). */
const SAMPLE = 1024;
/**
 * A measure whose values, in text order, rise (or fall) from each to the next this often is a
 * clock or a counter (an uptime, a byte offset): its greatest is its last, not an outlier.
 */
const MONOTONE_SHARE = 0.9;
/** Weight of an outlier's rarity (as a rare template's and a rare code's). */
const MEASURE_WEIGHT = 0.5;
/** The k-th greatest outlier of a measure (from 1) scores 1 / (1 + (k - 1) / RANK_DECAY) of its rarity. */
const RANK_DECAY = 2;
/**
 * Times its median from which a measure's greatest value stands out though none is an outlier
 * (scoring as a second outlier would).
 */
const EXTREME_RATIO = 20;
const FNV_OFFSET = 0x811c9dc5;
const FNV_PRIME = 0x01000193;

/**
 * How much each row stands out by a number far past the rest of its measure: the analogue, in a
 * log, of a record's numeric outlier, by the same robust statistic (`robustSpread`). A number is
 * a measure's value where a word names it: the word before it and how many numbers came
 * between (`time="34.5"`, `(young), 0.38 secs`; `Push (200) 137.7ms`, the second number after
 * `Push`), with the unit joined to it (`ms`), among the lines that open
 * with the same word (a test report's `testcase` lines; a GC log's `[Object Copy (ms): 345.3]`
 * apart from `[GC Worker Start (ms): 20047137.3]`; not by the line's template, which a test's
 * class name or a path in it can make too wide or too narrow). Dates, times,
 * versions, addresses, numbers inside words and signed numbers are no measures, nor are clocks
 * and counters (values that keep rising or falling down the text). The greatest outlier scores
 * by how rare a value that great is, `MEASURE_WEIGHT * ln(1 + values)`; the next ones less, so a
 * long tail of slow requests does not crowd out everything else. Reads at most `MEASURE_WINDOW`
 * units of each row. `bounds` gives where row `r` starts (`bounds[r]`) and ends (`bounds[r + 1]`,
 * or `units.length`).
 */
export function lineMeasureOutliers(
  units: Uint16Array,
  bounds: readonly number[],
  check: StopCheck,
  scan?: LineScan,
): Float64Array | undefined {
  const rows = bounds.length;
  const numbers = new MeasuredNumbers(rows);
  if (scan) scan.measureNumbers(numbers, check);
  else readMeasuredNumbers(units, bounds, numbers, check);
  return measureOutliers(numbers, rows, check);
}

/**
 * The per-row pass of `lineMeasureOutliers`: every number a word names, into `numbers`. The
 * JavaScript twin of line-scan.wat's `measureRows`, its fallback where WebAssembly is
 * unavailable.
 */
export function readMeasuredNumbers(
  units: Uint16Array,
  bounds: readonly number[],
  numbers: MeasuredNumbers,
  check: StopCheck,
): void {
  const rows = bounds.length;
  let work = 0;
  for (let r = 0; r < rows; r++) {
    const from = bounds[r]!;
    const end = r + 1 < bounds.length ? bounds[r + 1]! : units.length;
    const to = Math.min(end, from + MEASURE_WINDOW);
    // The line's numbers are measured among the lines that open with the same word; each is
    // named by the word before it. Words are hashed only for the numbers they name: where the
    // opening word and the last word are (-1 before one is read).
    let scopeFrom = -1;
    let scopeTo = -1;
    let wordFrom = -1;
    let wordTo = -1;
    // Numbers since that word: the n-th after a word is its own measure (`Push (200) 137.7ms`:
    // a status, then a latency; `/orders/53138 200 12ms`: an id, a status, a latency).
    let ordinal = 0;
    // The hashes of the opening word and of the last word with it, once a number needs them.
    let scopeHash = 0;
    let wordHash = 0;
    let read = 0;
    for (let i = from; i < to && read < MAX_NUMBERS; ) {
      const kind = NUMBER_UNIT_KIND[units[i]!]!;
      if (kind === LETTER) {
        // A word holding a digit (`v1`, `G1`, `I0507`) is a variable and names nothing: told
        // only of the words that name a number, and of the opening ones until one names.
        const start = i;
        for (i++; i < to && NUMBER_UNIT_KIND[units[i]!]! >= LETTER; i++);
        wordFrom = start;
        wordTo = i;
        ordinal = 0;
        wordHash = 0;
        if (scopeFrom < 0 && !holdsDigit(units, start, i)) {
          scopeFrom = start;
          scopeTo = i;
        }
        continue;
      }
      if (kind !== DIGIT) {
        i++;
        continue;
      }
      const start = i;
      let value = 0;
      for (; i < to && NUMBER_UNIT_KIND[units[i]!] === DIGIT; i++)
        value = value * 10 + units[i]! - 0x30;
      let digits = i - start;
      // A fraction: one `.` between digits.
      if (i + 1 < to && units[i] === 0x2e && NUMBER_UNIT_KIND[units[i + 1]!] === DIGIT) {
        let scale = 1;
        for (i++; i < to && NUMBER_UNIT_KIND[units[i]!] === DIGIT; i++, digits++) {
          scale /= 10;
          value += (units[i]! - 0x30) * scale;
        }
      }
      const before = start > from ? units[start - 1]! : 0x20;
      const beforeKind = NUMBER_UNIT_KIND[before]!;
      let measured =
        beforeKind < LETTER &&
        before !== 0x2d &&
        !(
          beforeKind === JOIN &&
          start - 2 >= from &&
          NUMBER_UNIT_KIND[units[start - 2]!] === DIGIT
        ) &&
        !(
          i + 1 < to &&
          NUMBER_UNIT_KIND[units[i]!] === JOIN &&
          NUMBER_UNIT_KIND[units[i + 1]!] === DIGIT
        ) &&
        digits <= MAX_DIGITS &&
        // Cut by the window, its last digits may be unread.
        (i < to || to === end);
      // A unit joined to it (`ms`), ending where the word does; a run that goes on into digits
      // or past a few letters is an id (`5f7b30`, `0x1f`).
      let unit = FNV_OFFSET;
      const unitStart = i;
      for (; i < to && NUMBER_UNIT_KIND[units[i]!] === LETTER; i++) {
        unit = Math.imul(unit ^ units[i]!, FNV_PRIME);
      }
      if (i - unitStart > MAX_UNIT || (i < to && NUMBER_UNIT_KIND[units[i]!] === DIGIT))
        measured = false;
      // The rest of a date, a version or an id is stepped over whole.
      while (i < to && NUMBER_UNIT_KIND[units[i]!]! !== OTHER) i++;
      ordinal++;
      if (!measured || wordFrom < 0 || scopeFrom < 0) continue;
      if (wordHash === 0) {
        if (scopeHash === 0) scopeHash = hashUnits(units, scopeFrom, scopeTo, FNV_OFFSET) | 1;
        wordHash = holdsDigit(units, wordFrom, wordTo)
          ? -1
          : hashUnits(units, wordFrom, wordTo, scopeHash) | 1;
      }
      if (wordHash === -1) continue;
      read++;
      let key = Math.imul(Math.imul(wordHash ^ ordinal, FNV_PRIME) ^ unit, FNV_PRIME);
      key = Math.imul(key ^ (key >>> 16), FNV_PRIME) | 1;
      numbers.add(key, value, r);
    }
    work += to - from + 8;
    if ((r & 1023) === 1023) {
      check(work);
      work = 0;
    }
  }
  check(work);
}

/** How much each row stands out by its numbers among their measures (`lineMeasureOutliers`). */
function measureOutliers(
  numbers: MeasuredNumbers,
  rows: number,
  check: StopCheck,
): Float64Array | undefined {
  const { measures, measure: numberMeasure, value: numberValue, row: numberRow } = numbers;
  // The numbers of each measure, in text order (a counting sort by measure).
  const count = numbers.count;
  const first = new Int32Array(measures + 1);
  for (let n = 0; n < count; n++) first[numberMeasure[n]! + 1]!++;
  for (let m = 0; m < measures; m++) first[m + 1]! += first[m]!;
  const order = new Int32Array(count);
  const next = first.slice(0, measures);
  for (let n = 0; n < count; n++) order[next[numberMeasure[n]!]!++] = n;
  let score: Float64Array | undefined;
  const sample = new Float64Array(SAMPLE + 1);
  for (let m = 0; m < measures; m++) {
    const lo = first[m]!;
    const count = first[m + 1]! - lo;
    if (count < MIN_VALUES) continue;
    let rises = 0;
    let falls = 0;
    for (let k = lo + 1; k < lo + count; k++) {
      const step = numberValue[order[k]!]! - numberValue[order[k - 1]!]!;
      if (step >= 0) rises++;
      if (step <= 0) falls++;
    }
    if (Math.max(rises, falls) >= MONOTONE_SHARE * (count - 1)) continue;
    const stride = Math.max(1, Math.floor(count / SAMPLE));
    let taken = 0;
    for (let k = lo; k < lo + count && taken < sample.length; k += stride) {
      sample[taken++] = numberValue[order[k]!]!;
    }
    const spread = robustSpread(sample, taken);
    if (!spread) continue;
    const outliers: number[] = [];
    // The greatest value, the first of equal ones.
    let greatest = order[lo]!;
    for (let k = lo; k < lo + count; k++) {
      const n = order[k]!;
      if (numberValue[n]! > numberValue[greatest]!) greatest = n;
      if (outlierScore(numberValue[n]!, spread) > 0) outliers.push(n);
    }
    // The greatest first; of equal values, the first in the text.
    outliers.sort((a, b) => numberValue[b]! - numberValue[a]! || a - b);
    score ??= new Float64Array(rows);
    for (let rank = 1; rank <= outliers.length; rank++) {
      const row = numberRow[outliers[rank - 1]!]!;
      const weight = (MEASURE_WEIGHT * Math.log(1 + count / rank)) / (1 + (rank - 1) / RANK_DECAY);
      if (weight > score[row]!) score[row] = weight;
    }
    // Atop a tail too long for any value to stand out, the greatest still does where it is
    // far past the median (the slowest of 629 statements, 470 ms where most take 0.4 ms):
    // what a reader asks of a measure, as a list's note tells its range.
    if (
      outliers.length === 0 &&
      (spread.flags & SPREAD_LOG) !== 0 &&
      (spread.flags & SPREAD_COUNTS) === 0 &&
      Math.log(numberValue[greatest]!) - spread.median >= Math.log(EXTREME_RATIO)
    ) {
      const row = numberRow[greatest]!;
      const weight = (MEASURE_WEIGHT * Math.log(1 + count)) / (1 + 1 / RANK_DECAY);
      if (weight > score[row]!) score[row] = weight;
    }
    check(count);
  }
  return score;
}

/** Whether `units[from, to)` holds an ASCII digit. */
function holdsDigit(units: Uint16Array, from: number, to: number): boolean {
  for (let i = from; i < to; i++) if (NUMBER_UNIT_KIND[units[i]!] === DIGIT) return true;
  return false;
}

/** `hash` (FNV-1a) carried over `units[from, to)`, and a separator. */
function hashUnits(units: Uint16Array, from: number, to: number, hash: number): number {
  for (let i = from; i < to; i++) hash = Math.imul(hash ^ units[i]!, FNV_PRIME);
  return Math.imul(hash ^ 0x20, FNV_PRIME);
}
