import { NUMBER_MAX_DIGITS, numberAt } from '../readers/json-records.js';
import { isIsoTime } from './is-iso-time.js';

/**
 * What orders a time as written: a number (an epoch) by its value, a date written out by the
 * time it stands for (`Date.parse`), NaN for an ISO 8601 time (those order as text) or a text
 * that is no time.
 */
export function timeOrderKey(time: string): number {
  if (time.length <= NUMBER_MAX_DIGITS) {
    const x = numberAt(time, 0, time.length);
    if (Number.isFinite(x)) return x;
  } else if (time.length <= EPOCH_MAX_DIGITS && /^\d+$/.test(time)) {
    // Microseconds and nanoseconds since 1970 (16 and 19 digits): exact to 2^53, so two
    // nanosecond times may read alike; equal keys are then told apart as text.
    return Number(time);
  } else if (time.length <= EPOCH_MAX_DIGITS + 2 && /^\d{1,12}\.\d+$/.test(time)) {
    // Seconds with a fraction as long as a logger's float prints it (`1669574894.2211716`):
    // by value, to a double's precision.
    return Number(time);
  }
  return isIsoTime(time) ? Number.NaN : Date.parse(time);
}

/** Digits of the longest epoch: nanoseconds since 1970. */
const EPOCH_MAX_DIGITS = 19;

/**
 * Whether time `a` comes before time `b`, by their keys (`timeOrderKey`), or as text where the
 * keys are equal and the texts of one length (nanoseconds a double reads alike).
 */
export function timeBefore(a: string, aKey: number, b: string, bKey: number): boolean {
  return aKey < bKey || (aKey === bKey && a.length === b.length && a < b);
}
