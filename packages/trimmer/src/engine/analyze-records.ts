import type { JsonInventory } from '../json/json-inventory.js';
import { NODE_ARRAY, NODE_OBJECT, NODE_STRING } from '../json/json-inventory.js';
import {
  type JsonSignatures,
  jsonSignatures,
  STEP_INDEX,
  STEP_ITEM,
  STEP_KEY,
  signatureKey,
} from '../json/json-signatures.js';
import {
  type Columns,
  type RecordGroup,
  type RecordPaths,
  recordColumns,
} from '../readers/json-records.js';
import { looksOpaque } from '../readers/looks-opaque.js';
import { proseShare } from '../readers/prose-share.js';
import { DEFAULT_VOCABULARY, type Vocabulary } from '../vocabulary.js';
import {
  CLASS_EPOCH,
  CLASS_INTEGER,
  CLASS_NONE,
  CLASS_NUMERIC,
  CLASS_TIME,
  CLASS_UNKNOWN,
  CLASS_WORD,
  chooseIdentity,
  columnClass,
  type RoleContext,
  unreadableId,
  valueClass,
} from './column-roles.js';
import { keyHints } from './key-hints.js';
import { type Anomaly, findAnomalies } from './record-anomalies.js';
import { firstProseLeaf, HOLDS_PROSE, proseBySignature } from './record-says.js';
import type { StopCheck } from './stop-check.js';

export type { RecordGroup } from '../readers/json-records.js';
export { nodeAt, recordField } from '../readers/json-records.js';
export type { Anomaly } from './record-anomalies.js';

/** Column statistics and roles of the records of a document (see `analyzeRecords`). */
export interface RecordAnalysis extends RecordPaths {
  /**
   * Index in `groups` of the list the note tells of: the biggest of the document's lists, or,
   * where most of its bytes are a list inside its records, that inner list; -1 when none.
   */
  main: number;
  /** Per signature: keys below its record (1 for a field of the record itself), -1 if not a field. */
  fieldDepth: Int32Array;
  /** Per signature: what its values look like (`columnClass`, `CLASS_*`). */
  classOf: Uint8Array;
  /** Per signature: 1 where its numbers may be seconds since 1970 though no key says so. */
  epochLike: Uint8Array;
  /** The column statistics the roles were chosen from. */
  columns: Columns;
  /** The words its key hints came from. */
  vocabulary: Vocabulary;
  groups: RecordGroup[];
  /** Group of each signature whose nodes are records, else -1. */
  groupOfSig: Int32Array;
  /** Per node: the nearest object strictly above it that is an array item or map member, -1. */
  recordAbove: Int32Array;
  /** Per signature: an estimate of the information (bits) one of its nodes carries, subtree included. */
  nodeBits: Float32Array;
  /** Records that stand out, most anomalous first (capped at `MORE_ANOMALIES`). */
  anomalies: Anomaly[];
  /**
   * How many of `anomalies` are seen to before every record is named (the strongest few: many
   * small oddities must not crowd the names out); the rest get their field once all are named.
   */
  leadingAnomalies: number;
  /** Small nodes outside every record whose value reads like an error. */
  errorContext: number[];
  /** Per signature: leaf values seen, distinct ones, the commonest one's count. */
  values: Int32Array;
  distinct: Int32Array;
  top: Int32Array;
  /** Per signature: records (nearest above) holding it at least once. */
  presence: Int32Array;
  /** Per signature: whether it reads as prose, or holds a field that does (`proseBySignature`). */
  prose: Uint8Array;
}

/** A list whose records tell something is the one the note tells of from this share of the bytes of a bigger one whose records tell nothing but their names. */
const SILENT_LIST_SHARE = 0.25;
/** A list whose records each say this many times as much as the biggest list's is the one the note tells of. */
const SAYS_MORE = 10;
/** A list inside a list's records is the one the note tells of from this share of its bytes. */
const INNER_LIST_SHARE = 0.5;
/** Or, inside a list inside them (no list of the document's own), from this share. */
const WRAPPED_LIST_SHARE = 0.8;
const STATES_PER_RECORD = 2;
/** A state of more values than this labels an id that reads as nothing. */
const WORD_LABEL_VALUES = 12;
/** What a state one key below the record weighs against one of the record itself. */
const OWN_STATE_SHARE = 0.5;

