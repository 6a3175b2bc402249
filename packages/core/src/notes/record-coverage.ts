/**
 * What a JSON view shows of a document's main list of records, and what holds over all of its
 * records, for the `[trimmed: …]` and `[severely reduced: …]` notes (one segment of the note
 * line, machine-parseable, see `formatRecordCoverage`).
 */
export interface RecordCoverage {
  /** The list's path in the document (`items[]`, `provider_schemas.aws.resource_schemas.*`). */
  path: string;
  /** Records in the list. */
  total: number;
  /**
   * The list may go on past what was analysed (a document over the trimmer's `maxJsonNodes`):
   * `total` counts the records analysed, written `600000+`, and nothing is claimed for every
   * record: no constant, distribution or range is told.
   */
  atLeast?: boolean;
  /** Records whose identifying field is in the view. */
  named: number;
  /** The field (a path within a record) that names each record, when one does. */
  namedBy?: string;
  /** Records in the view whole. */
  whole: number;
  /**
   * Fields every record has with one same value (`kind` = `Pod`): told once, whether or not
   * the view shows them, as `every record: kind=Pod`.
   */
  constant?: ReadonlyArray<{ field: string; value: string }>;
  /**
   * How the records divide by the values of a field (a state: `status.phase: Running 219,
   * Failed 1`), over all records, not only those shown, commonest first.
   */
  distributions?: readonly RecordDistribution[];
  /** Numeric and time fields: their smallest and largest value over all records. */
  ranges?: readonly RecordRange[];
  /** Fields (paths within a record) that no record in the view shows, biggest first. */
  droppedFields?: readonly string[];
  /** More fields no record shows, beyond those listed (the note was shortened to fit). */
  droppedMore?: number;
  /** Records left out entirely, grouped by the value of one state field, commonest first. */
  omitted?: ReadonlyArray<{ count: number; field: string; value: string }>;
  /** More records left out, beyond the kinds listed in `omitted` (shortened to fit). */
  omittedMore?: number;
}

/**
 * The values of one field over the records that have it, with how many records hold each:
 * `values` counts plus `otherCount` always add up to `present` (or to the list's `total` when
 * `present` is absent).
 */
export interface RecordDistribution {
  field: string;
  /**
   * Other fields that hold the same value as `field` in every record (`status.capacity.cpu`
   * beside `status.allocatable.cpu`): the counts are theirs too, told once as `by A, B: …`.
   */
  alike?: readonly string[];
  /** Records that have the field, when not every record does. */
  present?: number;
  /** The values told, commonest first, each with its records. */
  values: ReadonlyArray<{ value: string; count: number }>;
  /** Values not told (the note's room, or a value it cannot say as it is). */
  otherValues?: number;
  /** Records holding the values not told. */
  otherCount?: number;
}

/** The smallest and largest value of a field over the records, as written in the document. */
export interface RecordRange {
  field: string;
  from: string;
  to: string;
  /** The middle value (the lower of the two middle ones), as written; absent for times. */
  median?: string;
}

/** Longest text taken from the data (a path, a value) into a note. */
const MAX_PIECE = 48;
/**
 * What `piece` would change: a separator or control character, a bracket not in `[]`, a space
 * that is not single or sits at an end, a leading `+`.
 */
const NEEDS_CLEANING =
  /[\u0000-\u001f\u007f;,=]|\[(?!\])|(?<!\[)\]|\s\s|^\s|\s$|^\+|[\t\n\v\f\r\u00a0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000\ufeff]/;

/**
 * A piece of data fit for a note: one line, no character the segment's syntax uses (`;`, `,`,
 * `=`, brackets other than a path's `[]`), at most `MAX_PIECE` characters.
 */
function piece(text: string): string {
  // Most data needs no cleaning: one test instead of the replacements below.
  if (text.length <= MAX_PIECE && text !== '' && !NEEDS_CLEANING.test(text)) return text;
  const clean = text
    .replace(/\[\]/g, '\ue000')
    .replace(/[\u0000-\u001f\u007f;,=[\]]+/g, ' ')
    .replace(/\ue000/g, '[]')
    .replace(/\s+/g, ' ')
    .trim()
    .replace(/^\++/, '');
  return clean.length > MAX_PIECE ? `${clean.slice(0, MAX_PIECE - 1)}…` : clean || '?';
}

