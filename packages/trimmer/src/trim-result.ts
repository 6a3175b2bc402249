import {
  appendDisclosureNotes,
  BudgetTooSmallError,
  type DiffFiles,
  disclosureNotes,
  disclosureNotesByteLength,
  ESCAPES_REMOVED_SEGMENT,
  formatPartialAnalysis,
  formatRecordCoverage,
  type LevelBreakdown,
  losslessMetadata,
  type PartialAnalysis,
  type ProcessedResult,
  type RecordCoverage,
  type RecordDistribution,
  type RecordRange,
  type ResultProcessorContext,
  type ResultTrimMetadata,
  type TrimStrategy,
  truncateUtf8,
  truncateUtf8Start,
  utf8ByteLength,
} from '@compaction/core';
import { analyzeRecords, type RecordAnalysis } from './engine/analyze-records.js';
import { askedItems } from './engine/keyed-items.js';
import {
  askedColumns,
  askedGroup,
  asksForCounts,
  shownForEach,
} from './engine/question-columns.js';
import { recencyAsk, recordOrder } from './engine/recency.js';
import { type AggregateStatement, recordAggregates } from './engine/record-aggregates.js';
import {
  findHits,
  queryWords,
  questionTokens,
  type RelevanceHits,
  relevanceTerms,
  type TermCache,
} from './engine/relevance.js';
import { isLineOriented, selectText, type TextUnit } from './engine/select-text.js';
import { createStopCheck, type StopCheck, TrimStoppedError } from './engine/stop-check.js';
import { UNLEVELED } from './engine/text-signals.js';
import {
  errorMatcher,
  type JsonInventory,
  minifyRange,
  NODE_ARRAY,
  NODE_OBJECT,
  NODE_SCALAR,
  NODE_STRING,
  scanJson,
} from './json/json-inventory.js';
import { labelWhereFew, recordNamesBytes } from './json/record-names-bytes.js';
import { cutRootString, type JsonSelection } from './json/render-selection.js';
import { selectJsonBreadthFirst } from './json/select-json-breadth-first.js';
import {
  commonQueryWords,
  namedByOf,
  type RecordOrder,
  recordsHead,
  selectJsonInformative,
} from './json/select-json-informative.js';
import { unnamedNoteRoom } from './json/unnamed-note-room.js';
import { withJsonInventory } from './json/with-json-inventory.js';
import { isNdjson } from './readers/is-ndjson.js';
import { isUnifiedDiff } from './readers/is-unified-diff.js';
import type { RecordGroup } from './readers/json-records.js';
import { lineStarts } from './readers/line-starts.js';
import { ndjsonRecords } from './readers/ndjson-records.js';
import { listAsRecordLines, recordLinesAsList, tornEdges } from './readers/record-lines.js';
import { stripTerminalEscapes } from './readers/strip-terminal-escapes.js';
import { tableAsRecordLines } from './readers/table-records.js';
import { type TupleTable, tupleTable } from './readers/tuple-records.js';
import { type JsonSelectionMode, MIN_TRIM_BUDGET_BYTES } from './structural-trimmer.js';
import type { Vocabulary } from './vocabulary.js';

/** Resolved settings of a trimmer. */
export interface TrimOptions {
  preserveKeys: readonly string[];
  /** Compiled relevance patterns, kept per trimmer. */
  termCache: TermCache;
  nestedArrayCap: number;
  relevanceShare: number;
  maxJsonNodes: number;
  selection: JsonSelectionMode;
  /** The words the trimmer knows (`resolveVocabulary`). */
  vocabulary: Vocabulary;
}

/** Values a named item's field may hold for a question to show it for every record. */
const MAX_ITEM_VALUES = 40;
/** Under this share of the source kept, the view is flagged as severely reduced. */
const DEGENERATE_KEPT_RATIO = 0.05;
const BOM = '\uFEFF';
/** UTF-8 bytes of a byte-order mark. */
const BOM_BYTES = 3;

interface LossyView {
  body: string;
  bodyBytes: number;
  strategy: TrimStrategy;
  /** The note when the view is representative (≥ 5% kept); below that, severely reduced. */
  note: string;
  units?: { kept: number; total: number };
  /** Text views: units of each level dropped, for whichever note the view gets. */
  byLevel?: LevelBreakdown;
  /** The unit the counts are of (`fields`, `fields (3 cut short)`). */
  unit?: string;
  /** JSON views of a list: what the view shows of its records. */
  records?: RecordCoverage;
  /** Bytes of the note held back for the records segment. */
  recordRoom?: number;
  /** What the note can say of every record of the main list, most telling first. */
  aggregates?: readonly AggregateStatement[];
  /** JSON views of a document over `maxJsonNodes`: how much of it was analysed. */
  partial?: PartialAnalysis;
  /** Text views: the lines shown lost their terminal escape codes. */
  escapesRemoved?: boolean;
  /** Diff views: the files the diff changes, for whichever note the view gets. */
  files?: DiffFiles;
}

