import { type ParseArgsConfig, parseArgs } from 'node:util';
import { parseDuration } from '@compaction/core/internal';
import { UsageError } from './usage-error.js';

type Options = NonNullable<ParseArgsConfig['options']>;

/** A negative number, such as `-2` or `-0.5`. */
const NEGATIVE_NUMBER = /^-\d+(?:\.\d+)?$/;

/**
 * Joins `--name -2` into `--name=-2` for an option that takes a value. `util.parseArgs` refuses
 * a value that starts with a dash as ambiguous, but no option here is spelled with a digit
 * (there are no short options at all), so a negative number after one is its value, as in
 * `--offset -2`. Nothing after `--` is touched; other dash values (`--session -x`) still fail.
 */
function joinNegativeValues(args: readonly string[], options: Options): string[] {
  const joined: string[] = [];
  for (let i = 0; i < args.length; i++) {
    const arg = args[i]!;
    if (arg === '--') {
      joined.push(...args.slice(i));
      break;
    }
    const next = args[i + 1];
    const name = arg.startsWith('--') ? arg.slice(2) : undefined;
    if (
      name !== undefined &&
      Object.hasOwn(options, name) &&
      options[name]!.type === 'string' &&
      next !== undefined &&
      NEGATIVE_NUMBER.test(next)
    ) {
      joined.push(`${arg}=${next}`);
      i++;
    } else {
      joined.push(arg);
    }
  }
  return joined;
}

/**
 * `util.parseArgs` in strict mode, with its errors turned into usage errors (exit 2). A negative
 * number after an option that takes a value is that value (`--offset -2` as `--offset=-2`).
 */
export function parseCommandArgs(
  args: string[],
  options: Options,
): { values: Record<string, string | boolean | undefined>; positionals: string[] } {
  try {
    const parsed = parseArgs({
      args: joinNegativeValues(args, options),
      options,
      allowPositionals: true,
      strict: true,
    });
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

/**
 * Parses a duration flag (`30s`, `10m`, `1h30m`, `250ms`; `0` is zero) into whole milliseconds,
 * or throws a usage error naming the flag.
 */
export function parseDurationFlag(flag: string, value: string | undefined): number | undefined {
  if (value === undefined) return undefined;
  const ms = parseDuration(value);
  if (ms === undefined || ms < 0) {
    throw new UsageError(
      `--${flag} must be a duration such as 30s or 10m (0: none), got ${JSON.stringify(value)}`,
    );
  }
  return Math.ceil(ms);
}
