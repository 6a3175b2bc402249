/**
 * How the events of a lossy text view's input divide by shape, over all of them, whatever the
 * view keeps: `; events by shape: 45 error "Dec # LabSZ sshd[#]: error: Received disconnect
 * from #: No more…", 1296 "Dec # LabSZ sshd[#]: Failed password for invalid user * from #…"`.
 * An event is a line with the lines that continue it (indented, `Caused by:`): each count is of
 * the lines of that shape that open an event, so a stack trace counts once. A shape is the first
 * words of its first line as written, `#` for a run of numbers and ids, `*` for a word its lines
 * vary in (a user name), `…` where the line goes on past what the shape reads: the lines of one
 * shape agree on every other word shown, so a reader can match it to lines in the view (or in
 * the source) and knows how many there were of each kind. It is written as a JSON string, so
 * `parseLineShapes` reads back exactly what was told.
 */

/** Events of one shape: how many there were, their level (where all share one) and the shape. */
export interface LineShape {
  /** Lines of this shape that open an event (continuation lines are not counted). */
  count: number;
  /** Level word (`error`, `warn`, …) where every one of them has it; else absent. */
  level?: string;
  /** The shape: `#` for numbers and ids, `*` for a varying word, `…` where cut. */
  shape: string;
}

const MARKER = '; events by shape: ';
/** Longest shape told, in UTF-16 units (its `…` included). */
export const SHAPE_LIMIT = 120;
const LABEL = /^[a-z0-9_.-]{1,16}$/;
const ENTRY = /(\d{1,15}) (?:([a-z0-9_.-]{1,16}) )?("(?:[^"\\]|\\.)*")(, )?/y;

/**
 * `written` fit for a note: up to its first character the note's syntax or a line break would
 * read otherwise (`;`, a control character), at most `limit` units, with `…` where cut; never
 * splitting a surrogate pair; `''` where nothing is left.
 */
export function noteExcerpt(written: string, limit: number): string {
  const line = written.replace(/\r?\n$/, '');
  let end = line.search(/[;\u0000-\u001f\u007f\u2028\u2029]/);
  if (end < 0) end = line.length;
  let cut = end < line.length;
  if (end > limit - 1) {
    end = limit - 1;
    cut = true;
  }
  const code = line.charCodeAt(end - 1);
  if (code >= 0xd800 && code <= 0xdbff) end--;
  let excerpt = line.slice(0, end);
  if (cut) excerpt = `${excerpt.trimEnd()}…`;
  return excerpt.trim() === '…' ? '' : excerpt;
}

/** `shape` as the note tells it (`''` for none): two shapes told alike cannot be told apart. */
export function toldShape(shape: string): string {
  return noteExcerpt(shape, SHAPE_LIMIT);
}

/**
 * One entry of the segment, `, ` before it unless `first`: its UTF-8 bytes are what it costs the
 * note. `''` for a shape with nothing to tell.
 */
export function formatLineShape(entry: LineShape, first: boolean): string {
  const shape = toldShape(entry.shape);
  if (shape === '' || !Number.isSafeInteger(entry.count) || entry.count < 1) return '';
  const level = entry.level !== undefined && LABEL.test(entry.level) ? `${entry.level} ` : '';
  return `${first ? '' : ', '}${entry.count} ${level}${JSON.stringify(shape)}`;
}

/** The note segment for `shapes`, leading `; ` included, or `''` when there are none. */
export function formatLineShapes(shapes: readonly LineShape[] | undefined): string {
  if (!shapes) return '';
  let entries = '';
  for (const entry of shapes) entries += formatLineShape(entry, entries === '');
  return entries === '' ? '' : `${MARKER}${entries}`;
}

/** UTF-8 bytes of `MARKER`, paid once by a note that tells any shape. */
export const LINE_SHAPES_MARKER_BYTES = MARKER.length;

/**
 * The shapes a note tells, in its order, or `undefined` when it tells none. Reads exactly what
 * `formatLineShapes` writes.
 */
export function parseLineShapes(note: string): LineShape[] | undefined {
  const at = note.indexOf(MARKER);
  if (at < 0) return undefined;
  const shapes: LineShape[] = [];
  ENTRY.lastIndex = at + MARKER.length;
  for (;;) {
    const match = ENTRY.exec(note);
    if (!match) break;
    const shape = JSON.parse(match[3]!) as string;
    shapes.push(
      match[2] === undefined
        ? { count: Number(match[1]), shape }
        : { count: Number(match[1]), level: match[2], shape },
    );
    if (match[4] === undefined) break;
  }
  return shapes.length > 0 ? shapes : undefined;
}
