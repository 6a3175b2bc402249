const SAMPLE_LINES = 64;
const NOT_A_RECORD_LINE = /^[ \t]*[^\s{[]/m;
const BLANK = /\s/;

/**
 * Whether some line opens, past spaces and tabs, with what is neither blank nor `{` or `[`
 * (`NOT_A_RECORD_LINE`). Where lines end at `\n` only, they are found by a native search and
 * read from their start: the pattern, tried at every unit, reads all of a text that is all
 * records (a megabyte of NDJSON: 0.7 ms against 0.05).
 */
function hasPlainLine(text: string): boolean {
  // Most texts that are not NDJSON say so on their first line: the searches for other line
  // breaks below each read all of the text.
  let first = 0;
  while (text.charCodeAt(first) === 0x20 || text.charCodeAt(first) === 0x09) first++;
  if (first < text.length) {
    const code = text.charCodeAt(first);
    if (code !== 0x7b && code !== 0x5b && !BLANK.test(text[first]!)) return true;
  }
  if (text.includes('\r') || text.includes('\u2028') || text.includes('\u2029')) {
    return NOT_A_RECORD_LINE.test(text);
  }
  for (let from = 0; from >= 0; from = text.indexOf('\n', from) + 1 || -1) {
    while (text.charCodeAt(from) === 0x20 || text.charCodeAt(from) === 0x09) from++;
    const code = text.charCodeAt(from);
    if (from >= text.length) return false;
    if (code !== 0x7b && code !== 0x5b && code !== 0x0a && !BLANK.test(text[from]!)) return true;
  }
  return false;
}

/**
 * True when `text` is NDJSON: at least two non-empty lines, every one opening an object or an
 * array, and the first lines each parse as JSON on their own.
 */
export function isNdjson(text: string): boolean {
  let checked = 0;
  let from = 0;
  while (from < text.length && checked < SAMPLE_LINES) {
    let to = text.indexOf('\n', from);
    if (to < 0) to = text.length;
    const line = text.slice(from, to).trim();
    from = to + 1;
    if (line === '') continue;
    if (checked === 0) {
      // A first line that opens an object or an array it does not close (`{` and `}`, `[` and
      // `]`, are two units apart) cannot parse: that settles it before every line is looked at
      // (a log whose every line opens with `[`).
      const open = line.charCodeAt(0);
      if ((open === 0x7b || open === 0x5b) && line.charCodeAt(line.length - 1) !== open + 2) {
        return false;
      }
      if (hasPlainLine(text)) return false;
    }
    try {
      JSON.parse(line);
    } catch {
      return false;
    }
    checked++;
  }
  return checked >= 2;
}