/** Note bytes held back beyond the records head for one dropped field and one kind left out. */
const RECORD_NOTE_FLOOR_EXTRA = 80;
/** The first aggregate statement's bytes the room's floor takes in, at most. */
const FIRST_STATEMENT_MAX = 160;
/** Statements the room takes in before names once the budget is three times what they need. */
const LEADING_STATEMENTS = 2;
/** The records segment's room: a share of the budget (`unnamedNoteRoom`) up to this many bytes. */
const RECORD_NOTE_MAX = 1024;
/** The most of the budget the room grows to for the statements a question asks for. */
const ASKED_NOTE_SHARE = 1 / 3;
/** Of the room, what is kept for the parts that tell of the view (fields dropped, records left out). */
const VIEW_PARTS_ROOM = 48;
/** The most of the budget the room grows to once every record is named (`noteSteps`). */
const NAMED_NOTE_SHARE = 0.25;

/** The room `fitRecords` needs to tell `bytes` of head and statements (the view's parts kept). */
function roomFor(bytes: number): number {
  let room = Math.max(bytes, Math.ceil((bytes * 4) / 3));
  while (room - Math.min(VIEW_PARTS_ROOM, Math.floor(room / 4)) < bytes) room++;
  return room;
}

function segmentBytes(records: RecordCoverage): number {
  return utf8ByteLength(formatRecordCoverage(records));
}

/** A records segment with nothing but its counts, to measure what a statement adds to one. */
const NO_RECORDS: RecordCoverage = { path: '', total: 0, named: 0, whole: 0 };
const BARE = segmentBytes(NO_RECORDS);

/** `head` with the aggregate statements `statements` added. */
function withStatements(
  head: RecordCoverage,
  statements: readonly AggregateStatement[],
): RecordCoverage {
  const constant: Array<{ field: string; value: string }> = [];
  const distributions: RecordDistribution[] = [];
  const ranges: RecordRange[] = [];
  for (const statement of statements) {
    if (statement.kind === 'constant') {
      constant.push({ field: statement.field, value: statement.value });
    } else if (statement.kind === 'distribution') distributions.push(statement.distribution);
    else ranges.push(statement.range);
  }
  const records: RecordCoverage = { ...head };
  if (constant.length > 0) records.constant = constant;
  if (distributions.length > 0) records.distributions = distributions;
  if (ranges.length > 0) records.ranges = ranges;
  return records;
}

/** Bytes that open the list of constant fields, less those between two of them. */
const CONSTANTS_OPENING =
  segmentBytes({ ...NO_RECORDS, constant: [{ field: 'a', value: 'b' }] }) -
  BARE -
  utf8ByteLength(', a=b');
const sizesOf = new WeakMap<readonly AggregateStatement[], number[]>();

/**
 * What each statement adds to the records segment, in order (its sum with the head's bytes is
 * the segment's size with those statements): each told alone once, not the whole segment again
 * for every prefix tried.
 */
function statementBytes(statements: readonly AggregateStatement[], room: number): number[] {
  let sizes = sizesOf.get(statements);
  if (sizes) return sizes;
  sizes = [];
  let constants = 0;
  let total = 0;
  for (const statement of statements) {
    // No note of this room holds more: the statements past it are never told.
    if (total > room) {
      sizes.push(Number.POSITIVE_INFINITY);
      continue;
    }
    let bytes = segmentBytes(withStatements(NO_RECORDS, [statement])) - BARE;
    if (statement.kind === 'constant' && constants++ > 0) bytes -= CONSTANTS_OPENING;
    sizes.push(bytes);
    total += bytes;
  }
  sizesOf.set(statements, sizes);
  return sizes;
}

/**
 * Note bytes held back for the records segment of a JSON view of a list: 8% of the budget,
 * more where it names few of the records (`unnamedNoteRoom`), at most 1024 (`RECORD_NOTE_MAX`),
 * and never less than the segment's head (`head`, at its longest) plus room for one dropped
 * field and one kind of record left out — unless that is more than a fifth of the budget — nor
 * more than the head, every aggregate statement and the view's parts need. It grows with the budget more slowly than the budget does, so the body's budget does
 * not shrink as the budget grows.
 */
function recordNoteRoom(
  budget: number,
  head: RecordCoverage,
  aggregates: readonly AggregateStatement[],
  countsAsked: boolean,
  bodyAsked: boolean,
  namesBytes: number,
): number {
  const headBytes = segmentBytes(head);
  // Statements are sized only as far as the largest room could take them.
  const askedRoom = Math.floor(budget * ASKED_NOTE_SHARE);
  const sizes = statementBytes(aggregates, askedRoom);
  const floor = headBytes + RECORD_NOTE_FLOOR_EXTRA + Math.min(sizes[0] ?? 0, FIRST_STATEMENT_MAX);
  let room = Math.max(
    Math.min(RECORD_NOTE_MAX, unnamedNoteRoom(budget, namesBytes)),
    Math.min(floor, Math.floor(budget / 5)),
  );
  // With nothing asked of the body, the first statements of every record tell more than the
  // next few records' names (a record that stands out is still shown): the room takes each in
  // once the budget is three times what it needs, growing toward it no faster than the budget
  // (so the body never shrinks as the budget grows).
  if (!bodyAsked) {
    let bytes = headBytes;
    for (let k = 0; k < Math.min(LEADING_STATEMENTS, sizes.length); k++) {
      bytes += sizes[k]!;
      const needs = roomFor(bytes);
      room = Math.max(room, Math.min(needs, budget - 2 * needs));
    }
  }
  // Asked how many records hold each value of a field, the note's statement of that field
  // (the asked ones come first) is the answer: the room takes all of it, up to a third of the
  // budget.
  let asked = headBytes + VIEW_PARTS_ROOM;
  let i = 0;
  for (; countsAsked && i < sizes.length && aggregates[i]!.asked === true; i++) asked += sizes[i]!;
  if (i > 0 && asked > room) room = Math.min(asked, Math.max(room, askedRoom));
  let needed = headBytes + VIEW_PARTS_ROOM;
  for (i = 0; i < sizes.length && needed < room; i++) needed += sizes[i]!;
  return Math.min(needed, room);
}

