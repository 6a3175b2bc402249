/**
 * A text that is a table (a header line of column names, then rows: `kubectl get pods`,
 * `docker ps`, a TSV or a simple CSV export, a Zeek or W3C extended log whose `#fields`
 * directive names the columns) as the JSON lines of its records, one line for each
 * of the text's lines (the header and any line that is not a row of its columns empty), so the
 * record engine judges the rows as it judges any list's records: what stands out, how the
 * records divide by each column, which name them.
 */

/** Rows below which a text is no table (as few as a list's records are judged on). */
const MIN_ROWS = 20;
/** Share of the non-blank lines after the header that must be rows of its columns. */
const ROW_SHARE = 0.9;
/** Rows looked at before the rest: most texts are no table, told by their first lines. */
const SAMPLE_ROWS = 64;
/** A column name is at most this long, a letter first, no digit in it (a data line's fields have them). */
const NAME_UNITS = 40;
const COLUMN_NAME = /^[A-Za-z][^\d\t,]*$/;
/** A value written as a JSON number where it is one, short enough to be exact. */
const NUMBER = /^-?(?:0|[1-9]\d{0,14})(?:\.\d{1,6})?$/;

/** How a row's fields are cut: at a delimiter, or at the columns' starts in the header. */
type Cut = { delimiter: string } | { starts: number[] };

/** The names of a table's columns, and how its rows are cut. */
type Columns = { names: string[]; cut: Cut };

/** The line at `starts[i]`, without its line break (and a CR before it). */
function lineAt(text: string, starts: ArrayLike<number>, i: number): string {
  const from = starts[i]!;
  let to = i + 1 < starts.length ? starts[i + 1]! - 1 : text.length;
  if (to > from && text.charCodeAt(to - 1) === 0x0a) to--;
  if (to > from && text.charCodeAt(to - 1) === 0x0d) to--;
  return text.slice(from, to);
}

/** A comment line naming the columns of the rows after it: `#fields<TAB>ts<TAB>uid…`, `#Fields: date time …`. */
const FIELDS_DIRECTIVE = /^#fields(?::\s*|\t| )/i;

/**
 * `names` with how rows are cut, where they are two or more distinct column names, each at most
 * `NAME_UNITS` long and, unless a directive says they are names, reading as one (`COLUMN_NAME`).
 */
function columns(names: string[], cut: Cut, directive: boolean): Columns | undefined {
  if (names.length < 2) return undefined;
  const seen = new Set<string>();
  for (const name of names) {
    if (name === '' || name.length > NAME_UNITS || seen.has(name)) return undefined;
    if (!directive && !COLUMN_NAME.test(name)) return undefined;
    seen.add(name);
  }
  return { names, cut };
}

/** The header's columns and how rows are cut, or `undefined` when it reads as no header. */
function headerColumns(header: string): Columns | undefined {
  if (header === '' || header.charCodeAt(0) <= 0x20) return undefined;
  const delimiter = header.includes('\t')
    ? '\t'
    : header.includes(',') && !header.includes('  ')
      ? ','
      : undefined;
  if (delimiter) return columns(header.split(delimiter), { delimiter }, false);
  // Columns aligned with spaces: each starts after two spaces or more (a name may hold one:
  // `NOMINATED NODE`, `CONTAINER ID`).
  const starts = [0];
  for (const match of header.matchAll(/ {2,}(?=\S)/g)) starts.push(match.index + match[0].length);
  const names = starts.map((start, k) =>
    header.slice(start, starts[k + 1] ?? header.length).trim(),
  );
  return columns(names, { starts }, false);
}

/** The fields of `row` cut as `cut` says, or `undefined` when it is no row of those columns. */
function rowFields(row: string, cut: Cut, columns: number): string[] | undefined {
  if ('delimiter' in cut) {
    const fields = row.split(cut.delimiter);
    return fields.length === columns ? fields.map((field) => field.trim()) : undefined;
  }
  const { starts } = cut;
  // Every column after the first starts after a space, as in the header (a value never runs
  // into the next column), and the row reaches the last column.
  if (row.charCodeAt(0) <= 0x20 || row.length <= starts[starts.length - 1]!) return undefined;
  for (let k = 1; k < starts.length; k++) {
    if (row.charCodeAt(starts[k]! - 1) !== 0x20) return undefined;
  }
  return starts.map((start, k) => row.slice(start, starts[k + 1] ?? row.length).trim());
}

/** A character a JSON string must escape. */
const ESCAPED = /["\\\u0000-\u001f]/;

/**
 * A row as a JSON object line: its non-empty fields under their column names (`keys`: each
 * name as a JSON string and a colon, made once).
 */
function recordLine(keys: readonly string[], fields: readonly string[]): string {
  let line = '{';
  for (let k = 0; k < keys.length; k++) {
    const value = fields[k]!;
    if (value === '') continue;
    if (line.length > 1) line += ',';
    line += keys[k]!;
    line += NUMBER.test(value) ? value : ESCAPED.test(value) ? JSON.stringify(value) : `"${value}"`;
  }
  return `${line}}`;
}

/**
 * The JSON lines of the rows of `text` (its lines start at `starts`), with the line starts of
 * that text and the index of the line that names the columns, where `text` is a table: its first line (past comment lines, a `#fields`
 * directive among them or the first other line) names two or more columns, and nine in ten of
 * the non-blank, non-comment lines after it, at least `MIN_ROWS`, are rows of them.
 * `undefined` otherwise.
 */
export function tableAsRecordLines(
  text: string,
  starts: ArrayLike<number>,
): { text: string; starts: number[]; header: number } | undefined {
  const total = starts.length;
  if (total <= MIN_ROWS) return undefined;
  // Comment lines may open the text; a `#fields` (`#Fields:`) directive among them names the
  // columns, as Zeek and W3C extended logs (IIS, CloudFront) write them.
  let at = 0;
  let line = lineAt(text, starts, 0);
  let header: Columns | undefined;
  for (; at < total && line.startsWith('#'); line = lineAt(text, starts, ++at)) {
    const directive = FIELDS_DIRECTIVE.exec(line);
    if (directive) {
      // The names after it: tab-separated, else space-separated.
      const rest = line.slice(directive[0].length);
      const delimiter = rest.includes('\t') ? '\t' : ' ';
      header = columns(rest.split(delimiter), { delimiter }, true);
      break;
    }
    if (at + 1 === total) return undefined;
  }
  header ??= headerColumns(line);
  if (!header) return undefined;
  const { names, cut } = header;
  const keys = names.map((name) => `${JSON.stringify(name)}:`);
  const lines: string[] = Array.from({ length: at + 1 }, () => '');
  let rows = 0;
  let other = 0;
  for (let i = at + 1; i < total; i++) {
    const line = lineAt(text, starts, i);
    // Blank lines and comments (`#close …`) are no rows, and none of the text's other lines.
    if (line.trim() === '' || line.startsWith('#')) {
      lines.push('');
      continue;
    }
    const fields = rowFields(line, cut, names.length);
    if (fields) rows++;
    else other++;
    lines.push(fields ? recordLine(keys, fields) : '');
    // Most texts are told apart by their first lines.
    if (rows + other === SAMPLE_ROWS && rows < ROW_SHARE * SAMPLE_ROWS) return undefined;
  }
  if (rows < MIN_ROWS || rows < ROW_SHARE * (rows + other)) return undefined;
  const records = lines.join('\n');
  const recordStarts = [0];
  for (let i = 0; i < lines.length - 1; i++) {
    recordStarts.push(recordStarts[i]! + lines[i]!.length + 1);
  }
  return { text: records, starts: recordStarts, header: at };
}
