import {
  type DiffFileChange,
  type DiffFiles,
  formatDiffFiles,
  formatLevelBreakdown,
  formatLineShape,
  type LevelBreakdown,
  LINE_SHAPES_MARKER_BYTES,
  type LineShape,
  tellsDiffPath,
  truncateUtf8,
  utf8ByteLength,
} from '@compaction/core';
import { BLOCK_FILE, type DiffBlocks, diffBlocks } from '../readers/diff-blocks.js';
import { diffFiles } from '../readers/diff-files.js';
import { diffUnits } from '../readers/diff-units.js';
import { patchPreamble } from '../readers/patch-preamble.js';
import { sentenceStarts } from '../readers/sentence-starts.js';
import { withTextUnits } from '../readers/text-units.js';
import { UnitCopies } from '../readers/unit-copies.js';
import type { Vocabulary } from '../vocabulary.js';
import { cutLineMarker, parseCutLineMarker } from './cut-line-marker.js';
import { KeptUnits } from './kept-units.js';
import { omittedLinesMarker, parseOmittedLinesMarker } from './omitted-lines-marker.js';
import { rankByScore } from './rank-by-score.js';
import { findHits, type RelevanceTerm, type TermCache } from './relevance.js';
import type { StopCheck } from './stop-check.js';
import { levelBreakdown, type TextUnit, textSignals } from './text-signals.js';
import { unitBytes } from './unit-bytes.js';

export type { TextUnit } from './text-signals.js';

/** The kept view of a text, or `undefined` when no whole unit could be kept. */
export interface TextSelection {
  /** The kept units in their original order, each with its own separator. */
  body: string;
  unitsKept: number;
  unitsTotal: number;
  /** What the note calls the units: `lines`, `file headers and hunks`, … */
  label: string;
  /** Per unit: 0 dropped, 1 kept whole, 2 shown in a window of it. */
  keep: Uint8Array;
  /**
   * Lines (records, sentences) of each level, dropped of total, for the note (none when no line
   * has a level or they would take more than a quarter of the budget), and the events' shapes
   * that fit their share of it; absent when the note tells neither.
   */
  byLevel?: LevelBreakdown;
  /**
   * Diffs of two files or more with no diffstat of their own: the files, the most changed named
   * as far as `FILES_NOTE_SHARE` of the budget goes, for the note.
   */
  files?: DiffFiles;
}

/** Shares of the budget given to the end and the start of a text before scored units. */
const TAIL_SHARE = 0.15;
const HEAD_SHARE = 0.1;
/** Share of the budget a patch's diffstat is shown in (in order, as far as it goes). */
const STAT_SHARE = 0.4;
/** Query and preserved-key matches rank above what stands out without a query. */
const QUERY_WEIGHT = 3;
/**
 * With a question, the share of the room after the head and the tail kept for what stands out
 * without one (rare and severe levels, rare shapes, error words), so lines the question
 * matches by the hundred do not push out every error.
 */
const UNASKED_SHARE = 0.25;
/**
 * Room left after the whole lines, at least this many bytes and this share of the budget, goes
 * to a window of the best line too long to keep.
 */
const MIN_CUT_ROOM = 256;
const CUT_ROOM_SHARE = 0.1;
/** Of the budget, the most a window of the best unit takes before the other units. */
const CUT_SHARE = 0.25;
/**
 * Weight of how much a JSON line's record stands out by its fields against its level and shape:
 * a lone 503 among 3 000 requests scores about 6, below a lone ERROR line (about 12), above a
 * rare shape (up to 4).
 */
const NDJSON_FIELDS_WEIGHT = 1.5;
/** A diff hunk larger than this share of the budget is split into lines. */
const SPLIT_HUNK_SHARE = 0.25;
/** Of the best line in a split hunk, the share its header line gets (and lends on). */
const SPLIT_HUNK_LEND = 0.5;
/** A question term names files when it is in the header of at most this share of them. */
const NAMED_FILES_SHARE = 0.25;
/**
 * Of the budget, the most a diff's account of its files takes in the note (paid for before the
 * hunks, as the level breakdown is), and at most `FILES_NOTE_MAX` bytes.
 */
const FILES_NOTE_SHARE = 0.1;
const FILES_NOTE_MAX = 1024;
/** The level breakdown is left out of the note when it would take more of the budget. */
const BREAKDOWN_SHARE = 0.25;
/**
 * The events' shapes the note tells take at most this share of the budget: as many as fit, in
 * their order, so a shape told at one budget is told at every larger one.
 */