/**
 * What the room `room` would have to grow by to tell each further statement, ascending: the
 * note's wants once every record is named (`selectJsonInformative` grants the largest the body
 * can spare), up to a quarter of the budget.
 */
function noteSteps(
  budget: number,
  room: number,
  head: RecordCoverage,
  aggregates: readonly AggregateStatement[],
): number[] {
  const sizes = statementBytes(aggregates, Math.floor(budget * ASKED_NOTE_SHARE));
  const most = Math.floor(budget * NAMED_NOTE_SHARE) - room;
  const steps: number[] = [];
  let bytes = segmentBytes(head);
  for (const size of sizes) {
    bytes += size;
    const step = roomFor(bytes) - room;
    if (step > most) break;
    if (step > 0) steps.push(step);
  }
  return steps;
}

/**
 * `distribution` with as many of its values as fit in `room` bytes of the note (at least one,
 * else `undefined`), the rest told as other values. Its values are commonest first, so a larger
 * room tells every value a smaller one does.
 */
function cutDistribution(
  distribution: RecordDistribution,
  room: number,
): RecordDistribution | undefined {
  const { values } = distribution;
  let otherCount = distribution.otherCount ?? 0;
  for (let k = values.length - 1; k >= 1; k--) {
    otherCount += values[k]!.count;
    const cut: RecordDistribution = {
      ...distribution,
      values: values.slice(0, k),
      otherValues: (distribution.otherValues ?? 0) + values.length - k,
      otherCount,
    };
    if (segmentBytes({ ...NO_RECORDS, distributions: [cut] }) - BARE <= room) return cut;
  }
  return undefined;
}

/**
 * `records` shortened until its segment fits `room`, gracefully. First the head (the named,
 * whole and total counts; the path, then the field naming the records, only when they fit), then the aggregate statements in their
 * order while they fit in the room less what the view's parts keep, the first distribution that
 * does not fit cut to its commonest values (so which statements a note holds depends on its room
 * alone, and a larger note holds every statement a smaller one does);
 * then the parts that tell of the view: their lists lose their last entries first (fields no
 * record shows, then kinds of records left out), each down to one, a `+N more` saying how many
 * went; then the last kind left out; then the last dropped field, its `+N more` last.
 * `undefined` only when even the counts do not fit.
 */
function fitRecords(
  records: RecordCoverage | undefined,
  aggregates: readonly AggregateStatement[],
  room: number,
): RecordCoverage | undefined {
  if (!records) return undefined;
  const { path, total, named, whole, atLeast, namedBy } = records;
  const head: RecordCoverage = { path, total, named, whole };
  if (atLeast) head.atLeast = true;
  if (namedBy !== undefined) head.namedBy = namedBy;
  // The path goes first, then the field that names the records, then the whole segment.
  if (segmentBytes(head) > room) head.path = '';
  if (segmentBytes(head) > room) delete head.namedBy;
  if (segmentBytes(head) > room) return undefined;
  const statementRoom = room - Math.min(VIEW_PARTS_ROOM, Math.floor(room / 4));
  // The longest prefix of the statements that fits, beside the head at its longest (every
  // record named and whole), so a view that names more records at a larger budget (`14/66`
  // for `9/66`) still tells every statement it told.
  const sizes = statementBytes(aggregates, room);
  let told = 0;
  let used = segmentBytes({ ...head, named: head.total, whole: head.total });
  while (told < sizes.length && used + sizes[told]! <= statementRoom) used += sizes[told++]!;
  const said = aggregates.slice(0, told);
  // The next distribution, if it does not fit whole, with its commonest values that do.
  const next = aggregates[told];
  if (next?.kind === 'distribution') {
    const cut = cutDistribution(next.distribution, statementRoom - used);
    if (cut) said.push({ kind: 'distribution', distribution: cut });
  }
  const base = withStatements(head, said);
  const constantFields = new Set((base.constant ?? []).map((entry) => entry.field));
  const droppedFields = (records.droppedFields ?? []).filter((field) => !constantFields.has(field));
  const omitted = [...(records.omitted ?? [])];
  let droppedMore = records.droppedMore ?? 0;
  let omittedMore = records.omittedMore ?? 0;
  const fitted = (): RecordCoverage => {
    const result: RecordCoverage = { ...base, droppedFields, omitted };
    if (droppedMore > 0) result.droppedMore = droppedMore;
    if (omittedMore > 0) result.omittedMore = omittedMore;
    return result;
  };
  const size = () => segmentBytes(fitted());
  const popDropped = () => {
    droppedFields.pop();
    droppedMore++;
  };
  const popOmitted = () => {
    omittedMore += omitted.pop()!.count;
  };
  // At most four fields and three kinds, whatever the room.
  while (droppedFields.length > 4) popDropped();
  while (omitted.length > 3) popOmitted();
  while (size() > room) {
    if (droppedFields.length > 1) popDropped();
    else if (omitted.length > 0) popOmitted();
    // How many were left out is the total less the named: the marker says nothing more.
    else if (omittedMore > 0) omittedMore = 0;
    else if (droppedFields.length > 0) popDropped();
    else if (droppedMore > 0) droppedMore = 0;
    else break;
  }
  return size() <= room ? fitted() : base;
}

