import { ArtifactError } from '../artifact-error.js';

const SAFE_ID = /^[A-Za-z0-9][A-Za-z0-9_.-]{0,127}$/;

/**
 * True when `value` can name a file or a session without escaping its directory: 1–128
 * characters of ASCII letters, digits, `_`, `-` and `.`, starting with a letter or digit, with
 * no `..` anywhere. Slashes, backslashes, NUL, percent escapes and Unicode look-alikes all fail.
 */
export function isSafeId(value: unknown): value is string {
  return typeof value === 'string' && SAFE_ID.test(value) && !value.includes('..');
}

/** Returns `value` when `isSafeId(value)`, else throws an `ArtifactError` naming `what`. */
export function assertSafeId(what: string, value: unknown): string {
  if (isSafeId(value)) return value;
  const shown = typeof value === 'string' ? JSON.stringify(value.slice(0, 80)) : typeof value;
  throw new ArtifactError({
    code: 'artifact_invalid_id',
    message: `Invalid ${what} ${shown}: use 1-128 of [A-Za-z0-9_.-], starting with a letter or digit, without '..'`,
    subject: typeof value === 'string' ? value : undefined,
  });
}