/** Information assumed for a value with nothing to compare it with. */
const UNIQUE_BITS = 4;
/** A record group is primary from this share of the document's bytes. */
const PRIMARY_SHARE = 0.05;
/** Or, nested in another group's records, from this share of that group's bytes. */
const PRIMARY_NESTED_SHARE = 0.4;
/** A list of at most this many records, each holding this many of a list inside on average, groups it. */
const GROUPING_RECORDS = 4;
const ITEMS_PER_GROUPING_RECORD = 16;

/**
 * Items per record on average, and share of their bytes, from which a list inside records that
 * say nothing but their names is the one they group (a linter's offenses, seven a file), not a
 * few parts of each (a policy's three statements).
 */
const ITEMS_PER_NAMED_RECORD = 4;
const INNER_BYTES_SHARE = 0.5;

/**
 * Whether every record of `outer` holds as many of `inner`'s records (a pod's four conditions:
 * parts of each, where a linter's files hold a few offenses or many). `recordAbove` gives the
 * record each inner one lies in (one of `outer`'s); both lists in document order, so each outer
 * record's items are one run.
 */
function sameCountEach(
  recordAbove: Int32Array,
  outer: readonly number[],
  inner: readonly number[],
): boolean {
  const each = inner.length / outer.length;
  let runs = 0;
  for (let i = 0; i < inner.length; ) {
    const holder = recordAbove[inner[i]!]!;
    const from = i;
    while (i < inner.length && recordAbove[inner[i]!] === holder) i++;
    if (i - from !== each) return false;
    runs++;
  }
  return runs === outer.length;
}

/**
 * Whether the records of `outer`, a handful, only group those of `inner`, many in each (the 200
 * events of 2 services, the spans of 1 trace): then `inner` is the document's list, not a detail
 * of each outer record (a node's images, a policy's statements: their records are many).
 */
function groupsOf(outer: RecordGroup, inner: RecordGroup): boolean {
  return (
    outer.records.length <= GROUPING_RECORDS &&
    inner.records.length >= ITEMS_PER_GROUPING_RECORD * outer.records.length
  );
}

/**
 * Information assumed per UTF-8 byte of a field that reads as prose (in any script: a byte of
 * Japanese says about what a byte of English does), over at most its first `PROSE_BYTES`: a long
 * text says more than a short one, but not in proportion (its first sentences say most), so
 * long ones come later per byte. Above the bits per byte of most short fields, which only tell
 * records apart: what a message or a post says is what a reader reads the list for.
 */
const PROSE_BITS_PER_BYTE = 1;
const PROSE_BYTES = 320;
/** A field whose values are shorter than this on average is not read as prose. */
const PROSE_MIN_UNITS = 16;
/** The field that says what a record is about is at most this many keys below it. */
const MESSAGE_DEPTH = 2;

/** Bits kept per list a field is nested below its record's, and per key it sits deeper. */
const NESTED_SHARE = 0.35;
const DEEPER_SHARE = 0.9;

/** `base ** k` for k < 64 (the depths of real documents), computed once: a power costs a pass. */
function powers(base: number): Float64Array {
  return Float64Array.from({ length: 64 }, (_, k) => base ** k);
}
const NESTED_POWERS = powers(NESTED_SHARE);
const DEEPER_POWERS = powers(DEEPER_SHARE);

function power(table: Float64Array, base: number, k: number): number {
  return k < 64 ? table[k]! : base ** k;
}

