import type { CallDeadline } from './call-deadline.js';
import type { ResultTrimMetadata } from './trim-metadata.js';

/** What a processor knows about the step whose result it compacts. */
export interface ResultProcessorContext {
  /** The end user's request; relevance is judged against it. */
  userQuery?: string;
  /** What the step was asked to do. */
  stepTask?: string;
  /** Id of the step that produced the result (for telemetry and addressing). */
  stepId?: string;
  /** Id of the request the step belongs to (for telemetry correlation). */
  requestId?: string;
  /** Name of the tool that produced the result. */
  toolName?: string;
  /** Cancels the work; a processor returns its fail-open floor or rejects with the reason. */
  signal?: AbortSignal;
  /**
   * Polled by synchronous passes (the trimmer, the digest) at bounded intervals of work, since a
   * timer or an abort cannot interrupt synchronous code. Returning `true` asks the pass to stop
   * and return its cheapest honest view (a bounded head cut with a disclosure note) at once.
   * The orchestration and the distiller set it from the compaction deadline and `signal`; a
   * caller may pass its own. Must be cheap (it is called often) and must not throw.
   */
  shouldStop?: () => boolean;
  /**
   * The compaction deadline, when a layer above already derived it (`startCallDeadline`): then
   * `signal` and `shouldStop` already carry it, and a processor derives none of its own (it may
   * add its own grace, through `deadline.pollWithGrace`).
   */
  deadline?: CallDeadline;
  /**
   * Lowercase hex SHA-256 of `result`'s UTF-8 bytes (`contentDigest`), when the caller already
   * computed it (the adapters' view cache does): a processor that needs the digest (the distill
   * cache key) uses it as given instead of hashing the result again. It must be the digest of
   * this `result`.
   */
  contentDigest?: string;
  /**
   * Set by a composer that floors a fall-open itself, with a budget it knows only later: a
   * processor that would fall open to its structural floor returns an empty view with
   * `metadata.fellOpen` instead, and the composer runs the floor once. Default false.
   */
  deferFloor?: boolean;
}

/** A processed result: the text for the prompt and the honest account of how it was made. */
export interface ProcessedResult {
  /** The view to put in the prompt, disclosure notes included. */
  text: string;
  /** What was done; `contentLost` is the authoritative loss flag. */
  metadata: ResultTrimMetadata;
}

/**
 * The compaction contract: turn one result into a view that fits `maxBytes` UTF-8 bytes.
 *
 * A processor that drops, samples or truncates content must say so in `metadata.contentLost`
 * (and, for the built-ins, with a disclosure note); the return type makes that impossible to
 * forget. Implementations should not throw for bad input: they fail open to a smaller, honest
 * view.
 */
export interface ResultProcessor {
  /**
   * Compacts `result` for a prompt.
   * @param result the full result text
   * @param maxBytes budget in UTF-8 bytes for the returned text, notes included
   * @param context what the step was about, and an optional `AbortSignal`
   */
  process(
    result: string,
    maxBytes: number,
    context?: ResultProcessorContext,
  ): Promise<ProcessedResult>;
  /**
   * Optional: the budget, in UTF-8 bytes, this processor wants one result of `toolName` cut to
   * even when it is within the adapter's per-result budget, or `undefined` for the adapter's
   * budget. Artifact mode answers seed 001's per-tool inline limit with it: a result over the
   * limit (4000 characters by default) of a tool whose projection policy stores it is stored
   * and shown as a pointer line and a view. Framework adapters and `createToolResultViews`
   * take the smaller of the two. Must be synchronous, cheap and deterministic.
   */
  inlineBudget?(input: { toolName?: string; text: string }): number | undefined;
}
