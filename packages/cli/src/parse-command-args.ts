import { type ParseArgsConfig, parseArgs } from 'node:util';
import { UsageError } from './usage-error.js';

type Options = NonNullable<ParseArgsConfig['options']>;

/** `util.parseArgs` in strict mode, with its errors turned into usage errors (exit 2). */
export function parseCommandArgs(
  args: string[],
  options: Options,
): { values: Record<string, string | boolean | undefined>; positionals: string[] } {
  try {
    const parsed = parseArgs({ args, options, allowPositionals: true, strict: true });
    return {
      values: parsed.values as Record<string, string | boolean | undefined>,
      positionals: parsed.positionals,
    };
  } catch (error) {
    throw new UsageError(error instanceof Error ? error.message : String(error));
  }
}

/** Parses a non-negative integer flag value, or throws a usage error naming the flag. */
export function parseIntegerFlag(
  flag: string,
  value: string | undefined,
  min = 1,
): number | undefined {
  if (value === undefined) return undefined;
  if (!/^\d+$/.test(value.trim()) || Number(value) < min) {
    throw new UsageError(`--${flag} must be an integer ≥ ${min}, got ${JSON.stringify(value)}`);
  }
  return Number(value);
}
