import { formatLineShapes, type LineShape } from './line-shapes.js';

/**
 * The per-level account a lossy text view adds to its note: for each level found in the input
 * (`error`, `warn`, … and `unleveled` for units with none), how many units were dropped of how
 * many there were. It is one segment of the note line, `; lines dropped by level: error=0/3
 * warn=2/12 info=1870/1910 unleveled=76/80`, so a reader (or a program) can tell at a glance
 * whether every error is shown. How the events divide by shape follows it (`line-shapes.ts`).
 */

/** Units of one level: how many the input had and how many the view dropped. */
export interface LevelCount {
  /** Level label, lower case: `fatal`, `error`, `warn`, …, a raw value, or `unleveled`. */
  level: string;
  /** Units of this level left out of the view. */
  dropped: number;
  /** Units of this level in the input. */
  total: number;
}

/** Units counted by level, in the order the note lists them. */
export interface LevelBreakdown {
  /** What was counted, plural: `lines`, `records`, `sentences`. */
  unit: string;
  counts: readonly LevelCount[];
  /**
   * How the input's events divide by shape (`formatLineShapes`), told after the counts (or
   * alone, when no unit has a level); `parseLineShapes` reads them back.
   */
  shapes?: readonly LineShape[];
}

const LABEL_LIMIT = 16;
const MARKER = ' dropped by level: ';
const DIGITS = /^\d{1,15}$/;

/** A label the note can carry and a parser can read back: `[a-z0-9_.-]`, at most 16. */
function safeLabel(text: string): string {
  const label = text
    .toLowerCase()
    .slice(0, LABEL_LIMIT)
    .replace(/[^a-z0-9_.-]/g, '_');
  return label === '' ? '_' : label;
}

function count(value: number): number {
  return Number.isSafeInteger(value) && value > 0 ? value : 0;
}

/**
 * The note segment for `breakdown`, leading `; ` included, or `''` when it has no counts.
 * Its length depends only on the labels and the digits of each count.
 */
export function formatLevelBreakdown(breakdown: LevelBreakdown | undefined): string {
  if (!breakdown) return '';
  const shapes = formatLineShapes(breakdown.shapes);
  if (breakdown.counts.length === 0) return shapes;
  const unit = safeLabel(breakdown.unit);
  const entries = breakdown.counts.map(
    (entry) => `${safeLabel(entry.level)}=${count(entry.dropped)}/${count(entry.total)}`,
  );
  return `; ${unit}${MARKER}${entries.join(' ')}${shapes}`;
}

/**
 * The level counts a note carries, or `undefined` when it has none. Reads exactly the counts
 * `formatLevelBreakdown` writes (its shapes: `parseLineShapes`); costs one pass over the note.
 */
export function parseLevelBreakdown(note: string): LevelBreakdown | undefined {
  const marker = note.indexOf(MARKER);
  if (marker < 0) return undefined;
  const unitStart = note.lastIndexOf('; ', marker);
  if (unitStart < 0) return undefined;
  const unit = note.slice(unitStart + 2, marker);
  const listStart = marker + MARKER.length;
  let listEnd = note.indexOf(';', listStart);
  if (listEnd < 0) listEnd = note.length;
  const counts: LevelCount[] = [];
  for (const entry of note.slice(listStart, listEnd).split(' ')) {
    const equals = entry.lastIndexOf('=');
    const slash = entry.indexOf('/', equals + 1);
    if (equals <= 0 || slash < 0) return undefined;
    const dropped = entry.slice(equals + 1, slash);
    const total = entry.slice(slash + 1);
    if (!DIGITS.test(dropped) || !DIGITS.test(total)) return undefined;
    counts.push({ level: entry.slice(0, equals), dropped: Number(dropped), total: Number(total) });
  }
  return { unit, counts };
}