const SHAPES_SHARE = 0.08;
/** Average line length (UTF-16 units) above which a text is treated as prose. */
const PROSE_LINE_LENGTH = 400;
/** Share of the non-blank lines (or one) that may be longer than that in a text of lines. */
const LONG_LINE_SHARE = 0.1;

/**
 * True when `text` reads as lines (logs, tables, diffs, YAML) rather than prose: its lines are
 * short on average, or at most one or a tenth of its non-blank lines, and fewer than half, are
 * long (a log with one request body of 500 KB is still a log: cut as prose, it would join
 * pieces of lines far apart). `starts` are where its lines begin (`lineStarts`).
 */
export function isLineOriented(text: string, starts: readonly number[]): boolean {
  // Lines as newlines count them: `lineStarts` starts none after a last newline.
  const lines = starts.length + (text.charCodeAt(text.length - 1) === 0x0a ? 1 : 0);
  if (lines < 3) return false;
  // Short lines on average settle it without reading any line.
  if (text.length / lines <= PROSE_LINE_LENGTH) return true;
  let filled = 0;
  let long = 0;
  let from = 0;
  for (;;) {
    const end = text.indexOf('\n', from);
    const to = end < 0 ? text.length : end;
    if (to - from > PROSE_LINE_LENGTH) long++;
    for (let i = from; i < to; i++) {
      const code = text.charCodeAt(i);
      if (code !== 0x20 && code !== 0x09 && code !== 0x0d) {
        filled++;
        break;
      }
    }
    if (end < 0) break;
    from = end + 1;
  }
  return filled >= 3 && long * 2 < filled && long <= Math.max(1, LONG_LINE_SHARE * filled);
}

/**
 * The header line of a split hunk stands for its best line, so the rest of the hunk comes next;
 * a file whose header matches (its path names what was asked about) lends its hunks that
 * relevance. Each is scaled down so a unit that matches itself still ranks first. Parents come
 * before their children, so one pass in order lends down the chain.
 */
function lendToHunks(
  scores: Float64Array,
  parents: Int32Array,
  splitHeader: Uint8Array,
  contextLine: Uint8Array,
): void {
  const total = scores.length;
  for (let i = 0; i < total; i++) {
    const parent = parents[i]!;
    if (parent >= 0 && splitHeader[parent] === 1) {
      scores[parent] = Math.max(scores[parent]!, SPLIT_HUNK_LEND * scores[i]!);
    }
  }
  for (let i = 0; i < total; i++) {
    const parent = parents[i]!;
    if (parent < 0) continue;
    // In a split hunk, the changed lines come before the unchanged ones around them.
    if (scores[parent]! > 0) scores[i]! += scores[parent]! / (contextLine[i] === 1 ? 4 : 2);
  }
}

/** The 1-based line each unit starts on, and the number of lines. */
function lineNumbers(text: string, starts: readonly number[]): { of: Int32Array; total: number } {
  const of = new Int32Array(starts.length);
  let line = 1;
  let at = 0;
  for (let i = 0; i < starts.length; i++) {
    line += countNewlines(text, at, starts[i]!);
    at = Math.max(at, starts[i]!);
    of[i] = line;
  }
  // A last newline ends the last line: it starts none.
  return { of, total: line + countNewlines(text, at, text.length - 1) };
}

/**
 * A kept line that reads as one of the view's own markers (`[lines 1-200 omitted]` in a log of
 * earlier views) with its `[` turned to `(`, as notes are neutralised: only the view's markers
 * are markers. Length in units and bytes unchanged.
 */
export function neutralizeMarkerLine(line: string): string {
  // Every marker opens with `[line` (a log of `[Sun Dec 04 …]` lines keeps most of its lines).
  if (!line.startsWith('[line')) return line;
  const body = line.replace(/\r?\n$/, '');
  return parseOmittedLinesMarker(body) || parseCutLineMarker(body) ? `(${line.slice(1)}` : line;
}

/** `count` integers from `first` up. */
function countFrom(first: number, count: number): Int32Array {
  const of = new Int32Array(count);
  for (let i = 0; i < count; i++) of[i] = first + i;
  return of;
}

/** Newlines in `text[from, to)`. */
function countNewlines(text: string, from: number, to: number): number {
  let count = 0;
  for (let n = text.indexOf('\n', from); n >= 0 && n < to; n = text.indexOf('\n', n + 1)) count++;
  return count;
}

