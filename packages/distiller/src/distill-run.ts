import type {
  AICompletion,
  ProcessedResult,
  ResultProcessorContext,
  TelemetrySpan,
  TokenCounter,
} from '@compaction/core';
import type { DistillProgress } from './distill-progress.js';
import type { FloorTrimmer } from './floor-trimmer.js';
import type { ResolvedDistillerSettings } from './resolved-distiller-settings.js';

/** What one compaction produced and whether it may be cached. */
export interface DistillOutcome {
  processed: ProcessedResult;
  /** Complete and successful: safe to serve from the cache for the TTL. */
  cacheable: boolean;
  /** Fell back to the structural floor. */
  fellBack: boolean;
}

/** Shared machinery handed to the single-call and map-reduce paths. */
export interface DistillRun {
  result: string;
  originalBytes: number;
  maxBytes: number;
  /** The summary size the model is asked for: the target, less the notes' room in a tight budget. */
  summaryBytes: number;
  /**
   * Largest source one model call receives: the pre-filter budget, or less when the context
   * window minus the prompt frame and the answer's room is smaller (the map-reduce chunk size).
   */
  sourceBytes: number;
  context: ResultProcessorContext;
  settings: Readonly<ResolvedDistillerSettings>;
  signal: AbortSignal;
  span: TelemetrySpan;
  deadline: { readonly hit: boolean };
  /** One model call with telemetry and debug recording; rejects on failure. */
  call(input: { system: string; prompt: string; description: string }): Promise<AICompletion>;
  /**
   * The structural floor at the output budget. `cutShort`: synchronous work already ran into
   * the deadline, so the floor returns its cheapest honest view at once.
   */
  floor(cutShort?: boolean): ProcessedResult;
  /** The Stage-1 pre-filter and floor. */
  trimmer: FloorTrimmer;
  /** Sum of UTF-8 bytes sent to the model so far. */
  readonly llmInputBytes: number;
  onProgress: ((progress: DistillProgress) => void) | undefined;
  distillSystem: string;
  /** Counts tokens against `settings.contextTokens`. */
  tokenCounter: TokenCounter;
}