/**
 * Whether `piece(value)` says the value as it is: unchanged, or cut short with a visible `…`.
 * A value the cleaning would alter (`>=8` made `> 8`, `app=web,tier!=db`) is not told at all.
 */
function toldAsIs(value: string): boolean {
  const told = piece(value);
  return told === value || (told.endsWith('…') && value.startsWith(told.slice(0, -1)));
}

/**
 * Longest value told in a distribution or range: a state's values are told whole or not at all,
 * and one as long as a module or file path (`gotest.tools/gotestsum/testjson/internal/withfails`)
 * is still what the records divide by.
 */
const MAX_TOLD_VALUE = 96;

/**
 * Whether a value can be told whole inside a distribution or range: as it is, not cut short
 * (a count belongs to one value, and `…` would make two values read as one), with no ` to ` or
 * trailing number that would read as the segment's own syntax (a `: ` in a value does not: the
 * field before the first one is told apart from the values).
 */
function toldWhole(value: string): boolean {
  return (
    value !== '' &&
    value.length <= MAX_TOLD_VALUE &&
    !NEEDS_CLEANING.test(value) &&
    !value.includes(' to ') &&
    !/ \d+$/.test(value)
  );
}

/**
 * Longest path (of a field or a list) told in a note. A path is told whole or not at all: one
 * cut short could not be followed back, and could stand for several (`metadata.annotations.` +
 * `"deployment.kubernetes.io/revision"` or `…/max-replicas`).
 */
const MAX_PATH = 120;

/** A path fit for a note, or `undefined` when it would not read back as it is. */
function pathPiece(path: string): string | undefined {
  return path !== '' && path.length <= MAX_PATH && !NEEDS_CLEANING.test(path) ? path : undefined;
}

/**
 * A step that picks the item of a list whose key holds a value (`conditions[type=Ready]`):
 * the key and the value plain, without a space, separator or bracket.
 */
const ITEM_BY_KEY = /\[[^\s\u0000-\u001f\u007f=[\]";,]+=[^\s\u0000-\u001f\u007f=[\]";,]+\]/g;

/**
 * A field's path fit for an aggregate segment, or `undefined` when it would not read back. It
 * may pick items by a key's value (`status.conditions[type=Ready].status`).
 */
function aggregateField(field: string): string | undefined {
  return field.length <= MAX_PATH &&
    pathPiece(field.replace(ITEM_BY_KEY, '[]')) !== undefined &&
    !field.includes(': ') &&
    !field.endsWith(':') &&
    !field.includes(' (') &&
    !field.startsWith('by ')
    ? field
    : undefined;
}

/** The segment telling `distribution`, with a leading `; `, or `''` when its field cannot be told. */
function formatDistribution(distribution: RecordDistribution): string {
  const field = aggregateField(distribution.field);
  if (field === undefined) return '';
  const parts: string[] = [];
  let otherValues = distribution.otherValues ?? 0;
  let otherCount = distribution.otherCount ?? 0;
  for (const { value, count } of distribution.values) {
    if (toldWhole(value)) parts.push(`${value} ${count}`);
    else {
      otherValues++;
      otherCount += count;
    }
  }
  // One that can tell none of its values (each holds a separator, or is too long) would tell
  // only how many there are: it is not told.
  if (parts.length === 0) return '';
  if (otherValues > 0) {
    parts.push(`${otherValues} other ${otherValues === 1 ? 'value' : 'values'} ${otherCount}`);
  }
  const present = distribution.present !== undefined ? ` (present in ${distribution.present})` : '';
  // A field that would not read back is left out of the ones told alike.
  const fields = [field];
  for (const other of distribution.alike ?? []) {
    const told = aggregateField(other);
    if (told !== undefined) fields.push(told);
  }
  return `; by ${fields.join(', ')}${present}: ${parts.join(', ')}`;
}

function formatRange(range: RecordRange): string {
  const field = aggregateField(range.field);
  if (field === undefined || !toldWhole(range.from) || !toldWhole(range.to)) return '';
  const median =
    range.median !== undefined && toldWhole(range.median) ? `, median ${range.median}` : '';
  return `; range of ${field}: ${range.from} to ${range.to}${median}`;
}

