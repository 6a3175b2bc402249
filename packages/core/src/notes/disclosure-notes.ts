import { type DiffFiles, formatDiffFiles } from './diff-files.js';
import { formatLevelBreakdown, type LevelBreakdown } from './level-breakdown.js';
import { formatPartialAnalysis, type PartialAnalysis } from './partial-analysis.js';
import { formatRecordCoverage, type RecordCoverage } from './record-coverage.js';

/**
 * The disclosure-note registry: the one place that builds every framework note and the one
 * stripper that recognises them. A note is a single line that starts with `[`, names what was
 * lost and tells the reader to treat omitted content as UNKNOWN, never as absent.
 *
 * A tool's own `[truncated: …]` trailer is deliberately not registered: stripping it would
 * delete the tool's own truncation signal.
 */

import type { ReduceSkippedReason } from '../trim-metadata.js';
import { utf8ByteLength } from '../utf8.js';

/** Every framework note kind, in the order a reader meets them in the seed's catalogue. */
export type DisclosureNoteKind =
  | 'distilled'
  | 'trimmed'
  | 'severely-reduced'
  | 'partial-source'
  | 'partial'
  | 'findings-truncated'
  | 'findings-unreduced'
  | 'reduced-without-model-analysis'
  | 'result-left-out'
  | 'stepped-down'
  | 'conversation-budget';

/** The exact opening of each note kind, `[` included. */
export const DISCLOSURE_NOTE_PREFIXES: Readonly<Record<DisclosureNoteKind, string>> = {
  distilled: '[distilled: ',
  trimmed: '[trimmed: ',
  'severely-reduced': '[severely reduced: ',
  'partial-source': '[partial source: ',
  partial: '[partial: ',
  'findings-truncated': '[findings truncated: ',
  'findings-unreduced': '[findings unreduced: ',
  'reduced-without-model-analysis': '[reduced without model analysis: ',
  'result-left-out': '[result left out: ',
  'stepped-down': '[stepped down: ',
  'conversation-budget': '[conversation budget: ',
};

const NOTE_LINE =
  /^\[(distilled|trimmed|severely reduced|partial source|partial|findings truncated|findings unreduced|reduced without model analysis|result left out|stepped down|conversation budget): [^\n]*\]$/;

const KIND_BY_LABEL: Readonly<Record<string, DisclosureNoteKind>> = {
  distilled: 'distilled',
  trimmed: 'trimmed',
  'severely reduced': 'severely-reduced',
  'partial source': 'partial-source',
  partial: 'partial',
  'findings truncated': 'findings-truncated',
  'findings unreduced': 'findings-unreduced',
  'reduced without model analysis': 'reduced-without-model-analysis',
  'result left out': 'result-left-out',
  'stepped down': 'stepped-down',
  'conversation budget': 'conversation-budget',
};

/** A share in [0, 1] as a short percentage: one decimal below 10%, whole numbers above. */
export function formatPercent(ratio: number): string {
  const percent = Math.max(0, Math.min(1, ratio)) * 100;
  if (percent > 0 && percent < 10) {
    const rounded = Math.round(percent * 10) / 10;
    return `${rounded === 0 ? 0.1 : rounded}`;
  }
  const whole = Math.round(percent);
  // Never claim 100% for something that is not whole, nor 0% for something that is not empty.
  if (whole === 100 && percent < 100) return '99';
  return `${whole}`;
}

/**
 * The note segment saying the lines shown lost their terminal escape codes (colours, cursor
 * moves), leading `; ` included, or `''`.
 */
export const ESCAPES_REMOVED_SEGMENT = '; terminal escape codes removed';

function escapesSegment(removed: boolean | undefined): string {
  return removed === true ? ESCAPES_REMOVED_SEGMENT : '';
}

function oneLine(text: string): string {
  return text.replace(/[\r\n]+/g, ' ');
}

/** `text` on one line and at most `units` UTF-16 units, never ending inside a surrogate pair. */
function oneLineWithin(text: string, units: number): string {
  const line = oneLine(text);
  if (line.length <= units) return line;
  const end = /[\ud800-\udbff]/.test(line[units - 2]!) ? units - 2 : units - 1;
  return `${line.slice(0, end)}…`;
}

