import type {
  CompactionTelemetry,
  ProcessedResult,
  ResultProcessor,
  ResultProcessorContext,
} from '@compaction/core';
import type { VocabularyOverride } from './resolve-vocabulary.js';

// Defined in core, which raises every trim-budget knob to it; re-exported for trimmer users.
export { MIN_TRIM_BUDGET_BYTES } from '@compaction/core';

/**
 * How a JSON document that must be cut is selected. `information-first` (the default) names
 * every record of a list before detailing any, keeps the records that stand out, and drops
 * constant and redundant fields first; `breadth-first` is the literal rule of seed 002 §4
 * (shallowest first, largest first within a depth, a top-level array from its head).
 */
export type JsonSelectionMode = 'information-first' | 'breadth-first';

/** Settings of `createStructuralTrimmer`. Every field is optional. */
export interface StructuralTrimmerSettings {
  /**
   * Object keys (matched case-insensitively) the trimmer favours: a large boost in the relevance
   * score that drives the backfill pass and key ordering. A preference, not a guarantee.
   * Default `[]`. Config field `trim.preserveKeys`; no environment variable.
   */
  preserveKeys?: readonly string[];
  /**
   * How a JSON document that must be cut is selected (see `JsonSelectionMode`). Default
   * `'information-first'`. Option only.
   */
  selection?: JsonSelectionMode;
  /**
   * Word sets that replace the trimmer's own (`DEFAULT_VOCABULARY`, see `VocabularyOverride`):
   * key-name hints, question words, error words. Checked at construction. Option only.
   */
  vocabulary?: VocabularyOverride;
  /**
   * `breadth-first` only: items of a nested (non-top-level) array that the whole-unit pass
   * considers; later items can still be reached by the relevance backfill. Integer ≥ 1.
   * Default 500. Option only.
   */
  nestedArrayCap?: number;
  /**
   * `breadth-first` only: share of the body budget (0–0.9) held back from the whole-unit pass
   * for units that match the query, the task or a preserved key, kept whole or with their path
   * to the root. Half of it is held when only error-like content matches. Default 0.35. Option
   * only.
   */
  relevanceShare?: number;
  /**
   * Nodes of a JSON document inventoried before the rest is only counted (bounds memory on
   * huge inputs: about 41 bytes per node). Integer ≥ 1. Default 3,000,000. Option only.
   */
  maxJsonNodes?: number;
  /**
   * Receives a `result_trim.completed` span for each `process()` call that changed the result.
   * Default `noopTelemetry`.
   */
  telemetry?: CompactionTelemetry;
}

/** The deterministic, LLM-free structural trimmer (seed 002 §4): the floor of every path. */
export interface StructuralTrimmer extends ResultProcessor {
  /**
   * Synchronous core of `process()`: same result. Never throws for any input, except
   * `BudgetTooSmallError` when `result` does not fit and `maxBytes` is below
   * `MIN_TRIM_BUDGET_BYTES`, and `InvalidArgumentError` when `maxBytes` is not an integer ≥ 0
   * or Infinity (no limit).
   * @param result the full result text
   * @param maxBytes budget in UTF-8 bytes for the returned text, note included
   * @param context the user's query and the step's task steer relevance
   */
  trim(result: string, maxBytes: number, context?: ResultProcessorContext): ProcessedResult;
}
