import { assertSize } from '../assert-size.js';
import { contentDigest } from '../content-digest.js';
import type { ToolResultView, ToolResultViews } from '../tool-result-views.js';
import { utf8ByteLength } from '../utf8.js';
import type { ConversationResult, ConversationStep } from './conversation-result.js';
import { fitConversation, MIN_STEP_DOWN_BYTES } from './fit-conversation.js';
import {
  type ConversationBudgetOptions,
  type ResolvedConversationBudget,
  resolveConversationBudget,
} from './resolve-conversation-budget.js';
import type { ArchivedResult, ResultArchive } from './result-archive.js';
import type { ResultDescriber } from './result-describer.js';

/** One tool result of a prompt, as an adapter hands it to `ConversationBudget.fit`. */
export interface ConversationToolResult {
  toolCallId: string;
  toolName: string;
  /**
   * The model turn that first saw this result (results answering one model response share it);
   * nondecreasing in prompt order. Adapters count the assistant messages before the result.
   */
  turn: number;
  /** The full output text (a JSON output as its JSON text). */
  text: string;
  /** The tool failed. */
  failed?: boolean;
  /** An `artifact_read` / `artifact_search` answer: never compacted, stepped down first. */
  artifactRead?: boolean;
  /**
   * Where the full output is already stored, when `text` is a view of it (the LangChain
   * middleware keeps views in the agent's state and records this beside them): its pointer
   * line names this artifact, size and sha256, and `text` is not archived.
   */
  stored?: ArchivedResult;
  /**
   * The per-result view the adapter made itself, used as is instead of one of `views` (the
   * OpenAI Agents filter views a shell call's texts each within a share of the budget). Its
   * small view and pointer are still made from `text`.
   */
  view?: string;
  /**
   * The question views are conditioned on. Take it from the conversation before the result
   * (the latest user message before it), not from the newest message, so that a restarted
   * process computes the same views.
   */
  userQuery?: string;
}

/** Settings of `createConversationBudget`: the budget and where stepped-down results go. */
export interface ConversationBudgetSettings extends ConversationBudgetOptions {
  /**
   * Keeps full results, so a pointer line names an `art_…` id that `artifact_read` resolves
   * (`createArtifactMode(…).conversation`). Default none: pointers say not retrievable.
   */
  archive?: ResultArchive;
  /** The one-line digest a pointer line carries (`describeResult` of `@compaction/trimmer`). Default none. */
  describe?: ResultDescriber;
  /** Environment to read `COMPACTION_CONVERSATION_*` from. Default `process.env`, read once here. */
  env?: Readonly<Record<string, string | undefined>>;
  /** Archived results and digests kept for reuse, least recently used dropped first. Default 1000. */
  maxCachedResults?: number;
}

/** What one `fit` did, for an adapter's callback. */
export interface ConversationReport {
  /** What `budget`, `total` and `viewsTotal` count. */
  unit: 'bytes' | 'tokens';
  budget: number;
  /** What the tool results of this prompt cost as sent. */
  total: number;
  /** What they would have cost as per-result views alone (the saving is `viewsTotal - total`). */
  viewsTotal: number;
  withinBudget: boolean;
  /** Times the conversation crossed its budget so far: the prompt-prefix breaks it cost. */
  stepDowns: number;
  smallViews: number;
  /** Results shown as a pointer line, in its full or short form. */
  pointers: number;
  /** Of `pointers`, those in the short form (no SHA-256; a pointer line takes it at the step-down after the one that made it). */
  shortPointers: number;
  /** Results that could not be archived this call (their pointers say not stored). */
  archiveFailures: number;
  /**
   * What the tool results of this call saved against sending every one whole (a result the
   * prompt holds as a view of a stored output counts at the stored size), in bytes and in
   * tokens (`tokenCounter`, by default UTF-8 bytes / 3.5), and the running totals over every
   * call of this budget so far. Reporting only: it never changes what is sent.
   */
  saved: ConversationSavings;
}

/** Bytes and tokens saved by one call, and in total over the calls so far. */
export interface ConversationSavings {
  bytes: number;
  tokens: number;
  totalBytes: number;
  totalTokens: number;
}

/** The texts to send for the tool results of one prompt. */
export interface ConversationOutcome {
  /** One text per result, in order. */
  texts: string[];
  /** Per result, its per-result view when the processor made one (for `onCompacted`). */
  views: Array<ToolResultView | undefined>;
  /** Per result, the step it is shown at. */
  steps: ConversationStep[];
  /** Per result, the artifact the archive stored it as, when it was archived. */
  artifactIds: Array<string | undefined>;
  report: ConversationReport;
}

/**
 * A conversation budget for one adapter: each framework adapter turns its prompt's tool
 * results into `ConversationToolResult`s, calls `fit`, and puts the texts back in place.
 */
export interface ConversationBudget {
  /** The resolved budget. */
  readonly resolved: ResolvedConversationBudget;
  /**
   * The texts for the tool results of one prompt: each result's per-result view, and, when
   * the conversation has outgrown its budget, older ones stepped down to a small view or a
   * pointer line (`fitConversation`). Results are archived, described and given a small view
   * only when the per-result views alone exceed the budget.
   */
  fit(
    results: readonly ConversationToolResult[],
    options?: { signal?: AbortSignal },
  ): Promise<ConversationOutcome>;
}

