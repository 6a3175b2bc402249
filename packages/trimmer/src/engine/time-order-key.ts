import { NUMBER_MAX_DIGITS, numberAt } from '../readers/json-records.js';

/** Where an ISO 8601 time starts: its text order is its time order. */
const ISO_START = /^\d{4}-\d{2}-\d{2}/;

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

/** Whether `time` is written as ISO 8601 (a date first). */
export function isIsoTime(time: string): boolean {
  return ISO_START.test(time);
}