/** Room to hold back for the note: the longest note any path could emit for this input. */
function noteRoom(originalBytes: number, budget: number): number {
  const units = originalBytes + 1;
  const notes = [
    disclosureNotes.trimmedUnits({
      kept: units,
      total: units,
      unit: `fields (${units} cut short)`,
      budgetBytes: budget,
    }),
    disclosureNotes.trimmedBytes({
      originalBytes,
      keptBytes: budget,
      where: 'string value cut inside',
    }),
    disclosureNotes.severelyReduced({ keptBytes: budget, originalBytes }),
  ];
  return Math.max(...notes.map((note) => disclosureNotesByteLength([note])));
}

/** `view` with its one note, or the head cut when the two do not fit in `budget`. */
function finish(
  original: string,
  originalBytes: number,
  budget: number,
  view: LossyView,
): ProcessedResult {
  const result = withNote(view, originalBytes, budget);
  return result.metadata.outputBytes > budget ? headCut(original, originalBytes, budget) : result;
}

function withNote(view: LossyView, originalBytes: number, budget: number): ProcessedResult {
  const keptRatio = originalBytes > 0 ? view.bodyBytes / originalBytes : 0;
  const degenerate = keptRatio < DEGENERATE_KEPT_RATIO;
  const records = fitRecords(view.records, view.aggregates ?? [], view.recordRoom ?? 0);
  let note = view.note;
  if (degenerate) {
    note = disclosureNotes.severelyReduced({
      keptBytes: view.bodyBytes,
      originalBytes,
      byLevel: view.byLevel,
      records,
      partial: view.partial,
      escapesRemoved: view.escapesRemoved,
      files: view.files,
    });
  } else if (records && view.units) {
    note = disclosureNotes.trimmedRecords({
      kept: view.units.kept,
      total: view.units.total,
      unit: view.unit ?? 'fields',
      budgetBytes: budget,
      records,
      partial: view.partial,
      byLevel: view.byLevel,
      escapesRemoved: view.escapesRemoved,
    });
  }
  const text = appendDisclosureNotes(view.body, [note]);
  // Neutralising note-shaped lines keeps the body's length in units and bytes: only the notes
  // after it are new.
  const metadata: ResultTrimMetadata = {
    contentLost: true,
    originalBytes,
    outputBytes: view.bodyBytes + utf8ByteLength(text.slice(view.body.length)),
    strategy: view.strategy,
    keptRatio,
  };
  if (degenerate) metadata.degenerate = true;
  if (view.units) {
    metadata.fieldsKept = view.units.kept;
    metadata.fieldsTotal = view.units.total;
    metadata.fieldsDropped = view.units.total - view.units.kept;
  }
  if (view.records) {
    metadata.recordsNamed = view.records.named;
    metadata.recordsTotal = view.records.total;
    metadata.recordsWhole = view.records.whole;
  }
  if (view.partial) metadata.fieldsAnalysed = view.partial.analysed;
  return { text, metadata };
}

/** The last resort: the first bytes that fit, with the cut disclosed. */
function headCut(original: string, measuredBytes: number, budget: number): ProcessedResult {
  const originalBytes = measuredBytes >= 0 ? measuredBytes : utf8ByteLength(original);
  const room = noteRoom(originalBytes, budget);
  return withNote(byteCut(original, budget - room, originalBytes, false), originalBytes, budget);
}

/** The view `body`, bytes of the source cut where `where` says. */
function bytesView(
  body: string,
  strategy: TrimStrategy,
  originalBytes: number,
  where: string,
): LossyView {
  const bodyBytes = utf8ByteLength(body);
  const note = disclosureNotes.trimmedBytes({ originalBytes, keptBytes: bodyBytes, where });
  return { body, bodyBytes, strategy, note };
}

function byteCut(
  source: string,
  budget: number,
  originalBytes: number,
  headAndTail: boolean,
): LossyView {
  if (!headAndTail) {
    return bytesView(truncateUtf8(source, budget), 'bytes', originalBytes, 'first bytes');
  }
  const head = truncateUtf8(source, Math.floor(budget * 0.7));
  const tail = truncateUtf8Start(source, budget - utf8ByteLength(head) - 1);
  return bytesView(`${head}\n${tail}`, 'bytes', originalBytes, 'first and last bytes');
}

/**
 * How much of a document over `maxJsonNodes` its inventory analysed: the values recorded (the
 * first ones in text order), and the question's matches past the last of them.
 */
