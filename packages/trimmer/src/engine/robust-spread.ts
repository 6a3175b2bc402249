import { kthSmallest } from './kth-smallest.js';

/** Values a measure needs before one of them can stand out. */
export const OUTLIER_MIN_VALUES = 8;
/** Robust deviations, and times the median, from which a number stands out. */
const OUTLIER_Z = 3.5;
const OUTLIER_RATIO = 5;
/**
 * A number this many times past the measure's 99th percentile stands out, however wide its
 * spread: in 200 sizes from 1 KB to 330 KB, the 1 MB one (z 2.6 on a log scale).
 */
const HIGH_QUANTILE = 0.99;
const HIGH_RATIO = 3;
/** Scale the median and the mean absolute deviation to a standard deviation. */
const MAD_SCALE = 1.4826;
const MEAN_DEVIATION_SCALE = 1.2533;
/** What a number far from a measure of mostly one value weighs against one far from a spread. */
const MOSTLY_ONE_SHARE = 0.5;

/** Flags of a spread: on a log scale. */
export const SPREAD_LOG = 1;
/** Most values are one, so the spread is of the few others. */
export const SPREAD_MOSTLY_ONE = 2;
/** Values repeat, so far below stands out as far above does (set by the caller). */
export const SPREAD_BOTH_WAYS = 4;
/** Counts (none negative, some zero), on a scale of one more than each. */
export const SPREAD_COUNTS = 8;

/**
 * Where a measure's values lie, on the scale they are compared on: the median, the spread (a
 * standard deviation from the median absolute deviation, or from the mean absolute deviation
 * where half or more of the values are one), the 99th percentile, and `SPREAD_` flags.
 */
export interface RobustSpread {
  median: number;
  spread: number;
  high: number;
  flags: number;
  /**
   * On a log scale, numbers between these two (below `quietAbove` alone, unless
   * `SPREAD_BOTH_WAYS`) are within `OUTLIER_RATIO` of the median by a margin no rounding
   * crosses: `outlierScore` gives them 0 without taking a logarithm (most numbers of a field).
   */
  quietBelow: number;
  quietAbove: number;
}

/** Relative margin of the quiet range, far above the rounding of a logarithm and its inverse. */
const QUIET_MARGIN = 1e-9;

/**
 * The robust spread of `values[0, taken)` (which it rewrites), on a log scale when all are
 * positive, or of one more than each when they are counts (none negative, some zero); undefined
 * when there are fewer than `OUTLIER_MIN_VALUES` or all are one value. One statistic for every
 * reader: a record's field, a log line's measure.
 */
export function robustSpread(values: Float64Array, taken: number): RobustSpread | undefined {
  if (taken < OUTLIER_MIN_VALUES) return undefined;
  let positive = true;
  let negative = false;
  for (let k = 0; k < taken; k++) {
    const x = values[k]!;
    if (!(x > 0)) positive = false;
    if (x < 0) negative = true;
  }
  // Counts with zeros among them (retries, restarts) on a scale of one more than each: a retry
  // count of 29 where most are 1 to 7 is the tail of a count, not 26 deviations past it.
  const counts = !positive && !negative;
  if (positive) for (let k = 0; k < taken; k++) values[k] = Math.log(values[k]!);
  else if (counts) for (let k = 0; k < taken; k++) values[k] = Math.log1p(values[k]!);
  // The 99th percentile (on a log scale): a value several times past it stands out however
  // wide the spread (a 1 MB response among sizes from 10 B to 50 KB).
  const high = kthSmallest(values, taken, Math.floor(HIGH_QUANTILE * (taken - 1)));
  const median = kthSmallest(values, taken, taken >> 1);
  let meanDeviation = 0;
  for (let k = 0; k < taken; k++) {
    values[k] = Math.abs(values[k]! - median);
    meanDeviation += values[k]!;
  }
  meanDeviation /= taken;
  const mad = kthSmallest(values, taken, taken >> 1);
  // Where most values are one (a counter that is mostly 0), the mean absolute deviation still
  // measures how far the others go.
  const spread = mad > 0 ? MAD_SCALE * mad : MEAN_DEVIATION_SCALE * meanDeviation;
  if (!(spread > 0)) return undefined;
  const flags =
    (positive ? SPREAD_LOG : 0) |
    (mad > 0 ? 0 : SPREAD_MOSTLY_ONE) |
    (counts ? SPREAD_LOG | SPREAD_COUNTS : 0);
  // The numbers whose logarithm (of one more, for counts) is within `OUTLIER_RATIO` of the median.
  const ratio = Math.log(OUTLIER_RATIO);
  const below = counts ? Math.expm1(median - ratio) : Math.exp(median - ratio);
  const above = counts ? Math.expm1(median + ratio) : Math.exp(median + ratio);
  return {
    median,
    spread,
    high,
    flags,
    quietBelow: below + Math.abs(below) * QUIET_MARGIN,
    quietAbove: above - Math.abs(above) * QUIET_MARGIN,
  };
}

/**
 * How far number `x` stands out of a measure of spread `at` (above the rest, on a log scale;
 * below too where `SPREAD_BOTH_WAYS`): 0 within its spread, 2 to 3 past it.
 */
export function outlierScore(x: number, at: RobustSpread): number {
  if (!Number.isFinite(x)) return 0;
  const { median, spread, high, flags } = at;
  if (
    (flags & SPREAD_LOG) !== 0 &&
    x < at.quietAbove &&
    ((flags & SPREAD_BOTH_WAYS) === 0 || x > at.quietBelow)
  ) {
    return 0;
  }
  // Where most values are one, a number far from it says less than one far from a spread.
  const most = (flags & SPREAD_MOSTLY_ONE) !== 0 ? MOSTLY_ONE_SHARE : 1;
  let z: number;
  if ((flags & SPREAD_LOG) !== 0) {
    const counts = (flags & SPREAD_COUNTS) !== 0;
    if (!(x > 0) && !(counts && x === 0)) return 0;
    // Positive values far below the rest stand out only where values repeat (a severity of 1
    // among 40s and 70s): where nearly every value is its own, the low end is that of ids or of
    // sizes drawn at random (`1` among ids up to 2000), and only far above says something.
    const t = counts ? Math.log1p(x) : Math.log(x);
    const d = (flags & SPREAD_BOTH_WAYS) !== 0 ? Math.abs(t - median) : t - median;
    if (d < Math.log(OUTLIER_RATIO)) return 0;
    z = d / spread;
    // Past the rest by that much, the further the stronger: a latency of 2 s where the
    // slowest others take 300 ms stands out more than the top of a long tail of retries.
    const past = t - high - Math.log(HIGH_RATIO);
    if (past >= 0) z = Math.max(z, OUTLIER_Z + (4 * past) / Math.LN2);
  } else z = Math.abs(x - median) / spread;
  return z >= OUTLIER_Z ? most * Math.min(3, 2 + (z - OUTLIER_Z) / 4) : 0;
}
