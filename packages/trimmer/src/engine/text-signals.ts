import { type LevelBreakdown, type LevelCount, type LineShape, toldShape } from '@compaction/core';
import {
  type LineScan,
  type LineScanBackend,
  openLineScan,
  SCAN_ASKS_LEVEL,
} from '../line-scan/line-scan.js';
import {
  detectLevel,
  isContinuationLine,
  LEVEL_NAMES,
  LEVEL_SIGNATURES,
  LEVEL_WINDOW,
  LevelTailCues,
  levelOf,
  levelTable,
  NO_LEVEL,
  type RawLevels,
} from '../readers/line-level.js';
import { lineShape, lineTemplate } from '../readers/line-template.js';
import type { Vocabulary } from '../vocabulary.js';
import { RANKED_COPIES } from './kept-units.js';
import { lineMeasureOutliers } from './line-measures.js';
import { codeSlots, rareCodeScores } from './rare-line-codes.js';
import type { StopCheck } from './stop-check.js';
import { mergeVariableWords } from './variable-words.js';

/** The level breakdown's label for the units that have no level. */
export const UNLEVELED = 'unleveled';
/** How a text is split into units. */
export type TextUnit = 'lines' | 'sentences' | 'records' | 'hunks';

/**
 * What stands out in a text, without a query: each unit's anomaly score (0 for routine units)
 * and the level of every line, to count what a view keeps of each level.
 */
export interface TextSignals {
  /** Per unit: how far its level and its shape stand out from the rest of the text. */
  anomaly: Float64Array;
  /** Per unit: set when its own level (not only its shape or a neighbour) stands out. */
  leveled: Uint8Array;
  /** Level signature of each row (a line; a unit when units are lines, records or sentences). */
  rowLevel: Int32Array;
  /** Unit of each row, when rows are not the units (diffs). */
  rowUnit: Int32Array | undefined;
  /** Raw level categories (values of a level field that are not known words), by id. */
  rawNames: string[];
  /** Rows of each known level, of each raw category (by id), and with no level, in that order. */
  rowsOfLevel: Float64Array;
  /** Some row has a level. */
  anyLevel: boolean;
  /**
   * Per unit, its line shape as a dense id below `templates` (lines printed by one statement
   * share it); absent for prose and diffs, whose units are not single lines.
   */
  template: Int32Array | undefined;
  /** Number of distinct shapes in `template`. */
  templates: number;
  /**
   * Units `lines`, where lines repeat statements: the shapes the note may tell of the events
   * (lines that continue none), of at least two each, most telling first (`eventShapes`).
   */
  shapes: LineShape[] | undefined;
}

/** Bonus of a level over its rarity alone, by known level (`LEVEL_NAMES` order). */
const SEVERITY_BONUS = [0, 0, 0, 0, 2, 3, 4];
/** A level without severity bonus stands out only when at most this share of rows has it. */
const RARE_SHARE = 0.1;
/** Weight of how much rarer a line's template is than the text's average line. */
const TEMPLATE_WEIGHT = 0.5;
/**
 * Lines of one template say less each time: the k-th (from 0, in text order) scores
 * 1 / (1 + k / REPEAT_DECAY) of its own score, so forty copies of one warning do not crowd out
 * everything else.
 */
const REPEAT_DECAY = 4;
/**
 * Copies of one template past this many, when only their shape made them stand out and it is
 * not rare in the text, stand out no more: a positive score, however decayed, would rank every
 * copy (375 `heartbeat: ok` lines in 3 000) above every routine line. Lines of a rare or severe
 * level keep their decayed score, and so do the copies of a rare shape (30 `sudo` lines).
 */