function partialAnalysis(inventory: JsonInventory, hits: RelevanceHits): PartialAnalysis {
  const last = inventory.count - 1;
  const k = inventory.kind[last];
  // Every value that starts before this offset was recorded.
  const analysedTo =
    k === NODE_OBJECT || k === NODE_ARRAY ? inventory.start[last]! + 1 : inventory.end[last]!;
  let queryMatchesPast = 0;
  for (let i = 0; i < hits.positions.length; i++) {
    if (hits.positions[i]! >= analysedTo && hits.terms[hits.termOf[i]!]!.kind === 'query') {
      queryMatchesPast++;
    }
  }
  const partial: PartialAnalysis = { analysed: last, total: inventory.totalValues };
  if (queryMatchesPast > 0) partial.queryMatchesPast = queryMatchesPast;
  return partial;
}

function jsonView(
  source: string,
  inventory: JsonInventory,
  budget: number,
  bodyBudget: number,
  context: ResultProcessorContext | undefined,
  options: TrimOptions,
  check: StopCheck,
): LossyView {
  if (inventory.kind[0] === NODE_STRING) {
    const cut = cutRootString(source.trim(), bodyBudget);
    return bytesView(cut, 'json', utf8ByteLength(source), 'string value cut inside');
  }
  const { vocabulary } = options;
  const words = queryWords(context, vocabulary.stopwords);
  const terms = relevanceTerms({
    words,
    preserveKeys: options.preserveKeys,
    json: true,
    vocabulary,
  });
  // The tape's word search finds where the terms may start in its text, for a fraction of a
  // scan by the terms' pattern.
  const search = inventory.text === source ? inventory.tapeReader : undefined;
  const hits = findHits(
    source,
    terms,
    inventory.count,
    50_000,
    options.termCache,
    { at: inventory.errorAt, word: inventory.errorWord },
    search,
  );
  // A document of more values than `maxJsonNodes` is analysed only up to there: the note says
  // so, and whether the question matches in the rest, which no view of the part analysed shows.
  const partial = inventory.truncated ? partialAnalysis(inventory, hits) : undefined;
  const room = partial ? bodyBudget - utf8ByteLength(formatPartialAnalysis(partial)) : bodyBudget;
  let selection: JsonSelection & { records?: RecordCoverage };
  let recordRoom = 0;
  let steps: number[] = [];
  let aggregates: AggregateStatement[] = [];
  if (options.selection === 'breadth-first') {
    selection = selectJsonBreadthFirst(inventory, room, hits, options, check);
  } else {
    const analysis = analyzeRecords(inventory, check, vocabulary);
    const tokens = questionTokens(context);
    // The question's words that say which records of a list, worked out once per list.
    const commons = new Map<RecordGroup, Set<string>>();
    const commonOf = (group: RecordGroup) => {
      let common = commons.get(group);
      if (!common) {
        common = commonQueryWords(inventory, analysis, group, hits);
        commons.set(group, common);
      }
      return common;
    };
    analysis.main = askedGroup(inventory, analysis, words, tokens, commonOf);
    const first = analysis.groups[analysis.main];
    const askedOfMain = first
      ? askedColumns(inventory, analysis, first, words, tokens, commonOf(first))
      : [];
    // Named items a question asks for (`ready` of a pod's conditions), shown for each record.
    const items = first ? askedItems(inventory, analysis, first, words, MAX_ITEM_VALUES) : [];
    // A question that asks for fields has them shown beside each name: no label then.
    if (first && askedOfMain.length === 0 && items.length === 0) {
      labelWhereFew(inventory, analysis, first, room);
    }
    const head = recordsHead(inventory, analysis);
    let shown: number[] = [];
    let order: RecordOrder = { leading: [], afterNames: [] };
    if (head) {
      const main = analysis.groups[analysis.main]!;
      const asked = askedOfMain;
      shown = shownForEach(analysis, asked);
      order = recordOrder(inventory, analysis, main, recencyAsk(tokens, vocabulary), shown);
      aggregates = recordAggregates(inventory, analysis, main, new Set(asked), words);
      recordRoom = recordNoteRoom(
        budget,
        head,
        aggregates,
        asksForCounts(tokens, vocabulary),
        shown.length > 0 || items.length > 0 || (order.askedFor ?? 0) > 0,
        recordNamesBytes(inventory, analysis, main),
      );
      steps = noteSteps(budget, recordRoom, head, aggregates);
    }
    // Rows read by position, named by a header (a query result's `columns` and `rows`): no
    // list of objects, but records all the same, told by the names of their columns.
    const table = head
      ? undefined
      : tableRecords(inventory, analysis.signatures, options, check, tokens);
    if (table) {
      aggregates = table.aggregates;
      recordRoom = recordNoteRoom(budget, table.head, aggregates, false, false, 0);
    }
    const informative = selectJsonInformative(inventory, room - recordRoom, hits, analysis, check, {
      asked: shown,
      order,
      noteSteps: steps,
      rows: table?.standOut,
      items,
    });
    recordRoom += informative.noteGrant;
    selection = informative;
    if (table) {
      const shownRows = rowsIn(informative.body, table.table);
      selection.records = { ...table.head, named: shownRows, whole: shownRows };
    }
  }
  const unit = selection.cutShort > 0 ? `fields (${selection.cutShort} cut short)` : 'fields';
  const view: LossyView = {
    body: selection.body,
    bodyBytes: selection.bodyBytes,
    strategy: 'json',
    note: disclosureNotes.trimmedUnits({
      kept: selection.unitsKept,
      total: selection.unitsTotal,
      unit,
      budgetBytes: budget,
      partial,
    }),
    units: { kept: selection.unitsKept, total: selection.unitsTotal },
    unit,
  };
  if (partial) view.partial = partial;
  if (selection.records) {
    view.records = selection.records;
    view.recordRoom = recordRoom;
    view.aggregates = aggregates;
  }
  return view;
}

