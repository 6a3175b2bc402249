/**
 * What a JSON view shows of a document's main list of records, for the `[trimmed: …]` and
 * `[severely reduced: …]` notes (one segment, machine-parseable, see `formatRecordCoverage`).
 */
export interface RecordCoverage {
  /** The list's path in the document (`items[]`, `provider_schemas.aws.resource_schemas.*`). */
  path: string;
  /** Records in the list. */
  total: number;
  /** Records whose identifying field is in the view. */
  named: number;
  /** Records in the view whole. */
  whole: number;
  /** Fields (paths within a record) that no record in the view shows, biggest first. */
  droppedFields?: readonly string[];
  /** Records left out entirely, grouped by the value of one state field, commonest first. */
  omitted?: ReadonlyArray<{ count: number; field: string; value: string }>;
  /** Fields every record has with one same value, not shown (`status.phase` = `Running`). */
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
    .trim();
  return clean.length > MAX_PIECE ? `${clean.slice(0, MAX_PIECE - 1)}…` : clean || '?';
}

/**
 * The note segment for `records`, with a leading `; `:
 * `; records 7/7 named, 2 whole at items[]; every record has status.phase=Running; every record
 * lacks metadata.managedFields, spec.tolerations; omitted 61 with type=Normal, 3 with
 * type=Warning`. Each part after the first is left out when its list is empty. Counts are plain integers; paths and values are cleaned of
 * the separators, so the segment splits on `; ` and its lists on `, `.
 */
export function formatRecordCoverage(records: RecordCoverage | undefined): string {
  if (!records) return '';
  let segment = `; records ${records.named}/${records.total} named, ${records.whole} whole at ${piece(records.path)}`;
  if (records.constant && records.constant.length > 0) {
    const parts = records.constant.map((entry) => `${piece(entry.field)}=${piece(entry.value)}`);
    segment += `; every record has ${parts.join(', ')}`;
  }
  if (records.droppedFields && records.droppedFields.length > 0) {
    segment += `; every record lacks ${records.droppedFields.map(piece).join(', ')}`;
  }
  if (records.omitted && records.omitted.length > 0) {
    const parts = records.omitted.map(
      (entry) => `${entry.count} with ${piece(entry.field)}=${piece(entry.value)}`,
    );
    segment += `; omitted ${parts.join(', ')}`;
  }
  return segment;
}

/** A parsed records segment (see `formatRecordCoverage`), or `undefined` when a note has none. */
export function parseRecordCoverage(note: string): RecordCoverage | undefined {
  const head = /; records (\d+)\/(\d+) named, (\d+) whole at ([^;]+?)(?=; |\]$)/.exec(note);
  if (!head) return undefined;
  const records: RecordCoverage = {
    path: head[4]!,
    total: Number(head[2]),
    named: Number(head[1]),
    whole: Number(head[3]),
  };
  const has = /; every record has ([^;]+?)(?=; |\]$)/.exec(note);
  if (has) {
    records.constant = has[1]!.split(', ').map((part) => {
      const match = /^([^=]*)=(.*)$/.exec(part)!;
      return { field: match[1]!, value: match[2]! };
    });
  }
  const lacks = /; every record lacks ([^;]+?)(?=; |\]$)/.exec(note);
  if (lacks) records.droppedFields = lacks[1]!.split(', ');
  const omitted = /; omitted (\d+ with [^;]+?)(?=; |\]$)/.exec(note);
  if (omitted) {
    records.omitted = omitted[1]!.split(', ').map((part) => {
      const match = /^(\d+) with ([^=]*)=(.*)$/.exec(part)!;
      return { count: Number(match[1]), field: match[2]!, value: match[3]! };
    });
  }
  return records;
}
