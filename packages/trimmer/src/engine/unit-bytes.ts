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
  // The bytes beyond one a unit are outside ASCII: most units of a text that is not all ASCII
  // are (a page's few emoji), stepped over eight at a time, two to a 32-bit word where the
  // units are aligned to one.
  const length = units.length;
  const pairs =
    units.byteOffset % 4 === 0
      ? new Uint32Array(units.buffer, units.byteOffset, length >> 1)
      : undefined;
  let u = 0;
  for (let at = starts[0]!; at < length; at++) {
    if (pairs && (at & 1) === 0) {
      let pair = at >> 1;
      while (
        pair + 4 <= pairs.length &&
        ((pairs[pair]! | pairs[pair + 1]! | pairs[pair + 2]! | pairs[pair + 3]!) & 0xff80ff80) === 0
      ) {
        pair += 4;
      }
      at = pair << 1;
      if (at >= length) break;
    }
    const code = units[at]!;
    if (code < 0x80) continue;
    while (u + 1 < total && starts[u + 1]! <= at) u++;
    if (code < 0x800) {
      bytes[u]! += 1;
      continue;
    }
    // Three bytes; a surrogate pair's two units in one unit of the text make four.
    bytes[u]! += 2;
    if (code >= 0xd800 && code <= 0xdbff && at + 1 < (starts[u + 1] ?? length)) {
      const low = units[at + 1]!;
      if (low >= 0xdc00 && low <= 0xdfff) at++;
    }
  }
  return bytes;
}
