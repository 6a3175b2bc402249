import { isAsciiDigit, isAsciiWordCode } from './ascii-class.js';

/** A unit that is none of the others. */
export const OTHER = 0;
/** A unit joining digits into one number: `.`, `:`, `-`, `/` (a decimal, a version, a time, a date). */
export const JOIN = 1;
/** A letter or `_`: a unit of a word. */
export const LETTER = 2;
/** An ASCII digit. */
export const DIGIT = 3;

/**
 * What each UTF-16 unit is to a number read in a log line (`OTHER`, `JOIN`, `LETTER`, `DIGIT`):
 * one load per unit, for the passes that read a line's codes and measures.
 */
export const NUMBER_UNIT_KIND = new Uint8Array(0x10000);
for (let code = 0; code < 128; code++) {
  if (isAsciiDigit(code)) NUMBER_UNIT_KIND[code] = DIGIT;
  else if (isAsciiWordCode(code)) NUMBER_UNIT_KIND[code] = LETTER;
}
for (const unit of '.:-/') NUMBER_UNIT_KIND[unit.charCodeAt(0)] = JOIN;
