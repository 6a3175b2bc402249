import type { CallDeadline } from './call-deadline.js';

/** One non-JSON step escalated from its floor preview to a model summary. */
export interface ContinuationDistillInput {
  /** Id of the step. */
  stepId: string;
  /** The full result text. */
  result: string;
  /** The floor preview it would otherwise show. */
  preview: string;
  /** Byte budget for the summary. */
  maxBytes: number;
  /** The end user's request. */
  userQuery?: string;
  /** What the step was asked to do. */
  stepTask?: string;
  /** Cancels the call. */
  signal?: AbortSignal;
  /** The compaction deadline, when the caller derived it: `signal` already aborts at it. */
  deadline?: CallDeadline;
}

/**
 * Summarises a non-JSON step for the planning section. An empty string or a rejection leaves
 * the floor preview in place (fail-open).
 */
export interface ContinuationDistiller {
  distill(input: ContinuationDistillInput): Promise<string>;
}