/**
 * Finds the lists of records in a document and what their fields say, in a few linear passes:
 * the records (the innermost repeated objects: array items and map members sharing one
 * signature), per field the values seen, how many are distinct and how often the commonest
 * occurs, entropy and redundancy (a URL that repeats the record's id says little), numeric
 * spread; then per list the field that names each record (its identity) and those that tell
 * its state, and the records that stand out: a state rare in its list, a key most records lack,
 * a number far from the rest, an error-like value. Nothing here knows any API's field names;
 * the few words it weighs (`name`, `id`, `status`, `phase`…) are the generic ones of any list.
 * `check` is called every few thousand nodes and may throw to stop. `reads` is what the caller
 * reads: the whole analysis for a view (`view`); the anomalies and what the note says of every
 * record, so no bits or states (`note`, a text of JSON lines); or the anomalies alone, where
 * roles and classes are left unset too unless a list is nested in another's records (whose
 * names decide which lists are the document's) (`anomalies`, JSON lines among a log's).
 */
export function analyzeRecords(
  inventory: JsonInventory,
  check?: StopCheck,
  vocabulary: Vocabulary = DEFAULT_VOCABULARY,
  reads: 'view' | 'note' | 'anomalies' = 'view',
): RecordAnalysis {
  const anomaliesOnly = reads !== 'view';
  const { text, kind, start, end, valueBytes: nodeValueBytes } = inventory;
  const signatures = jsonSignatures(inventory, check);
  const sigCount = signatures.count;
  const { step, nodes: sigNodes, parent: sigParent, depth: sigDepth } = signatures;
  const gathered = recordColumns(inventory, signatures, check);
  const { groups, groupOfSig, values, distinct, top, presence, entropy } = gathered;

  // The group whose records hold each signature's nodes (the nearest record signature above).
  const ownerOfSig = new Int32Array(sigCount).fill(-1);
  for (let s = 1; s < sigCount; s++) {
    const p = sigParent[s]!;
    ownerOfSig[s] = groupOfSig[p]! >= 0 ? groupOfSig[p]! : ownerOfSig[p]!;
  }
  const withRoles = reads !== 'anomalies' || groups.some((group) => ownerOfSig[group.sig]! >= 0);
  // Where each signature sits: keys below the nearest record (a field of it when reached through
  // keys only), and what its key suggests (hints break ties between fields the statistics rank
  // alike; they never decide alone).
  const fieldDepth = new Int32Array(sigCount).fill(-1);
  const identityWeight = new Float32Array(sigCount);
  const identityWord: string[] = new Array(sigCount).fill('');
  const hinted = new Uint8Array(sigCount);
  // A value in a list of one (`"span.id": ["a1b2"]`, as a search engine's fields API writes
  // every field) is the field's value: the list's one position is the field, at its depth
  // (not where other lists hold more, or items of another kind: `[[], "a"]` beside `[0]`).
  const positions = new Int32Array(sigCount);
  for (let s = 1; s < sigCount; s++) {
    if (step[s] === STEP_INDEX || step[s] === STEP_ITEM) positions[sigParent[s]!]!++;
  }
  for (let s = 1; s < sigCount; s++) {
    const p = sigParent[s]!;
    if (step[s] === STEP_INDEX) {
      if (positions[p] === 1 && fieldDepth[p]! >= 1) {
        fieldDepth[s] = fieldDepth[p]!;
        identityWeight[s] = identityWeight[p]!;
        identityWord[s] = identityWord[p]!;
        hinted[s] = hinted[p]!;
      }
      continue;
    }
    if (step[s] !== STEP_KEY) continue;
    if (groupOfSig[p]! >= 0) fieldDepth[s] = 1;
    else if (fieldDepth[p]! > 0) fieldDepth[s] = fieldDepth[p]! + 1;
    if (fieldDepth[s]! < 1 || fieldDepth[s]! > 3) continue;
    const hints = keyHints(signatureKey(inventory, signatures, s), vocabulary);
    identityWeight[s] = hints.identity;
    identityWord[s] = hints.identityWord;
    hinted[s] = hints.state ? 1 : 0;
  }
  const fieldsOfGroup: number[][] = groups.map(() => []);
  for (let s = 1; s < sigCount; s++) {
    if (fieldDepth[s]! >= 1 && fieldDepth[s]! <= 3 && ownerOfSig[s]! >= 0) {
      fieldsOfGroup[ownerOfSig[s]!]!.push(s);
    }
  }
  // What the values of each field look like (names, numbers, times, tokens), from a few of them.
  const classOf = new Uint8Array(sigCount);
  // Numbers that may be seconds since 1970 (or ids handed out in order): what orders the
  // records when no field says it is a time.
  const epochLike = new Uint8Array(sigCount);
  // Only the fields a list's roles and aggregates read (a schema's thousands of nested
  // descriptions are classed when a question's words land in them: `classOfField`).
  for (let s = 1; s < sigCount && withRoles; s++) {
    if (ownerOfSig[s]! < 0 || values[s]! === 0) continue;
    if (fieldDepth[s]! < 1 || fieldDepth[s]! > 3) {
      classOf[s] = CLASS_UNKNOWN;
      continue;
    }
    classOf[s] = columnClass(inventory, signatures, s, vocabulary);
    if (
      (classOf[s] === CLASS_INTEGER || classOf[s] === CLASS_NUMERIC) &&
      valueClass(inventory, signatures.first[s]!) === CLASS_EPOCH
    ) {
      epochLike[s] = 1;
    }
  }
  const roles: RoleContext = {
    inventory,
    signatures,
    gathered,
    fieldDepth,
    identityWeight,
    classOf,
    inEachList: new Map(),
  };

  // Which lists are the document's own: big enough, and not a detail of another list's records
  // (the statements of each policy, the events of each service) unless those records have no
  // name of their own (the hits inside each response of a multi-search). Outer lists first
  // (their signatures come first), so each list knows whether the one around it names its records.
  const documentBytes = Math.max(1, nodeValueBytes[0]!);
  // Whether the records of group `outer` say nothing but their names (a linter's files, each
  // a path and its offenses) and `inner`, a list of many items in each, holds most of their
  // bytes: the outer records only group the inner ones (not a reservation's one instance, nor
  // a policy's few statements).
  const says = (g: number) =>
    fieldsOfGroup[g]!.some((s) => distinct[s]! >= 2 && distinct[s]! < values[s]!);
  const onlyNamed = (outer: number, inner: RecordGroup) =>
    !says(outer) &&
    inner.records.length >= ITEMS_PER_NAMED_RECORD * groups[outer]!.records.length &&
    inner.bytes >= INNER_BYTES_SHARE * groups[outer]!.bytes &&
    !sameCountEach(gathered.recordAbove, groups[outer]!.records, inner.records);
  for (let g = 0; g < groups.length; g++) {
    const group = groups[g]!;
    const above = ownerOfSig[group.sig]!;
    group.above = above;
    const outer = above >= 0 ? groups[above]! : undefined;
    group.oneEach =
      outer !== undefined &&
      group.records.length === outer.records.length &&
      group.records.every((u) => inventory.childIndex[u] === 0);
    group.primary =
      group.bytes >= PRIMARY_SHARE * documentBytes &&
      (outer === undefined ||
        (group.bytes >= PRIMARY_NESTED_SHARE * outer.bytes &&
          (!outer.primary || !outer.named || groupsOf(outer, group) || onlyNamed(above, group))));
    if (withRoles) chooseIdentity(roles, group, fieldsOfGroup[g]!, identityWord);
  }

  // Lists nested below the nearest primary list, and that list's size (no field tells its
  // records apart by more than log2 of their count), and keys below the nearest record.
  const keyDepth = new Int32Array(sigCount);
  const nesting = new Int32Array(sigCount);
  const primaryRecords = new Int32Array(sigCount);
  for (let s = 1; s < sigCount; s++) {
    const p = sigParent[s]!;
    const g = groupOfSig[p]!;
    if (g >= 0) {
      keyDepth[s] = 1;
      nesting[s] = groups[g]!.primary ? 0 : nesting[p]! + 1;
      primaryRecords[s] = groups[g]!.primary ? groups[g]!.records.length : primaryRecords[p]!;
    } else {
      keyDepth[s] = keyDepth[p]! + 1;
      nesting[s] = nesting[p]!;
      primaryRecords[s] = primaryRecords[p]!;
    }
  }

  // Information per value of each signature inside records: entropy, less what repeats the
  // value before, capped at what tells the records apart, less for opaque tokens and deep or
  // nested fields. Outside records, a flat guess that fades with depth.
  const bits = new Float32Array(sigCount);
  // Whether the fields of each key read as prose, as decided so far.
  const proseByKey = new Map<string, boolean>();
  const readsAsProse = new Uint8Array(sigCount);
  for (let s = 1; s < sigCount && !anomaliesOnly; s++) {
    if (ownerOfSig[s]! < 0) {
      bits[s] = UNIQUE_BITS / (1 + sigDepth[s]! / 3);
      continue;
    }
    if (values[s] === 0) continue;
    let b: number;
    const sample = signatures.first[s]!;
    if (values[s]! <= 1) {
      // A field only one record has: what it says is that it is there (see the anomalies);
      // an empty object or array under it says nothing more.
      b = kind[sample] === NODE_OBJECT || kind[sample] === NODE_ARRAY ? 0 : 1;
    } else {
      b = entropy[s]!;
      const novelty = Math.min(
        1,
        Math.max(0.05, gathered.novelBytes[s]! / Math.max(1, gathered.sampledBytes[s]!)),
      );
      b *= novelty;
      if (kind[sample] === NODE_STRING && looksOpaque(text, start[sample]! + 1, end[sample]! - 1)) {
        b *= 0.3;
      }
      // What tells records apart is capped at log2 of their count; what a message or a post
      // says is not: its words, new next to the value before, and distinct across records.
      if (primaryRecords[s]! > 1) b = Math.min(b, Math.log2(primaryRecords[s]!));
      // Only where a text could say more than the field's values tell (long enough, new
      // enough) is it read to see whether it is one.
      const proseBits =
        PROSE_BITS_PER_BYTE * Math.min(PROSE_BYTES, signatures.bytes[s]! / sigNodes[s]!) * novelty;
      if (
        proseBits > b &&
        gathered.valueBytes[s]! >= PROSE_MIN_UNITS * values[s]! &&
        hasString(kind, signatures, s)
      ) {
        const textBits = proseBits * proseShare(inventory, signatures, s, proseByKey);
        if (textBits > b) {
          b = textBits;
          readsAsProse[s] = 1;
        }
      }
    }
    // A record's own fields before those of the lists inside it, shallow before deep.
    b *=
      power(NESTED_POWERS, NESTED_SHARE, nesting[s]!) *
      power(DEEPER_POWERS, DEEPER_SHARE, Math.max(0, keyDepth[s]! - 1));
    if (hinted[s] === 1) b *= 1.5;
    bits[s] = b;
  }
  const prose = proseBySignature(readsAsProse, sigParent);
  // Per node of a signature, its subtree's bits: leaf values' bits summed up the signatures.
  const nodeBits = new Float32Array(sigCount);
  for (let s = sigCount - 1; s >= 1; s--) {
    nodeBits[s]! += bits[s]! * (ownerOfSig[s]! >= 0 ? values[s]! : signatures.leaves[s]!);
    nodeBits[sigParent[s]!]! += nodeBits[s]!;
  }
  for (let s = 1; s < sigCount; s++) nodeBits[s] = nodeBits[s]! / Math.max(1, sigNodes[s]!);

  for (let g = 0; g < groups.length && !anomaliesOnly; g++) {
    const group = groups[g]!;
    const records = group.records.length;
    const stateCandidates: Array<{ s: number; score: number }> = [];
    for (const s of fieldsOfGroup[g]!) {
      if (values[s] === 0 || values[s]! < sigNodes[s]!) continue;
      if (classOf[s] === CLASS_NONE || classOf[s] === CLASS_TIME) continue;
      if (s === group.identity || s === group.alsoIdentity) continue;
      const avgBytes = gathered.valueBytes[s]! / values[s]!;
      const present = presence[s]! / records;
      // A state takes few values, each shared by several records (a column that is mostly
      // null with a few one-off values is not one), and not the same one in nine records of
      // ten: shown for every record, that would say nothing (the note tells how many records
      // hold each value, and the records that differ stand out as anomalies).
      const few = distinct[s]! <= Math.max(3, 0.34 * values[s]!);
      const repeated =
        values[s]! - top[s]! >= 2 * (distinct[s]! - 1) && top[s]! <= 0.9 * values[s]!;
      if (present >= 0.3 && distinct[s]! >= 2 && avgBytes <= 64 && few && repeated) {
        // Free text ranks last, a field of something the record holds (its involved object's
        // kind) below one of its own; a key that reads as a state breaks ties.
        const score =
          ((Math.min(2, entropy[s]!) * present) / (1 + avgBytes / 24)) *
            OWN_STATE_SHARE ** (fieldDepth[s]! - 1) +
          (hinted[s] === 1 ? 0.5 : 0);
        if (score >= 0.25) stateCandidates.push({ s, score });
      }
    }
    stateCandidates.sort((a, b) => b.score - a.score || a.s - b.s);
    group.states = stateCandidates.slice(0, STATES_PER_RECORD).map((candidate) => candidate.s);
    if (!group.primary) continue;
    // The record's own field before one of something it holds (a tweet's `text`, not its
    // author's `user.description`), then the most information per byte.
    let saysDepth = MESSAGE_DEPTH + 1;
    let saysPerByte = 0;
    for (const s of fieldsOfGroup[g]!) {
      if (readsAsProse[s] === 0 || fieldDepth[s]! > MESSAGE_DEPTH || s === group.identity) continue;
      // Present in most records, and not one text for all (what every record says the same
      // is said once, in the note, or is a state).
      if (presence[s]! < 0.5 * records || distinct[s]! < Math.max(2, 0.1 * values[s]!)) continue;
      const perByte = nodeBits[s]! / (signatures.bytes[s]! / sigNodes[s]! + 1);
      if (fieldDepth[s]! < saysDepth || (fieldDepth[s] === saysDepth && perByte > saysPerByte)) {
        saysDepth = fieldDepth[s]!;
        saysPerByte = perByte;
        group.says = s;
      }
    }
    // An id that reads as nothing (a span's hex `id`) with no word beside it and no text that
    // says what each record is (that would label it: below) is shown with the word its
    // records divide by into more than a few (each span's operation `name`, one of 69 over
    // 1 041 spans): a state, but what a reader knows the record by.
    const wordState = group.states.findIndex(
      (s) => classOf[s] === CLASS_WORD && distinct[s]! > WORD_LABEL_VALUES,
    );
    if (
      group.identity >= 0 &&
      group.alsoIdentity < 0 &&
      group.says < 0 &&
      !group.keyed &&
      unreadableId(classOf[group.identity]!) &&
      wordState >= 0
    ) {
      group.alsoIdentity = group.states.splice(wordState, 1)[0]!;
      group.identityTogether = true;
    }
    // Records with nothing that tells them apart (a scanner's results: a rule, a level, a
    // location, a message) and a field that says what each is about are called by what they
    // are of, their first state, as the best there is (no name: `named` stays false), with
    // what each says beside it (below). Without such a text, a state names nothing.
    if (group.identity < 0 && group.says >= 0 && !group.keyed && group.states.length > 0) {
      // A word before a number that divides them alike (a `ruleId` before its `ruleIndex`).
      const numeric = (s: number) => classOf[s] === CLASS_INTEGER || classOf[s] === CLASS_NUMERIC;
      const word = group.states.findIndex((s) => !numeric(s));
      group.identity = group.states.splice(Math.max(0, word), 1)[0]!;
    }
    // Where no field of the record reads as prose and nothing readable names it, what it says
    // may be a level down, in parts it holds (a message's list of blocks: a text, a tool
    // call, its output): what a reader can tell the records by.
    // So may an event named by its time (it says when, not what) or by a field many records
    // share (a test's name over its run, output and result): no name a reader tells it by.
    const identityClass = group.identity >= 0 ? classOf[group.identity]! : CLASS_NONE;
    const unnamed =
      !group.keyed &&
      group.alsoIdentity < 0 &&
      group.identity >= 0 &&
      (unreadableId(identityClass) ||
        identityClass === CLASS_TIME ||
        identityClass === CLASS_EPOCH ||
        !group.named);
    if (group.says < 0 && unnamed) {
      group.says = saysInside(inventory, signatures, prose, group, fieldsOfGroup[g]!, fieldDepth);
    }
    // An id that reads as nothing with no word beside it (a journal entry's number) may be
    // shown with what its record says (a log entry's message; a long text by its start).
    if (unnamed && group.says >= 0) group.label = group.says;
  }

  // What the main records say, read for rare shapes too.
  const textFields: number[] = [];
  for (const group of groups) if (group.primary && group.says >= 0) textFields.push(group.says);
  const { anomalies, leadingAnomalies, errorContext } = findAnomalies(
    inventory,
    signatures,
    gathered,
    ownerOfSig,
    check,
    vocabulary,
    textFields,
  );
  return {
    signatures,
    groups,
    groupOfSig,
    recordAbove: gathered.recordAbove,
    nodeBits,
    anomalies,
    leadingAnomalies,
    errorContext,
    values,
    distinct,
    top,
    presence,
    paths: new Map(),
    main: mainGroup(
      groups,
      (g) => fieldsOfGroup[g]!.some((s) => distinct[s]! >= 2 && distinct[s]! < values[s]!),
      (group) => nodeBits[group.sig]!,
    ),
    fieldDepth,
    classOf,
    epochLike,
    columns: gathered,
    vocabulary,
    prose,
  };
}

