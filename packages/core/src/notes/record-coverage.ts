/**
 * What a JSON view shows of a document's main list of records, for the `[trimmed: …]` and
 * `[severely reduced: …]` notes (one segment, machine-parseable, see `formatRecordCoverage`).
 */
export interface RecordCoverage {
  /** The list's path in the document (`items[]`, `provider_schemas.aws.resource_schemas.*`). */
  path: string;
  /** Records in the list. */
  total: number;
  /**
   * The list may go on past what was analysed (a document over the trimmer's `maxJsonNodes`):
   * `total` counts the records analysed, written `600000+`, and no field's value is claimed
   * for every record (the fields in `constant` are written by name only).
   */
  atLeast?: boolean;
  /** Records whose identifying field is in the view. */
  named: number;
  /** Records in the view whole. */
  whole: number;
  /**
   * Fields (paths within a record) that no record in the view shows, biggest first; those in
   * `constant` are told there instead.
   */
  droppedFields?: readonly string[];
  /** More fields no record shows, beyond those listed (the note was shortened to fit). */
  droppedMore?: number;
  /** Records left out entirely, grouped by the value of one state field, commonest first. */
  omitted?: ReadonlyArray<{ count: number; field: string; value: string }>;
  /** More records left out, beyond the kinds listed in `omitted` (shortened to fit). */
  omittedMore?: number;
  /**
   * Fields that no record in the view shows and that every record has with one same value
   * (`status.phase` = `Running`): dropped from every record, and what they all said.
   */
  constant?: ReadonlyArray<{ field: string; value: string }>;
}

/** Longest text taken from the data (a path, a value) into a note. */
const MAX_PIECE = 48;

/**
 * A piece of data fit for a note: one line, no character the segment's syntax uses (`;`, `,`,
 * `=`, brackets other than a path's `[]`), at most `MAX_PIECE` characters.
 */
function piece(text: string): string {
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
 * The note segment for `records`, with a leading `; `:
 * `; records 7/7 named, 2 whole at items[]; dropped from every record: status.phase=Running,
 * metadata.managedFields, spec.tolerations, +2 more; omitted 61 with type=Normal, +3 more`.
 * The fields no record shows form one list: `field=value` when every record has that one
 * value, the bare path otherwise (always, when the list was analysed only in part: `7+`), and
 * `+N more` when the list was shortened (N more fields);
 * in the omitted list `+N more` counts the records of the kinds not listed. A part is left out
 * when it has nothing to say, the path (` at …`) only when the note has no room for it. Counts
 * are plain integers; paths are cleaned of the separators (and of a leading `+`), so the segment
 * splits on `; ` and its lists on `, `; a value the cleaning would alter is not told (its field
 * by name only, its omitted records counted in `+N more`), and a long one is cut with `…`.
 */
export function formatRecordCoverage(records: RecordCoverage | undefined): string {
  if (!records) return '';
  const total = `${records.total}${records.atLeast ? '+' : ''}`;
  let segment = `; records ${records.named}/${total} named, ${records.whole} whole`;
  if (records.path !== '') segment += ` at ${piece(records.path)}`;
  const constant = records.constant ?? [];
  const told = new Set(constant.map((entry) => entry.field));
  const dropped = [
    // Past what was analysed, one value for every record is not known: the field by name only.
    // A value the note cannot say as it is (it holds the segment's separators), likewise.
    ...constant.map((entry) =>
      records.atLeast || !toldAsIs(entry.value)
        ? piece(entry.field)
        : `${piece(entry.field)}=${piece(entry.value)}`,
    ),
    ...(records.droppedFields ?? []).filter((field) => !told.has(field)).map(piece),
  ];
  if (records.droppedMore) dropped.push(`+${records.droppedMore} more`);
  if (dropped.length > 0) segment += `; dropped from every record: ${dropped.join(', ')}`;
  // Records of a kind whose value the note cannot say as it is are counted with the rest.
  let omittedMore = records.omittedMore ?? 0;
  const omitted: string[] = [];
  for (const entry of records.omitted ?? []) {
    if (toldAsIs(entry.value)) {
      omitted.push(`${entry.count} with ${piece(entry.field)}=${piece(entry.value)}`);
    } else omittedMore += entry.count;
  }
  if (omittedMore) omitted.push(`+${omittedMore} more`);
  if (omitted.length > 0) segment += `; omitted ${omitted.join(', ')}`;
  return segment;
}

/** A parsed records segment (see `formatRecordCoverage`), or `undefined` when a note has none. */
export function parseRecordCoverage(note: string): RecordCoverage | undefined {
  const head = /; records (\d+)\/(\d+)(\+?) named, (\d+) whole(?: at ([^;]+?))?(?=; |\]$)/.exec(
    note,
  );
  if (!head) return undefined;
  const records: RecordCoverage = {
    path: head[5] ?? '',
    total: Number(head[2]),
    named: Number(head[1]),
    whole: Number(head[4]),
  };
  if (head[3] === '+') records.atLeast = true;
  const dropped = /; dropped from every record: ([^;]+?)(?=; |\]$)/.exec(note);
  if (dropped) {
    const constant: Array<{ field: string; value: string }> = [];
    const fields: string[] = [];
    for (const part of dropped[1]!.split(', ')) {
      const more = /^\+(\d+) more$/.exec(part);
      const pair = /^([^=]*)=(.*)$/.exec(part);
      if (more) records.droppedMore = Number(more[1]);
      else if (pair) constant.push({ field: pair[1]!, value: pair[2]! });
      else fields.push(part);
    }
    if (constant.length > 0) records.constant = constant;
    if (fields.length > 0) records.droppedFields = fields;
  }
  const omitted = /; omitted ((?:\d+ with |\+\d+ more)[^;]*?)(?=; |\]$)/.exec(note);
  if (omitted) {
    const kinds: Array<{ count: number; field: string; value: string }> = [];
    for (const part of omitted[1]!.split(', ')) {
      const more = /^\+(\d+) more$/.exec(part);
      const kind = /^(\d+) with ([^=]*)=(.*)$/.exec(part);
      if (more) records.omittedMore = Number(more[1]);
      else if (kind) kinds.push({ count: Number(kind[1]), field: kind[2]!, value: kind[3]! });
    }
    if (kinds.length > 0) records.omitted = kinds;
  }
  return records;
}
