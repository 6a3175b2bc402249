/** Whether `text` reads the same over [a, aEnd) and [b, bEnd), compared in place. */
export function sameText(text: string, a: number, aEnd: number, b: number, bEnd: number): boolean {
  if (aEnd - a !== bEnd - b) return false;
  for (let i = 0; i < aEnd - a; i++) {
    if (text.charCodeAt(a + i) !== text.charCodeAt(b + i)) return false;
  }
  return true;
}
