const SAMPLE_LINES = 64;
const NOT_A_RECORD_LINE = /^[ \t]*[^\s{[]/m;

/**
 * True when `text` is NDJSON: at least two non-empty lines, every one opening an object or an
 * array, and the first lines each parse as JSON on their own.
 */
export function isNdjson(text: string): boolean {
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