/**
 * Whether some value of signature `s` is a string: its first, or (where one field is a text in
 * some records and a list of parts in others) a later one.
 */
function hasString(kind: Uint8Array, signatures: JsonSignatures, s: number): boolean {
  for (let u = signatures.first[s]!; u >= 0; u = signatures.nextSame[u]!) {
    if (kind[u] === NODE_STRING) return true;
    if (kind[u] !== NODE_OBJECT && kind[u] !== NODE_ARRAY) return false;
  }
  return false;
}

/**
 * The field of `group`'s records (a key or two below each) whose parts hold what most of them
 * say (`firstProseLeaf`): the one that does so in the most records, at least half of them with
 * texts not all alike; of two alike, the deeper (`message.content` before `message`); -1 when
 * none.
 */
function saysInside(
  inventory: JsonInventory,
  signatures: JsonSignatures,
  prose: Uint8Array,
  group: RecordGroup,
  fields: readonly number[],
  fieldDepth: Int32Array,
): number {
  const { kind, valueHash } = inventory;
  const records = group.records.length;
  let best = -1;
  let bestCount = 0;
  for (const s of fields) {
    if ((prose[s]! & HOLDS_PROSE) === 0 || fieldDepth[s]! > MESSAGE_DEPTH || s === group.identity) {
      continue;
    }
    let count = 0;
    const texts = new Set<number>();
    for (let u = signatures.first[s]!; u >= 0; u = signatures.nextSame[u]!) {
      if (kind[u] !== NODE_OBJECT && kind[u] !== NODE_ARRAY) continue;
      const leaf = firstProseLeaf(inventory, signatures.of, prose, u);
      if (leaf < 0) continue;
      count++;
      texts.add(valueHash[leaf]!);
    }
    if (count < 0.5 * records || texts.size < Math.max(2, 0.1 * count)) continue;
    if (count > bestCount || (count === bestCount && fieldDepth[s]! > fieldDepth[best]!)) {
      best = s;
      bestCount = count;
    }
  }
  return best;
}