const REPEAT_CAP = 8;
/** The cap holds for a shape of more than this share of the rows: a rarer one keeps decaying. */
const REPEAT_CAP_SHARE = 0.02;
/** Shapes per row past which a text's lines are read as no statements' output. */
const MAX_SHAPE_SHARE = 0.5;
/** Rows after a standing-out line that continue its event (a stack trace) and share its score. */
const MAX_CONTINUATION = 24;
const CONTINUATION_SHARE = 0.6;
const BEFORE_SHARE = 0.4;
const AFTER_SHARE = 0.3;
/** Shapes of a severe level (warn and up), and shapes of any level, the note may tell, each. */
const TOLD_SHAPES = 12;
/** A letter: a shape told holds a word as written. */
const WORD_LETTER = /\p{L}/u;
/** The least severe level whose shapes are told before the commonest shapes. */
const SEVERE_SHAPE_LEVEL = LEVEL_NAMES.indexOf('warn');
/** Raw categories named in a note; the rest are counted together as `other`. */
const NAMED_RAW_LEVELS = 4;

/** What `textSignals` reads. */
interface TextSignalsInput {
  text: string;
  units: Uint16Array;
  starts: readonly number[];
  unit: TextUnit;
  check: StopCheck;
  /** The words levels are read by. */
  vocabulary: Vocabulary;
  /** Where each line of `text` begins (`lineStarts`). */
  lineStarts: readonly number[];
  /**
   * What reads the lines' templates and codes: WebAssembly where it runs (the default), else
   * JavaScript; both give the same signals.
   */
  backend?: LineScanBackend;
}

/** Rows whose templates the line scan reads ahead of the row loop in one call. */
const SCAN_CHUNK_ROWS = 4096;

/**
 * The signals of `text` split at `starts` into units of kind `unit`, read through its UTF-16
 * `units` (`textUnits`). One pass over each line's first `LEVEL_WINDOW` units, so the cost is
 * linear in the text whatever its shape. Lines' templates, codes and levels (those the scan can
 * settle: none, or a level word stated plainly) are read in WebAssembly (line-scan.wat) where it
 * runs, a diff's lines past their markers, but for sentences (which have no lines' shapes).
 */
export function textSignals(input: TextSignalsInput): TextSignals {
  const hunks = input.unit === 'hunks';
  const scan =
    input.backend !== 'js' && input.unit !== 'sentences'
      ? openLineScan(
          input.units,
          hunks ? input.lineStarts : input.starts,
          levelTable(input.vocabulary),
          hunks ? markerShifts(input.units, input.lineStarts) : undefined,
        )
      : undefined;
  try {
    return readSignals(input, scan);
  } finally {
    scan?.close();
  }
}

