import { assertSize } from './assert-size.js';
import { knobDefault } from './config/knob-default.js';
import { contentDigest } from './content-digest.js';
import { InvalidArgumentError } from './errors.js';
import type { ProcessedResult, ResultProcessor } from './result-processor.js';
import { utf8ByteLength } from './utf8.js';

/** Settings of `createToolResultViews`. */
export interface ToolResultViewsSettings {
  /** Turns one oversized tool result into its view. Required. */
  processor: ResultProcessor;
  /** Results larger than this many UTF-8 bytes get a view of at most this size. Default 65536 (the `trim.maxResultBytes` knob's default). */
  maxResultBytes?: number;
  /** Views kept for reuse, least recently used dropped first. Default 1000. */
  maxCachedResults?: number;
}

/** One tool result a framework adapter compacted, as reported to its `onCompacted`. */
export interface CompactedToolResult {
  toolCallId: string;
  toolName: string;
  /** What the processor returned (view and metadata). */
  processed: ProcessedResult;
  /** True when this call reused a view computed for an earlier call. */
  reused: boolean;
}

/** The view of one tool result and whether it was computed earlier. */
export interface ToolResultView {
  processed: ProcessedResult;
  reused: boolean;
  /** SHA-256 of the text (`contentDigest`), when computed; pass it back as `digest` for the same text. */
  digest?: string;
}

/** Views of oversized tool results, each computed once. */
export interface ToolResultViews {
  /** The budget views are made for. */
  readonly maxResultBytes: number;
  /**
   * The view of one tool result, or `undefined` when it fits. A result is identified by its
   * tool call id and a SHA-256 of its text: the first call computes the view (with that
   * call's `userQuery`), later calls get the same bytes back, so a prompt that carries the
   * result turn after turn keeps a stable prefix for provider prompt caches. A failed
   * computation is not kept.
   */
  view(input: {
    toolCallId: string;
    toolName?: string;
    text: string;
    userQuery?: string;
    signal?: AbortSignal;
    /**
     * This text's budget in UTF-8 bytes, when it is one of several texts of one tool result
     * that share `maxResultBytes` (a shell call's stdout and stderr per command). Default
     * `maxResultBytes`.
     */
    maxBytes?: number;
    /** `contentDigest(text)` when the caller has it (from an earlier view of the same text). Default: computed here. */
    digest?: string;
  }): Promise<ToolResultView | undefined>;
}

/**
 * The view cache that framework adapters (the AI SDK middleware, the OpenAI Agents input
 * filter) put in front of a processor, since they see every tool result again on every turn.
 */
export function createToolResultViews(settings: ToolResultViewsSettings): ToolResultViews {
  if (!settings?.processor || typeof settings.processor.process !== 'function') {
    throw new InvalidArgumentError({
      argument: 'processor',
      message: 'processor must be a ResultProcessor',
    });
  }
  const { processor } = settings;
  const maxResultBytes = assertSize(
    settings.maxResultBytes ?? knobDefault('trim.maxResultBytes'),
    'maxResultBytes',
    {
      min: 1,
    },
  );
  const maxCached = assertSize(settings.maxCachedResults ?? 1000, 'maxCachedResults', { min: 1 });
  const views = new Map<string, Promise<ProcessedResult>>();
  // A processor's own smaller budget for some results (artifact mode's per-tool inline limit);
  // one that is not a positive integer is ignored rather than trusted.
  const inlineBudget = (input: { toolName?: string; text: string }): number => {
    const wanted = processor.inlineBudget?.({
      ...(input.toolName ? { toolName: input.toolName } : {}),
      text: input.text,
    });
    return typeof wanted === 'number' && Number.isSafeInteger(wanted) && wanted > 0
      ? wanted
      : maxResultBytes;
  };

  return {
    maxResultBytes,
    async view(input) {
      const budget =
        input.maxBytes === undefined
          ? Math.min(maxResultBytes, inlineBudget(input))
          : assertSize(input.maxBytes, 'maxBytes', { min: 1 });
      if (utf8ByteLength(input.text) <= budget) return undefined;
      const digest = input.digest ?? (await contentDigest(input.text));
      const key = `${input.toolCallId}\u0000${budget}\u0000${digest}`;
      const cached = views.get(key);
      if (cached) {
        views.delete(key);
        views.set(key, cached);
        return { processed: await cached, reused: true, digest };
      }
      // The processor gets the digest too, so the distill cache does not hash the result again.
      const view = processor.process(input.text, budget, {
        stepId: input.toolCallId,
        contentDigest: digest,
        ...(input.toolName ? { toolName: input.toolName } : {}),
        ...(input.userQuery ? { userQuery: input.userQuery } : {}),
        ...(input.signal ? { signal: input.signal } : {}),
      });
      views.set(key, view);
      view.catch(() => views.delete(key));
      while (views.size > maxCached) views.delete(views.keys().next().value!);
      return { processed: await view, reused: false, digest };
    },
  };
}
