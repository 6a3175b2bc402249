import type { RecordCoverage } from '@compaction/core';
import { analyzeRecords, recordField } from '../engine/analyze-records.js';
import { askedColumns } from '../engine/question-columns.js';
import { recencyAsk, recordOrder } from '../engine/recency.js';
import { type AggregateStatement, recordAggregates } from '../engine/record-aggregates.js';
import type { StopCheck } from '../engine/stop-check.js';
import { errorMatcher } from '../json/json-inventory.js';
import { recordsHead } from '../json/select-json-informative.js';
import { withJsonInventory } from '../json/with-json-inventory.js';
import { DEFAULT_VOCABULARY, type Vocabulary } from '../vocabulary.js';
import { isJsonBlank } from './is-json-blank.js';

/**
 * The records of a text whose lines are JSON objects (NDJSON, or JSON lines among a log's
 * plain ones): the object lines are read as the records of one JSON list and judged by the
 * record engine (`analyzeRecords`), with the same anomaly model as any JSON list's records (a
 * rare categorical value, a key most records lack, a number far from the rest, an error-like
 * value where few records have one), and, for the note, with what it says of every record of a
 * JSON list (`recordAggregates`). Lines that are not JSON objects are no records and score 0;
 * so does every line of a text with fewer than `MIN_RECORDS` object lines.
 */
export interface NdjsonRecords {
  /** Per line, how much its record stands out, 0 to `RECORD_CAP`. */
  scores: Float64Array;
  /** Per line, 1 where it is a record (an object line that is JSON). */
  isRecord: Uint8Array;
  /**
   * With `note`, per line, 1 where its record holds the field (or both fields) that names the
   * records (`head.namedBy`): shown, the line names it.
   */
  named?: Uint8Array;
  /**
   * With `note`, the records segment's head (every record named and whole; no path: the list
   * is the text's lines) and what the note can say of every record, most telling first.
   */
  head?: RecordCoverage;
  aggregates: AggregateStatement[];
  /**
   * With `note` and `order`, lines to show before the rest: by the records' time order
   * (`recordOrder`)
   * those a question about order asks for (`last 5`, a window); the records that stand out
   * most (`leadingAnomalies`), strongest first; the newest and the oldest and the four newest
   * after the newest.
   */
  order?: { asked: number[]; standOut: number[]; ends: number[] };
}

/**
 * Records that stand out most shown before the newest and the oldest: a whole line costs what
 * a JSON view spends naming a dozen records, so fewer than a list's view leads with.
 */
const STAND_OUT_LINES = 3;
/** Share of a text's lines that must be records for the note to tell what holds of them all. */
const NOTE_SHARE = 0.5;
/** Object lines below which nothing is judged rare. */
const MIN_RECORDS = 20;
/** Lines longer than this many UTF-16 units are left out (a record is not a document). */
const MAX_LINE_UNITS = 1 << 20;
/** Most a line scores (an anomaly's score is not bounded by itself). */
export const RECORD_CAP = 12;

/** A line's bounds without its line break and surrounding blanks, or `undefined` when it opens no object. */
function objectLine(text: string, from: number, to: number): [number, number] | undefined {
  let a = from;
  while (a < to && isJsonBlank(text.charCodeAt(a))) a++;
  if (a === 0 && text.charCodeAt(0) === 0xfeff) a++;
  // Most lines of most texts open otherwise: settled before their end is looked for.
  if (a >= to || text.charCodeAt(a) !== 0x7b) return undefined;
  let b = to;
  while (b > a && isJsonBlank(text.charCodeAt(b - 1))) b--;
  if (b - a < 2 || b - a > MAX_LINE_UNITS || text.charCodeAt(b - 1) !== 0x7d) return undefined;
  return [a, b];
}

/** What `ndjsonRecords` reads besides the anomalies, and with what. */
export interface NdjsonReading {
  /** The words the trimmer knows (error words in values, question words). */
  vocabulary?: Vocabulary;
  /** JSON values read at most (default 3 000 000). */
  maxNodes?: number;
  /** What the note says of every record (where at least half the lines are records). */
  note?: boolean;
  /** With `note`, the lines to show first by the records' time order (a text of records only). */
  order?: boolean;
  /** The question's words (`queryWords`) and tokens (`questionTokens`). */
  question?: { words: readonly string[]; tokens: readonly string[] };
}

/**
 * The records among the lines of `text` (lines start at `starts`): how much each stands out
 * and, with `note`, where at least half the lines are records (`NOTE_SHARE`: a service's JSON
 * log among a few plain lines, not a plain log with a few JSON lines), what the note says of
 * them all, the fields `question` names first.
 * `maxNodes` bounds the values read (the list is judged on the records read before it, and
 * nothing is said of every record); `check` is called as work is done and may throw to stop.
 */
