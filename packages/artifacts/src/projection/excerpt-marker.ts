import { assertSize, InvalidArgumentError } from '@compaction/core/internal';
import { isSha256Hex } from '../storage/is-sha256-hex.js';

/** The last segment of a path, `/` or `\\` separated: the excerpt runs where `node:path` does not. */
function fileName(path: string): string {
  return path.slice(Math.max(path.lastIndexOf('/'), path.lastIndexOf('\\')) + 1);
}

/** What the marker line says about the whole result. */
export interface ExcerptSource {
  /** Grapheme clusters in the whole result. */
  totalChars: number;
  /** UTF-8 bytes of the whole result (what `ls -l` says of the artifact file). */
  totalBytes: number;
  /** Lowercase hex SHA-256 of the whole result's bytes (what `sha256sum` says of the file). */
  digest: string;
  /** Basename of the artifact file; absent when the full result was not stored. */
  file?: string;
  /** Why it was not stored, when `file` is absent (such as `no session`). Default `no session`. */
  notStoredReason?: string;
}

/** `391204` → `391,204`, independent of the host locale. `value` is an integer ≥ 0. */
export function formatCount(value: number): string {
  const digits = String(assertSize(value, 'value'));
  return digits.replace(/\B(?=(\d{3})+(?!\d))/g, ',');
}

function oneLine(text: string): string {
  return text.replace(/[\r\n\]]+/g, ' ').trim();
}

function describe(value: unknown): string {
  return typeof value === 'string' ? JSON.stringify(value) : String(value);
}

function checkCount(value: unknown, argument: string): void {
  if (typeof value !== 'number' || !Number.isSafeInteger(value) || value < 0) {
    throw new InvalidArgumentError({
      argument,
      message: `${argument} must be a non-negative integer, got ${describe(value)}`,
    });
  }
}

/**
 * Throws `InvalidArgumentError` unless `source` is an `ExcerptSource`: `totalChars` and
 * `totalBytes` non-negative integers, `digest` 64 lowercase hex, `file` and `notStoredReason`
 * strings when present. A `TextDescription` (`{ chars, bytes, digest }`) is refused with a hint,
 * since its fields have other names.
 */
export function assertExcerptSource(source: unknown): asserts source is ExcerptSource {
  if (typeof source !== 'object' || source === null) {
    throw new InvalidArgumentError({
      argument: 'source',
      message: `source must be an object { totalChars, totalBytes, digest }, got ${describe(source)}`,
    });
  }
  const fields = source as Record<string, unknown>;
  if (fields.totalChars === undefined && fields.chars !== undefined) {
    throw new InvalidArgumentError({
      argument: 'source.totalChars',
      message:
        'source.totalChars is missing: pass { totalChars: d.chars, totalBytes: d.bytes, digest: d.digest } for a describeText() result d',
    });
  }
  checkCount(fields.totalChars, 'source.totalChars');
  checkCount(fields.totalBytes, 'source.totalBytes');
  if (typeof fields.digest !== 'string' || !isSha256Hex(fields.digest)) {
    throw new InvalidArgumentError({
      argument: 'source.digest',
      message: `source.digest must be a SHA-256 in 64 lowercase hex digits, got ${describe(fields.digest)}`,
    });
  }
  for (const name of ['file', 'notStoredReason'] as const) {
    if (fields[name] !== undefined && typeof fields[name] !== 'string') {
      throw new InvalidArgumentError({
        argument: `source.${name}`,
        message: `source.${name} must be a string when given, got ${describe(fields[name])}`,
      });
    }
  }
}

/**
 * The single marker line between the head and the tail of an excerpt. It names the artifact by
 * basename only (a path would be wrong as soon as the transcript moves), the elided amount in
 * chars (grapheme clusters), the whole result's bytes and its SHA-256. All ASCII when the file
 * name is, so its length in code units is its length in chars.
 */
export function excerptMarker(elidedChars: number, source: ExcerptSource): string {
  checkCount(elidedChars, 'elidedChars');
  assertExcerptSource(source);
  const amount = `elided ${formatCount(elidedChars)} chars (${formatCount(source.totalBytes)} bytes total)`;
  if (source.file !== undefined) {
    return `[... ${amount}; full result: ${fileName(source.file)} sha256 ${source.digest} ...]`;
  }
  const reason = oneLine(source.notStoredReason ?? 'no session');
  return `[... ${amount}; full result not stored (${reason}), sha256 ${source.digest} ...]`;
}

const MARKER_LINE =
  /^\[\.\.\. elided ([\d,]+) chars \(([\d,]+) bytes total\); full result(?:: (\S+) sha256 ([0-9a-f]{64})| not stored \(([^)]*)\), sha256 ([0-9a-f]{64})) \.\.\.\]$/;

/** The facts in a marker line, or `undefined` when `line` is not one. */
export function parseExcerptMarker(line: string):
  | {
      elidedChars: number;
      totalBytes: number;
      digest: string;
      file?: string;
      notStoredReason?: string;
    }
  | undefined {
  const match = MARKER_LINE.exec(line);
  if (!match) return undefined;
  const number = (text: string) => Number(text.replaceAll(',', ''));
  const base = { elidedChars: number(match[1]!), totalBytes: number(match[2]!) };
  return match[3] !== undefined
    ? { ...base, file: match[3], digest: match[4]! }
    : { ...base, notStoredReason: match[5]!, digest: match[6]! };
}