/**
 * The records of a document's rows read by position (`tupleTable`), with the note's head and
 * statements of them, their fields named by the header; undefined where it has none.
 */
function tableRecords(
  inventory: JsonInventory,
  signatures: RecordAnalysis['signatures'],
  options: TrimOptions,
  check: StopCheck,
  tokens: readonly string[],
):
  | {
      table: TupleTable;
      head: RecordCoverage;
      aggregates: AggregateStatement[];
      standOut: number[];
    }
  | undefined {
  // Past what was analysed there are rows no count would hold.
  if (inventory.truncated) return undefined;
  const table = tupleTable(inventory, signatures);
  check(inventory.count);
  if (!table) return undefined;
  const records = scanJson(table.records, options.maxJsonNodes, false, check);
  if (!records || records.truncated) return undefined;
  const analysis = analyzeRecords(records, check, options.vocabulary);
  const group = analysis.groups[analysis.main];
  if (!group || group.records.length !== table.rows.length) return undefined;
  const head: RecordCoverage = { path: table.path, total: table.rows.length, named: 0, whole: 0 };
  const namedBy = namedByOf(records, analysis, group);
  if (namedBy !== undefined) head.namedBy = namedBy;
  // The rows that stand out, then the newest and the oldest (and the newest after them), as
  // the records they were read as.
  const rowOf = new Map(group.records.map((r, i) => [r, table.rows[i]!]));
  const order = recordOrder(records, analysis, group, recencyAsk(tokens, options.vocabulary));
  const standOut = [
    ...analysis.anomalies.slice(0, analysis.leadingAnomalies).map(({ record }) => record),
    ...[...order.leading, ...order.afterNames].map(({ record }) => record),
  ].flatMap((r) => rowOf.get(r) ?? []);
  return { table, head, aggregates: recordAggregates(records, analysis, group), standOut };
}

/** How many rows of `table` a view's body shows (each whole or not at all). */
function rowsIn(body: string, table: TupleTable): number {
  let node: unknown = JSON.parse(body);
  for (const key of table.keys) {
    node = node && typeof node === 'object' ? (node as Record<string, unknown>)[key] : undefined;
  }
  return Array.isArray(node) ? node.length : 0;
}

