const NON_ASCII = /[^\x00-\x7f]/g;

/**
 * The UTF-8 bytes of each unit of `text` (its UTF-16 `units` beside it) cut at `starts` (units
 * before the first start are in none), as `utf8ByteLength` counts them: a lone surrogate, or
 * half a pair a cut splits, as U+FFFD's three. `ascii`: every unit is ASCII, a byte each.
 */
export function unitBytes(
  text: string,
  units: Uint16Array,
  starts: readonly number[],
  ascii: boolean,
): Float64Array {
  const total = starts.length;
  const bytes = new Float64Array(total);
  for (let u = 0; u < total; u++) bytes[u] = (starts[u + 1] ?? text.length) - starts[u]!;
  if (ascii || total === 0) return bytes;
  // The bytes beyond one a unit are in the runs outside ASCII, found by a native search: most
  // lines of a text that is not all ASCII are (a page's few emoji), and are not read here.
  NON_ASCII.lastIndex = starts[0]!;
  for (let u = 0, found = NON_ASCII.exec(text); found; found = NON_ASCII.exec(text)) {
    let end = found.index + 1;
    while (end < units.length && units[end]! >= 0x80) end++;
    NON_ASCII.lastIndex = end;
    for (let at = found.index; at < end; at++) {
      while (u + 1 < total && starts[u + 1]! <= at) u++;
      const code = units[at]!;
      if (code < 0x800) {
        bytes[u]! += 1;
        continue;
      }
      // Three bytes; a surrogate pair's two units in one unit of the text make four.
      bytes[u]! += 2;
      if (code >= 0xd800 && code <= 0xdbff && at + 1 < (starts[u + 1] ?? text.length)) {
        const low = units[at + 1]!;
        if (low >= 0xdc00 && low <= 0xdfff) at++;
      }
    }
  }
  return bytes;
}