function readSignals(input: TextSignalsInput, scan: LineScan | undefined): TextSignals {
  const { text, units, starts, unit, check } = input;
  const table = levelTable(input.vocabulary);
  // A diff's rows are its lines, each with the unit it falls in; other texts' are their units.
  const rowStarts = unit === 'hunks' ? input.lineStarts : starts;
  const rowUnit = unit === 'hunks' ? new Int32Array(rowStarts.length) : undefined;
  for (let r = 0, u = 0; rowUnit && r < rowStarts.length; r++) {
    while (u + 1 < starts.length && starts[u + 1]! <= rowStarts[r]!) u++;
    rowUnit[r] = u;
  }
  const rows = rowStarts.length;
  const withShape = unit !== 'sentences';
  const raw: RawLevels = new Map();
  const rowLevel = new Int32Array(rows);
  // Templates are interned to dense ids, so each is counted, weighed and decayed in arrays.
  const rowTemplate = withShape ? new Int32Array(rows) : undefined;
  const continuation = withShape ? new Uint8Array(rows) : undefined;
  const blank = new Uint8Array(rows);
  // Template hashes are interned through an open-addressed table sized for every row to have a
  // shape of its own at half load (a power of two, at least 16): slot → id + 1 (0 free), and
  // the hash it holds.
  let slots = withShape && !scan ? 16 : 0;
  while (slots > 0 && slots < 2 * rows) slots *= 2;
  const slotId = new Int32Array(slots);
  const slotHash = new Int32Array(slots);
  let templates = 0;
  // Every row has at most a shape of its own.
  let templateCounts = new Int32Array(withShape ? rows : 0);
  // Where each shape was first read: its line's start, end and first filled unit.
  const shapeFrom = new Int32Array(withShape ? rows : 0);
  const shapeTo = new Int32Array(withShape ? rows : 0);
  const shapeFilled = new Int32Array(withShape ? rows : 0);
  const tail = new LevelTailCues(text, table);
  const signatureCounts = new Int32Array(LEVEL_SIGNATURES);
  let anyLevel = false;
  let work = 0;
  let inHunk = false;
  // The line before, as read: a line that repeats it (`CPU burner 3 running`, 1 500 times over)
  // reads as it did, since no reader of a line looks past its end. Only a line whose level the
  // scan left to `detectLevel` is compared: the rest of what is read of it costs less than the
  // comparison.
  let lastFrom = 0;
  let lastTo = -1;
  for (let r = 0; r < rows; r++) {
    let from = rowStarts[r]!;
    let to = r + 1 < rows ? rowStarts[r + 1]! : text.length;
    while (to > from && (units[to - 1] === 0x0a || units[to - 1] === 0x0d)) to--;
    let unchanged = false;
    if (scan && r % SCAN_CHUNK_ROWS === 0) scan.readTemplates(r + SCAN_CHUNK_ROWS);
    if (rowUnit && from < to) {
      if (text.startsWith('@@ ', from)) inHunk = true;
      else if (text.startsWith('diff --git ', from)) inHunk = false;
      const marker = units[from]!;
      // The diff marker of a hunk line is not part of the line's content.
      if (marker === 0x2b || marker === 0x2d || marker === 0x20) from++;
      // An unchanged line of a hunk (`if (level == Level::FATAL)` in code) states no level of
      // the change.
      unchanged = inHunk && marker === 0x20;
    }
    const scanned = scan ? scan.rowLevel[r]! : SCAN_ASKS_LEVEL;
    if (
      !rowUnit &&
      scanned === SCAN_ASKS_LEVEL &&
      to - from === lastTo - lastFrom &&
      sameRange(units, lastFrom, from, to - from)
    ) {
      rowLevel[r] = rowLevel[r - 1]!;
      blank[r] = blank[r - 1]!;
      if (rowTemplate && continuation) {
        rowTemplate[r] = rowTemplate[r - 1]!;
        continuation[r] = continuation[r - 1]!;
      }
    } else {
      // The line's indentation is read once, here, for every reader of the line (an indented
      // YAML or JSON dump is mostly spaces).
      const window = Math.min(to, from + LEVEL_WINDOW);
      let nonBlank = from;
      if (scan) nonBlank = scan.rowFilled[r]!;
      else {
        while (nonBlank < window && (units[nonBlank] === 0x20 || units[nonBlank] === 0x09)) {
          nonBlank++;
        }
      }
      // A row whose level the scan read is not read again, unless an exit or alert word in it
      // may change what it read.
      rowLevel[r] = unchanged
        ? NO_LEVEL
        : scanned === NO_LEVEL ||
            (scanned !== SCAN_ASKS_LEVEL && !tail.within(from, Math.min(to, from + LEVEL_WINDOW)))
          ? scanned
          : detectLevel(units, text, from, to, raw, tail, table, nonBlank);
      // Nothing but spaces and tabs, as far as the window looks.
      blank[r] = nonBlank === window ? 1 : 0;
      if (scan && rowTemplate && continuation) {
        const id = scan.rowTemplate[r]!;
        // The scan numbers shapes in order of first row, as the interning below does: a new
        // one is the next id, and its first line is where it was first read.
        if (id === templates) {
          templates++;
          shapeFrom[id] = from;
          shapeTo[id] = to;
          shapeFilled[id] = nonBlank;
        }
        rowTemplate[r] = id;
        continuation[r] = isContinuationLine(units, text, from, to, table, nonBlank) ? 1 : 0;
      } else if (rowTemplate && continuation) {
        const hash = lineTemplate(units, from, to, nonBlank);
        let slot = (hash ^ (hash >>> 15)) & (slots - 1);
        while (slotId[slot] !== 0 && slotHash[slot] !== hash) slot = (slot + 1) & (slots - 1);
        let id = slotId[slot]! - 1;
        if (id < 0) {
          id = templates++;
          slotId[slot] = id + 1;
          slotHash[slot] = hash;
          shapeFrom[id] = from;
          shapeTo[id] = to;
          shapeFilled[id] = nonBlank;
        }
        rowTemplate[r] = id;
        continuation[r] = isContinuationLine(units, text, from, to, table, nonBlank) ? 1 : 0;
      }
    }
    lastFrom = from;
    lastTo = to;
    if (rowLevel[r] !== NO_LEVEL) {
      signatureCounts[rowLevel[r]!]!++;
      anyLevel = true;
    }
    work += Math.min(to - from, LEVEL_WINDOW) + 16;
    if ((r & 255) === 255) {
      check(work);
      work = 0;
    }
  }
  check(work);
  const statements = templates <= MAX_SHAPE_SHARE * rows;
  let varied: Int32Array | undefined;
  if (rowTemplate) {
    // Shapes that differ in one word a line varies (a user name) are one shape; where most
    // lines have a shape of their own (prose, markup), no statement repeats to be found.
    const merged = statements
      ? mergeVariableWords(units, shapeFrom, shapeTo, shapeFilled, templates, check)
      : undefined;
    varied = merged?.varied;
    if (merged) {
      for (let r = 0; r < rows; r++) rowTemplate[r] = merged.map[rowTemplate[r]!]!;
      templates = merged.count;
      templateCounts = new Int32Array(templates);
    }
    for (let r = 0; r < rows; r++) templateCounts[rowTemplate[r]!]!++;
  }

  // A level's score, or 0 where it does not stand out (a score is above ln 2).
  const signatureScores = new Float64Array(LEVEL_SIGNATURES);
  const rowsOfLevel = new Float64Array(LEVEL_NAMES.length + raw.size + 1);
  rowsOfLevel[rowsOfLevel.length - 1] = rows;
  for (let signature = 0; signature < LEVEL_SIGNATURES; signature++) {
    const count = signatureCounts[signature]!;
    if (count === 0) continue;
    const level = levelOf(signature);
    rowsOfLevel[level]! += count;
    rowsOfLevel[rowsOfLevel.length - 1]! -= count;
    const bonus = level < LEVEL_NAMES.length ? SEVERITY_BONUS[level]! : 0;
    if (bonus > 0 || count / rows <= RARE_SHARE) {
      signatureScores[signature] = bonus + Math.log(1 + rows / count);
    }
  }

  const own = new Float64Array(rows);
  const rarity = new Float64Array(rowTemplate ? templates : 0);
  if (rowTemplate) {
    // How much rarer a line's template is than the average line's: a text whose lines are all
    // alike or all different gives nothing; one odd line among routine ones stands out.
    let mean = 0;
    for (let id = 0; id < templates; id++) {
      rarity[id] = Math.log(1 + rows / templateCounts[id]!);
      mean += templateCounts[id]! * rarity[id]!;
    }
    mean /= Math.max(1, rows);
    for (let id = 0; id < templates; id++) {
      rarity[id] = rarity[id]! > mean ? TEMPLATE_WEIGHT * (rarity[id]! - mean) : 0;
    }
    for (let r = 0; r < rows; r++) own[r] = rarity[rowTemplate[r]!]!;
    check(rows);
    // A rare code among a template's lines (a `(400)` among 5 000 `(200)`s) stands out too.
    const slots = scan
      ? scan.codeSlots(rowTemplate, templates, templateCounts, check)
      : codeSlots(units, rowStarts, rowTemplate, templates, templateCounts, check);
    const codes = slots && rareCodeScores(slots, rowTemplate, check);
    for (let r = 0; codes && r < rows; r++) own[r]! += codes[r]!;
  }
  const standsOut = new Uint8Array(rows);
  for (let r = 0; r < rows; r++) {
    const signature = rowLevel[r]!;
    if (signature === NO_LEVEL) continue;
    const levelScore = signatureScores[signature]!;
    if (levelScore > 0) {
      own[r]! += levelScore;
      standsOut[r] = 1;
    }
  }
  if (rowTemplate) {
    const seen = new Int32Array(templates);
    for (let r = 0; r < rows; r++) {
      if (own[r] === 0) continue;
      const id = rowTemplate[r]!;
      const k = seen[id]!++;
      if (k >= REPEAT_CAP && standsOut[r] === 0 && templateCounts[id]! > REPEAT_CAP_SHARE * rows) {
        own[r] = 0;
      }
      if (k > 0) own[r]! /= 1 + k / REPEAT_DECAY;
    }
    check(rows);
    // A number far past the rest of its measure (the slowest request, the longest pause)
    // stands out by how rare so great a value is; the next greatest less each, so copies of
    // the line's template are not decayed again.
    const far = lineMeasureOutliers(units, rowStarts, check, scan);
    for (let r = 0; far && r < rows; r++) own[r]! += far[r]!;
  }
  // A standing-out line brings the lines of its event (indented continuation lines such as
  // stack frames) and its neighbours, each below it, so every such line comes before context.
  // A blank neighbour says nothing; the line beyond it is the neighbour.
  const score = own.slice();
  for (let r = 0; r < rows; r++) {
    if (standsOut[r] !== 1) continue;
    const base = own[r]!;
    let before = r - 1;
    if (before >= 0 && blank[before] === 1) before--;
    if (before >= 0) score[before] = Math.max(score[before]!, BEFORE_SHARE * base);
    let next = r + 1;
    if (continuation) {
      for (; next < rows && next - r <= MAX_CONTINUATION && continuation[next] === 1; next++) {
        score[next] = Math.max(score[next]!, CONTINUATION_SHARE * base - 0.001 * (next - r));
      }
    }
    if (next < rows && blank[next] === 1) next++;
    if (next < rows) score[next] = Math.max(score[next]!, AFTER_SHARE * base);
  }
  check(rows);

  const anomaly = rowUnit ? new Float64Array(starts.length) : score;
  const leveled = rowUnit ? new Uint8Array(starts.length) : standsOut;
  if (rowUnit) {
    for (let r = 0; r < rows; r++) {
      const u = rowUnit[r]!;
      if (score[r]! > anomaly[u]!) anomaly[u] = score[r]!;
      if (standsOut[r] === 1) leveled[u] = 1;
    }
  }
  const rawNames = new Array<string>(raw.size);
  for (const [name, id] of raw) rawNames[id - LEVEL_NAMES.length] = name;
  const shapes =
    unit === 'lines' && rowTemplate && continuation && statements
      ? eventShapes({
          units,
          text,
          rowStarts,
          rowLevel,
          rowTemplate,
          continuation,
          templates,
          varied,
          rarity,
        })
      : undefined;
  check(rows);
  return {
    anomaly,
    leveled,
    rowLevel,
    rowUnit,
    rawNames,
    rowsOfLevel,
    anyLevel,
    template: rowUnit ? undefined : rowTemplate,
    templates,
    shapes,
  };
}

