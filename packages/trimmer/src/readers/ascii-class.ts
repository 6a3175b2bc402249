/** Whether UTF-16 unit `code` is an ASCII digit. */
export function isAsciiDigit(code: number): boolean {
  return code >= 0x30 && code <= 0x39;
}

/** Whether UTF-16 unit `code` is an ASCII letter. */
export function isAsciiLetter(code: number): boolean {
  return (code >= 0x61 && code <= 0x7a) || (code >= 0x41 && code <= 0x5a);
}

/** Whether UTF-16 unit `code` is what a regular expression's `\b` counts as a word character (`[A-Za-z0-9_]`). */
export function isAsciiWordCode(code: number): boolean {
  return isAsciiLetter(code) || isAsciiDigit(code) || code === 0x5f;
}
