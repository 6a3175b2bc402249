import type { StopCheck } from '../engine/stop-check.js';

/**
 * Where each line of `text` begins (the first is 0); lines tile the text, each with its own
 * line ending. Reports its work to `check` every 4096 units.
 */
export function lineStarts(text: string, check: StopCheck): number[] {
  const starts = [0];
  let sinceCheck = 0;
  for (let i = text.indexOf('\n'); i >= 0 && i + 1 < text.length; i = text.indexOf('\n', i + 1)) {
    starts.push(i + 1);
    if (i - sinceCheck >= 4096) {
      check(i - sinceCheck);
      sinceCheck = i;
    }
  }
  return starts;
}