/**
 * The list the records note tells of: the biggest of the document's lists whose records say
 * something besides their names (a field of repeated values), or, where most of
 * its bytes are a list inside its records, that inner list (the hits inside each response of a
 * search, not the responses around them), as deep as that goes.
 */
function mainGroup(
  groups: readonly RecordGroup[],
  tells: (g: number) => boolean,
  bitsPerRecord: (group: RecordGroup) => number,
): number {
  let best: RecordGroup | undefined;
  let telling: RecordGroup | undefined;
  groups.forEach((group, g) => {
    if (!group.primary) return;
    if (!best || group.bytes > best.bytes) best = group;
    if (tells(g) && (!telling || group.bytes > telling.bytes)) telling = group;
  });
  // A list whose records say nothing but their names (a histogram's empty buckets, each a key
  // and `doc_count: 0`) gives way to one whose records say something, of a fair share its size.
  if (best && telling && telling.bytes >= SILENT_LIST_SHARE * best.bytes) {
    if (!tells(groups.indexOf(best))) best = telling;
  }
  // So does one whose records say little each (a scanner's counts per file) to one whose
  // records each say many times as much (its findings).
  if (best) {
    const least = SAYS_MORE * Math.max(1, bitsPerRecord(best));
    let saying: RecordGroup | undefined;
    for (const group of groups) {
      if (!group.primary || group.bytes < SILENT_LIST_SHARE * best.bytes) continue;
      if (bitsPerRecord(group) >= least && (!saying || group.bytes > saying.bytes)) saying = group;
    }
    if (saying) best = saying;
  }
  // The lists inside the records of each of the document's lists, found once: those whose
  // nearest list of the document's own around them it is (outer lists come first).
  const nearest = new Int32Array(groups.length).fill(-1);
  const inside = new Map<RecordGroup, RecordGroup[]>();
  groups.forEach((group, g) => {
    const above = group.above;
    nearest[g] = above < 0 ? -1 : groups[above]!.primary ? above : nearest[above]!;
    if (!group.primary || nearest[g]! < 0) return;
    const outer = groups[nearest[g]!]!;
    const lists = inside.get(outer);
    if (lists) lists.push(group);
    else inside.set(outer, [group]);
  });
  // A list inside the records is the one the note tells of where it holds half their bytes,
  // or nearly all where it lies inside a list of theirs (a benchmark's checks inside the tests
  // of each of its controls, not the statements inside each policy's one version).
  for (let deeper = best; deeper; ) {
    const outer: RecordGroup = deeper;
    best = outer;
    deeper = undefined;
    for (const group of inside.get(outer) ?? []) {
      const share = groups[group.above] === outer ? INNER_LIST_SHARE : WRAPPED_LIST_SHARE;
      // Fewer than the records around them, they are parts of some of those records (a few
      // messages' lists of blocks), not the list the records group.
      if (group.records.length < outer.records.length) continue;
      if (group.bytes >= share * outer.bytes && (!deeper || group.bytes > deeper.bytes)) {
        deeper = group;
      }
    }
  }
  return best ? groups.indexOf(best) : -1;
}

/** What the values of field `s` look like (`CLASS_*`), classed on first asking. */
export function classOfField(
  inventory: JsonInventory,
  analysis: RecordAnalysis,
  s: number,
): number {
  if (analysis.classOf[s] === CLASS_UNKNOWN) {
    analysis.classOf[s] = columnClass(inventory, analysis.signatures, s, analysis.vocabulary);
  }
  return analysis.classOf[s]!;
}
