import { NUMBER_MAX_DIGITS, numberAt } from '../readers/json-records.js';

/**
 * What orders a time as written: a number (an epoch) by its value, a date written out by the
 * time it stands for (`Date.parse`), NaN for an ISO 8601 time (those order as text) or a text
 * that is no time.
 */
export function timeOrderKey(time: string): number {
  if (time.length <= NUMBER_MAX_DIGITS) {
    const x = numberAt(time, 0, time.length);
    if (Number.isFinite(x)) return x;
  }
  return isIsoTime(time) ? Number.NaN : Date.parse(time);
}

/**
 * Whether `time` is written as ISO 8601: it starts with a date, `dddd-dd-dd` (then its text
 * order is its time order). Read unit by unit, not by a regular expression: it is asked of every
 * value of a time field.
 */
export function isIsoTime(time: string): boolean {
  if (time.length < 10) return false;
  for (let i = 0; i < 10; i++) {
    const c = time.charCodeAt(i);
    if (i === 4 || i === 7 ? c !== 0x2d : c < 0x30 || c > 0x39) return false;
  }
  return true;
}
