import { utf8ByteLength } from './utf8.js';

/** The worst structural boundary a map-reduce split had to use, best first. */
export type ChunkStrategy = 'array' | 'wrapper' | 'lines' | 'bytes';

/** Why the reduce step of a map-reduce cut the combined extracts. */
export type CombineTruncatedReason = 'reduce_failed' | 'over_context';

/**
 * Why a map-reduce view is its segments' extracts instead of one reduced summary: the reduce
 * call failed or answered nothing (`reduce_failed`), the deadline passed before it answered
 * (`deadline`), or the extracts were over the model's context (`over_context`).
 */
export type ReduceSkippedReason = 'reduce_failed' | 'deadline' | 'over_context';

/** How a processor produced its view; for logs, telemetry and the demo table. */
export type TrimStrategy =
  | 'unchanged'
  | 'minified'
  | 'json'
  | 'ndjson'
  | 'text'
  | 'bytes'
  | 'distilled'
  | 'map-reduce'
  | 'floor'
  | 'passthrough'
  | 'custom'
  | 'omitted';

/**
 * What a processor did to a result. Downstream honesty keys on `contentLost` alone: never infer
 * loss from byte counts (minified JSON is smaller and loses nothing).
 */
export interface ResultTrimMetadata {
  /** True exactly when the view is not the whole input (content, not whitespace, was dropped). */
  contentLost: boolean;
  /** UTF-8 bytes of the input. */
  originalBytes: number;
  /** UTF-8 bytes of the returned text, disclosure notes included. */
  outputBytes: number;
  /** How the view was produced. */
  strategy?: TrimStrategy;
  /** Share of the source bytes (0–1) that a model actually received. */
  sourceCoverageRatio?: number;
  /** UTF-8 bytes sent to the model across all calls of this compaction. */
  llmInputBytes?: number;
  /** Map-reduce segments whose extract completed. */
  segmentsAnalyzed?: number;
  /** Map-reduce segments in all. */
  segmentsTotal?: number;
  /** The model saw only part of the source (a Stage-1 cut or missing segments). */
  partialCoverage?: boolean;
  /** The reduce step cut the combined extracts. */
  combineTruncated?: boolean;
  /** Why the combined extracts were cut. */
  combineTruncatedReason?: CombineTruncatedReason;
  /**
   * Map-reduce: set when no reduce call merged the extracts, so the view is the segments'
   * extracts as written (they may repeat or contradict each other), with the reason. Absent when
   * the reduce answered or was not needed (a single segment). Set whether or not the extracts
   * then had to be cut (`combineTruncated`).
   */
  reduceSkippedReason?: ReduceSkippedReason;
  /** The worst split boundary used by map-reduce. */
  chunkStrategy?: ChunkStrategy;
  /** A structural trim kept under 5% of the source. */
  degenerate?: boolean;
  /** Share of source bytes (0–1) kept by a structural trim. */
  keptRatio?: number;
  /** Structural units (fields, items, lines, sentences) kept. */
  fieldsKept?: number;
  /** Structural units in the source. */
  fieldsTotal?: number;
  /** Structural units dropped. */
  fieldsDropped?: number;
  /** JSON views of a list: the records of the main list whose identity is in the view. */
  recordsNamed?: number;
  /** JSON views of a list: the records in the main list (of the part analysed, see `fieldsAnalysed`). */
  recordsTotal?: number;
  /**
   * JSON views of a document over the trimmer's `maxJsonNodes`: the fields analysed, from the
   * start (the rest is counted in `fieldsTotal` but not analysed; `recordsTotal` is then a
   * lower bound).
   */
  fieldsAnalysed?: number;
  /** JSON views of a list: the records in the view whole. */
  recordsWhole?: number;
  /**
   * A model path fell open (the call failed, answered nothing usable, or the deadline passed):
   * the view is the structural floor, or, when the caller asked to floor it itself
   * (`ResultProcessorContext.deferFloor`), empty.
   */
  fellOpen?: boolean;
}

/** Metadata for a view that is the whole input, byte for byte or re-encoded without loss. */
export function losslessMetadata(
  original: string,
  output: string,
  strategy: TrimStrategy = 'unchanged',
): ResultTrimMetadata {
  const originalBytes = utf8ByteLength(original);
  return {
    contentLost: false,
    originalBytes,
    outputBytes: original === output ? originalBytes : utf8ByteLength(output),
    strategy,
  };
}
