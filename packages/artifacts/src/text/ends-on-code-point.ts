/**
 * True when `data` does not end inside a UTF-8 sequence, so a streaming decoder that was fed it
 * holds nothing back (a next chunk of ASCII can then be decoded without it). False whenever in
 * doubt: a caller only loses a fast path.
 */
export function endsOnCodePoint(data: Uint8Array): boolean {
  let i = data.length - 1;
  while (i >= 0 && data.length - 1 - i < 3 && (data[i]! & 0xc0) === 0x80) i--;
  if (i < 0) return false;
  const lead = data[i]!;
  const need = lead < 0x80 ? 1 : lead >= 0xf0 ? 4 : lead >= 0xe0 ? 3 : lead >= 0xc0 ? 2 : 1;
  return data.length - i >= need;
}
