import type { StopCheck } from '../engine/stop-check.js';

const NEWLINE = 0x0a;
const SPACE = 0x20;
const TAB = 0x09;

/** `.`, `!`, `?` and their full-width forms. */
function isSentenceMark(code: number): boolean {
  return code === 0x2e || code === 0x21 || code === 0x3f || isFullWidthMark(code);
}

/** Full-width marks end a sentence without a space after them (CJK text has none). */
function isFullWidthMark(code: number): boolean {
  return code === 0x3002 || code === 0xff01 || code === 0xff1f;
}

/** Closing quotes and brackets that stay with the sentence they end. */
function isCloser(code: number): boolean {
  return code === 0x22 || code === 0x27 || code === 0x29 || code === 0x5d;
}

/**
 * Where each sentence of `text` begins (the first is 0; sentences tile the text). A sentence
 * ends after a run of sentence marks, any closing quotes or brackets, and the spaces or tabs
 * after them (which stay with it); after a full-width mark (`。！？`) even with no space; and
 * after every run of newlines. One pass, each unit looked at once: a run of marks with no space
 * after it is stepped over, never rescanned.
 */
export function sentenceStarts(text: string, check?: StopCheck): number[] {
  const starts = [0];
  const length = text.length;
  let i = 0;
  let polled = 0;
  // Runs of one kind can be as long as the text, so every loop advances through `step`, which
  // reports the work to `check` every 4096 units.
  const step = () => {
    i++;
    if (check && i - polled >= 4096) {
      check(i - polled);
      polled = i;
    }
  };
  while (i < length) {
    const code = text.charCodeAt(i);
    if (code === NEWLINE) {
      while (i < length && text.charCodeAt(i) === NEWLINE) step();
      if (i < length) starts.push(i);
      continue;
    }
    if (!isSentenceMark(code)) {
      step();
      continue;
    }
    let fullWidth = false;
    while (i < length && isSentenceMark(text.charCodeAt(i))) {
      fullWidth = isFullWidthMark(text.charCodeAt(i));
      step();
    }
    while (i < length && isCloser(text.charCodeAt(i))) step();
    const blankFrom = i;
    while (i < length && (text.charCodeAt(i) === SPACE || text.charCodeAt(i) === TAB)) step();
    if ((i > blankFrom || fullWidth) && i < length && text.charCodeAt(i) !== NEWLINE) {
      starts.push(i);
    }
  }
  if (check) check(length - polled);
  return starts;
}