/**
 * The account of a diff's `files` for the note, most changed named first as far as `room`
 * bytes go; `undefined` for fewer than two files or no room for the counts.
 */
function filesSegment(
  all: ReadonlyArray<{
    path: string;
    plus: number;
    minus: number;
    state?: DiffFileChange['state'];
  }>,
  room: number,
): DiffFiles | undefined {
  if (all.length < 2) return undefined;
  const files: DiffFiles = { total: all.length, added: 0, deleted: 0, binary: 0, told: [] };
  for (const file of all) {
    if (file.state === 'new') files.added++;
    else if (file.state === 'deleted') files.deleted++;
    else if (file.state === 'binary') files.binary++;
  }
  if (utf8ByteLength(formatDiffFiles(files)) > room) return undefined;
  const order = all
    .map((file, i) => ({ file, i }))
    .sort((a, b) => b.file.plus + b.file.minus - (a.file.plus + a.file.minus) || a.i - b.i);
  const told: DiffFileChange[] = [];
  for (const { file } of order) {
    if (!tellsDiffPath(file.path)) continue;
    const { path, plus, minus, state } = file;
    told.push(state ? { path, plus, minus, state } : { path, plus, minus });
    // Each path told adds its own bytes and may add the `+N more` (its digits only shrink).
    if (utf8ByteLength(formatDiffFiles({ ...files, told })) > room) {
      told.pop();
      break;
    }
  }
  return { ...files, told };
}

/**
 * Where the headers of the files a question names begin (`blocks`, `diffBlocks`): those whose
 * first line holds a question term that few of them hold (at most a quarter, or one), as whole
 * tokens.
 */
function namedFileHeaders(
  text: string,
  blocks: DiffBlocks,
  terms: readonly RelevanceTerm[],
  cache: TermCache | undefined,
): Set<number> {
  const named = new Set<number>();
  const asked = terms.filter((term) => term.kind !== 'error');
  if (asked.length === 0) return named;
  const headers: number[] = [];
  const lines: string[] = [];
  for (let b = 0; b < blocks.starts.length; b++) {
    if (blocks.kinds[b] !== BLOCK_FILE) continue;
    const at = blocks.starts[b]!;
    const end = text.indexOf('\n', at);
    headers.push(at);
    lines.push(text.slice(at, end < 0 ? text.length : end));
  }
  if (headers.length === 0) return named;
  // One search over the header lines, one to a line.
  const hits = findHits(lines.join('\n'), asked, headers.length, undefined, cache);
  const headersOfTerm = new Map<number, number[]>();
  let line = 0;
  let lineEnd = lines[0]!.length;
  for (let h = 0; h < hits.positions.length; h++) {
    while (hits.positions[h]! > lineEnd && line + 1 < lines.length) {
      line++;
      lineEnd += 1 + lines[line]!.length;
    }
    const term = hits.termOf[h]!;
    const of = headersOfTerm.get(term);
    if (!of) headersOfTerm.set(term, [line]);
    else if (of[of.length - 1] !== line) of.push(line);
  }
  for (const of of headersOfTerm.values()) {
    if (of.length <= Math.max(1, NAMED_FILES_SHARE * headers.length)) {
      for (const index of of) named.add(headers[index]!);
    }
  }
  return named;
}

/** Whether file header `h` has any unit below it (a file that is only renamed has none). */
function hasHunks(parents: Int32Array, h: number): boolean {
  return h + 1 < parents.length && parents[h + 1]! >= 0;
}

/**
 * Unkeeps every kept `@@` line of a split hunk none of whose lines is kept, then every kept file
 * header none of whose hunks is kept; returns how many.
 */
function dropBareHeaders(keep: Uint8Array, parents: Int32Array, splitHeader: Uint8Array): number {
  let dropped = 0;
  for (let h = 0; h < parents.length; h++) {
    if (splitHeader[h] !== 1 || keep[h] !== 1) continue;
    let kept = false;
    for (let i = h + 1; i < parents.length && parents[i] === h && !kept; i++) kept = keep[i] === 1;
    if (!kept) {
      keep[h] = 0;
      dropped++;
    }
  }
  for (let h = 0; h < parents.length; h++) {
    if (parents[h]! >= 0 || keep[h] !== 1 || !hasHunks(parents, h)) continue;
    let kept = false;
    for (let i = h + 1; i < parents.length && parents[i]! >= 0 && !kept; i++) kept = keep[i] === 1;
    if (!kept) {
      keep[h] = 0;
      dropped++;
    }
  }
  return dropped;
}

