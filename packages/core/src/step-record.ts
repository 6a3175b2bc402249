import type { JsonValue } from './json/lossless-json.js';

/** The structured terminal error of a step. */
export interface StepError {
  /** Stable machine code, such as `timeout`, `http_503` or `invalid_params`. */
  code: string;
  /** Human-readable message. */
  message: string;
}

/**
 * One completed step as the planning section and the step resolver read it. Records are never
 * modified: the failed-operation evidence and the digests are derived views, and the resolver
 * binds references to the original `result` text.
 */
export interface StepRecord {
  /** Unique id that plans use in `{{<id>.<path>}}` references, such as `step-3`. */
  id: string;
  /**
   * - `succeeded`: the tool ran and returned `result`.
   * - `failed`: the tool was dispatched and failed with `error`.
   * - `rejected`: the step never reached the tool, because binding its parameters failed before
   *   dispatch (an unknown reference, a missing value). Not a tool failure: it has no
   *   failed-operation evidence, and `error` says why binding failed.
   */
  status: 'succeeded' | 'failed' | 'rejected';
  /** The full result text of a succeeded step (JSON or not). Ignored for other statuses. */
  result?: string;
  /** The terminal error of a failed or rejected step. */
  error?: StepError;
  /**
   * Dispatch evidence of a failed step: the inputs that same attempt was dispatched with, by
   * parameter name. Absent on a legacy record made before evidence was captured, whose
   * failed-operation view is then "unavailable". Ignored for other statuses.
   */
  inputs?: Readonly<Record<string, JsonValue>>;
  /** Name of the tool the step called. */
  toolName?: string;
  /** What the step was asked to do. */
  task?: string;
}