/**
 * Per line of a diff (`starts`), the units of its marker (`+`, `-` or a space opening a line
 * that holds more than its line break): what the row loop steps over before reading the line.
 */
function markerShifts(units: Uint16Array, starts: readonly number[]): Uint8Array {
  const shifts = new Uint8Array(starts.length);
  for (let r = 0; r < starts.length; r++) {
    const from = starts[r]!;
    let to = r + 1 < starts.length ? starts[r + 1]! : units.length;
    while (to > from && (units[to - 1] === 0x0a || units[to - 1] === 0x0d)) to--;
    const marker = units[from];
    if (from < to && (marker === 0x2b || marker === 0x2d || marker === 0x20)) shifts[r] = 1;
  }
  return shifts;
}

/** Whether `units[a, a + length)` and `units[b, b + length)` are the same units. */
function sameRange(units: Uint16Array, a: number, b: number, length: number): boolean {
  let k = 0;
  while (k < length && units[a + k] === units[b + k]) k++;
  return k === length;
}

/** What `eventShapes` reads: the rows of a text of lines as `readSignals` read them. */
interface EventShapesInput {
  units: Uint16Array;
  text: string;
  rowStarts: readonly number[];
  rowLevel: Int32Array;
  rowTemplate: Int32Array;
  continuation: Uint8Array;
  templates: number;
  /** Per template, the word places its lines vary in (`mergeVariableWords`). */
  varied: Int32Array | undefined;
  /** Per template, how much rarer it is than the text's average line (0: not rarer). */
  rarity: Float64Array;
}

