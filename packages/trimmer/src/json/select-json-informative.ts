import type { RecordCoverage } from '@compaction/core';
import type { Anomaly, RecordAnalysis, RecordGroup } from '../engine/analyze-records.js';
import { classOfField, nodeAt, recordField } from '../engine/analyze-records.js';
import {
  CLASS_LOCATOR,
  CLASS_OPAQUE,
  CLASS_PROSE,
  CLASS_TIME,
  valueClass,
} from '../engine/column-roles.js';
import { keyHints } from '../engine/key-hints.js';
import { type AskedItem, askedItemNodes } from '../engine/keyed-items.js';
import { lowerBound } from '../engine/lower-bound.js';
import { recordSays } from '../engine/record-says.js';
import type { RelevanceHits } from '../engine/relevance.js';
import type { StopCheck } from '../engine/stop-check.js';
import { stringValue } from '../readers/json-records.js';
import { recordFieldNodes } from '../readers/record-field-nodes.js';
import { type JsonInventory, NODE_ARRAY, NODE_OBJECT, NODE_STRING } from './json-inventory.js';
import { type JsonSignatures, signatureKey } from './json-signatures.js';
import { type JsonSelection, renderSelection } from './render-selection.js';
import { sameText } from './same-text.js';
import {
  createSelectionLedger,
  DROPPED,
  isContainer,
  keepCost,
  keepCut,
  keepWhole,
  pathCost,
  type SelectionLedger,
  skeletonCost,
} from './selection-ledger.js';
import { fieldPath, signaturePath } from './signature-path.js';
import { tupleHeaders } from './tuple-headers.js';
import { tupleTops } from './tuple-tops.js';

/** Records shown with their time because of where they stand in the records' order. */
export interface RecordOrder {
  /** Before every record is named: those a question about order asks for, the newest, the oldest. */
  leading: ReadonlyArray<{ record: number; field: number }>;
  /** How many of `leading`, from its start, a question asks for (they come before anomalies). */
  askedFor?: number;
  /** Right after `leading`'s newest and oldest: the newest after the newest. */
  afterNames: ReadonlyArray<{ record: number; field: number }>;
}

/** A selection, and what it shows of the document's records. */
export interface InformativeSelection extends JsonSelection {
  /** Absent when the document holds no list of records. */
  records?: RecordCoverage;
  /** What was kept of each node (`WHOLE`, `PARTIAL`, `CUT` or `DROPPED`; see the ledger). */
  state: Uint8Array;
  /** Per node: inside a node kept whole. */
  covered: Uint8Array;
  /** Content length (UTF-16 units) of each string cut inside. */
  cutLength: ReadonlyMap<number, number>;
  /** Steps of the plan and containers walked over: a measure of the work done. */
  work: number;
  /** Bytes of the budget given over to the note once every record was named (see `noteSteps`). */
  noteGrant: number;
}

/** What a question and the list's order ask of an informative selection, and what the note wants. */
export interface InformativeAsks {
  /** Fields a question names for every record (signatures). */
  asked?: readonly number[];
  order?: RecordOrder;
  /**
   * Bytes the note could tell more with, ascending (each one more statement of every record):
   * once every record is named, the largest that the body's rest can spare goes to the note
   * before anything else is shown, since a statement of every record tells more than one
   * record's field.
   */
  noteSteps?: readonly number[];
  /**
   * Rows read by position that stand out, as records of their table (`tupleTable`): a rare
   * state, the newest, the oldest; each kept whole right after the header that names them.
   */
  rows?: readonly number[];
  /** Named items a question asks for in every record (`askedItems`), shown like `asked`. */
  items?: readonly AskedItem[];
}