/** Builders for each framework note. Counts are plain integers so notes stay machine-readable. */
export const disclosureNotes = {
  /**
   * The view is a model's summary, not the result itself (beyond seed 002, which discloses only
   * deterministic drops: a summary that reads as the whole result would be a silent loss).
   */
  distilled(input: { originalBytes: number; model?: string }): string {
    const by = input.model ? ` by ${oneLine(input.model)}` : '';
    return `[distilled: a summary${by} of ${input.originalBytes} bytes for this request; details it does not mention are UNKNOWN, not absent]`;
  },

  /**
   * Whole units (fields, items, lines, sentences) were dropped to fit the budget. `byLevel`
   * (text views) adds how many units of each level were dropped; `partial` (JSON views of a
   * document analysed only in part) how much was analysed (`formatPartialAnalysis`);
   * `escapesRemoved` (text views) that the lines shown lost their terminal escape codes.
   */
  trimmedUnits(input: {
    kept: number;
    total: number;
    unit: string;
    budgetBytes: number;
    byLevel?: LevelBreakdown;
    partial?: PartialAnalysis;
    escapesRemoved?: boolean;
    /** Diff views: the files the diff changes (`formatDiffFiles`). */
    files?: DiffFiles;
  }): string {
    const dropped = input.total - input.kept;
    return `[trimmed: ${input.kept}/${input.total} ${oneLine(input.unit)} kept, ${dropped} dropped to fit ${input.budgetBytes} bytes${formatLevelBreakdown(input.byLevel)}${escapesSegment(input.escapesRemoved)}${formatDiffFiles(input.files)}${formatPartialAnalysis(input.partial)}; omitted content is UNKNOWN, not absent]`;
  },

  /**
   * Fields and items of a JSON list (or lines of a text of JSON lines) were dropped: the unit
   * counts of `trimmedUnits` (with its level breakdown and escapes segment, for lines), then
   * what the view shows of the records (`formatRecordCoverage`): how many are named and whole,
   * what holds of them all, the fields no record shows, and what the records left out were.
   */
  trimmedRecords(input: {
    kept: number;
    total: number;
    unit: string;
    budgetBytes: number;
    records: RecordCoverage;
    partial?: PartialAnalysis;
    byLevel?: LevelBreakdown;
    escapesRemoved?: boolean;
  }): string {
    const dropped = input.total - input.kept;
    return `[trimmed: ${input.kept}/${input.total} ${oneLine(input.unit)} kept, ${dropped} dropped to fit ${input.budgetBytes} bytes${formatLevelBreakdown(input.byLevel)}${escapesSegment(input.escapesRemoved)}${formatRecordCoverage(input.records)}${formatPartialAnalysis(input.partial)}; omitted content is UNKNOWN, not absent]`;
  },

  /** A plain byte cut: only the head (or head and tail) survived. */
  trimmedBytes(input: { originalBytes: number; keptBytes: number; where?: string }): string {
    const where = input.where ? ` (${oneLine(input.where)})` : '';
    return `[trimmed: ${input.originalBytes} → ${input.keptBytes} bytes kept by byte cut${where}; the rest is UNKNOWN, not absent]`;
  },

  /**
   * Under 5% of the source was kept: too little to be representative. `byLevel` (text views)
   * adds how many units of each level were dropped, the same segment `trimmedUnits` adds;
   * `records` (JSON views of a list) adds what the view shows of the records, the segment
   * `trimmedRecords` adds; `escapesRemoved`, the segment `trimmedUnits` adds.
   */
  severelyReduced(input: {
    keptBytes: number;
    originalBytes: number;
    byLevel?: LevelBreakdown;
    records?: RecordCoverage;
    partial?: PartialAnalysis;
    escapesRemoved?: boolean;
    /** Diff views: the files the diff changes, the segment `trimmedUnits` adds. */
    files?: DiffFiles;
  }): string {
    const ratio = input.originalBytes > 0 ? input.keptBytes / input.originalBytes : 0;
    return `[severely reduced: kept ${input.keptBytes} of ~${input.originalBytes} bytes (${formatPercent(ratio)}%)${formatLevelBreakdown(input.byLevel)}${escapesSegment(input.escapesRemoved)}${formatDiffFiles(input.files)}${formatRecordCoverage(input.records)}${formatPartialAnalysis(input.partial)}; not representative, treat anything not shown as UNKNOWN]`;
  },

  /** A single-call distill saw only the pre-filtered part of its source. */
  partialSource(input: { coverageRatio: number }): string {
    return `[partial source: the model received ~${formatPercent(input.coverageRatio)}% of the source by bytes; what it did not see is UNKNOWN]`;
  },

  /** Map-reduce finished only some of its segments (deadline or failed calls). */
  partial(input: { analyzed: number; total: number; reason?: string }): string {
    const reason = input.reason ? ` (${oneLine(input.reason)})` : '';
    return `[partial: ${input.analyzed} of ${input.total} segments analyzed${reason}; the unanalyzed segments are UNKNOWN]`;
  },

  /** The reduce step had to cut the combined extracts. */
  findingsTruncated(input: {
    reason: 'reduce_failed' | 'over_context';
    budgetBytes: number;
  }): string {
    return `[findings truncated: combined extracts cut to ${input.budgetBytes} bytes (${input.reason}); omitted findings are UNKNOWN]`;
  },

  /**
   * No reduce call merged the map-reduce extracts (beyond seed 002, which notes only a cut of
   * them): the view is the segments' extracts as written, which may repeat or contradict each
   * other. `extracts` counts the extracts shown. When they must also be cut, `findingsTruncated`
   * is written instead of this note; it names the reason too.
   */
  findingsUnreduced(input: { extracts: number; reason: ReduceSkippedReason }): string {
    const plural = input.extracts === 1 ? '' : 's';
    return `[findings unreduced: ${input.extracts} segment extract${plural} shown unmerged (${input.reason}); they may repeat or conflict, what they omit is UNKNOWN]`;
  },

  /** No processor analysed the result; the prompt assembly cut it by bytes. */
  reducedWithoutModelAnalysis(input: { originalBytes: number; keptBytes: number }): string {
    return `[reduced without model analysis: ${input.originalBytes} → ${input.keptBytes} bytes; no model read the dropped part, treat it as UNKNOWN]`;
  },

  /** A result got no room at all in a shared prompt: only this note stands for it. */
  resultLeftOut(input: { originalBytes: number }): string {
    return `[result left out: ${input.originalBytes} bytes did not fit the synthesis budget; its content is UNKNOWN, not absent]`;
  },

  /**
   * The one line an older tool result steps down to under a conversation budget (issue 41):
   * the tool and call, the size and SHA-256 of the full result, the artifact holding it (or
   * that none does) and a one-line digest. Names are cut to 64 units and the digest to 160,
   * so the line stays short whatever a tool returned: a conversation holds one per result.
   * With `path` (the stored file, for an agent that reads files with its own tools) the line
   * names the file (cut to 512 units) instead of `artifact_read`.
   */
  steppedDown(input: {
    toolName: string;
    toolCallId: string;
    bytes: number;
    sha256?: string;
    artifactId?: string;
    path?: string;
    digest?: string;
  }): string {
    const sha = input.sha256 ? `, sha256 ${oneLineWithin(input.sha256, 64)}` : '';
    const byFile = input.artifactId !== undefined && input.path !== undefined;
    const stored = input.artifactId
      ? `, stored as ${oneLineWithin(input.artifactId, 64)}${byFile ? ` in the file ${oneLineWithin(input.path!, 512)}` : ''}`
      : ', not stored';
    const digest = input.digest?.trim() ? `; ${oneLineWithin(input.digest.trim(), 160)}` : '';
    const read = byFile
      ? 'what it held is UNKNOWN until that file is read'
      : input.artifactId
        ? 'what it held is UNKNOWN until read with artifact_read'
        : 'not retrievable, what it held is UNKNOWN';
    return `[stepped down: ${oneLineWithin(input.toolName, 64)} ${oneLineWithin(input.toolCallId, 64)}, ${input.bytes} bytes${sha}${stored}${digest}; ${read}]`;
  },

  /**
   * The note on the first stepped-down tool result of a prompt: how many results are shown as a
   * pointer line or a small view to hold the conversation budget, and how to read them back
   * (`retrievable`: at least one of them is stored as an artifact; `byFile`: each stored one is
   * read by opening the file its line names, with the agent's own file tools). It names no count
   * that grows with the conversation, so it changes only when results step down.
   */
  conversationBudget(input: {
    pointers: number;
    smallViews: number;
    budget: number;
    unit: 'bytes' | 'tokens';
    retrievable: boolean;
    byFile?: boolean;
  }): string {
    const read = !input.retrievable
      ? 'they were not stored and cannot be read back, what they held is UNKNOWN'
      : input.byFile
        ? 'read a stored one by opening the file its line names with your file tools; what they held is UNKNOWN until read'
        : 'read a stored one with artifact_read(id, offset, limit), id being the art_ id its line names (lines count from 1); what they held is UNKNOWN until read';
    return `[conversation budget: ${input.pointers} older tool results are shown as one pointer line each and ${input.smallViews} as a small view, to keep tool results within ${input.budget} ${input.unit}; ${read}]`;
  },
} as const;

