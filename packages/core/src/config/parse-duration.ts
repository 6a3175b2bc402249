import { InvalidArgumentError } from '../errors.js';

const UNIT_MS: Readonly<Record<string, number>> = {
  ns: 1e-6,
  us: 1e-3,
  µs: 1e-3, // U+00B5 MICRO SIGN
  μs: 1e-3, // U+03BC GREEK SMALL LETTER MU; Go accepts both
  ms: 1,
  s: 1000,
  m: 60_000,
  h: 3_600_000,
};

const DURATION = /^([+-]?)((?:\d+(?:\.\d*)?|\.\d+)(?:ns|us|µs|μs|ms|s|m|h))+$/;
const PART = /(\d+(?:\.\d*)?|\.\d+)(ns|us|µs|μs|ms|s|m|h)/g;

/**
 * Parses a Go-style duration (`45s`, `5m`, `1h30m`, `1.5s`, `250ms`) into milliseconds.
 * `0` alone is accepted as zero. Returns `undefined` for anything else.
 */
export function parseDuration(text: string): number | undefined {
  const value = text.trim();
  if (value === '0' || value === '+0' || value === '-0') return 0;
  const match = DURATION.exec(value);
  if (!match) return undefined;
  let total = 0;
  PART.lastIndex = 0;
  for (let part = PART.exec(value); part; part = PART.exec(value)) {
    total += Number(part[1]) * UNIT_MS[part[2]!]!;
  }
  return match[1] === '-' ? -total : total;
}

/** Formats milliseconds the way `parseDuration` reads them (`45s`, `5m`, `1h30m`, `250ms`). */
export function formatDuration(ms: number): string {
  if (typeof ms !== 'number' || !Number.isFinite(ms) || ms < 0) {
    throw new InvalidArgumentError({
      argument: 'ms',
      message: `ms must be a finite number ≥ 0, got ${String(ms)}`,
    });
  }
  if (ms === 0) return '0s';
  if (ms < 1000 || ms % 1000 !== 0) return `${ms}ms`;
  let seconds = ms / 1000;
  const hours = Math.floor(seconds / 3600);
  seconds -= hours * 3600;
  const minutes = Math.floor(seconds / 60);
  seconds -= minutes * 60;
  return `${hours ? `${hours}h` : ''}${minutes ? `${minutes}m` : ''}${seconds ? `${seconds}s` : ''}`;
}
