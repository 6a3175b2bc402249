import { ArtifactError } from '../artifact-error.js';

/** The range of one paging parameter (a limit, a position). */
export interface PagingRange {
  /** Used when the value is absent (`undefined` or `null`). */
  default: number;
  /** The smallest value accepted; a smaller one is refused. */
  min: number;
  /** The largest value served; a larger one reads as this. */
  max: number;
}

/**
 * The one rule for a paging value, shared by the library (and so the CLI and the HTTP API), the
 * HTTP list, the model tools and the MCP server: absent gives `range.default`; a value that is
 * not a safe integer, or is below `range.min`, is refused (`artifact_invalid_argument`, naming
 * `name`); one above `range.max` reads as `range.max`. Asking for more than a page holds is not
 * an error: the answer says how much it holds and where the next page starts, so the caller
 * pages on.
 */
export function pagingValue(value: unknown, name: string, range: PagingRange): number {
  if (value === undefined || value === null) return range.default;
  if (typeof value !== 'number' || !Number.isSafeInteger(value)) {
    throw new ArtifactError({
      code: 'artifact_invalid_argument',
      message: `${name} must be an integer`,
    });
  }
  if (value < range.min) {
    throw new ArtifactError({
      code: 'artifact_invalid_argument',
      message: `${name} must be at least ${range.min}`,
    });
  }
  return Math.min(value, range.max);
}