/** Which framework note `line` is, or `undefined` when it is not one (a tool's own line). */
export function disclosureNoteKind(line: string): DisclosureNoteKind | undefined {
  const match = NOTE_LINE.exec(line);
  return match ? KIND_BY_LABEL[match[1]!] : undefined;
}

// A line whose first visible character opens what reads as a framework note: `[`, a registered
// label in any case, a colon. Built from the prefix table, so every registered kind is covered.
// Tried at the start of the text only (sticky).
let noteShapedStart: RegExp | undefined;
// What follows the `[` of such a line, tried right after it (sticky).
let noteOpening: RegExp | undefined;
function noteLabels(): string {
  return Object.values(DISCLOSURE_NOTE_PREFIXES)
    .map((prefix) => prefix.slice(1, prefix.indexOf(':')).replace(/ /g, '[ \\t]+'))
    .sort((a, b) => b.length - a.length)
    .join('|');
}
function noteShapedAtStart(): RegExp {
  noteShapedStart ??= new RegExp(
    `^([\\t \\u00a0\\u200b-\\u200d\\u2060\\ufeff]*)\\[(?=[ \\t]*(?:${noteLabels()})[ \\t]*:)`,
    'iy',
  );
  noteShapedStart.lastIndex = 0;
  return noteShapedStart;
}
function noteOpeningAt(at: number): RegExp {
  noteOpening ??= new RegExp(`[ \\t]*(?:${noteLabels()})[ \\t]*:`, 'iy');
  noteOpening.lastIndex = at;
  return noteOpening;
}

