import { InvalidArgumentError } from './errors.js';

/** Options of `assertSize`. */
export interface AssertSizeOptions {
  /** Smallest accepted value. Default 0. */
  min?: number;
  /** Also accept `Infinity` (a budget with no limit). Default false. */
  allowInfinity?: boolean;
}

function shown(value: unknown): string {
  return typeof value === 'string' ? JSON.stringify(value) : String(value);
}

/**
 * `value` when it is an integer of at least `min` (a byte budget, a count, a length), or
 * `Infinity` when `allowInfinity` is set; otherwise an `InvalidArgumentError` naming `argument`.
 * Public functions check their sizes with it before any work, so NaN, a negative or fractional
 * number, or a number passed as a string fails at once instead of looping or cutting garbage.
 */
export function assertSize(
  value: unknown,
  argument: string,
  options: AssertSizeOptions = {},
): number {
  const min = options.min ?? 0;
  if (typeof value === 'number') {
    if (Number.isSafeInteger(value) && value >= min) return value;
    if (value === Number.POSITIVE_INFINITY && options.allowInfinity) return value;
  }
  const range = options.allowInfinity ? `an integer ≥ ${min} or Infinity` : `an integer ≥ ${min}`;
  throw new InvalidArgumentError({
    argument,
    message: `${argument} must be ${range}, got ${shown(value)}`,
  });
}
