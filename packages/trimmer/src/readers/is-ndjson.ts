const SAMPLE_LINES = 64;
const NOT_A_RECORD_LINE = /^[ \t]*[^\s{[]/m;

/**
 * Whether the first non-empty line, trimmed, opens an object or an array it does not close, so
 * that it cannot parse.
 */
function opensUnclosed(text: string): boolean {
  let from = 0;
  for (;;) {
    let to = text.indexOf('\n', from);
    if (to < 0) to = text.length;
    const line = text.slice(from, to).trim();
    if (line !== '') {
      const open = line.charCodeAt(0);
      // `{` and `}`, `[` and `]`, are two units apart.
      return (open === 0x7b || open === 0x5b) && line.charCodeAt(line.length - 1) !== open + 2;
    }
    if (to >= text.length) return false;
    from = to + 1;
  }
}

/**
 * True when `text` is NDJSON: at least two non-empty lines, every one opening an object or an
 * array, and the first lines each parse as JSON on their own.
 */
export function isNdjson(text: string): boolean {
  // A first line that cannot parse settles it before the pattern reads every line (a log
  // whose every line opens with `[`).
  if (opensUnclosed(text)) return false;
  if (NOT_A_RECORD_LINE.test(text)) return false;
  let checked = 0;
  let from = 0;
  while (from < text.length && checked < SAMPLE_LINES) {
    let to = text.indexOf('\n', from);
    if (to < 0) to = text.length;
    const line = text.slice(from, to).trim();
    from = to + 1;
    if (line === '') continue;
    try {
      JSON.parse(line);
    } catch {
      return false;
    }
    checked++;
  }
  return checked >= 2;
}