function textView(
  source: string,
  budget: number,
  bodyBudget: number,
  originalBytes: number,
  sourceBytes: number,
  context: ResultProcessorContext | undefined,
  options: TrimOptions,
  check: StopCheck,
): LossyView {
  // Terminal escape codes (a coloured log's `ESC[32m…ESC[0m`) are spent bytes that say nothing
  // to a reader and hide a line's level and words: the view is chosen from, and shows, the
  // text without them, and its note says so. Cut markers still name the original's columns.
  const stripped = stripTerminalEscapes(source);
  check(source.length);
  const text = stripped?.text ?? source;
  const escapesRemoved = stripped !== undefined;
  const room = escapesRemoved ? bodyBudget - utf8ByteLength(ESCAPES_REMOVED_SEGMENT) : bodyBudget;
  // The lines are found once: they tell prose from lines and are the units of most texts.
  const lines = lineStarts(text, check);
  const ndjson = isNdjson(text);
  const lineOriented = ndjson || isLineOriented(text, lines);
  const unit: TextUnit = ndjson
    ? 'records'
    : !lineOriented
      ? 'sentences'
      : isUnifiedDiff(text, lines)
        ? 'hunks'
        : 'lines';
  const words = queryWords(context, options.vocabulary.stopwords);
  const tokens = questionTokens(context);
  const terms = relevanceTerms({
    words,
    preserveKeys: options.preserveKeys,
    json: false,
    vocabulary: options.vocabulary,
  });
  // The lines that are JSON objects are records, judged as a JSON list's are; in a text of
  // JSON lines, the note tells what they all hold, as a JSON list's note does. So are the rows
  // of a table (a header of column names, then rows of them), read as the objects they are.
  const table = unit === 'lines' ? tableAsRecordLines(text, lines) : undefined;
  const records =
    unit === 'records' || unit === 'lines'
      ? ndjsonRecords(table?.text ?? text, table?.starts ?? lines, check, {
          vocabulary: options.vocabulary,
          maxNodes: options.maxJsonNodes,
          note: true,
          // Only a text of records is selected by their time order.
          order: unit === 'records',
          question: { words, tokens },
        })
      : undefined;
  if (table && records) {
    // The line that names a table's columns comes before anything else of it: a row without
    // it reads as values of nothing (Zeek's `#fields`, past six other comment lines).
    let most = 0;
    for (const score of records.scores) if (score > most) most = score;
    records.scores[table.header] = most + 1;
  }
  const head = records?.head;
  const recordRoom = head
    ? recordNoteRoom(
        budget,
        head,
        records.aggregates,
        asksForCounts(tokens, options.vocabulary),
        terms.some((term) => term.kind !== 'error'),
        // A record is named only by showing its line.
        sourceBytes,
      )
    : 0;
  const selection = selectText({
    text,
    budget: room - recordRoom,
    unit,
    terms,
    requireScore: !lineOriented,
    termCache: options.termCache,
    check,
    toOriginal: stripped?.toOriginal,
    // Every escape sequence removed is ASCII: the text left is ASCII exactly when the source is.
    ascii: sourceBytes === source.length,
    lineStarts: lines,
    vocabulary: options.vocabulary,
    recordScores: records?.scores,
    recordOrder: records?.order,
  });
  if (!selection) return byteCut(source, bodyBudget, originalBytes, lineOriented);
  let body = selection.body;
  if (body.endsWith('\n')) body = body.slice(0, body.endsWith('\r\n') ? -2 : -1);
  const view: LossyView = {
    body,
    bodyBytes: utf8ByteLength(body),
    strategy: ndjson ? 'ndjson' : 'text',
    note: disclosureNotes.trimmedUnits({
      kept: selection.unitsKept,
      total: selection.unitsTotal,
      unit: selection.label,
      budgetBytes: budget,
      byLevel: selection.byLevel,
      escapesRemoved,
      files: selection.files,
    }),
    units: { kept: selection.unitsKept, total: selection.unitsTotal },
    unit: selection.label,
    byLevel: selection.byLevel,
    escapesRemoved,
    files: selection.files,
  };
  if (head) {
    // Each record shown is shown whole, its line; named where it holds the naming field.
    let shown = 0;
    let named = 0;
    for (let i = 0; i < selection.keep.length; i++) {
      if (selection.keep[i] !== 1 || records.isRecord[i] !== 1) continue;
      shown++;
      if (!records.named || records.named[i] === 1) named++;
    }
    view.records = { ...head, named, whole: shown };
    view.recordRoom = recordRoom;
    const { byLevel } = selection;
    view.aggregates = byLevel
      ? records.aggregates.filter(
          (statement) =>
            statement.kind !== 'distribution' ||
            !tellsLevels(statement.distribution, byLevel, options.vocabulary),
        )
      : records.aggregates;
  }
  return view;
}

/**
 * The view of a text of JSON object lines (`isNdjson`) as the list they make, written back one
 * record a line: the lines kept, whole or with the fields that name and tell them, each parse
 * as JSON on their own. A text read from an offset or cut at a size (`tornEdges`) keeps its torn
 * first or last line at its place, cut to a glimpse, outside the records. `undefined` where a
 * line opens with anything but an object or does not parse: the text view reads such a text
 * line by line.
 */
function recordLinesView(
  source: string,
  budget: number,
  bodyBudget: number,
  context: ResultProcessorContext | undefined,
  options: TrimOptions,
  check: StopCheck,
): LossyView | undefined {
  // The seed's breadth-first selection is of a JSON document: its lines stay lines.
  if (options.selection === 'breadth-first') return undefined;
  // The view of `text`, every line of it a record, in `less` bytes under the budgets.
  const listView = (text: string, less: number): LossyView | undefined => {
    if (bodyBudget - less < MIN_TRIM_BUDGET_BYTES / 2 || !isNdjson(text)) return undefined;
    const list = recordLinesAsList(text);
    check(text.length);
    if (list === undefined) return undefined;
    const view = withJsonInventory(
      list,
      -1,
      options.maxJsonNodes,
      errorMatcher(options.vocabulary),
      check,
      (inventory) =>
        inventory && inventory.kind[0] === NODE_ARRAY
          ? jsonView(list, inventory, budget - less, bodyBudget - less, context, options, check)
          : undefined,
    );
    if (!view) return undefined;
    const body = listAsRecordLines(view.body);
    const lines: LossyView = { ...view, body, bodyBytes: utf8ByteLength(body), strategy: 'ndjson' };
    // The list is the text's lines: its path (`[]`, or `[].items[]` for a list in each) starts
    // at a line.
    if (view.records) lines.records = { ...view.records, path: linePath(view.records.path) };
    return lines;
  };
  // Its torn edges are found first (two lines parsed): the list is then built once.
  const edges = tornEdges(source);
  if (!edges) return listView(source, 0);
  const edgeBytes =
    (edges.head ? utf8ByteLength(edges.head) + 1 : 0) +
    (edges.tail ? utf8ByteLength(edges.tail) + 1 : 0);
  const view = listView(edges.records, edgeBytes);
  if (!view) return undefined;
  const body = [edges.head, view.body, edges.tail].filter((part) => part !== '').join('\n');
  return { ...view, body, bodyBytes: utf8ByteLength(body) };
}

/** `path` of a list in the array of a text's lines, from the line. */
function linePath(path: string): string {
  return path === '[]' ? '' : path.startsWith('[].') ? path.slice(3) : path;
}

/**
 * Whether `distribution` tells how the records divide by level as `breakdown` does (`level:
 * info 2969, error 31` beside `records dropped by level: error=0/31 info=2915/2969`): each of
 * its values a level, its counts the breakdown's totals. The note says it once.
 */
