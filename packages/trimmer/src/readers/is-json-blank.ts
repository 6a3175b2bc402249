/** Whether UTF-16 unit `code` is JSON whitespace: a space, a tab, a line feed or a carriage return. */
export function isJsonBlank(code: number): boolean {
  return code === 0x20 || code === 0x09 || code === 0x0a || code === 0x0d;
}