export function ndjsonRecords(
  text: string,
  starts: ArrayLike<number>,
  check: StopCheck,
  reading: NdjsonReading = {},
): NdjsonRecords {
  const {
    vocabulary = DEFAULT_VOCABULARY,
    maxNodes = 3_000_000,
    order = false,
    question = { words: [], tokens: [] },
  } = reading;
  let note = reading.note ?? false;
  const total = starts.length;
  const scores = new Float64Array(total);
  const isRecord = new Uint8Array(total);
  const read: NdjsonRecords = { scores, isRecord, aggregates: [] };
  // Every object line opens with a brace: a text with fewer braces in all (most logs have none)
  // has too few records, found by a native search instead of a look at every line.
  let braces = 0;
  for (let at = text.indexOf('{'); at >= 0 && braces < MIN_RECORDS; braces++) {
    at = text.indexOf('{', at + 1);
  }
  if (braces < MIN_RECORDS) {
    check(text.length);
    return read;
  }
  const lines: number[] = [];
  const parts: string[] = [];
  // Whether every line is an object line, whole but for its newline: the list is then the text
  // with its newlines turned to commas, made in one native pass (a join of the lines costs more).
  let whole = true;
  // The next brace (past every line when none is left: `>>> 0` of -1), by a native search: a
  // line that does not open with one is read only where one follows in it (a pretty-printed
  // document's indented lines are not read at all).
  let brace = -1;
  for (let i = 0; i < total; i++) {
    const from = starts[i]!;
    const to = i + 1 < total ? starts[i + 1]! : text.length;
    const opens = text.charCodeAt(from) === 0x7b;
    if (!opens && brace < from) brace = text.indexOf('{', from) >>> 0;
    const bounds = opens || brace < to ? objectLine(text, from, to) : undefined;
    if (bounds === undefined) {
      whole = false;
      continue;
    }
    whole &&= bounds[0] === from && bounds[1] === to - (text[to - 1] === '\n' ? 1 : 0);
    lines.push(i);
    parts.push(text.slice(bounds[0], bounds[1]));
  }
  // Each line was looked at, and the object lines copied once.
  check(text.length);
  if (lines.length < MIN_RECORDS) return read;
  note &&= lines.length >= NOTE_SHARE * total;
  const matcher = errorMatcher(vocabulary);
  // Scores the object lines read as one JSON list; false when that list is not JSON.
  const judge = (list: string): boolean =>
    withJsonInventory(`[${list}]`, -1, maxNodes, matcher, check, (inventory) => {
      if (inventory === undefined) return false;
      for (const line of lines) isRecord[line] = 1;
      const analysis = analyzeRecords(inventory, check, vocabulary, note ? 'note' : 'anomalies');
      const { parent, childIndex } = inventory;
      // The line of the top list's item that holds the record.
      const lineOf = (record: number): number => {
        let top = record;
        while (top > 0 && parent[top]! > 0) top = parent[top]!;
        return top > 0 ? lines[childIndex[top]!]! : -1;
      };
      if (note && !inventory.truncated) {
        // The lines' list: the group of the top list's items (one whose records each hold a
        // bigger list would be the document's main one).
        analysis.main = analysis.groups.findIndex((group) => parent[group.records[0]!] === 0);
        const head = recordsHead(inventory, analysis);
        if (head) {
          const group = analysis.groups[analysis.main]!;
          const { words, tokens } = question;
          const asked = askedColumns(inventory, analysis, group, words, tokens);
          read.head = { ...head, path: '' };
          if (head.namedBy !== undefined) {
            const named = new Uint8Array(total);
            const fields = group.identityTogether
              ? [group.identity, group.alsoIdentity]
              : [group.identity];
            for (const record of group.records) {
              if (fields.every((s) => recordField(inventory, analysis, record, s) >= 0)) {
                const line = lineOf(record);
                if (line >= 0) named[line] = 1;
              }
            }
            read.named = named;
          }
          read.aggregates = recordAggregates(inventory, analysis, group, new Set(asked), words);
          if (order) {
            const { leading, askedFor, afterNames } = recordOrder(
              inventory,
              analysis,
              group,
              recencyAsk(tokens, vocabulary),
              asked,
            );
            const linesOf = (entries: ReadonlyArray<{ record: number }>) =>
              entries.map(({ record }) => lineOf(record)).filter((line) => line >= 0);
            read.order = {
              asked: linesOf(leading.slice(0, askedFor)),
              standOut: linesOf(
                analysis.anomalies.slice(0, Math.min(STAND_OUT_LINES, analysis.leadingAnomalies)),
              ),
              ends: linesOf([...leading.slice(askedFor), ...afterNames]),
            };
          }
        }
      }
      for (const { record, score } of analysis.anomalies) {
        const line = lineOf(record);
        if (line >= 0) scores[line] = Math.max(scores[line]!, Math.min(RECORD_CAP, score));
      }
      return true;
    });
  const end = text.length - (text.endsWith('\n') ? 1 : 0);
  if (judge(whole ? text.slice(0, end).replaceAll('\n', ',') : parts.join(','))) return read;
  // Some line is not JSON (a torn last line, a log line that only looks like an object): the
  // others are still records.
  let kept = 0;
  for (let k = 0; k < parts.length; k++) {
    try {
      JSON.parse(parts[k]!);
    } catch {
      continue;
    }
    lines[kept] = lines[k]!;
    parts[kept++] = parts[k]!;
  }
  check(parts.length);
  lines.length = kept;
  parts.length = kept;
  if (kept >= MIN_RECORDS) judge(parts.join(','));
  return read;
}
