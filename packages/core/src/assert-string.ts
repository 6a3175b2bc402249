import { InvalidArgumentError } from './errors.js';

/** `value` when it is a string, otherwise an `InvalidArgumentError` naming `argument`. */
export function assertString(value: unknown, argument: string): string {
  if (typeof value === 'string') return value;
  throw new InvalidArgumentError({
    argument,
    message: `${argument} must be a string, got ${value === null ? 'null' : typeof value}`,
  });
}
