const NON_ASCII = /[^\x00-\x7f]/;

/**
 * `text` as one character per UTF-8 byte, so string offsets are byte offsets. ASCII text is
 * returned as is; a lone surrogate becomes the three bytes of U+FFFD, as on the wire.
 */
export function toByteString(text: string): string {
  return NON_ASCII.test(text) ? Buffer.from(text, 'utf8').toString('latin1') : text;
}

/** The text whose UTF-8 encoding is `bytes` (the inverse of `toByteString`). */
export function fromByteString(bytes: string): string {
  return NON_ASCII.test(bytes) ? Buffer.from(bytes, 'latin1').toString('utf8') : bytes;
}

/** The largest offset ≤ `at` that does not split a UTF-8 sequence in `bytes`. */
export function utf8Boundary(bytes: string, at: number): number {
  let i = Math.max(0, Math.min(at, bytes.length));
  while (i > 0 && i < bytes.length && (bytes.charCodeAt(i) & 0xc0) === 0x80) i--;
  return i;
}