/**
 * The note segment for `records`, with a leading `; `:
 * `; records 220/220 named by metadata.name, 2 whole at items[]; every record: kind=Pod;
 * by status.phase: Running 219, Failed 1; range of status.startTime: 2026-03-01T06:00:00Z to
 * 2026-03-01T08:44:15Z; dropped from every record: metadata.managedFields, +2 more; omitted 61
 * with type=Normal, +3 more`.
 *
 * - `every record:` lists fields every record has with one same value, `field=value` (by name
 *   only when the value cannot be told as it is; none when the list was analysed only in
 *   part).
 * - `by F:` tells how the records divide by F's values, commonest first, counts over all
 *   records; `(present in P)` when only P records have F; `K other values N` sums what is not
 *   told, so the counts always add up; `by F, G:` where G holds F's value in every record.
 *   F may pick the item of a list each record holds by the value of its naming key
 *   (`by status.conditions[type=Ready].status: True 219, False 1`).
 * - `range of F: A to B` the smallest and largest value (`, median M` for numbers).
 * - `dropped from every record:` fields no record in the view shows, `+N more` when shortened.
 * - `omitted` the records left out by the value of one state, `+N more` counting the records
 *   of the kinds not listed.
 *
 * Counts are plain integers. A field's path is told as it is or not at all (a field not told is
 * counted in `+N more`): it holds no separator and is at most 120 characters, so that it can
 * be followed back. Values are cleaned of the separators (and of a leading `+`), so the segment
 * splits on `; ` and its lists on `, `; a value the cleaning would alter is not told (in a
 * distribution it is counted among the other values), and a long one is cut with `…` (never in
 * a distribution or range, where it is not told instead).
 */
export function formatRecordCoverage(records: RecordCoverage | undefined): string {
  if (!records) return '';
  const total = `${records.total}${records.atLeast ? '+' : ''}`;
  const by =
    records.namedBy !== undefined && aggregateField(records.namedBy) !== undefined
      ? ` by ${records.namedBy}`
      : '';
  let segment = `; records ${records.named}/${total} named${by}, ${records.whole} whole`;
  if (records.path !== '') segment += ` at ${pathPiece(records.path) ?? piece(records.path)}`;
  // Past what was analysed, nothing is known of every record: no constant is told.
  const constant = records.atLeast ? [] : (records.constant ?? []);
  const told: string[] = [];
  const constantFields = new Set<string>();
  for (const entry of constant) {
    const field = pathPiece(entry.field);
    if (field === undefined) continue;
    constantFields.add(entry.field);
    // A value the note cannot say as it is (it holds the segment's separators): by name only.
    told.push(toldAsIs(entry.value) ? `${field}=${piece(entry.value)}` : field);
  }
  if (told.length > 0) segment += `; every record: ${told.join(', ')}`;
  if (!records.atLeast) {
    for (const distribution of records.distributions ?? []) {
      segment += formatDistribution(distribution);
    }
    for (const range of records.ranges ?? []) segment += formatRange(range);
  }
  const dropped: string[] = [];
  let droppedMore = records.droppedMore ?? 0;
  for (const field of records.droppedFields ?? []) {
    if (constantFields.has(field)) continue;
    const path = pathPiece(field);
    if (path !== undefined) dropped.push(path);
    else droppedMore++;
  }
  if (droppedMore) dropped.push(`+${droppedMore} more`);
  if (dropped.length > 0) segment += `; dropped from every record: ${dropped.join(', ')}`;
  // Records of a kind whose value the note cannot say as it is are counted with the rest.
  let omittedMore = records.omittedMore ?? 0;
  const omitted: string[] = [];
  for (const entry of records.omitted ?? []) {
    const field = pathPiece(entry.field);
    if (field !== undefined && toldAsIs(entry.value)) {
      omitted.push(`${entry.count} with ${field}=${piece(entry.value)}`);
    } else omittedMore += entry.count;
  }
  if (omittedMore) omitted.push(`+${omittedMore} more`);
  if (omitted.length > 0) segment += `; omitted ${omitted.join(', ')}`;
  return segment;
}