/**
 * The shapes of the events (rows that continue none) the note may tell, each with how many
 * events have it (of two or more) and their level where they all share one:
 * up to `TOLD_SHAPES` of a severe level (warn and up; the most severe first, then the
 * commonest), as many of the commonest others, and as many of the rare (rarer than the average
 * line, at most `RARE_SHARE` of the lines) with more lines than a view shows of one shape before
 * the others (`RANKED_COPIES`; the fewest first), taken two severe to one common to one rare (one severe in the first round), so a
 * note of a few entries tells what went wrong, what the bulk of the text is, and how many there
 * were of the odd lines the view shows a few of. In text order where counts tie. Linear in the
 * rows (the best are kept in lists of at most `TOLD_SHAPES`); only those told are rendered.
 */
function eventShapes(input: EventShapesInput): LineShape[] {
  const { units, text, rowStarts, rowLevel, rowTemplate, continuation, templates } = input;
  const rows = rowLevel.length;
  const count = new Int32Array(templates);
  const first = new Int32Array(templates).fill(-1);
  // The level all its events share, or MIXED.
  const level = new Int32Array(templates);
  const MIXED = -2;
  for (let r = 0; r < rows; r++) {
    if (continuation[r] === 1) continue;
    const id = rowTemplate[r]!;
    const of = rowLevel[r] === NO_LEVEL ? NO_LEVEL : levelOf(rowLevel[r]!);
    if (count[id]!++ === 0) {
      first[id] = r;
      level[id] = of;
    } else if (level[id] !== of) level[id] = MIXED;
  }
  const severe = (id: number): boolean =>
    level[id]! >= SEVERE_SHAPE_LEVEL && level[id]! < LEVEL_NAMES.length;
  const SEVERE = 0;
  const COMMON = 1;
  const RARE = 2;
  // Best first: more severe, then more events (fewer for the rare), then the earlier.
  const before = (a: number, b: number, kind: number): boolean =>
    kind === SEVERE && level[a] !== level[b]
      ? level[a]! > level[b]!
      : count[a] !== count[b]
        ? kind === RARE
          ? count[a]! < count[b]!
          : count[a]! > count[b]!
        : first[a]! < first[b]!;
  const lists: number[][] = [[], [], []];
  const insert = (kind: number, id: number): void => {
    const list = lists[kind]!;
    if (list.length === TOLD_SHAPES && !before(id, list[TOLD_SHAPES - 1]!, kind)) return;
    let at = Math.min(list.length, TOLD_SHAPES - 1);
    list[at] = id;
    for (; at > 0 && before(id, list[at - 1]!, kind); at--) {
      list[at] = list[at - 1]!;
      list[at - 1] = id;
    }
  };
  for (let id = 0; id < templates; id++) {
    if (count[id]! < 2) continue;
    if (severe(id)) insert(SEVERE, id);
    else {
      insert(COMMON, id);
      const rare = input.rarity[id]! > 0 && count[id]! <= RARE_SHARE * rows;
      if (rare && count[id]! > RANKED_COPIES) insert(RARE, id);
    }
  }
  // Round by round: two severe (one in the first round), one common, one rare; a shape in two
  // lists is told once, where it comes first.
  const order: number[] = [];
  const taken = new Set<number>();
  const next = [0, 0, 0];
  const take = (kind: number): void => {
    const list = lists[kind]!;
    while (next[kind]! < list.length && taken.has(list[next[kind]!]!)) next[kind]!++;
    if (next[kind]! >= list.length) return;
    const id = list[next[kind]!++]!;
    taken.add(id);
    order.push(id);
  };
  for (let round = 0; ; round++) {
    const length = order.length;
    take(SEVERE);
    if (round > 0) take(SEVERE);
    take(COMMON);
    take(RARE);
    if (order.length === length) break;
  }
  const told = order.map((id) => {
    const row = first[id]!;
    const from = rowStarts[row]!;
    let to = row + 1 < rows ? rowStarts[row + 1]! : text.length;
    while (to > from && (units[to - 1] === 0x0a || units[to - 1] === 0x0d)) to--;
    let filled = from;
    while (filled < to && (units[filled] === 0x20 || units[filled] === 0x09)) filled++;
    const shape = lineShape(units, text, from, to, filled, input.varied?.[id] ?? 0);
    const of = level[id]!;
    // A raw value (`30`) would read as a second count: only level words are named.
    const label = of >= 0 && of < LEVEL_NAMES.length ? LEVEL_NAMES[of] : undefined;
    return label === undefined
      ? { count: count[id]!, shape }
      : { count: count[id]!, level: label, shape };
  });
  // Shapes the note would tell alike (lines whose words all come after a `;`) are left out, and
  // so are those with no word as written (`{`, `#`): a reader could match none to its lines.
  const alike = new Map<string, number>();
  for (const entry of told) {
    const text = toldShape(entry.shape);
    alike.set(text, (alike.get(text) ?? 0) + 1);
  }
  return told.filter((entry) => {
    const text = toldShape(entry.shape);
    return alike.get(text) === 1 && WORD_LETTER.test(text);
  });
}

