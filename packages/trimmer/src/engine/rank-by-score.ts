import type { StopCheck } from './stop-check.js';

/** Score steps per unit of score, and the number of steps kept apart (higher ones tie). */
const STEPS_PER_UNIT = 16;
const STEPS = 4096;

/**
 * Indices of the positive `scores`, highest first, ties (within 1/16 of a point) in index
 * order. A counting sort on the quantised score: linear in the number of scores, however many
 * there are, and deterministic.
 */
export function rankByScore(scores: Float64Array, check: StopCheck): Int32Array {
  const step = new Int32Array(scores.length);
  const counts = new Int32Array(STEPS);
  let ranked = 0;
  for (let i = 0; i < scores.length; i++) {
    const score = scores[i]!;
    if (!(score > 0)) {
      step[i] = -1;
      continue;
    }
    const s = Math.min(STEPS - 1, Math.floor(score * STEPS_PER_UNIT));
    step[i] = s;
    counts[s]!++;
    ranked++;
  }
  // Start offset of each step, highest step first.
  const offsets = new Int32Array(STEPS);
  let offset = 0;
  for (let s = STEPS - 1; s >= 0; s--) {
    offsets[s] = offset;
    offset += counts[s]!;
  }
  const order = new Int32Array(ranked);
  for (let i = 0; i < scores.length; i++) {
    const s = step[i]!;
    if (s >= 0) order[offsets[s]!++] = i;
  }
  check(scores.length);
  return order;
}
