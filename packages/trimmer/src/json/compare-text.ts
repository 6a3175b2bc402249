/**
 * `text` over [a, aEnd) against [b, bEnd), compared in place unit by unit as `<` compares
 * strings: negative when the first comes first, 0 when they read the same, else positive.
 */
export function compareText(
  text: string,
  a: number,
  aEnd: number,
  b: number,
  bEnd: number,
): number {
  const length = Math.min(aEnd - a, bEnd - b);
  for (let i = 0; i < length; i++) {
    const order = text.charCodeAt(a + i) - text.charCodeAt(b + i);
    if (order !== 0) return order;
  }
  return aEnd - a - (bEnd - b);
}
