/**
 * The per-level account a lossy text view adds to its note: for each level found in the input
 * (`error`, `warn`, … and `unleveled` for units with none), how many units were dropped of how
 * many there were. It is one segment of the note line, `; lines dropped by level: error=0/3
 * warn=2/12 info=1870/1910 unleveled=76/80`, so a reader (or a program) can tell at a glance
 * whether every error is shown; where one shape stands for many of the most severe level's
 * units, a second segment says how many and shows the first of them: `; commonest error: 142
 * lines like E0507 11:59:44.5 4601 pod_workers.go:1300] "Error syncing pod, skipping" …`.
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

/**
 * The commonest shape among the units of the most severe level: how many units share it and
 * the first of them, as written (cut short with `…`).
 */
export interface CommonestShape {
  /** Level label, as in `LevelCount`. */
  level: string;
  /** Units of that level of this shape (lines printed by one statement, numbers aside). */
  count: number;
  /** The first such unit, at most `EXAMPLE_LIMIT` characters, ending with `…` when cut. */
  example: string;
}

/** Units counted by level, in the order the note lists them. */
export interface LevelBreakdown {
  /** What was counted, plural: `lines`, `records`, `sentences`. */
  unit: string;
  counts: readonly LevelCount[];
  /** The commonest shape of the most severe level, when one stands for many of its units. */
  commonest?: CommonestShape;
}

const LABEL_LIMIT = 16;
const MARKER = ' dropped by level: ';
/** Longest example of a commonest shape, in UTF-16 units (its `…` included). */
export const EXAMPLE_LIMIT = 160;
const COMMONEST = /; commonest ([a-z0-9_.-]+): (\d{1,15}) ([a-z0-9_.-]+) like (.+?)(?=; |\]$|$)/;

/**
 * `written` (a line, its line ending aside) fit for a note: up to its first character the note's syntax or a line break would
 * read otherwise (`;`, a control character), at most `EXAMPLE_LIMIT` units, with `…` where
 * cut; never splitting a surrogate pair.
 */
export function commonestExample(written: string): string {
  // A line's own ending is no part of it.
  const line = written.replace(/\r?\n$/, '');
  let end = line.search(/[;\u0000-\u001f\u007f\u2028\u2029]/);
  if (end < 0) end = line.length;
  let cut = end < line.length;
  if (end > EXAMPLE_LIMIT - 1) {
    end = EXAMPLE_LIMIT - 1;
    cut = true;
  }
  // No lone half of a pair, no trailing space before the `…`.
  const code = line.charCodeAt(end - 1);
  if (code >= 0xd800 && code <= 0xdbff) end--;
  let example = line.slice(0, end);
  if (cut) example = `${example.trimEnd()}…`;
  return example.trim() === '…' ? '' : example;
}
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
  if (!breakdown || breakdown.counts.length === 0) return '';
  const unit = safeLabel(breakdown.unit);
  const entries = breakdown.counts.map(
    (entry) => `${safeLabel(entry.level)}=${count(entry.dropped)}/${count(entry.total)}`,
  );
  const { commonest } = breakdown;
  const example = commonest ? commonestExample(commonest.example) : '';
  const shape =
    commonest && example !== ''
      ? `; commonest ${safeLabel(commonest.level)}: ${count(commonest.count)} ${unit} like ${example}`
      : '';
  return `; ${unit}${MARKER}${entries.join(' ')}${shape}`;
}

/**
 * The level breakdown a note carries, or `undefined` when it has none. Reads exactly what
 * `formatLevelBreakdown` writes; costs one pass over the note.
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
  const shape = COMMONEST.exec(note.slice(listEnd));
  if (!shape || shape[3] !== unit) return { unit, counts };
  return {
    unit,
    counts,
    commonest: { level: shape[1]!, count: Number(shape[2]), example: shape[4]! },
  };
}