/** Whether `text` holds a line terminator (as `^` in a multiline pattern counts them). */
function hasLineBreak(text: string): boolean {
  return (
    text.includes('\n') || text.includes('\r') || text.includes('\u2028') || text.includes('\u2029')
  );
}

function isLineBreak(code: number): boolean {
  return code === 0x0a || code === 0x0d || code === 0x2028 || code === 0x2029;
}

/** What may stand before a note's `[` on its line: spaces, tabs and invisible spaces. */
function isIndent(code: number): boolean {
  return (
    code === 0x09 ||
    code === 0x20 ||
    code === 0xa0 ||
    (code >= 0x200b && code <= 0x200d) ||
    code === 0x2060 ||
    code === 0xfeff
  );
}

/**
 * `text` with every line that reads as a framework note (`[trimmed: …]`, `[Distilled: …`, an
 * indented `[partial: …]`) turned into a quotation of it: its opening `[` becomes `(`. Same
 * length in UTF-16 units and in UTF-8 bytes, so budgets computed before hold after. A model or a
 * tool can write note-shaped lines; once neutralised, the notes at the end of a view are only
 * the framework's own, and the stripper never takes source text for one.
 */
export function neutralizeNoteLines(text: string): string {
  if (!text.includes('[')) return text;
  if (!hasLineBreak(text)) {
    // One line, as a minified JSON view is: only its start can open a note. A multiline
    // pattern would try every position of a long text for a line start.
    const match = noteShapedAtStart().exec(text);
    if (!match) return text;
    const at = match[1]!.length;
    return `${text.slice(0, at)}(${text.slice(at + 1)}`;
  }
  // Only a `[` with nothing but indentation before it on its line can open a note: each is
  // found by a native search, rather than a multiline pattern tried at every position of the
  // text (a 64 KB view of an HTML page: 0.12 ms against 0.003).
  let neutral = '';
  let copied = 0;
  for (let at = text.indexOf('['); at >= 0; at = text.indexOf('[', at + 1)) {
    let start = at;
    while (start > 0 && isIndent(text.charCodeAt(start - 1))) start--;
    if (start > 0 && !isLineBreak(text.charCodeAt(start - 1))) continue;
    if (!noteOpeningAt(at + 1).test(text)) continue;
    neutral += `${text.slice(copied, at)}(`;
    copied = at + 1;
  }
  return copied === 0 ? text : neutral + text.slice(copied);
}