function tellsLevels(
  distribution: RecordDistribution,
  breakdown: LevelBreakdown,
  vocabulary: Vocabulary,
): boolean {
  if (distribution.otherCount || distribution.otherValues) return false;
  const counts = new Map<string, number>();
  for (const { value, count } of distribution.values) {
    // A level word, or the label the breakdown gives a level it has no word for (pino's `30`).
    const word = value.toLowerCase();
    const level = Object.hasOwn(vocabulary.levelWords, word) ? vocabulary.levelWords[word]! : word;
    counts.set(level, (counts.get(level) ?? 0) + count);
  }
  // Lines with no level (a log's plain lines among its JSON ones) hold no level field.
  const leveled = breakdown.counts.filter((entry) => entry.level !== UNLEVELED);
  return (
    counts.size === leveled.length &&
    leveled.every((entry) => counts.get(entry.level) === entry.total)
  );
}

/**
 * The trim of `result` (`source` without its byte-order mark) once its inventory is known
 * (`undefined` for a text that is not JSON); `originalBytes` is -1 when not measured yet.
 */
function trimWithInventory(
  result: string,
  source: string,
  inventory: JsonInventory | undefined,
  measuredBytes: number,
  budget: number,
  context: ResultProcessorContext | undefined,
  options: TrimOptions,
  check: StopCheck,
): ProcessedResult {
  let originalBytes = measuredBytes;
  if (originalBytes < 0) {
    // The inventory's text is the result without its byte-order marks (3 bytes each).
    originalBytes =
      inventory?.textBytes !== undefined
        ? inventory.textBytes + BOM_BYTES * (result.length - inventory.text.length)
        : utf8ByteLength(result);
  }
  if (inventory && inventory.valueBytes[0]! <= budget) {
    // Whitespace is not content: the minified document is the whole result.
    const minified = inventory.minified ? source.trim() : minifyRange(source, 0, source.length);
    return { text: minified, metadata: losslessMetadata(result, minified, 'minified') };
  }
  assertTrimBudget(budget);
  const bodyBudget = budget - noteRoom(originalBytes, budget);
  try {
    const structured =
      inventory && inventory.kind[0] !== NODE_SCALAR
        ? jsonView(source, inventory, budget, bodyBudget, context, options, check)
        : undefined;
    const view =
      structured ??
      (inventory
        ? undefined
        : recordLinesView(source, budget, bodyBudget, context, options, check)) ??
      textView(
        source,
        budget,
        bodyBudget,
        originalBytes,
        originalBytes - BOM_BYTES * (result.length - source.length),
        context,
        options,
        check,
      );
    return finish(result, originalBytes, budget, view);
  } catch (error) {
    if (error instanceof TrimStoppedError) throw error;
    // A bug must not cost the caller the result: the head cut is always honest and in budget.
    return headCut(result, originalBytes, budget);
  }
}

/** Refuses a budget under `MIN_TRIM_BUDGET_BYTES` (or no budget: NaN) for a lossy view. */
function assertTrimBudget(budget: number): void {
  if (!(budget >= MIN_TRIM_BUDGET_BYTES)) {
    throw new BudgetTooSmallError({
      budgetBytes: Number.isNaN(budget) ? 0 : budget,
      minimumBytes: MIN_TRIM_BUDGET_BYTES,
      what: 'a structural trim',
    });
  }
}

/** The whole trim: unchanged, minified, or a lossy view with exactly one note. */
export function trimResult(
  result: string,
  maxBytes: number,
  context: ResultProcessorContext | undefined,
  options: TrimOptions,
): ProcessedResult {
  // NaN (or a non-number) is no budget at all; Infinity is an unlimited one.
  const budget = typeof maxBytes === 'number' ? Math.floor(maxBytes) : Number.NaN;
  // Every UTF-16 unit is at least one UTF-8 byte: a text of more units than the budget cannot
  // fit, and its size can wait for the inventory, which measures it on the way (-1 until then).
  const originalBytes = result.length > budget ? -1 : utf8ByteLength(result);
  if (originalBytes >= 0 && originalBytes <= budget) {
    return { text: result, metadata: losslessMetadata(result, result) };
  }
  // One meter of work for the whole trim: every pass adds to it and it polls `shouldStop` at
  // bounded intervals, throwing `TrimStoppedError` when the caller asks to stop.
  const check = createStopCheck(context?.shouldStop);
  try {
    check(1);
    const hasBom = result.startsWith(BOM);
    const source = hasBom ? result.slice(1) : result;
    return withJsonInventory(
      source,
      originalBytes >= 0 ? originalBytes - (hasBom ? BOM_BYTES : 0) : -1,
      options.maxJsonNodes,
      errorMatcher(options.vocabulary),
      check,
      (inventory) =>
        trimWithInventory(
          result,
          source,
          inventory,
          originalBytes,
          budget,
          context,
          options,
          check,
        ),
    );
  } catch (error) {
    if (!(error instanceof TrimStoppedError)) throw error;
    // Asked to stop: the cheapest honest view, at once.
    assertTrimBudget(budget);
    return headCut(result, originalBytes, budget);
  }
}