interface Facts {
  sha256: string;
  archived?: ArchivedResult;
  digest?: string;
  small?: string;
}

/** What a memo entry was computed from: a result is the same when all of it is. */
interface Remembered {
  toolName: string;
  text: string;
  userQuery: string | undefined;
  stored: string | undefined;
  facts: Promise<Facts>;
}

/**
 * Creates the conversation budget an adapter applies on top of its per-result `views` (issue
 * 41). Resolves its settings once (`resolveConversationBudget`). Everything it decides is a
 * function of the results given: the caches it keeps (archive ids, digests, small views, and
 * the views cache) only save work, so a fresh instance sends the same bytes for the same
 * conversation.
 */
export function createConversationBudget(
  views: Pick<ToolResultViews, 'view'>,
  settings: ConversationBudgetSettings = {},
): ConversationBudget {
  const { archive, describe, env, maxCachedResults, ...options } = settings;
  const resolved = resolveConversationBudget(options, env);
  const maxCached = assertSize(maxCachedResults ?? 1000, 'maxCachedResults', { min: 1 });
  // By tool call id. Adapters hand over the same string objects call after call, so telling a
  // remembered result from a new one is a pointer comparison, not a hash of the text.
  const memo = new Map<string, Remembered>();

  const describeSafely = (text: string): string | undefined => {
    if (!describe) return undefined;
    try {
      const line = describe(text);
      return typeof line === 'string' ? line : undefined;
    } catch {
      // A digest is a courtesy: a failing reader leaves the pointer without one.
      return undefined;
    }
  };

  const computeFacts = async (
    result: ConversationToolResult,
    view: string,
    known: string | undefined,
    signal: AbortSignal | undefined,
    failures: { count: number },
  ): Promise<Facts> => {
    // The digest of the result, computed once: stored results carry theirs, and the view
    // cache gives the one it computed when it made a view.
    const sha256 = result.stored
      ? result.stored.sha256
      : (known ?? (await contentDigest(result.text)));
    const [archived, small] = await Promise.all([
      result.stored
        ? result.stored
        : archive
          ? archive
              .archive({
                toolCallId: result.toolCallId,
                toolName: result.toolName,
                text: result.text,
                contentDigest: sha256,
                ...(signal ? { signal } : {}),
              })
              .catch(() => {
                signal?.throwIfAborted();
                return undefined;
              })
          : undefined,
      !result.artifactRead && utf8ByteLength(view) > resolved.smallViewBytes
        ? views.view({
            toolCallId: result.toolCallId,
            toolName: result.toolName,
            text: result.text,
            maxBytes: resolved.smallViewBytes,
            digest: sha256,
            ...(result.userQuery ? { userQuery: result.userQuery } : {}),
            ...(signal ? { signal } : {}),
          })
        : undefined,
    ]);
    if (archive && !archived && !result.stored) failures.count++;
    const digest = describeSafely(result.text);
    return {
      sha256,
      ...(archived ? { archived } : {}),
      ...(digest ? { digest } : {}),
      ...(small ? { small: small.processed.text } : {}),
    };
  };

  const factsOf = (
    result: ConversationToolResult,
    view: string,
    digest: string | undefined,
    signal: AbortSignal | undefined,
    failures: { count: number },
  ): Promise<Facts> => {
    const known = memo.get(result.toolCallId);
    if (
      known &&
      known.text === result.text &&
      known.toolName === result.toolName &&
      known.userQuery === result.userQuery &&
      known.stored === result.stored?.artifactId
    ) {
      memo.delete(result.toolCallId);
      memo.set(result.toolCallId, known);
      return known.facts;
    }
    const facts = computeFacts(result, view, digest, signal, failures);
    const entry: Remembered = {
      toolName: result.toolName,
      text: result.text,
      userQuery: result.userQuery,
      stored: result.stored?.artifactId,
      facts,
    };
    memo.set(result.toolCallId, entry);
    while (memo.size > maxCached) memo.delete(memo.keys().next().value!);
    // A failed archive (or computation) is tried again on the next call rather than remembered.
    facts.then(
      (found) => {
        if (archive && !found.archived && !result.stored && memo.get(result.toolCallId) === entry)
          memo.delete(result.toolCallId);
      },
      () => {
        if (memo.get(result.toolCallId) === entry) memo.delete(result.toolCallId);
      },
    );
    return facts;
  };

  // What each whole output costs, by tool call id, computed once per output (a token count of
  // a 1 MB output is not repeated on every call).
  const wholeCosts = new Map<string, { text: string; bytes: number; tokens: number }>();
  const wholeCost = (result: ConversationToolResult) => {
    const known = wholeCosts.get(result.toolCallId);
    if (known && known.text === result.text) return known;
    const bytes = utf8ByteLength(result.text);
    const tokens = resolved.countTokens(result.text);
    // A view of a stored output stands for the stored bytes; its tokens scale with them.
    const stored = result.stored && result.stored.bytes > bytes ? result.stored.bytes : bytes;
    const cost = {
      text: result.text,
      bytes: stored,
      tokens: bytes > 0 ? Math.round((tokens * stored) / bytes) : tokens,
    };
    wholeCosts.set(result.toolCallId, cost);
    while (wholeCosts.size > maxCached) wholeCosts.delete(wholeCosts.keys().next().value!);
    return cost;
  };
  const sent = new Map<string, { text: string; tokens: number }>();
  const sentTokens = (toolCallId: string, text: string): number => {
    const known = sent.get(toolCallId);
    if (known && known.text === text) return known.tokens;
    const tokens = resolved.countTokens(text);
    sent.set(toolCallId, { text, tokens });
    while (sent.size > maxCached) sent.delete(sent.keys().next().value!);
    return tokens;
  };
  let totalBytes = 0;
  let totalTokens = 0;
  const savings = (
    results: readonly ConversationToolResult[],
    texts: readonly string[],
  ): ConversationSavings => {
    let bytes = 0;
    let tokens = 0;
    results.forEach((result, i) => {
      const whole = wholeCost(result);
      const text = texts[i]!;
      bytes += whole.bytes - utf8ByteLength(text);
      tokens += whole.tokens - sentTokens(result.toolCallId, text);
    });
    totalBytes += bytes;
    totalTokens += tokens;
    return { bytes, tokens, totalBytes, totalTokens };
  };

  return {
    resolved,
    async fit(results, { signal } = {}) {
      const perResult = await Promise.all(
        results.map(async (result) => {
          if (result.artifactRead) return { text: result.text, view: undefined };
          if (result.view !== undefined) return { text: result.view, view: undefined };
          const view = await views.view({
            toolCallId: result.toolCallId,
            toolName: result.toolName,
            text: result.text,
            ...(result.userQuery ? { userQuery: result.userQuery } : {}),
            ...(signal ? { signal } : {}),
          });
          return { text: view ? view.processed.text : result.text, view };
        }),
      );
      const { measure, budget, unit } = resolved;
      let viewsTotal = 0;
      for (const entry of perResult) viewsTotal += measure(entry.text);
      const outcome = (
        texts: string[],
        total: number,
        rest: Partial<ConversationReport> = {},
        steps: ConversationStep[] = texts.map(() => 'view'),
        artifactIds: Array<string | undefined> = texts.map(() => undefined),
      ) => ({
        texts,
        views: perResult.map((entry) => entry.view),
        steps,
        artifactIds,
        report: {
          unit,
          budget,
          total,
          viewsTotal,
          withinBudget: total <= budget,
          stepDowns: 0,
          smallViews: 0,
          pointers: 0,
          shortPointers: 0,
          archiveFailures: 0,
          saved: savings(results, texts),
          ...rest,
        },
      });
      // While the views fit, no earlier turn of the replay crossed the budget either (costs
      // only add up), so the views are what the full replay would give.
      if (!resolved.enabled || viewsTotal <= budget) {
        return outcome(
          perResult.map((entry) => entry.text),
          viewsTotal,
        );
      }

      const n = results.length;
      const lastTurn = results[n - 1]!.turn;
      const failures = { count: 0 };
      const entries = await Promise.all(
        results.map(async (result, i): Promise<ConversationResult> => {
          const view = perResult[i]!.text;
          const bytes = result.stored?.bytes ?? utf8ByteLength(result.text);
          const base: ConversationResult = {
            toolCallId: result.toolCallId,
            toolName: result.toolName,
            turn: result.turn,
            view,
            bytes,
            ...(result.failed ? { failed: true } : {}),
            ...(result.artifactRead ? { artifactRead: true } : {}),
          };
          // Only a result the replay may step down needs its facts (the same rule as
          // `fitConversation`'s: the protection of the newest widens going back in time).
          const steppable =
            i < n - 1 &&
            bytes > MIN_STEP_DOWN_BYTES &&
            (result.artifactRead ? result.turn < lastTurn : i < n - resolved.keepLast);
          if (!steppable) return base;
          const found = await factsOf(result, view, perResult[i]!.view?.digest, signal, failures);
          return {
            ...base,
            sha256: found.sha256,
            ...(found.archived ? { artifactId: found.archived.artifactId } : {}),
            ...(found.archived?.path ? { artifactPath: found.archived.path } : {}),
            ...(found.digest ? { digest: found.digest } : {}),
            ...(found.small !== undefined ? { smallView: found.small } : {}),
          };
        }),
      );
      const fitted = fitConversation(entries, {
        budget,
        clearAtLeast: resolved.clearAtLeast,
        keepLast: resolved.keepLast,
        measure,
        unit,
      });
      return outcome(
        fitted.results.map((result) => result.text),
        fitted.total,
        {
          stepDowns: fitted.stepDowns,
          smallViews: fitted.smallViews,
          pointers: fitted.pointers,
          shortPointers: fitted.shortPointers,
          archiveFailures: failures.count,
        },
        fitted.results.map((result) => result.step),
        entries.map((entry) => entry.artifactId),
      );
    },
  };
}