/**
 * `body` followed by each note on its own line. With notes, lines of `body` that read as
 * framework notes are neutralised first (`neutralizeNoteLines`, byte for byte the same size),
 * so no source text can pass for a note of this view.
 */
export function appendDisclosureNotes(body: string, notes: readonly string[]): string {
  if (notes.length === 0) return body;
  let text = neutralizeNoteLines(body);
  for (const note of notes) text += `\n${note}`;
  return text;
}

/** Bytes that `appendDisclosureNotes` adds for `notes` (newlines included). */
export function disclosureNotesByteLength(notes: readonly string[]): number {
  let bytes = 0;
  for (const note of notes) bytes += 1 + utf8ByteLength(note);
  return bytes;
}

/** The framework notes at the end of `text`, in order. */
export function trailingDisclosureNotes(
  text: string,
): Array<{ kind: DisclosureNoteKind; text: string }> {
  const notes: Array<{ kind: DisclosureNoteKind; text: string }> = [];
  let end = text.length;
  for (;;) {
    const newline = text.lastIndexOf('\n', end - 1);
    if (newline < 0) break;
    const line = text.slice(newline + 1, end);
    const kind = disclosureNoteKind(line);
    if (!kind) break;
    notes.unshift({ kind, text: line });
    end = newline;
  }
  return notes;
}

/**
 * Removes the framework notes appended at the end of a view (each with the newline before it).
 * Given a processed result, it removes them only from a lossy view (`metadata.contentLost`):
 * a lossless view is the source itself and has no framework notes, even when the source's last
 * line looks like one. Given text, the text must be a view the framework wrote notes onto.
 * Since `appendDisclosureNotes` neutralises note-shaped lines of the body, the lines removed are
 * exactly the framework's: `stripDisclosureNotes(appendDisclosureNotes(x, notes))` is
 * `neutralizeNoteLines(x)`, which is `x` for any `x` without note-shaped lines. Lines that are
 * not framework notes, such as a tool's own `[truncated: …]` trailer, are never removed.
 */
export function stripDisclosureNotes(
  view: string | { text: string; metadata: { contentLost: boolean } },
): string {
  if (typeof view !== 'string')
    return view.metadata.contentLost ? stripNotes(view.text) : view.text;
  return stripNotes(view);
}

function stripNotes(text: string): string {
  let end = text.length;
  for (;;) {
    const newline = text.lastIndexOf('\n', end - 1);
    if (newline < 0) break;
    if (!disclosureNoteKind(text.slice(newline + 1, end))) break;
    end = newline;
  }
  return end === text.length ? text : text.slice(0, end);
}
