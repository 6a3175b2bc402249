import { truncateUtf8, truncateUtf8Start, utf8ByteLength } from '@compaction/core';
import { isJsonBlank } from './is-json-blank.js';

/**
 * A text of JSON object lines (NDJSON) read as one JSON list, and a view of that list written
 * back as lines: the records are judged, named and told of by the engine every JSON list goes
 * through, and each record the view keeps (whole, or with the fields it shows) is one line of
 * JSON.
 */

/** Line breaks with the blanks around them: outside any string of valid JSON lines. */
const LINE_BREAKS = /[ \t\r]*\n[ \t\r\n]*/g;

/**
 * `text` as the text of one JSON array of its lines, or `undefined` where a line that is not
 * blank opens with anything but `{`. A raw line break cannot stand inside a JSON string, so each
 * one (with the blanks beside it) ends a record; a line that is not JSON leaves an array that
 * does not parse, which its reader tells.
 */
export function recordLinesAsList(text: string): string | undefined {
  const body = text.trim();
  if (body.charCodeAt(0) !== 0x7b) return undefined;
  for (let from = body.indexOf('\n'); from >= 0; from = body.indexOf('\n', from + 1)) {
    let at = from + 1;
    while (isJsonBlank(body.charCodeAt(at))) at++;
    if (body.charCodeAt(at) !== 0x7b) return undefined;
  }
  return `[${body.replace(LINE_BREAKS, ',')}]`;
}

/**
 * The items of the JSON array `list` (a view's body), one a line, as they are written there.
 * Only the commas between the array's own items separate lines: those inside an item's strings,
 * objects and arrays stay.
 */
export function listAsRecordLines(list: string): string {
  const open = list.indexOf('[');
  const close = list.lastIndexOf(']');
  if (open < 0 || close <= open) return '';
  const lines: string[] = [];
  let depth = 0;
  let inString = false;
  let start = open + 1;
  for (let i = start; i < close; i++) {
    const code = list.charCodeAt(i);
    if (inString) {
      if (code === 0x5c) i++;
      else if (code === 0x22) inString = false;
    } else if (code === 0x22) inString = true;
    else if (code === 0x7b || code === 0x5b) depth++;
    else if (code === 0x7d || code === 0x5d) depth--;
    else if (code === 0x2c && depth === 0) {
      lines.push(list.slice(start, i).trim());
      start = i + 1;
    }
  }
  const last = list.slice(start, close).trim();
  if (last !== '' || lines.length > 0) lines.push(last);
  return lines.join('\n');
}

/** A torn line shown beside the records: whole up to this many UTF-8 bytes, else cut to them. */
const TORN_LINE_BYTES = 160;

/** A text of JSON lines with its first or last line torn, and what is shown of each. */
export interface TornEdges {
  /** The lines between the torn ones. */
  records: string;
  /** What is shown of the torn first line (its end), or `''`. */
  head: string;
  /** What is shown of the torn last line (its start), or `''`. */
  tail: string;
}

/**
 * The whole lines of a text of JSON lines read from an offset or cut at a size (`tail -c`,
 * `head -c`): its first line where it is not a JSON object of its own, its last likewise, set
 * apart with what a view shows of them (the end of the first, next to the records; the start
 * of the last), `…` where cut. `undefined` where neither edge is torn or no two lines are left.
 */
export function tornEdges(text: string): TornEdges | undefined {
  const body = text.trim();
  const firstBreak = body.indexOf('\n');
  const lastBreak = body.lastIndexOf('\n');
  if (firstBreak < 0 || firstBreak === lastBreak) return undefined;
  const first = body.slice(0, firstBreak);
  const last = body.slice(lastBreak + 1);
  const headTorn = !isObjectLine(first);
  const tailTorn = !isObjectLine(last);
  if (!headTorn && !tailTorn) return undefined;
  const from = headTorn ? firstBreak + 1 : 0;
  const to = tailTorn ? lastBreak : body.length;
  const head = headTorn ? first.trimEnd() : '';
  const tail = tailTorn ? last.trimEnd() : '';
  return {
    records: body.slice(from, to),
    head:
      utf8ByteLength(head) > TORN_LINE_BYTES
        ? `…${truncateUtf8Start(head, TORN_LINE_BYTES)}`
        : head,
    tail: utf8ByteLength(tail) > TORN_LINE_BYTES ? `${truncateUtf8(tail, TORN_LINE_BYTES)}…` : tail,
  };
}

/** Whether `line` is one JSON object. */
function isObjectLine(line: string): boolean {
  const trimmed = line.trim();
  if (trimmed.charCodeAt(0) !== 0x7b) return false;
  try {
    JSON.parse(trimmed);
    return true;
  } catch {
    return false;
  }
}