/**
 * Rows of each level the view dropped, of how many there were (`keep[u]` is 1 for a kept
 * unit): the known levels from most to least severe, the commonest raw categories, the rest as
 * `other`, and `unleveled`. Undefined when no row has a level.
 */
export function levelBreakdown(
  signals: TextSignals,
  keep: Uint8Array | undefined,
  unit: string,
): LevelBreakdown | undefined {
  if (!signals.anyLevel) return undefined;
  const known = LEVEL_NAMES.length;
  const { rowLevel, rowUnit, rowsOfLevel: total } = signals;
  const dropped = total.slice();
  const none = total.length - 1;
  for (let r = 0; keep && r < rowLevel.length; r++) {
    if (keep[rowUnit ? rowUnit[r]! : r] !== 1) continue;
    const level = levelOf(rowLevel[r]!);
    dropped[level === NO_LEVEL ? none : level]!--;
  }
  const counts: LevelCount[] = [];
  for (let level = known - 1; level >= 0; level--) {
    if (total[level]! > 0) {
      counts.push({ level: LEVEL_NAMES[level]!, dropped: dropped[level]!, total: total[level]! });
    }
  }
  const other = { level: 'other', dropped: 0, total: 0 };
  // A raw value seen only on lines a stronger level claimed (`"level":30` with `exit_code=1`)
  // has no lines of its own and is not listed.
  const listed = signals.rawNames
    .map((name, index) => ({ name, slot: known + index }))
    .filter(({ slot }) => total[slot]! > 0)
    .sort((a, b) => total[b.slot]! - total[a.slot]! || a.slot - b.slot);
  listed.forEach(({ name, slot }, index) => {
    if (index < NAMED_RAW_LEVELS) {
      counts.push({ level: name, dropped: dropped[slot]!, total: total[slot]! });
    } else {
      other.dropped += dropped[slot]!;
      other.total += total[slot]!;
    }
  });
  if (other.total > 0) counts.push(other);
  if (total[none]! > 0)
    counts.push({ level: UNLEVELED, dropped: dropped[none]!, total: total[none]! });
  return { unit, counts };
}