/** The text of each `; `-separated segment of `note` after the records head, up to the next head. */
function segmentsAfter(note: string, from: number): string[] {
  const rest = note.slice(from).replace(/\]$/, '');
  return rest.split('; ').slice(1);
}

function parseDistribution(
  fields: string,
  present: string | undefined,
  body: string,
): RecordDistribution {
  const values: Array<{ value: string; count: number }> = [];
  const [field, ...alike] = fields.split(', ');
  const distribution: RecordDistribution = { field: field!, values };
  if (alike.length > 0) distribution.alike = alike;
  if (present !== undefined) distribution.present = Number(present);
  for (const part of body.split(', ')) {
    const other = /^(\d+) other values? (\d+)$/.exec(part);
    const entry = /^(.*) (\d+)$/.exec(part);
    if (other) {
      distribution.otherValues = Number(other[1]);
      distribution.otherCount = Number(other[2]);
    } else if (entry) values.push({ value: entry[1]!, count: Number(entry[2]) });
  }
  return distribution;
}

/** A parsed records segment (see `formatRecordCoverage`), or `undefined` when a note has none. */
export function parseRecordCoverage(note: string): RecordCoverage | undefined {
  const head =
    /; records (\d+)\/(\d+)(\+?) named(?: by ([^,;]+?))?, (\d+) whole(?: at ([^;]+?))?(?=; |\]$)/.exec(
      note,
    );
  if (!head) return undefined;
  const records: RecordCoverage = {
    path: head[6] ?? '',
    total: Number(head[2]),
    named: Number(head[1]),
    whole: Number(head[5]),
  };
  if (head[4] !== undefined) records.namedBy = head[4];
  if (head[3] === '+') records.atLeast = true;
  const constant: Array<{ field: string; value: string }> = [];
  const constantNames: string[] = [];
  const distributions: RecordDistribution[] = [];
  const ranges: RecordRange[] = [];
  for (const segment of segmentsAfter(note, head.index + head[0].length)) {
    const every = /^every record: (.*)$/.exec(segment);
    const by = /^by (.+?)(?: \(present in (\d+)\))?: (.*)$/.exec(segment);
    const range = /^range of (.+?): (.+?) to (.+?)(?:, median (.+))?$/.exec(segment);
    const dropped = /^dropped from every record: (.*)$/.exec(segment);
    const omitted = /^omitted ((?:\d+ with |\+\d+ more).*)$/.exec(segment);
    if (every) {
      for (const part of every[1]!.split(', ')) {
        const pair = /^([^=]*)=(.*)$/.exec(part);
        if (pair) constant.push({ field: pair[1]!, value: pair[2]! });
        else constantNames.push(part);
      }
    } else if (by) {
      distributions.push(parseDistribution(by[1]!, by[2], by[3]!));
    } else if (range) {
      const told: RecordRange = { field: range[1]!, from: range[2]!, to: range[3]! };
      if (range[4] !== undefined) told.median = range[4];
      ranges.push(told);
    } else if (dropped) {
      const fields: string[] = [];
      for (const part of dropped[1]!.split(', ')) {
        const more = /^\+(\d+) more$/.exec(part);
        if (more) records.droppedMore = Number(more[1]);
        else fields.push(part);
      }
      if (fields.length > 0) records.droppedFields = fields;
    } else if (omitted) {
      const kinds: Array<{ count: number; field: string; value: string }> = [];
      for (const part of omitted[1]!.split(', ')) {
        const more = /^\+(\d+) more$/.exec(part);
        const kind = /^(\d+) with ([^=]*)=(.*)$/.exec(part);
        if (more) records.omittedMore = Number(more[1]);
        else if (kind) kinds.push({ count: Number(kind[1]), field: kind[2]!, value: kind[3]! });
      }
      if (kinds.length > 0) records.omitted = kinds;
    }
  }
  // A field told by name only (its value not said) is still one every record has alike.
  for (const field of constantNames) constant.push({ field, value: '' });
  if (constant.length > 0) records.constant = constant;
  if (distributions.length > 0) records.distributions = distributions;
  if (ranges.length > 0) records.ranges = ranges;
  return records;
}
