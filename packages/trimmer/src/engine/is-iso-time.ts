/**
 * Whether `time` (from `from` to `to`) is written as ISO 8601: it starts with a date,
 * `dddd-dd-dd` (then its text order is its time order). Read unit by unit, not by a regular
 * expression: it is asked of every value of a time field.
 */
export function isIsoTime(time: string, from = 0, to = time.length): boolean {
  if (to - from < 10) return false;
  for (let i = 0; i < 10; i++) {
    const c = time.charCodeAt(from + i);
    if (i === 4 || i === 7 ? c !== 0x2d : c < 0x30 || c > 0x39) return false;
  }
  return true;
}