/** `counts` with `shapes` told after them, or the shapes alone; undefined when neither. */
function withShapes(
  counts: LevelBreakdown | undefined,
  unit: string,
  shapes: readonly LineShape[],
): LevelBreakdown | undefined {
  if (shapes.length === 0) return counts;
  return { unit, counts: counts?.counts ?? [], shapes };
}

/** What `selectText` selects from, and how. */
export interface SelectTextInput {
  text: string;
  budget: number;
  unit: TextUnit;
  terms: readonly RelevanceTerm[];
  requireScore: boolean;
  termCache: TermCache;
  check: StopCheck;
  /**
   * Where an offset of `text` is in the text the reader can page (when `text` was cleaned of
   * terminal escape codes): cut markers name that text's columns.
   */
  toOriginal?: (offset: number) => number;
  /** The words the trimmer knows (level words, error words). */
  vocabulary: Vocabulary;
  /**
   * Units `records` and `lines`: per line, how much its JSON record stands out by its fields
   * (`ndjsonRecords`), 0 for a line that is none.
   */
  recordScores?: Float64Array;
  /**
   * Unit `records`: lines to show before the rest (`ndjsonRecords`): by the records' time
   * order those a question asks for, after the head and the tail; the records that stand out
   * most and the ends (newest, oldest, the newest after it), after what the question matches:
   * the strongest oddity, the newest and the oldest, the other oddities, the rest of the ends.
   */
  recordOrder?: {
    asked: readonly number[];
    standOut: readonly number[];
    ends: readonly number[];
  };
  /** Whether every unit of `text` is ASCII (one UTF-8 byte each). */
  ascii: boolean;
  /** Where each line of `text` begins (`lineStarts`). */
  lineStarts: readonly number[];
}

/**
 * Selection of whole units (lines, sentences, records or diff hunks) to fit `budget` UTF-8
 * bytes, restored to their original order. The end of the text keeps a share of the budget (a
 * log's totals and failures sit there) and so does the start, each showing no more than two
 * lines of one shape; the rest goes to the units that match the query and task words (rare ones
 * weigh more) and preserved keys, and to what stands out with no query at all: lines of a rare
 * or severe level with the lines around them, lines of a rare shape, and error-like words. With
 * a question, a share of that room is kept for what stands out without it. What is left
 * extends the head and then the tail.
 * Returns `undefined` when nothing scores and `requireScore` is set, or when no whole unit fits.
 * `check` is polled as work is done and throws to stop the pass.
 */
export function selectText(input: SelectTextInput): TextSelection | undefined {
  // The text's UTF-16 units, lent for this call: the line readers scan them.
  return withTextUnits(input.text, (units) => selectTextIn(units, input));
}