/** Nodes outside records kept first: shallow scalars up to this many bytes… */
const CONTEXT_BYTES = 128;
/** …and at most this many of them; those longer than this once every record is named. */
const CONTEXT_NODES = 48;
const CONTEXT_FIRST_BYTES = 48;
/** Of the short ones, at most this many before the names (an HTTP response's ten headers wait). */
const CONTEXT_FIRST = 6;
/** A list's records share their names where each name is on this many of them on average. */
const SHARED_NAME = 2;
/** …and at most this many (more are a category's: a rule's findings). */
const EVENTS_PER_NAME = 12;
/** Records sharing the name of one that stands out shown with it, the nearest first. */
const SIBLINGS = 8;
/** Anomalies (the strongest) whose names' records are shown with them. */
const SIBLING_ANOMALIES = 3;
/** A record sharing its name with one that stands out is shown whole up to this size. */
const SMALL_SIBLING = 256;
/** A list of at most this many records holding the main list's records is their context. */
const HOLDERS = 4;
/** Times of the envelope kept with its first short fields at most. */
const CONTEXT_TIMES = 2;
/** Records the query matches that get their identity and matching fields first. */
const MATCHED_RECORDS = 40;
/** A question word holding an address's separators is itself (part of) an address. */
const ADDRESS_PART = /[/:.@#]/;
/** A term found in at most this many records (or this share of them) names them. */
const STRONG_RECORDS = 3;
const STRONG_SHARE = 0.02;
/** Matching fields kept per record in that first pass, each at most this big. */
const MATCHED_FIELDS = 8;
const MATCHED_FIELD_BYTES = 512;
/** A field a question asks of every record is shown for each up to this size. */
const ASKED_FIELD_BYTES = 512;
/** A matching record up to this size is then kept whole, before the other records are named. */
const SMALL_MATCHED_RECORD = 2048;
/** An anomalous record up to this size is kept whole once every record is named. */
const SMALL_ANOMALY = 1024;
const ANOMALY_FIELD_BYTES = 256;
/** Of a larger one, its first values up to this many bytes, each at most `PREVIEW_VALUE_BYTES`. */
const PREVIEW_BYTES = 128;
const PREVIEW_VALUE_BYTES = 48;
/** A second field of an anomalous record shown before every record is named stands out this much. */
const STRONG_FIELD = 2.2;
/**
 * The strongest anomalous records kept whole before the records are named, each where it is at
 * most this share of the document (and `SMALL_ANOMALY`): the three take at most a tenth of a
 * view of 3%.
 */
const LEADING_WHOLE = 3;
const LEADING_WHOLE_SHARE = 1 / 1000;
/** Anomalous records kept whole once every record is named: the strongest few. */
const WHOLE_ANOMALIES = 10;
const WHOLE_ANOMALY_SCORE = 4;
/** What a record says is shown for every record, before the strongest anomalies whole, up to this size. */
const MESSAGE_BYTES = 1024;
/**
 * A text longer than that, and what a record says beside an id that reads as nothing, is shown
 * by its start of up to this many bytes: a headline of what it is about.
 */
const TEXT_START_BYTES = 128;
/** Detail buckets: information per byte, best first (the last holds what says nothing). */
const BUCKETS = 48;

/** A field of at most this many values (and at most one per two records) is few-valued. */
const FEW_VALUES = 40;

/** Of the body's rest once every record is named, the most the note is given. */
const NOTE_GRANT_SHARE = 0.5;

/** Budget spent: the plan stops at the first unit that does not fit (see `selectJsonInformative`). */
class Spent {}
const SPENT = new Spent();

function ipbBucket(bits: number, bytes: number): number {
  if (!(bits > 0)) return BUCKETS - 1;
  const perByte = bits / Math.max(1, bytes);
  const bucket = Math.round(-Math.log2(perByte) * 3) + 8;
  return Math.max(0, Math.min(BUCKETS - 2, bucket));
}

function createPlan(
  inventory: JsonInventory,
  analysis: RecordAnalysis,
  ledger: SelectionLedger,
  check: StopCheck | undefined,
) {
  return {
    inventory,
    analysis,
    ledger,
    check,
    steps: 0,
    /** Records whose identity has been seen to (with the records above them). */
    ensured: new Uint8Array(inventory.count),
    /** Bytes moved from the body to the note (`grantNote`). */
    noteGrant: 0,
    /** Per node, the row of positions it is kept with (`tupleTops`), when the document has any. */
    tupleTop: tupleTops(inventory, analysis.signatures),
  };
}

/** `u`, or the row of positions around it, which is kept whole or not at all (`tupleTops`). */
function atomOf(plan: Plan, u: number): number {
  const top = plan.tupleTop;
  return top !== undefined && u >= 0 && top[u]! >= 0 ? top[u]! : u;
}

type Plan = ReturnType<typeof createPlan>;

function tick(plan: Plan): void {
  if ((++plan.steps & 1023) === 0 && plan.check) plan.check(1024);
}

function isRecord(plan: Plan, u: number): boolean {
  const { analysis, inventory } = plan;
  return inventory.kind[u] === NODE_OBJECT && analysis.groupOfSig[analysis.signatures.of[u]!]! >= 0;
}

/** The node of record `r`'s identity field, -1 when none. */
function identityOf(plan: Plan, r: number): number {
  const { analysis } = plan;
  const g = analysis.groupOfSig[analysis.signatures.of[r]!]!;
  if (g < 0) return -1;
  return recordField(plan.inventory, analysis, r, analysis.groups[g]!.identity);
}

/** Keeps the identity of record `r` (whose records above are seen to). Throws when it does not fit. */
function nameRecord(plan: Plan, r: number, path = -1): void {
  const identity = identityOf(plan, r);
  const atom = atomOf(plan, identity);
  const { analysis } = plan;
  const g = analysis.groupOfSig[analysis.signatures.of[r]!]!;
  const group = g >= 0 ? analysis.groups[g]! : undefined;
  const other =
    group?.identityTogether && identity >= 0
      ? atomOf(plan, recordSays(plan.inventory, analysis, r, group.alsoIdentity))
      : -1;
  if (atom !== identity) {
    if (!keepWhole(plan.ledger, atom)) throw SPENT;
  } else if (identity >= 0 && plan.ledger.covered[identity] === 0) {
    // A name of two fields (an edge's two ends) goes in whole or not at all: room for the
    // second half is made sure of before the first is kept.
    const { ledger } = plan;
    const { parent, unitBytes } = plan.inventory;
    // So does a name several records share with what each says beside it (a test's name over
    // its events, each with its output): the name alone would name another record as well.
    const { values, distinct } = analysis.columns;
    const label = group !== undefined && group.alsoIdentity === group.label;
    const shared = label && distinct[group.identity]! < values[group.identity]!;
    if (other >= 0 && ledger.covered[other] === 0 && (!label || shared)) {
      // Beside the first in its record, the second costs its bytes (a text its start, cut) and
      // a comma.
      const bytes = label ? Math.min(unitBytes[other]!, TEXT_START_BYTES + 8) : unitBytes[other]!;
      const second = parent[other] === parent[identity] ? bytes + 1 : keepCost(ledger, other);
      if (ledger.used + keepCost(ledger, identity) + second > ledger.limit) throw SPENT;
    }
    let toIdentity = -1;
    if (path >= 0) {
      // The path below `r` is a few keys long; above it, the caller knows it.
      const { ledger } = plan;
      const { parent } = plan.inventory;
      toIdentity = 0;
      let a = parent[identity]!;
      for (; a !== r && ledger.state[a] === DROPPED; a = parent[a]!) {
        toIdentity += skeletonCost(ledger, a);
      }
      toIdentity +=
        a === r && ledger.state[r] === DROPPED ? skeletonCost(ledger, r) + path : ledger.filled[a]!;
    }
    if (!keepWhole(plan.ledger, identity, toIdentity)) throw SPENT;
  }
  // A name of two fields (a span's `id` and `kind`) is shown whole or not at all; what a
  // record says beside an id that reads as nothing, whole or its start.
  if (group?.identityTogether && identity >= 0) {
    if (other >= 0) {
      const { kind, unitBytes } = plan.inventory;
      const long =
        group.alsoIdentity === group.label &&
        kind[other] === NODE_STRING &&
        unitBytes[other]! > TEXT_START_BYTES + 2;
      const kept = long
        ? keepCut(plan.ledger, other, -1, TEXT_START_BYTES)
        : keepWhole(plan.ledger, other);
      if (!kept) throw SPENT;
    }
  }
  plan.ensured[r] = 1;
}

/** Sees to the identities of every record around `u` (outermost first; `u` itself if one). */
function ensureAround(plan: Plan, u: number, self: boolean): void {
  const { recordAbove } = plan.analysis;
  let first = self && isRecord(plan, u) ? u : recordAbove[u]!;
  if (first < 0 || plan.ensured[first] === 1) return;
  const chain: number[] = [];
  for (; first >= 0 && plan.ensured[first] === 0; first = recordAbove[first]!) chain.push(first);
  for (let i = chain.length - 1; i >= 0; i--) nameRecord(plan, chain[i]!);
}

/**
 * Keeps `u` whole, after the identities of the records around it; a container that does not
 * fit is split (`expand`), a string cut to the room left. Throws once the budget is spent.
 */
function keepUnit(plan: Plan, node: number): void {
  tick(plan);
  const { ledger } = plan;
  const u = atomOf(plan, node);
  if (ledger.covered[u] === 1) return;
  ensureAround(plan, u, false);
  if (keepWhole(ledger, u)) return;
  // A row of positions is not split: the plan stops at it as at a unit that does not fit.
  if (plan.tupleTop?.[u] === u) throw SPENT;
  if (isContainer(plan.inventory, u)) {
    expand(plan, u);
    return;
  }
  keepCut(ledger, u);
  throw SPENT;
}

/** Bucket of node `u`: the information per byte of its field (its signature) inside records. */
function nodeBucket(plan: Plan, u: number): number {
  return ipbBucket(
    plan.analysis.nodeBits[plan.analysis.signatures.of[u]!]!,
    plan.inventory.unitBytes[u]! + 1,
  );
}

/** The children of `u` in the order a split keeps them: items from the head, members by information per byte. */
function orderedChildren(plan: Plan, u: number): number[] {
  const { kind, next } = plan.inventory;
  const children: number[] = [];
  for (let c = u + 1; c < next[u]!; c = next[c]!) children.push(c);
  if (kind[u] !== NODE_OBJECT || children.length < 2) return children;
  // By bucket, then position: one number per child (bucket × span + offset) sorted in place, so
  // no comparator closes over a table (a closure made per call is compiled again per call).
  const span = next[u]! - u;
  for (let i = 0; i < children.length; i++) {
    children[i] = nodeBucket(plan, children[i]!) * span + (children[i]! - u);
  }
  children.sort(ascending);
  for (let i = 0; i < children.length; i++) children[i] = u + (children[i]! % span);
  return children;
}

function ascending(a: number, b: number): number {
  return a - b;
}

/**
 * Splits `root`, which does not fit whole: its children in order, each kept whole if it fits,
 * else split in turn (a record first shows its identity), until one does not fit. One descent,
 * carrying the cost of the path down, so even a chain of thousands of containers costs linear
 * time. Throws once the budget is spent.
 */
function expand(plan: Plan, root: number): void {
  const { ledger } = plan;
  const { state } = ledger;
  if (isRecord(plan, root) && plan.ensured[root] === 0) nameRecord(plan, root);
  // Per open frame, what putting its container in the view costs while it is still closed
  // (its path, comma and brackets): a first child of it pays that and its own bytes.
  const frames: Array<{ u: number; children: number[]; index: number; open: number }> = [
    {
      u: root,
      children: orderedChildren(plan, root),
      index: 0,
      open: state[root] !== DROPPED ? 0 : pathCost(ledger, root) + skeletonCost(ledger, root),
    },
  ];
  while (frames.length > 0) {
    tick(plan);
    const frame = frames[frames.length - 1]!;
    if (frame.index >= frame.children.length) {
      frames.pop();
      continue;
    }
    const c = frame.children[frame.index++]!;
    if (ledger.covered[c] === 1) continue;
    const toChild = state[frame.u] !== DROPPED ? ledger.filled[frame.u]! : frame.open;
    if (keepWhole(ledger, c, toChild)) continue;
    if (plan.tupleTop?.[c] === c) throw SPENT;
    if (!isContainer(plan.inventory, c)) {
      keepCut(ledger, c, toChild);
      throw SPENT;
    }
    if (isRecord(plan, c) && plan.ensured[c] === 0) nameRecord(plan, c, toChild);
    const toOpened = state[frame.u] !== DROPPED ? ledger.filled[frame.u]! : frame.open;
    frames.push({
      u: c,
      children: orderedChildren(plan, c),
      index: 0,
      open: state[c] !== DROPPED ? 0 : toOpened + skeletonCost(ledger, c),
    });
  }
}

/** A field that makes a record stand out: whole when small, else the records around it named. */
function keepAnomalyField(plan: Plan, field: number | undefined): void {
  if (field === undefined) return;
  if (plan.inventory.unitBytes[field]! <= ANOMALY_FIELD_BYTES) keepUnit(plan, field);
  else {
    ensureAround(plan, field, true);
    // A record with no name to show (a zone of a map whose one field beside its key it
    // lacks) is seen by a glimpse of what makes it stand out.
    const record = plan.analysis.recordAbove[field]!;
    if (record >= 0 && identityOf(plan, record) < 0) keepPreview(plan, field);
  }
}

/**
 * Of a container too big to keep (the instances of the one zone of 132 that holds any), its
 * first short values in document order, up to `PREVIEW_BYTES`: what it holds, in brief.
 */
function keepPreview(plan: Plan, u: number): void {
  const { next, unitBytes } = plan.inventory;
  let spent = 0;
  for (let c = u + 1, seen = 0; c < next[u]! && spent < PREVIEW_BYTES && seen < 256; c++, seen++) {
    if (next[c] !== c + 1 || unitBytes[c]! > PREVIEW_VALUE_BYTES) continue;
    keepUnit(plan, c);
    spent += unitBytes[c]!;
  }
}

/**
 * Index of the field of `anomaly` that stands out most, but for its field at `skip` (the first
 * node of those that stand out alike; -1 when none): a reason that says why may come before it.
 */
function strongestField(anomaly: Anomaly, skip: number): number {
  const { fields, fieldScores } = anomaly;
  let strongest = -1;
  for (let i = 0; i < fields.length; i++) {
    if (i === skip) continue;
    const by = strongest < 0 ? 1 : fieldScores[i]! - fieldScores[strongest]!;
    if (by > 0 || (by === 0 && fields[i]! < fields[strongest]!)) strongest = i;
  }
  return strongest;
}

/** Keeps the start of string `node`, at most `most` bytes of it, after the names around it. */
function keepStart(plan: Plan, node: number, most: number): void {
  tick(plan);
  const { ledger } = plan;
  if (ledger.covered[node] === 1 || ledger.state[node] !== DROPPED) return;
  if (plan.inventory.kind[node] !== NODE_STRING) {
    keepUnit(plan, node);
    return;
  }
  ensureAround(plan, node, false);
  if (!keepCut(ledger, node, -1, most)) throw SPENT;
}

function keepIfSmall(plan: Plan, node: number, limit: number): void {
  const u = atomOf(plan, node);
  if (u >= 0 && plan.inventory.unitBytes[u]! <= limit) keepUnit(plan, u);
}

function keepStates(plan: Plan, r: number): void {
  const { analysis } = plan;
  const g = analysis.groupOfSig[analysis.signatures.of[r]!]!;
  if (g < 0) return;
  for (const s of analysis.groups[g]!.states) {
    keepIfSmall(plan, recordField(plan.inventory, analysis, r, s), 512);
  }
}

/**
 * The records of `group` by name where its records share their names, a few each
 * (`SHARED_NAME` to `EVENTS_PER_NAME` on average): one
 * thing's events (a test's run, output and result; a job's queued, started and finished), in
 * the order the names first appear, each with its records in document order. `undefined`
 * where most records have a name of their own.
 */
function recordsByName(plan: Plan, group: RecordGroup): Map<string, number[]> | undefined {
  const { values, distinct } = plan.analysis.columns;
  const s = group.identity;
  // (A name of two fields names one record; one shown with what each record says names many.)
  const label = group.alsoIdentity >= 0 && group.alsoIdentity === group.label;
  if (s < 0 || (group.identityTogether && !label) || group.keyed) return undefined;
  // A few each: a name on many records is a category (a linter's rule over its findings).
  if (distinct[s]! * SHARED_NAME > values[s]! || distinct[s]! * EVENTS_PER_NAME < values[s]!) {
    return undefined;
  }
  const { text, start, end } = plan.inventory;
  const byName = new Map<string, number[]>();
  for (const r of group.records) {
    const u = identityOf(plan, r);
    if (u < 0) continue;
    const name = text.slice(start[u], end[u]);
    const records = byName.get(name);
    if (records) records.push(r);
    else byName.set(name, [r]);
  }
  return byName;
}

/** Names record `r` with its first state and, with `says`, the start of what it says. */
function keepEvent(plan: Plan, group: RecordGroup, r: number, says: boolean): void {
  const { analysis, inventory } = plan;
  ensureAround(plan, r, true);
  if (group.states[0] !== undefined) {
    keepIfSmall(plan, recordField(inventory, analysis, r, group.states[0]), MATCHED_FIELD_BYTES);
  }
  const text = says && group.says >= 0 ? recordSays(inventory, analysis, r, group.says) : -1;
  if (text >= 0) keepStart(plan, text, TEXT_START_BYTES);
}

function primaryGroups(analysis: RecordAnalysis): RecordGroup[] {
  const main = analysis.groups[analysis.main];
  return analysis.groups
    .filter((group) => group.primary)
    .sort((a, b) => Number(b === main) - Number(a === main) || a.records[0]! - b.records[0]!);
}

/**
 * The records of the few that hold the main list's records (a service's events, a trace's
 * spans, a suite's tests): what each says of itself (its name, its state, its counts) is the
 * context of the items it holds, as an envelope's fields are of a list's.
 */
function holderRecords(plan: Plan): Set<number> {
  const { groups, main } = plan.analysis;
  const { kind, parent } = plan.inventory;
  const holders = new Set<number>();
  if (main < 0) return holders;
  // The nearest item of a list above each (a record of a list of a few, or a list's one item).
  let last = -1;
  for (const r of groups[main]!.records) {
    let holder = parent[r]!;
    while (holder > 0 && !(kind[holder] === NODE_OBJECT && isItem(plan, holder))) {
      holder = parent[holder]!;
    }
    if (holder <= 0 || holder === last) continue;
    last = holder;
    if (holders.has(holder)) continue;
    if (holders.size === HOLDERS) return new Set();
    holders.add(holder);
  }
  return holders;
}

/** Whether node `u` is an item of an array or a record (a map's member). */
function isItem(plan: Plan, u: number): boolean {
  return plan.inventory.kind[plan.inventory.parent[u]!] === NODE_ARRAY || isRecord(plan, u);
}

/**
 * Shallow small scalars outside every record: a list's envelope (`kind`, `total_count`), each
 * key with its value once (a `format_version` written again in a nested part says nothing
 * more); and those of the few records that hold the main list (`holderRecords`), each key
 * once per record. Each with the record it tells of (-1 for the envelope).
 */
function contextNodes(plan: Plan): Array<{ at: number; owner: number }> {
  const { kind, next, unitBytes, keyStart, end, parent, text } = plan.inventory;
  const said = new Set<string>();
  const { recordAbove } = plan.analysis;
  const holders = holderRecords(plan);
  // The nodes on the way down to a holder are walked into at any depth.
  const towards = new Set<number>();
  for (const h of holders)
    for (let p = parent[h]!; p > 0 && !towards.has(p); p = parent[p]!) towards.add(p);
  const nodes: Array<{ at: number; owner: number }> = [];
  let visited = 0;
  // Depth first, to two levels below the root (or a holder), as a loop with a stack (no
  // closure per call): the node, the next child to visit, the levels left below it.
  const stackNode: number[] = [];
  const stackChild: number[] = [];
  const stackLevels: number[] = [];
  const stackOwner: number[] = [];
  if (plan.inventory.count > 0) {
    stackNode.push(0);
    stackChild.push(1);
    stackLevels.push(1);
    stackOwner.push(-1);
  }
  while (stackNode.length > 0) {
    const top = stackNode.length - 1;
    const u = stackNode[top]!;
    const c = stackChild[top]!;
    if (!(c < next[u]! && nodes.length < CONTEXT_NODES && visited < 512)) {
      stackNode.pop();
      stackChild.pop();
      stackLevels.pop();
      stackOwner.pop();
      continue;
    }
    stackChild[top] = next[c]!;
    visited++;
    const holder = holders.has(c);
    const owner = stackOwner[top]!;
    if (!holder && (isRecord(plan, c) || (recordAbove[c]! >= 0 && recordAbove[c] !== owner))) {
      continue;
    }
    if (next[c] === c + 1) {
      if (unitBytes[c]! > CONTEXT_BYTES) continue;
      if (keyStart[c]! >= 0) {
        const member = `${owner} ${text.slice(keyStart[c], end[c])}`;
        if (said.has(member)) continue;
        said.add(member);
      }
      nodes.push({ at: c, owner });
    } else if (holder || towards.has(c)) {
      stackNode.push(c);
      stackChild.push(c + 1);
      stackLevels.push(holder ? 1 : 0);
      stackOwner.push(holder ? c : owner);
    } else if (stackLevels[top]! > 0 && !(kind[c] === NODE_ARRAY && isRecord(plan, c + 1))) {
      // A list's array holds records, not envelope: not looked into.
      stackNode.push(c);
      stackChild.push(c + 1);
      stackLevels.push(stackLevels[top]! - 1);
      stackOwner.push(owner);
    }
  }
  return nodes;
}

interface Matches {
  /**
   * Records the query picks out, best first, each with the nodes that match; `strong` where a
   * term it holds is found in a handful of records only.
   */
  records: Array<{ record: number; nodes: number[]; strong: boolean }>;
  /** Matching nodes outside every record. */
  loose: number[];
}

/**
 * The records the query (or a preserved key) picks out: those holding a term that few records
 * hold, ranked by the rarity of the terms they hold.
 */
function findMatches(plan: Plan, hits: RelevanceHits | undefined): Matches {
  const matches: Matches = { records: [], loose: [] };
  if (!hits?.queryMatched) return matches;
  const { inventory, analysis } = plan;
  const { recordAbove } = analysis;
  let totalRecords = 0;
  for (const group of analysis.groups) if (group.primary) totalRecords += group.records.length;
  const termRecords = hits.terms.map(() => new Set<number>());
  const found: Array<{ node: number; record: number; term: number; prose: boolean }> = [];
  const nodesOfHits = hitNodes(inventory, hits);
  // A word that is a key names a field, not the records holding it (every record does).
  for (const h of valueHits(inventory, hits)) {
    const term = hits.termOf[h]!;
    if (hits.terms[term]!.kind === 'error' || !(hits.weights[term]! > 0)) continue;
    const node = nodesOfHits[h]!;
    // A word inside a URL, a path or a token (`/events` in every `events_url`) is part of an
    // address, not what the value says: only the whole value matching it counts there.
    const fieldClass = classOfField(inventory, analysis, analysis.signatures.of[node]!);
    const { wholeToken, word } = hits.terms[term]!;
    if (
      (fieldClass === CLASS_LOCATOR || fieldClass === CLASS_OPAQUE) &&
      wholeToken === true &&
      word !== undefined &&
      !ADDRESS_PART.test(word)
    ) {
      continue;
    }
    const record = isRecord(plan, node) ? node : recordAbove[node]!;
    termRecords[term]!.add(record);
    // A word inside free text (a message, a description) only narrows the list.
    found.push({ node, record, term, prose: fieldClass === CLASS_PROSE && wholeToken === true });
  }
  const selectiveLimit = Math.max(3, 0.25 * totalRecords);
  const selective = termRecords.map((records) => records.size <= selectiveLimit);
  // Matching nodes of terms found in most records, after the keys matched (see below).
  const common: number[] = [];
  const byRecord = new Map<
    number,
    { score: number; terms: Set<number>; nodes: number[]; common: number[]; strong: boolean }
  >();
  // A term found in a handful of records names them (an id, a value asked for); one found in
  // more only narrows the list, and those records wait until every record is named.
  const strongLimit = Math.max(STRONG_RECORDS, STRONG_SHARE * totalRecords);
  for (const { node, record, term, prose } of found) {
    if (record < 0) {
      if (matches.loose[matches.loose.length - 1] !== node) matches.loose.push(node);
      continue;
    }
    if (!selective[term]) {
      common.push(node);
      continue;
    }
    let entry = byRecord.get(record);
    if (!entry) {
      entry = { score: 0, terms: new Set(), nodes: [], common: [], strong: false };
      byRecord.set(record, entry);
    }
    if (!entry.terms.has(term)) {
      entry.terms.add(term);
      entry.score += hits.weights[term]!;
      // A term that is a whole value (`"svc-4"`) names what holds it, however many do.
      if (
        !prose &&
        (termRecords[term]!.size <= strongLimit || hits.terms[term]!.wholeToken !== true)
      ) {
        entry.strong = true;
      }
    }
    if (entry.nodes[entry.nodes.length - 1] !== node) entry.nodes.push(node);
  }
  // Within a matched record, the fields a common term names (`html_url` asked for by name):
  // the keys matched, in text order, then the values of terms found in most records. Keys match
  // in every record of a list that has them, so they are looked for again only when some
  // record matched.
  const addToMatched = (node: number) => {
    for (let r = recordAbove[node]!; r >= 0; r = recordAbove[r]!) {
      const entry = byRecord.get(r);
      if (entry) {
        entry.nodes.push(node);
        break;
      }
    }
  };
  if (byRecord.size > 0) {
    for (let h = 0; h < hits.positions.length; h++) {
      const term = hits.termOf[h]!;
      if (hits.terms[term]!.kind === 'error' || !(hits.weights[term]! > 0)) continue;
      const node = nodesOfHits[h]!;
      if (node <= 0) continue;
      if (inventory.keyStart[node]! >= 0 && hits.positions[h]! < inventory.keyEnd[node]!) {
        addToMatched(node);
      }
    }
    for (const node of common) addToMatched(node);
  }
  matches.records = [...byRecord.entries()]
    .sort((a, b) => b[1].score - a[1].score || a[0] - b[0])
    .slice(0, MATCHED_RECORDS)
    .map(([record, entry]) => ({ record, nodes: entry.nodes, strong: entry.strong }));
  return matches;
}

/** Per hits of a trim: the node of each hit (see `hitNodes`). */
const hitNodesOf = new WeakMap<RelevanceHits, Int32Array>();

/**
 * The node holding each of `hits`' hits (`nodeAt` its position), found once per trim in one
 * walk along the text: the question's words are looked up by `commonQueryWords` before the
 * selection and by `findMatches` in it.
 */
function hitNodes(inventory: JsonInventory, hits: RelevanceHits): Int32Array {
  let nodes = hitNodesOf.get(hits);
  if (!nodes) {
    nodes = new Int32Array(hits.positions.length);
    for (let h = 0; h < nodes.length; h++) {
      nodes[h] = nodeAt(inventory, hits.positions[h]!, h > 0 ? nodes[h - 1]! : 0);
    }
    hitNodesOf.set(hits, nodes);
  }
  return nodes;
}

/** Per hits of a trim: the hits in a value (see `valueHits`). */
const valueHitsOf = new WeakMap<RelevanceHits, Int32Array>();

/**
 * The hits (their indices, in text order) inside a value rather than a key, of a node past the
 * root, found once per trim: in a list, a question's word that is a key matches in every record,
 * and the passes that read what values say stepped over each such hit.
 */
function valueHits(inventory: JsonInventory, hits: RelevanceHits): Int32Array {
  let found = valueHitsOf.get(hits);
  if (!found) {
    const nodes = hitNodes(inventory, hits);
    const { keyStart, keyEnd } = inventory;
    let count = 0;
    const at = new Int32Array(nodes.length);
    for (let h = 0; h < nodes.length; h++) {
      const node = nodes[h]!;
      if (node <= 0 || (keyStart[node]! >= 0 && hits.positions[h]! < keyEnd[node]!)) continue;
      at[count++] = h;
    }
    found = at.slice(0, count);
    valueHitsOf.set(hits, found);
  }
  return found;
}

/** A unit kept or split as one in the detail pass: a leaf, or a subtree up to this size. */
const ATOM_BYTES = 256;

/**
 * The fields of the detail pass, best first: the signatures whose nodes are its units (every
 * node of them a leaf or at most `ATOM_BYTES`, the outermost such), ordered by the information
 * per byte of their nodes, then document order of the field. Linear in the signatures; the
 * nodes of each are then walked along their signature's chain, so nothing is sorted per node.
 */
function detailFields(plan: Plan): number[] {
  const { signatures, nodeBits } = plan.analysis;
  const { count: sigs, parent, maxBytes, leaves, nodes, bytes } = signatures;
  const inside = new Uint8Array(sigs);
  const buckets: number[][] = [];
  for (let b = 0; b < BUCKETS; b++) buckets.push([]);
  for (let s = 1; s < sigs; s++) {
    const p = parent[s]!;
    if (p > 0 && inside[p] !== 0) {
      inside[s] = 1;
      continue;
    }
    const bucket = ipbBucket(nodeBits[s]!, bytes[s]! / nodes[s]! + 1);
    if (maxBytes[s]! <= ATOM_BYTES || leaves[s] === nodes[s]) {
      inside[s] = 1;
      buckets[bucket]!.push(s);
    } else if (leaves[s]! > 0) {
      // Some nodes of it are big containers (split further down), some leaves: the leaves.
      buckets[bucket]!.push(~s);
    }
  }
  // A plain loop: `flat` takes a generic path through its arguments that cost more here.
  const fields: number[] = [];
  for (const bucket of buckets) for (const s of bucket) fields.push(s);
  return fields;
}

/**
 * Runs the plan, in this order, until the first unit that does not fit: the records the query
 * picks out (identity and matching fields, then whole when small); the records that stand out
 * (identity and what stands out most); the envelope's small fields; every record's identity,
 * then its other name (an `id` beside a `name`), then its states; the rest of what stands out;
 * the anomalous records whole when small, the matched records whole, the strongest anomalies
 * whole; then every other value by the information per byte of its field. Each step keeps a unit whole when it
 * fits and splits it when not, and a record is never shown without its identity.
 */
function runPlan(
  plan: Plan,
  hits: RelevanceHits | undefined,
  preserved: readonly number[],
  asked: readonly number[],
  order: RecordOrder,
  noteSteps: readonly number[],
  rows: readonly number[],
  items: readonly AskedItem[],
): void {
  const { analysis } = plan;

  const matches = findMatches(plan, hits);
  const strong = matches.records.filter((match) => match.strong);
  const keepMatched = (picked: ReadonlyArray<{ record: number; nodes: number[] }>) => {
    for (const { record, nodes } of picked) {
      ensureAround(plan, record, true);
      keepStates(plan, record);
      for (const node of nodes.slice(0, MATCHED_FIELDS)) {
        keepIfSmall(plan, node, MATCHED_FIELD_BYTES);
      }
    }
  };
  keepMatched(strong);
  for (const node of matches.loose.slice(0, MATCHED_RECORDS)) {
    keepIfSmall(plan, node, MATCHED_FIELD_BYTES);
  }
  for (const { record } of strong) keepIfSmall(plan, record, SMALL_MATCHED_RECORD);

  // Each anomalous record's identity, what says why it stands out (a reason before the flag it
  // explains) and what makes it stand out most; the rest of what stands out, and whole records,
  // come once every record is named (many small oddities must not crowd the names out).
  // The records a question about order asks for (`last 5`, a time window): what it asks, so
  // before what stands out unasked.
  const askedFor = order.askedFor ?? 0;
  for (const { record, field } of order.leading.slice(0, askedFor)) {
    ensureAround(plan, record, true);
    keepIfSmall(plan, field, MATCHED_FIELD_BYTES);
  }
  // A question that names fields of every record (`what is the status of each run?`) is
  // answered record by record: each one's name with those fields, before the names alone.
  if ((asked.length > 0 || items.length > 0) && analysis.main >= 0) {
    const { ledger, inventory } = plan;
    for (const r of analysis.groups[analysis.main]!.records) {
      // A record named without what was asked of it answers nothing: the plan stops before
      // one whose name and fields do not fit (each field priced as if the record were open,
      // the keys it shares with the name counted twice: at most what they take).
      const fields = asked.map((s) => recordField(inventory, analysis, r, s));
      for (const item of items) fields.push(...askedItemNodes(inventory, analysis, r, item));
      if (plan.ensured[r] === 0) {
        const identity = identityOf(plan, r);
        let cost = identity >= 0 && ledger.covered[identity] === 0 ? keepCost(ledger, identity) : 0;
        const opening =
          ledger.state[r] === DROPPED ? pathCost(ledger, r) + skeletonCost(ledger, r) - 1 : 0;
        for (const u of fields) {
          if (u >= 0 && inventory.unitBytes[u]! <= ASKED_FIELD_BYTES) {
            cost += Math.max(0, keepCost(ledger, u) - opening);
          }
        }
        if (cost > ledger.limit - ledger.used) throw SPENT;
      }
      ensureAround(plan, r, true);
      for (const u of fields) keepIfSmall(plan, u, ASKED_FIELD_BYTES);
    }
  }
  const anomalies = analysis.anomalies.slice(0, analysis.leadingAnomalies);
  // The few that stand out most, each whole where it is small beside the whole document (a log
  // event's level, time and message together): a reader sees what happened, not a flag alone.
  // The share is of the document, not of the budget, so a larger budget only goes further.
  const smallBeside = plan.inventory.unitBytes[0]! * LEADING_WHOLE_SHARE;
  for (const anomaly of anomalies.slice(0, LEADING_WHOLE)) {
    const { record } = anomaly;
    if (plan.inventory.unitBytes[record]! > Math.min(SMALL_ANOMALY, smallBeside)) continue;
    ensureAround(plan, record, true);
    keepUnit(plan, record);
  }
  for (const anomaly of anomalies) {
    ensureAround(plan, anomaly.record, true);
    keepAnomalyField(plan, anomaly.fields[0]);
    // The next that stands out most: the flag a reason explains, or the next strongest.
    const second = strongestField(anomaly, 0);
    if (second >= 0 && anomaly.fieldScores[second]! >= STRONG_FIELD) {
      keepAnomalyField(plan, anomaly.fields[second]);
    }
  }

  // What names the positions of rows read by position (a result's `schema`): after the records
  // that stand out, before any other row; where the records are named by a field outside their
  // rows (a Table's pods by `object.metadata.name`, beside their `cells`), once they are named.
  const rowsName = namedInRows(plan, analysis);
  if (rowsName) keepTupleHeaders(plan);
  // The rows of a table read as records that stand out, once their columns are named.
  for (const row of rows) keepIfSmall(plan, row, SMALL_ANOMALY);
  // Then the envelope's small fields (`kind`, `total_count`), and small error-like values
  // outside every record: after the records that stand out, which a tight budget must not
  // give up for `"kind":"List"`.
  // Shortest first (a `status`, a count before five URLs of the same thing); the long ones
  // come once every record is named.
  // Of each (the envelope, each holder), its short ones up to a few before the names.
  // A holder's field whose key says it names the record goes first, then one that says it is
  // its state: a lone record has no others to compare it with, so its key breaks the tie.
  // Then its own fields; those of the parts it holds (the day and hour of its creation,
  // written as an object) wait for the names.
  const rank = (u: number, owner: number): number => {
    if (owner < 0) return 2;
    const { text, keyStart, keyEnd, parent } = plan.inventory;
    if (parent[u] !== owner) return 3;
    if (keyStart[u]! < 0) return 2;
    const hints = keyHints(text.slice(keyStart[u]! + 1, keyEnd[u]! - 1), plan.analysis.vocabulary);
    return hints.identity > 0 ? 0 : hints.state ? 1 : 2;
  };
  const context = contextNodes(plan)
    .map((entry) => ({ ...entry, rank: rank(entry.at, entry.owner) }))
    .sort(
      (a, b) =>
        a.rank - b.rank ||
        plan.inventory.unitBytes[a.at]! - plan.inventory.unitBytes[b.at]! ||
        a.at - b.at,
    );
  const shownOf = new Map<number, number>();
  const later: number[] = [];
  for (const { at: node, owner, rank: r } of context) {
    const shown = shownOf.get(owner) ?? 0;
    // (A holder's parts wait for the names: its own fields say its state.)
    if (r < 3 && shown < CONTEXT_FIRST && plan.inventory.unitBytes[node]! <= CONTEXT_FIRST_BYTES) {
      keepUnit(plan, node);
      shownOf.set(owner, shown + 1);
    } else {
      later.push(node);
    }
  }
  // And when the envelope says its records were made (a test run's `start` and `end`, a
  // response's time): order is information, in the envelope too.
  let times = 0;
  for (const u of later) {
    if (times === CONTEXT_TIMES) break;
    if (valueClass(plan.inventory, u) !== CLASS_TIME) continue;
    keepUnit(plan, u);
    times++;
  }
  for (const u of analysis.errorContext) keepIfSmall(plan, u, MATCHED_FIELD_BYTES);
  // Records of one name, where they share names (`recordsByName`), found once per group.
  const byName = new Map<RecordGroup, Map<string, number[]> | undefined>();
  const namedGroup = (g: number): Map<string, number[]> | undefined => {
    const group = analysis.groups[g]!;
    if (!byName.has(group)) byName.set(group, recordsByName(plan, group));
    return byName.get(group);
  };
  // Order is information: always the newest and the oldest, then the four newest after the
  // newest (the last five), each named with its time.
  for (const { record, field } of [...order.leading.slice(askedFor), ...order.afterNames]) {
    ensureAround(plan, record, true);
    keepIfSmall(plan, field, MATCHED_FIELD_BYTES);
    // An event of a name others share says what happened by its state (`pass` for a job).
    const g = analysis.groupOfSig[analysis.signatures.of[record]!]!;
    if (g >= 0 && namedGroup(g)) keepEvent(plan, analysis.groups[g]!, record, false);
  }

  // A record that stands out by a name it shares (a failed test's result) is told with the
  // records of that name nearest it (the test's output before it), each with its state and
  // what it says: its events say why (after the newest and the oldest, before the names).
  let told = 0;
  for (const { record } of anomalies) {
    const g = analysis.groupOfSig[analysis.signatures.of[record]!]!;
    const names = g >= 0 ? namedGroup(g) : undefined;
    const u = names ? identityOf(plan, record) : -1;
    if (u < 0) continue;
    const { text, start, end } = plan.inventory;
    // Within as many records as that many names' events take (not the same name's run in
    // another package, hundreds of records away).
    const group = analysis.groups[g]!;
    const window = (SIBLINGS * group.records.length) / names!.size;
    const siblings = names!.get(text.slice(start[u], end[u]))!;
    // Records are in document order: where each is in the list, by search, not by a scan.
    const at = lowerBound(group.records, record);
    const nearest = siblings
      .filter((r) => r !== record && Math.abs(lowerBound(group.records, r) - at) <= window)
      .sort((a, b) => Math.abs(a - record) - Math.abs(b - record) || a - b)
      .slice(0, SIBLINGS);
    for (const r of nearest) {
      // Named with its state and what it says; where no field says what records do, whole
      // where small (an output line's record).
      if (group.says < 0 && plan.inventory.unitBytes[r]! <= SMALL_SIBLING) {
        ensureAround(plan, r, true);
        keepUnit(plan, r);
      } else {
        keepEvent(plan, group, r, true);
      }
    }
    if (++told === SIBLING_ANOMALIES) break;
  }

  const groups = primaryGroups(analysis);
  // Records that share their names are one thing's events: each thing first, by its last
  // event (how it ended) with its state, then every record.
  for (const group of groups) {
    const names = namedGroup(analysis.groups.indexOf(group));
    for (const records of names?.values() ?? []) keepEvent(plan, group, records.at(-1)!, false);
  }
  for (const group of groups) {
    for (const r of group.records) ensureAround(plan, r, true);
  }
  if (!rowsName) keepTupleHeaders(plan);
  for (const u of later) keepUnit(plan, u);
  // Every record named: what the note tells of all of them comes before more of each.
  grantNote(plan, noteSteps);
  // The records the question narrows the list to, once every record is named.
  keepMatched(matches.records.filter((match) => !match.strong));
  for (const { record } of matches.records) keepIfSmall(plan, record, SMALL_MATCHED_RECORD);
  // Past the leading few, a record whose state is rare (a fourth odd conclusion among a hundred
  // runs) shows it once every record is named, before the states of the others; other
  // oddities (a profile colour) wait.
  const { signatures, groupOfSig } = analysis;
  for (let a = analysis.leadingAnomalies; a < analysis.anomalies.length; a++) {
    const { record, fields, fieldScores } = analysis.anomalies[a]!;
    const g = groupOfSig[signatures.of[record]!]!;
    const strongest = strongestField(analysis.anomalies[a]!, -1);
    const field = fields[strongest];
    if (
      field !== undefined &&
      g >= 0 &&
      fieldScores[strongest]! >= STRONG_FIELD &&
      fewValued(analysis, signatures.of[field]!)
    ) {
      keepAnomalyField(plan, field);
    }
  }
  for (const group of groups) {
    if (group.alsoIdentity < 0) continue;
    for (const r of group.records) {
      keepIfSmall(plan, recordSays(plan.inventory, analysis, r, group.alsoIdentity), 128);
    }
  }
  // The first state of every record; its second comes after what every record says.
  const keepState = (i: number) => {
    for (const group of groups) {
      const s = group.states[i];
      if (s === undefined) continue;
      for (const r of group.records) {
        keepIfSmall(plan, recordField(plan.inventory, analysis, r, s), 512);
      }
    }
  };
  keepState(0);
  for (const u of preserved) keepIfSmall(plan, u, MATCHED_FIELD_BYTES);

  for (const anomaly of anomalies) {
    keepStates(plan, anomaly.record);
    for (const field of anomaly.fields.slice(1)) keepAnomalyField(plan, field);
  }
  for (const anomaly of anomalies) {
    keepIfSmall(plan, anomaly.record, SMALL_ANOMALY);
  }
  for (const { record } of matches.records) keepUnit(plan, record);
  // What every record says (a tweet, an event's message) before the strongest anomalies whole:
  // a record that stands out by its profile colours must not take the room of every tweet. A
  // text said before (58 tweets retweeting one post) waits for the detail pass.
  const { text, start, end, valueHash } = plan.inventory;
  for (const group of groups) {
    if (group.says < 0) continue;
    const said = new Map<number, number>();
    for (const r of group.records) {
      const u = recordSays(plan.inventory, analysis, r, group.says);
      if (u < 0) continue;
      const before = said.get(valueHash[u]!);
      if (before === undefined) said.set(valueHash[u]!, u);
      else if (sameText(text, start[before]!, end[before]!, start[u]!, end[u]!)) continue;
      // A long text (a prompt, a tool's output) by its start: what it is about comes first.
      if (plan.inventory.unitBytes[u]! <= MESSAGE_BYTES) keepUnit(plan, u);
      else keepStart(plan, u, TEXT_START_BYTES);
    }
  }
  keepState(1);
  for (const anomaly of anomalies.slice(0, WHOLE_ANOMALIES)) {
    if (anomaly.score >= WHOLE_ANOMALY_SCORE) keepUnit(plan, anomaly.record);
  }

  const { first, nextSame } = analysis.signatures;
  const { next } = plan.inventory;
  for (const field of detailFields(plan)) {
    const leavesOnly = field < 0;
    for (let u = first[leavesOnly ? ~field : field]!; u >= 0; u = nextSame[u]!) {
      if (!leavesOnly || next[u] === u + 1) keepUnit(plan, u);
    }
  }
}

/** Moves the largest of `steps` that half the body's rest spares from the body to the note. */
function grantNote(plan: Plan, steps: readonly number[]): void {
  const { ledger } = plan;
  const spare = Math.floor((ledger.limit - ledger.used) * NOTE_GRANT_SHARE);
  let grant = 0;
  for (const step of steps) if (step <= spare) grant = step;
  ledger.limit -= grant;
  plan.noteGrant = grant;
}

/**
 * Whether a field takes few values, each shared by several records (a `conclusion`, a `phase`):
 * a rare one of them is a state worth showing for each record that has it.
 */
function fewValued(analysis: RecordAnalysis, s: number): boolean {
  const distinct = analysis.distinct[s]!;
  return distinct >= 2 && distinct <= FEW_VALUES && distinct <= 0.5 * analysis.values[s]!;
}

/**
 * The question's words that are the whole value (not a key, nor a word inside a longer value)
 * of at least half of `group`'s records: words that say which records (`pod` in a list of pods
 * of `kind: Pod`), not which field. A word only inside their values (`node` in every pod's
 * `system-node-critical`) may still name a field (`spec.nodeName`).
 */
export function commonQueryWords(
  inventory: JsonInventory,
  analysis: RecordAnalysis,
  group: RecordGroup,
  hits: RelevanceHits | undefined,
): Set<string> {
  const common = new Set<string>();
  if (!hits?.queryMatched) return common;
  const recordsOf = new Map<string, Set<number>>();
  const { recordAbove, groupOfSig, signatures } = analysis;
  const nodesOfHits = hitNodes(inventory, hits);
  for (const h of valueHits(inventory, hits)) {
    const term = hits.terms[hits.termOf[h]!]!;
    if (term.kind !== 'query' || term.word === undefined) continue;
    const at = hits.positions[h]!;
    const node = nodesOfHits[h]!;
    if (!wholeValue(inventory, node, at, term.word.length)) continue;
    let record = recordAbove[node]!;
    while (record >= 0 && groupOfSig[signatures.of[record]!] !== groupOfSig[group.sig]) {
      record = recordAbove[record]!;
    }
    if (record < 0) continue;
    let records = recordsOf.get(term.word);
    if (!records) {
      records = new Set();
      recordsOf.set(term.word, records);
    }
    records.add(record);
  }
  for (const [word, records] of recordsOf) {
    if (records.size >= 0.5 * group.records.length) common.add(word);
  }
  return common;
}

/**
 * Whether the word of `length` units found at `at` is the whole of `node`'s value (a string's
 * content, give or take a plural's letter: `pods` for `Pod`).
 */
function wholeValue(inventory: JsonInventory, node: number, at: number, length: number): boolean {
  const quoted = inventory.kind[node] === NODE_STRING ? 1 : 0;
  const content = inventory.end[node]! - inventory.start[node]! - 2 * quoted;
  // A hit on a whole string value is found at its opening quote.
  const from = inventory.start[node]!;
  return (at === from || at === from + quoted) && Math.abs(content - length) <= 1;
}

/** The preserved-key matches, as nodes, in text order. */
function preservedNodes(inventory: JsonInventory, hits: RelevanceHits | undefined): number[] {
  const nodes: number[] = [];
  // No key matched (`queryMatched` counts them): no hit's node is looked for.
  if (!hits?.queryMatched) return nodes;
  const nodesOfHits = hitNodes(inventory, hits);
  for (let h = 0; h < hits.positions.length; h++) {
    if (hits.terms[hits.termOf[h]!]!.kind !== 'key') continue;
    const node = nodesOfHits[h]!;
    if (node > 0 && nodes[nodes.length - 1] !== node) nodes.push(node);
  }
  return nodes;
}

/**
 * Fields of the group's records that every record has with one same short value, and that no
 * record in the view shows: what a reader would otherwise have to guess (`status.phase` =
 * `Running` in every pod). States first, then shallow ones; three at most.
 */
function constantFields(
  inventory: JsonInventory,
  analysis: RecordAnalysis,
  group: RecordGroup,
  shownAny: Uint8Array,
): Array<{ field: string; value: string; state: boolean }> {
  const { signatures, values, distinct, presence } = analysis;
  const records = group.records.length;
  const found: Array<{ s: number; rank: number }> = [];
  for (let s = group.sig + 1; s < signatures.count; s++) {
    if (signatures.step[s] !== 1 || presence[s] !== records || values[s] !== records) continue;
    if (distinct[s] !== 1 || shownAny[s] === 1) continue;
    let depth = 0;
    let t = s;
    for (; t !== group.sig && t > 0 && signatures.step[t] === 1 && depth < 3; depth++) {
      t = signatures.parent[t]!;
    }
    if (t !== group.sig) continue;
    const u = signatures.first[s]!;
    if (inventory.unitBytes[u]! > 64) continue;
    const state = keyHints(signatureKey(inventory, signatures, s), analysis.vocabulary).state;
    found.push({ s, rank: (state ? 0 : 10) + depth });
  }
  found.sort((a, b) => a.rank - b.rank || a.s - b.s);
  return found.slice(0, 3).map(({ s, rank }) => {
    const u = signatures.first[s]!;
    const value = inventory.text.slice(inventory.start[u]!, inventory.end[u]!);
    return {
      field: fieldPath(inventory, analysis, s, group.sig),
      value: value.startsWith('"') ? value.slice(1, -1) : value,
      state: rank < 10,
    };
  });
}

/**
 * The head of the records note of any view of this document, at its longest (every record
 * named and whole), or `undefined` when the document has no list: what the note must hold room
 * for before anything is selected.
 */
export function recordsHead(
  inventory: JsonInventory,
  analysis: RecordAnalysis,
): RecordCoverage | undefined {
  const group = analysis.main >= 0 ? analysis.groups[analysis.main] : undefined;
  if (!group) return undefined;
  const total = group.records.length;
  const head: RecordCoverage = {
    path: signaturePath(inventory, analysis, group.sig),
    total,
    named: total,
    whole: total,
  };
  // Past `maxJsonNodes` the list may go on with records the analysis did not see: the note
  // then claims no value for every record (`formatRecordCoverage`).
  if (inventory.truncated) head.atLeast = true;
  const namedBy = namedByOf(inventory, analysis, group);
  if (namedBy !== undefined) head.namedBy = namedBy;
  return head;
}

/** The header of each list of rows read by position (`tupleHeaders`), field by field. */
function keepTupleHeaders(plan: Plan): void {
  if (!plan.tupleTop) return;
  const { kind, next } = plan.inventory;
  for (const header of tupleHeaders(plan.inventory, plan.tupleTop)) {
    for (let c = header + 1; c < next[header]!; c = next[c]!) {
      if (kind[c] === NODE_OBJECT && isRecord(plan, c)) ensureAround(plan, c, true);
      else keepIfSmall(plan, c, CONTEXT_BYTES);
    }
  }
}

/** Whether the records are rows read by position, or named by a field inside one. */
function namedInRows(plan: Plan, analysis: RecordAnalysis): boolean {
  const group = analysis.main >= 0 ? analysis.groups[analysis.main] : undefined;
  if (!plan.tupleTop || !group || group.identity < 0) return true;
  const record = group.records[0]!;
  if (plan.tupleTop[record]! >= 0) return true;
  const name = recordField(plan.inventory, analysis, record, group.identity);
  return name < 0 || plan.tupleTop[name]! >= 0;
}

/** Whether node `u` is in the view: inside a unit kept whole, or kept itself (whole or cut). */
function shownInView(ledger: SelectionLedger, u: number): boolean {
  return ledger.covered[u] === 1 || ledger.state[u] !== DROPPED;
}

/**
 * Per signature, whether a node of it is in the view (`shownInView`). Only the view's nodes and
 * their siblings are visited: a node in the view has every container around it in the view
 * (a selection opens the path to what it keeps), so a subtree whose root is not holds none.
 * Walking each field's chain of nodes until one was shown walked every node of the fields no
 * record shows.
 */
function shownSignatures(
  inventory: JsonInventory,
  signatures: JsonSignatures,
  ledger: SelectionLedger,
): Uint8Array {
  const shown = new Uint8Array(signatures.count);
  const { of: sigOf } = signatures;
  const { next, count } = inventory;
  const { covered, state } = ledger;
  for (let u = 0; u < count; ) {
    if (covered[u] === 1 || state[u] !== DROPPED) {
      shown[sigOf[u]!] = 1;
      u++;
    } else u = next[u]!;
  }
  return shown;
}

function coverage(
  inventory: JsonInventory,
  analysis: RecordAnalysis,
  ledger: SelectionLedger,
): RecordCoverage | undefined {
  const group = analysis.main >= 0 ? analysis.groups[analysis.main] : undefined;
  if (!group) return undefined;
  const { covered } = ledger;
  let named = 0;
  let whole = 0;
  let shownUnnamed = 0;
  // Records left out, by their first state's value as written: counted by the value's entry in
  // the column statistics, whose first node's text each is compared with in place (an entry is
  // a hash, which two values may share), else by text; '' where a record has none.
  const { text, start, end } = inventory;
  const { entryOf, entries } = analysis.columns;
  // Per entry, its first node left out (+1, 0 for none) and how many: a map of entries cost a
  // lookup per record left out, nearly every record of a long list.
  const firstOmitted = new Int32Array(entries);
  const omittedCount = new Int32Array(entries);
  const omittedEntries: number[] = [];
  const omittedByValue = new Map<string, number>();
  let omittedWithout = 0;
  const firstState = group.states[0] ?? -1;
  const identities = recordFieldNodes(inventory, analysis, group, group.identity);
  const states = recordFieldNodes(inventory, analysis, group, firstState);
  for (let i = 0; i < group.records.length; i++) {
    const r = group.records[i]!;
    if (covered[r] === 1) whole++;
    const identity = identities[i]!;
    // A name of two fields names a record only when both are shown.
    const other = group.identityTogether
      ? recordSays(inventory, analysis, r, group.alsoIdentity)
      : -1;
    // A record that lacks the field is not named by it, and not left out when it is shown.
    if (identity < 0 && group.identity >= 0 && shownInView(ledger, r)) {
      shownUnnamed++;
      continue;
    }
    const isNamed =
      shownInView(ledger, identity >= 0 ? identity : r) &&
      (other < 0 || shownInView(ledger, other));
    if (isNamed) {
      named++;
      continue;
    }
    const stateNode = states[i]!;
    if (stateNode < 0) {
      omittedWithout++;
      continue;
    }
    const entry = entryOf[stateNode]!;
    const first = entry >= 0 ? firstOmitted[entry]! - 1 : -1;
    if (entry >= 0 && first < 0) {
      firstOmitted[entry] = stateNode + 1;
      omittedCount[entry] = 1;
      omittedEntries.push(entry);
    } else if (
      first >= 0 &&
      sameText(text, start[first]!, end[first]!, start[stateNode]!, end[stateNode]!)
    ) {
      omittedCount[entry]!++;
    } else {
      const value = text.slice(start[stateNode]!, end[stateNode]!);
      omittedByValue.set(value, (omittedByValue.get(value) ?? 0) + 1);
    }
  }
  // One text has one entry: the texts counted by entry are none of those counted by text.
  for (const entry of omittedEntries) {
    const first = firstOmitted[entry]! - 1;
    omittedByValue.set(text.slice(start[first]!, end[first]!), omittedCount[entry]!);
  }
  if (omittedWithout > 0) omittedByValue.set('', omittedWithout);
  const omitted: Array<{ count: number; field: string; value: string }> = [];
  // Records left out without a value to tell them by are counted all the same.
  let omittedMore = 0;
  if (firstState >= 0) {
    const field = fieldPath(inventory, analysis, firstState, group.sig);
    // A string is told by what it says (`stringValue`): two spellings of one are one kind.
    const byValue = new Map<string, number>();
    for (const [written, count] of omittedByValue) {
      const value = written.startsWith('"') ? `"${stringValue(written.slice(1, -1))}"` : written;
      byValue.set(value, (byValue.get(value) ?? 0) + count);
    }
    for (const [value, count] of [...byValue.entries()].sort(
      (a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1),
    )) {
      if (value === '') omittedMore += count;
      else
        omitted.push({ count, field, value: value.startsWith('"') ? value.slice(1, -1) : value });
    }
  } else {
    omittedMore = group.records.length - named - shownUnnamed;
  }
  // Fields no record shows: the outermost such, among those most records have; constant
  // fields a level further down are told too, so what is shown of them is marked. Parents come
  // before their children: one pass in order finds each parent settled.
  const { signatures } = analysis;
  const { parent, step } = signatures;
  const shownSig = shownSignatures(inventory, signatures, ledger);
  const shownAny = new Uint8Array(signatures.count);
  const candidate = new Uint8Array(signatures.count);
  const dropped: Array<{ s: number; bytes: number }> = [];
  for (let s = group.sig + 1; s < signatures.count; s++) {
    if (step[s] !== 1) continue;
    const p = parent[s]!;
    const top = p === group.sig;
    if (top || (candidate[p] === 1 && parent[p] === group.sig)) {
      if (analysis.presence[s]! >= 0.5 * group.records.length) candidate[s] = 1;
    }
    if (candidate[s] === 0 && !(candidate[p] === 1 && parent[parent[p]!] === group.sig)) continue;
    shownAny[s] = shownSig[s]!;
    if (candidate[s] === 1 && shownAny[s] === 0 && (top || shownAny[p] === 1)) {
      dropped.push({ s, bytes: signatures.bytes[s]! });
    }
  }
  dropped.sort((a, b) => b.bytes - a.bytes || a.s - b.s);
  const constant = constantFields(inventory, analysis, group, shownAny);
  // With no state that varies, the left-out records are told by a state every record shares.
  const sharedState = constant.find((entry) => entry.state);
  if (omittedMore > 0 && firstState < 0 && sharedState) {
    omitted.push({ count: omittedMore, field: sharedState.field, value: sharedState.value });
    omittedMore = 0;
  }
  return {
    ...recordsHead(inventory, analysis)!,
    named,
    whole,
    // Every field no record shows: those the note tells as constant are left out as it is written.
    droppedFields: dropped.map((entry) => fieldPath(inventory, analysis, entry.s, group.sig)),
    omitted,
    // In the literal, not added after (see `selectText`'s `byLevel`).
    omittedMore: omittedMore > 0 ? omittedMore : undefined,
  };
}

/** The field that names the records of `group`, as the note says it (`id+kind` for two together). */
export function namedByOf(
  inventory: JsonInventory,
  analysis: RecordAnalysis,
  group: RecordGroup,
): string | undefined {
  if (group.identity < 0 || group.keyed) return undefined;
  const path = fieldPath(inventory, analysis, group.identity, group.sig);
  return group.identityTogether && group.alsoIdentity >= 0
    ? `${path}+${fieldPath(inventory, analysis, group.alsoIdentity, group.sig)}`
    : path;
}

/**
 * The information-first selection (the default): spends the budget on what a reader needs
 * first, in a fixed order that does not depend on the budget (see `runPlan`), stopping at the
 * first unit that does not fit (a string there is cut to the room left). Because the order is
 * fixed and the view is always a prefix of it, a larger budget keeps everything a smaller one
 * kept: a record named at one budget is named at every larger one.
 */
export function selectJsonInformative(
  inventory: JsonInventory,
  budget: number,
  hits: RelevanceHits | undefined,
  analysis: RecordAnalysis,
  check?: StopCheck,
  asks: InformativeAsks = {},
): InformativeSelection {
  const {
    asked = [],
    order = { leading: [], afterNames: [] },
    noteSteps = [],
    rows = [],
    items = [],
  } = asks;
  const ledger = createSelectionLedger(inventory, budget);
  const plan = createPlan(inventory, analysis, ledger, check);
  try {
    runPlan(plan, hits, preservedNodes(inventory, hits), asked, order, noteSteps, rows, items);
  } catch (error) {
    if (error !== SPENT) throw error;
  }
  const rendered = renderSelection(inventory, ledger.state, ledger.cutLength, hits, check, false);
  const selection: InformativeSelection = {
    ...rendered,
    state: ledger.state,
    covered: ledger.covered,
    cutLength: ledger.cutLength,
    work: plan.steps + ledger.walked,
    noteGrant: plan.noteGrant,
  };
  const records = coverage(inventory, analysis, ledger);
  if (records) selection.records = records;
  return selection;
}