function selectTextIn(units: Uint16Array, input: SelectTextInput): TextSelection | undefined {
  const { text, unit, check, ascii, vocabulary, lineStarts } = input;
  const original = input.toOriginal ?? ((offset: number) => offset);
  check(0);
  // A file the question names by path is what it asks about. When its hunks do not all fit in
  // the room the question gets, they are split into lines whatever their size, so its changed
  // lines can be shown before the lines around them.
  const blocks = unit === 'hunks' ? diffBlocks(text, lineStarts, check) : undefined;
  const namedHeaders = blocks
    ? namedFileHeaders(text, blocks, input.terms, input.termCache)
    : new Set<number>();
  let namedBytes = 0;
  for (let b = 0; blocks && b < blocks.starts.length; b++) {
    const header = blocks.starts[b]!;
    if (!namedHeaders.has(header)) continue;
    let next = b + 1;
    while (next < blocks.starts.length && blocks.kinds[next] !== BLOCK_FILE) next++;
    const end = next < blocks.starts.length ? blocks.starts[next]! : text.length;
    namedBytes += ascii ? end - header : utf8ByteLength(text.slice(header, end));
  }
  const splitNamed = namedBytes > (1 - UNASKED_SHARE) * input.budget;
  const diff = blocks
    ? diffUnits(
        text,
        blocks,
        Math.floor(input.budget * SPLIT_HUNK_SHARE),
        ascii,
        check,
        splitNamed ? namedHeaders : undefined,
      )
    : undefined;
  const starts = diff
    ? diff.starts
    : unit === 'sentences'
      ? sentenceStarts(text, check)
      : lineStarts;
  const parents = diff?.parents;
  const total = starts.length;
  const sizes = unitBytes(text, units, starts, ascii);
  check(total);

  const signals = textSignals({ text, units, starts, unit, check, vocabulary, lineStarts });
  const records = input.recordScores;
  if (records && (unit === 'records' || unit === 'lines')) {
    // An NDJSON record, or a JSON line among a log's plain ones, also stands out by its fields,
    // as a JSON list's records do (one 503 with 7 s of latency among 3 000 requests all at level
    // 30): the larger of the two counts.
    for (let i = 0; i < total; i++) {
      signals.anomaly[i] = Math.max(signals.anomaly[i]!, NDJSON_FIELDS_WEIGHT * records[i]!);
    }
  }
  const breakdownUnit = unit === 'hunks' ? 'lines' : unit;
  let budget = input.budget;
  // Room for the breakdown at its widest (every unit dropped), so the final note fits.
  const widest = levelBreakdown(signals, undefined, breakdownUnit);
  const breakdownBytes = utf8ByteLength(formatLevelBreakdown(widest));
  const withBreakdown = widest !== undefined && breakdownBytes <= budget * BREAKDOWN_SHARE;
  if (withBreakdown) budget -= breakdownBytes;
  // The shapes are told over all lines whatever the view keeps: what they take depends only on
  // the text and the budget.
  const shapes: LineShape[] = [];
  let shapeBytes = LINE_SHAPES_MARKER_BYTES;
  for (const shape of signals.shapes ?? []) {
    const bytes = utf8ByteLength(formatLineShape(shape, shapes.length === 0));
    if (shapeBytes + bytes > input.budget * SHAPES_SHARE) break;
    if (bytes === 0) continue;
    shapes.push(shape);
    shapeBytes += bytes;
  }
  if (shapes.length > 0) budget -= shapeBytes;

  // A mailed patch opens with a mail header, its message and its diffstat (`patchPreamble`).
  const preamble = parents
    ? patchPreamble(text, starts, parents, (unit) => hasHunks(parents, unit))
    : undefined;
  // A diff of several files with no diffstat: the note tells how many files it changes, which
  // are new, deleted or binary, and names the most changed, as far as a share of the budget
  // goes; what the hunks shown leave out of what changed is still told.
  let files: DiffFiles | undefined;
  if (blocks && !(preamble && preamble.summary >= 0)) {
    files = filesSegment(
      diffFiles(text, blocks),
      Math.min(FILES_NOTE_MAX, FILES_NOTE_SHARE * budget),
    );
    if (files) budget -= utf8ByteLength(formatDiffFiles(files));
  }

  // Rarity is measured against the same population as the anomaly scores (the lines of a diff,
  // not its hunks), so a query word and a rare level weigh on one scale.
  const hits = findHits(text, input.terms, signals.rowLevel.length, undefined, input.termCache);
  check(total);
  // Two scores per unit: what stands out with no question at all (error words, rare levels and
  // shapes), and that plus what the question and preserved keys match.
  const unasked = new Float64Array(total);
  /** Diff units a question word is on. */
  const matched = new Uint8Array(diff ? total : 0);
  const scores = new Float64Array(total);
  let scored = 0;
  let asked = false;
  {
    // Each term counts once per unit: positions come in order, so the last unit a term counted
    // in is the only one it can count in again.
    const countedIn = new Int32Array(hits.terms.length).fill(-1);
    let u = 0;
    for (let h = 0; h < hits.positions.length; h++) {
      const position = hits.positions[h]!;
      while (u + 1 < total && starts[u + 1]! <= position) u++;
      const term = hits.termOf[h]!;
      if (countedIn[term] === u) continue;
      countedIn[term] = u;
      if (scores[u] === 0) scored++;
      const weight = hits.weights[term]!;
      if (hits.terms[term]!.kind === 'error') {
        unasked[u]! += weight;
        scores[u]! += weight;
      } else {
        scores[u]! += QUERY_WEIGHT * weight;
        asked = true;
        if (diff) matched[u] = 1;
      }
    }
  }
  // The files the question names, as units.
  const namedFiles = new Set<number>();
  if (diff && namedHeaders.size > 0) {
    for (let i = 0; i < total; i++) {
      if (parents![i]! < 0 && namedHeaders.has(starts[i]!)) namedFiles.add(i);
    }
  }
  for (let i = 0; i < total; i++) {
    if (signals.leveled[i] === 1 && scores[i] === 0) scored++;
    unasked[i]! += signals.anomaly[i]!;
    scores[i]! += signals.anomaly[i]!;
  }
  if (scored === 0 && input.requireScore) return undefined;
  // The unchanged lines of split hunks.
  const contextLine = new Uint8Array(diff ? total : 0);
  if (diff && parents) {
    for (let i = 0; i < total; i++) {
      const parent = parents[i]!;
      if (parent >= 0 && diff.splitHeader[parent] === 1 && text.charCodeAt(starts[i]!) === 0x20) {
        contextLine[i] = 1;
      }
    }
    if (asked) lendToHunks(unasked, parents, diff.splitHeader, contextLine);
    lendToHunks(scores, parents, diff.splitHeader, contextLine);
    if (namedFiles.size > 0) {
      // A file the question names by path is what it asks about: its hunks (changed lines
      // first) rank above every line that only mentions that path (each `go.sum` line names
      // `go.mod`) or another word of the question.
      let top = 0;
      for (let i = 0; i < total; i++) top = Math.max(top, scores[i]!);
      for (let i = 0; i < total; i++) {
        const parent = parents[i]!;
        const file = parent < 0 ? i : parents[parent]! < 0 ? parent : parents[parent]!;
        if (namedFiles.has(file)) scores[i]! += (contextLine[i] === 1 ? 0.5 : 1) * (top + 1);
      }
    }
  }
  check(total);

  // Lines left out between kept ones are shown as one marker line each (not in prose, whose
  // sentences run on, nor in NDJSON, whose every line stays a record). Each gap is paid for at
  // the widest marker, so the view never outgrows what was counted.
  const lines =
    unit === 'lines'
      ? { of: countFrom(1, total), total }
      : unit === 'hunks'
        ? lineNumbers(text, starts)
        : undefined;
  const firstNewline = text.indexOf('\n');
  const eol = firstNewline > 0 && text.charCodeAt(firstNewline - 1) === 0x0d ? '\r\n' : '\n';
  // The widest marker holds at most the digits of the last line's number more than this one.
  const gapCost = lines
    ? utf8ByteLength(omittedLinesMarker(0, lines.total, eol)) + String(lines.total).length
    : 0;
  // A line shown once says what its copies would: the ranked passes and the first passes over
  // the room left step over a unit that reads exactly as one kept (13 identical `= help:` lines
  // a question matches, 286 `heartbeat: ok`); copies come only in the last passes.
  const kept = new KeptUnits({
    sizes,
    gapCost,
    parents,
    splitHeader: diff?.splitHeader,
    contextLine,
    matched,
    scores,
    copies: parents ? undefined : new UnitCopies(text, units, starts),
    // The head and the tail are read in order, stepping over lines of a shape they show twice.
    template: signals.template,
    templates: signals.templates,
  });
  const { keep } = kept;
  // A mailed patch's preamble: the head's share shows the subject line (what the change is),
  // whatever the question, and the line that counts the files changed; the diffstat, which
  // names every file with how much of it changed (the records of a diff), follows in order
  // where it fits a share of the room. The rest waits for the room left.
  if (preamble) {
    // Two lines, each between lines left out: a share each.
    const head = kept.used + Math.floor(budget * 2 * HEAD_SHARE);
    if (preamble.subject >= 0) kept.take(preamble.subject, head);
    if (preamble.summary >= 0) kept.take(preamble.summary, head);
    if (preamble.statFrom >= 0) {
      const limit = kept.used + Math.floor(budget * STAT_SHARE);
      for (let i = preamble.statFrom; i < preamble.summary && kept.take(i, limit); i++);
    }
  }
  // A diff asked about by file path is answered by that file's hunks: its first and last files
  // are no more than any other then, and get only the room left at the end.
  // Records in a text's order are not in time order (a log of several writers, a query's
  // answer sorted by another field): where they have a time, its ends stand for the text's
  // (in a log in time order, they are its first and last lines).
  const order =
    unit === 'records' && input.recordOrder && input.recordOrder.ends.length > 0
      ? input.recordOrder
      : undefined;
  if (namedFiles.size === 0 && !order) {
    kept.fill(false, Math.floor(budget * TAIL_SHARE));
    if (!parents) kept.fill(true, kept.used + Math.floor(budget * HEAD_SHARE));
  }
  // The records a question about order asks for, as far as leaves a share of the room for
  // what stands out.
  if (order) {
    const limit = kept.used + Math.floor((budget - kept.used) * (1 - UNASKED_SHARE));
    for (const i of order.asked) kept.take(i, limit);
  }
  // Room a line too long to keep would otherwise leave empty (a minified bundle, a 60 KB line
  // holding the one error) goes to a window of the best such unit, around its first match,
  // within one line of it, after a marker naming that line and the columns shown.
  let cut: { unit: number; from: number; to: number; marker: string } | undefined;
  const cutWindow = (
    best: number,
    limit: number,
  ): { unit: number; from: number; to: number; marker: string } | undefined => {
    const unitFrom = starts[best]!;
    const unitEnd = best + 1 < total ? starts[best + 1]! : text.length;
    let anchor = unitFrom;
    for (const position of hits.positions) {
      if (position >= unitFrom && position < unitEnd) {
        anchor = position;
        break;
      }
    }
    // The physical line around the anchor, its line ending left out.
    const lineFrom = text.lastIndexOf('\n', anchor - 1) + 1;
    let lineEnd = text.indexOf('\n', anchor);
    if (lineEnd < 0) lineEnd = text.length;
    if (lineEnd > lineFrom && text.charCodeAt(lineEnd - 1) === 0x0d) lineEnd--;
    const from = Math.max(unitFrom, lineFrom);
    const end = Math.min(unitEnd, lineEnd);
    if (end <= from) return undefined;
    const lineNumber = lines
      ? lines.of[best]! + countNewlines(text, unitFrom, lineFrom)
      : countNewlines(text, 0, lineFrom) + 1;
    // The columns the marker names are the original line's: a newline is where it was, and an
    // escape code before a unit comes before it.
    const origin = lineFrom === 0 ? 0 : original(lineFrom - 1) + 1;
    const length = original(lineEnd) - origin;
    // The widest marker, a line ending before it (after a sentence) and after the window, and
    // the gaps it makes or closes.
    const overhead =
      utf8ByteLength(cutLineMarker(lineNumber, length, length, length, eol)) +
      2 * eol.length +
      gapCost * kept.gapChange(best);
    const room = Math.min(limit, budget - kept.used) - overhead;
    if (room <= 0) return undefined;
    // At most `room` bytes of the line, from a little before the anchor (a quarter of the
    // window), never splitting a surrogate pair.
    let windowFrom = Math.max(from, Math.min(anchor - Math.floor(room / 4), end - room));
    const lead = text.charCodeAt(windowFrom);
    if (windowFrom > from && lead >= 0xdc00 && lead <= 0xdfff) windowFrom--;
    const window = truncateUtf8(text.slice(windowFrom, end), room);
    if (window.length === 0) return undefined;
    const windowTo = windowFrom + window.length;
    keep[best] = 2;
    kept.used += overhead + utf8ByteLength(window);
    return {
      unit: best,
      from: windowFrom,
      to: windowTo,
      marker: cutLineMarker(
        lineNumber,
        original(windowFrom) - origin + 1,
        original(windowTo - 1) + 1 - origin,
        length,
        eol,
      ),
    };
  };
  const ranked = rankByScore(scores, check);
  if ((unit === 'lines' || unit === 'sentences') && ranked.length > 0) {
    // The unit that stands out or matches most, too long to keep whole in the room the head and
    // tail leave, gets a window of up to a quarter of the budget before anything else.
    const best = ranked[0]!;
    if (sizes[best]! > budget - kept.used && budget - kept.used >= MIN_CUT_ROOM) {
      cut = cutWindow(best, Math.floor(CUT_SHARE * budget));
    }
  }
  if (asked) {
    // What the question matches first, but only to the point where a share of the room is left
    // for what stands out without it; then that; then the rest by score.
    const limit = kept.used + Math.floor((budget - kept.used) * (1 - UNASKED_SHARE));
    // The best unit goes in whenever it fits at all (a 3 KB error line that is the answer).
    if (ranked.length > 0) kept.take(ranked[0]!, budget);
    kept.takeFresh(ranked, limit);
    kept.takeVaried(rankByScore(unasked, check), budget);
  }
  if (order) {
    // What stands out most, then the newest and the oldest by time, then the next oddities: a
    // view of a few lines shows both ends of what it was asked about.
    const [first, ...rest] = order.standOut;
    if (first !== undefined) kept.take(first, budget);
    for (const i of order.ends.slice(0, 2)) kept.take(i, budget);
    for (const i of rest) kept.take(i, budget);
    for (const i of order.ends.slice(2)) kept.take(i, budget);
  }
  // Without a question, what ranks is what stands out unasked: a few lines of each shape first.
  if (asked) kept.takeFresh(ranked, budget);
  else kept.takeVaried(ranked, budget);
  kept.fill(true, budget);
  kept.fill(false, budget);
  // Room to spare: the lines stepped over, in order from each end, first those that are not
  // copies of a line shown (the other burners of a log of `CPU burner 3 running`), then any.
  for (let i = 0; i < total && (!kept.fresh(i) || kept.take(i, budget)); i++);
  for (let i = total - 1; i >= 0 && (!kept.fresh(i) || kept.take(i, budget)); i--);
  for (let i = 0; i < total && kept.take(i, budget); i++);
  for (let i = total - 1; i >= 0 && kept.take(i, budget); i--);
  if (parents && dropBareHeaders(keep, parents, diff!.splitHeader) > 0) {
    // A file header without any of its hunks reads as "nothing changed": it goes, and its room
    // goes to the next units by score.
    kept.recount();
    for (const i of ranked) {
      if (budget - kept.used < 1) break;
      if (parents[i]! >= 0 || !hasHunks(parents, i)) kept.take(i, budget);
    }
    dropBareHeaders(keep, parents, diff!.splitHeader);
  }
  if (
    (unit === 'lines' || unit === 'sentences') &&
    budget - kept.used >= Math.max(MIN_CUT_ROOM, CUT_ROOM_SHARE * budget)
  ) {
    // A window already shown widens into the room; else the best unit left gets one.
    let best = -1;
    if (cut) {
      // Units taken since the window was placed counted it as kept when they closed gaps
      // around it: the room is counted again without it.
      best = cut.unit;
      keep[best] = 0;
      cut = undefined;
      kept.recount();
    } else {
      for (let i = 0; i < total; i++) {
        if (keep[i] !== 0 || sizes[i]! <= budget - kept.used) continue;
        if (best < 0 || scores[i]! > scores[best]!) best = i;
      }
    }
    if (best >= 0) cut = cutWindow(best, budget - kept.used);
  }
  check(total);

  const parts: string[] = [];
  let shown = 0;
  let last = -1;
  // Kept units that follow one another go in as one slice of the text (a head of 2 000 lines is
  // one piece to join, not 2 000): `runFrom` to `runTo` is the run not pushed yet. A line that
  // reads as a marker (`neutralizeMarkerLine`) and the window go in alone.
  let runFrom = 0;
  let runTo = 0;
  for (let i = 0; i < total; i++) {
    if (keep[i] === 0) continue;
    const from = starts[i]!;
    const to = i + 1 < total ? starts[i + 1]! : text.length;
    const plain = cut?.unit !== i && !(lines && text.startsWith('[line', from));
    if (!(plain && i === last + 1 && runTo > runFrom)) {
      if (runTo > runFrom) parts.push(text.slice(runFrom, runTo));
      runFrom = from;
      runTo = from;
      if (lines && i > last + 1)
        parts.push(omittedLinesMarker(lines.of[last + 1]!, lines.of[i]! - 1, eol));
    }
    // A unit shown only in a window is not kept: the note counts it dropped, its marker says
    // which columns are shown.
    if (keep[i] === 1) shown++;
    last = i;
    if (cut?.unit === i) {
      // The marker on a line of its own, after a sentence as after a line.
      const before = parts[parts.length - 1];
      if (before !== undefined && !before.endsWith('\n')) parts.push(eol);
      parts.push(cut.marker, neutralizeMarkerLine(text.slice(cut.from, cut.to)), eol);
    } else if (plain) runTo = to;
    else parts.push(neutralizeMarkerLine(text.slice(from, to)));
  }
  if (runTo > runFrom) parts.push(text.slice(runFrom, runTo));
  if (shown === 0 && !cut) return undefined;
  if (lines && last < total - 1) {
    // The last kept unit ends with its newline: the text goes on after it.
    parts.push(omittedLinesMarker(lines.of[last + 1]!, lines.total, eol));
  }
  const selection: TextSelection = {
    body: parts.join(''),
    unitsKept: shown,
    unitsTotal: total,
    label: !diff
      ? unit
      : diff.split
        ? 'file headers, hunks and hunk lines'
        : 'file headers and hunks',
    keep,
    // Set here, not added after: an object that gains a property later has a hidden class of
    // its own, which V8 drops when no such object outlives a collection, and the optimised
    // code that made it with it.
    byLevel: withShapes(
      (withBreakdown && levelBreakdown(signals, keep, breakdownUnit)) || undefined,
      breakdownUnit,
      shapes,
    ),
    files,
  };
  return selection;
}
