import {
  type AIClient,
  ATTRIBUTE_NAMES,
  assertConfigOrSettings,
  assertSize,
  assertString,
  BYTES_PER_TOKEN,
  byteEstimateTokenCounter,
  type CompactionConfig,
  type CompactionTelemetry,
  countTokensForLimit,
  type DistillCache,
  EVENT_NAMES,
  fitsWhole,
  floorGraceMs,
  InvalidArgumentError,
  loadConfig,
  METRIC_NAMES,
  noopTelemetry,
  type ProcessedResult,
  type ResultProcessor,
  type ResultProcessorContext,
  resultTrimSpanAttributes,
  SPAN_NAMES,
  startCallDeadline,
  type TelemetrySpan,
  type TokenCounter,
  type TrimConfig,
  utf8ByteLength,
} from '@compaction/core';
import { createStructuralTrimmer } from '@compaction/trimmer';
import { createLlmDebugRecorder, type LlmDebugRecorder } from './create-llm-debug-recorder.js';
import { createModelCaller } from './create-model-caller.js';
import {
  decodeDistillCacheEntry,
  distillCacheKey,
  distillInputDigest,
  encodeDistillCacheEntry,
} from './distill-cache-entry.js';
import { DistillDeadlineError } from './distill-deadline-error.js';
import type { DistillProgress } from './distill-progress.js';
import {
  DISTILL_PROMPT_VERSION,
  distillSystemPrompt,
  distillUserPrompt,
} from './distill-prompts.js';
import type { DistillOutcome, DistillRun } from './distill-run.js';
import { summaryTargetBytes } from './distilled-view-bytes.js';
import type { FloorTrimmer } from './floor-trimmer.js';
import { raiseListenerLimit } from './raise-listener-limit.js';
import type { ResolvedDistillerSettings } from './resolved-distiller-settings.js';
import { runMapReduce } from './run-map-reduce.js';
import { runSingleCall } from './run-single-call.js';

/** Per-call model options that override the distill defaults (part of the cache key). */
export interface DistillAIOptions {
  /** Model alias or name. Default: the `model` setting. */
  model?: string;
  /** Token limit per call. Default: about twice `targetBytes` in tokens. */
  maxTokens?: number;
  /** Sampling temperature. Default: the provider's. */
  temperature?: number;
  /** Replaces the distill system prompt (the reduce prompt is kept). */
  system?: string;
}

/**
 * The part of a resolved configuration (`loadConfig().config`) a distiller reads: the `distill`
 * knobs and `trim.preserveKeys`.
 */
export interface DistillerConfig {
  distill: CompactionConfig['distill'];
  trim: Pick<TrimConfig, 'preserveKeys'>;
}

// The settings a `config` replaces; giving both would leave one of them silently unused.
const KNOB_SETTINGS = [
  'enabled',
  'thresholdBytes',
  'prefilterBytes',
  'targetBytes',
  'model',
  'cacheTtlMs',
  'cacheSecret',
  'deadlineMs',
  'contextTokens',
  'mapReduceThresholdBytes',
  'mapConcurrency',
  'preserveKeys',
] as const;

/** Settings of `createDistiller`. Every size is in UTF-8 bytes. */
export interface DistillerSettings {
  /**
   * A configuration already resolved, as `createCompaction` passes it: its knobs are used as
   * they are, not resolved again (`loadConfig` reported its warnings). The knob settings below
   * (`enabled` to `mapConcurrency`, and `preserveKeys`) must then be left unset. Default none:
   * the knob settings are resolved against the defaults, once.
   */
  config?: DistillerConfig;
  /** The model. Without one every result gets the structural floor. Default none. */
  client?: AIClient;
  /** A cache of finished distillations. Default none (no caching), as in seed 002 §5.3. */
  cache?: DistillCache;
  /** Where spans, events and metrics go. Default `noopTelemetry`. */
  telemetry?: CompactionTelemetry;
  /** Stage-1 pre-filter and floor. Default `createStructuralTrimmer({ preserveKeys })`. */
  trimmer?: FloorTrimmer;
  /** Master switch; false gives the floor. Default true. `COMPACTION_RESULT_DISTILL_ENABLED`. */
  enabled?: boolean;
  /** Results up to this size get the structural trim, not a model. Default 16384. `COMPACTION_RESULT_DISTILL_THRESHOLD`. */
  thresholdBytes?: number;
  /** Stage-1 budget and the largest map-reduce segment. Default 131072. `COMPACTION_RESULT_DISTILL_PREFILTER`. */
  prefilterBytes?: number;
  /** Size the model is asked to stay under. Default 4096. `COMPACTION_RESULT_DISTILL_TARGET`. */
  targetBytes?: number;
  /** Model alias or name. Default `fast`. `COMPACTION_RESULT_DISTILL_MODEL`. */
  model?: string;
  /** Cache entry lifetime in milliseconds; 0 disables caching. Default 300000. `COMPACTION_RESULT_DISTILL_CACHE_TTL`. */
  cacheTtlMs?: number;
  /**
   * Shared secret for the cache: entries are written with an HMAC-SHA256 and an entry without a
   * valid one is a miss, so a party that can write to a shared cache (a Redis several services
   * use) cannot plant answers. Default none: entries are checked against the input but not
   * authenticated. `COMPACTION_RESULT_DISTILL_CACHE_SECRET`.
   */
  cacheSecret?: string;
  /** Wall-clock bound on one compaction in milliseconds; 0 disables. Default 45000. `COMPACTION_RESULT_DISTILL_DEADLINE`. */
  deadlineMs?: number;
  /** Tokens (as `tokenCounter` counts them) above which a result map-reduces. Default 150000. `COMPACTION_RESULT_DISTILL_CONTEXT_TOKENS`. */
  contextTokens?: number;
  /**
   * Counts tokens for `contextTokens`, for a result and for the combined extracts before the
   * reduce call. Default `byteEstimateTokenCounter` (UTF-8 bytes / 3.5), which undercounts logs
   * and numbers; `createGptTokenCounter()` from `@compaction/core/gpt-tokenizer` counts exactly.
   */
  tokenCounter?: TokenCounter;
  /** Size above which a result map-reduces regardless of tokens; 0 disables; below `prefilterBytes` it is ignored with a warning. Default 0. `COMPACTION_RESULT_DISTILL_MAPREDUCE_THRESHOLD`. */
  mapReduceThresholdBytes?: number;
  /** Segment calls in flight at once. Default 8. `COMPACTION_RESULT_DISTILL_MAP_CONCURRENCY`. */
  mapConcurrency?: number;
  /** Object keys (case-insensitive) the trimmer favours. Default none. Option only (`trim.preserveKeys`). */
  preserveKeys?: string[];
  /** Per-call model overrides. Default none. */
  aiOptions?: DistillAIOptions;
  /** Record every model call: true for a new recorder, or your own. Default false. `COMPACTION_LLM_DEBUG_ENABLED`. */
  llmDebug?: boolean | LlmDebugRecorder;
  /** Longest wait for one cache read or write in milliseconds; a slower cache counts as a miss. Default 500. */
  cacheTimeoutMs?: number;
  /** Receives configuration warnings. Default `process.emitWarning` (`console.warn` where there is no `process`). */
  onWarning?: (message: string) => void;
  /** Receives map-reduce progress after each segment. Default none. */
  onProgress?: (progress: DistillProgress) => void;
  /** The agent this distiller serves: the `agent_name` label of its metrics (seed 002 §10). Default `unnamed`. */
  agentName?: string;
  /** Monotonic clock in milliseconds. Default `performance.now`. */
  now?: () => number;
}

/** A result processor that distills large results with a fast model (seed 002 §5). */
export interface Distiller extends ResultProcessor {
  /** The knobs in effect. */
  readonly settings: Readonly<ResolvedDistillerSettings>;
  /** The LLM-debug recorder, when `llmDebug` is on. */
  readonly llmDebug: LlmDebugRecorder | undefined;
}

// The smallest source a model call is given, however small the configured context.
const MIN_SOURCE_BYTES = 1024;

async function bounded<T>(
  operation: () => Promise<T>,
  timeoutMs: number,
  signal: AbortSignal,
): Promise<T> {
  const limit = AbortSignal.any([signal, AbortSignal.timeout(timeoutMs)]);
  limit.throwIfAborted();
  let onAbort: (() => void) | undefined;
  try {
    return await Promise.race([
      operation(),
      new Promise<never>((_, reject) => {
        onAbort = () => reject(limit.reason);
        limit.addEventListener('abort', onAbort, { once: true });
      }),
    ]);
  } finally {
    if (onAbort) limit.removeEventListener('abort', onAbort);
  }
}

function resolveKnobs(settings: DistillerSettings): DistillerConfig {
  if (assertConfigOrSettings(settings, KNOB_SETTINGS)) return settings.config!;
  const { config, warnings } = loadConfig({
    // The environment is read by the caller through loadConfig; defaults come from the knob table.
    env: {},
    options: {
      distill: {
        enabled: settings.enabled,
        thresholdBytes: settings.thresholdBytes,
        prefilterBytes: settings.prefilterBytes,
        targetBytes: settings.targetBytes,
        model: settings.model,
        cacheTtlMs: settings.cacheTtlMs,
        cacheSecret: settings.cacheSecret,
        deadlineMs: settings.deadlineMs,
        contextTokens: settings.contextTokens,
        mapReduceThresholdBytes: settings.mapReduceThresholdBytes,
        mapConcurrency: settings.mapConcurrency,
      },
      trim: { preserveKeys: settings.preserveKeys },
    },
  });
  const warn = settings.onWarning ?? emitCompactionWarning;
  for (const warning of warnings) warn(warning.message);
  return config;
}

function resolveSettings(
  settings: DistillerSettings,
): ResolvedDistillerSettings & { cacheSecret: string | undefined } {
  const { distill, trim } = resolveKnobs(settings);
  const cacheTimeoutMs = settings.cacheTimeoutMs ?? 500;
  if (
    typeof cacheTimeoutMs !== 'number' ||
    !Number.isFinite(cacheTimeoutMs) ||
    cacheTimeoutMs <= 0
  ) {
    throw new InvalidArgumentError({
      argument: 'cacheTimeoutMs',
      message: `cacheTimeoutMs must be a positive number, got ${String(cacheTimeoutMs)}`,
    });
  }
  // Below the pre-filter budget a result is a single chunk: loadConfig warned, and it is ignored.
  const mapReduceThresholdBytes =
    distill.mapReduceThresholdBytes >= distill.prefilterBytes ? distill.mapReduceThresholdBytes : 0;
  return {
    enabled: distill.enabled,
    thresholdBytes: distill.thresholdBytes,
    prefilterBytes: distill.prefilterBytes,
    targetBytes: distill.targetBytes,
    model: distill.model,
    cacheTtlMs: distill.cacheTtlMs,
    cacheAuthenticated: distill.cacheSecret !== undefined,
    deadlineMs: distill.deadlineMs,
    contextTokens: distill.contextTokens,
    mapReduceThresholdBytes,
    mapConcurrency: distill.mapConcurrency,
    preserveKeys: Object.freeze([...trim.preserveKeys]),
    cacheTimeoutMs,
    cacheSecret: distill.cacheSecret,
  };
}

/** Node's `process.emitWarning`, or `console.warn` where there is no `process` (edge runtimes). */
function emitCompactionWarning(message: string): void {
  const runtime = (
    globalThis as {
      process?: { emitWarning?: (message: string, type: string) => void };
    }
  ).process;
  if (runtime?.emitWarning) runtime.emitWarning(message, 'CompactionWarning');
  else console.warn(`CompactionWarning: ${message}`);
}

/**
 * The Layer-2 synthesis processor (seed 002 §5). A result over `thresholdBytes` with a client
 * is distilled: pre-filtered to `prefilterBytes` by the structural trimmer and summarised by
 * the fast model, or — over `contextTokens` estimated tokens or `mapReduceThresholdBytes` —
 * split into segments distilled concurrently and reduced. Everything else, and every failure,
 * gets the structural floor at the output budget. The whole compaction is bounded by
 * `deadlineMs`; the output never exceeds `maxBytes`, and every loss is disclosed with a
 * framework note and `contentLost`.
 */
export function createDistiller(settings: DistillerSettings = {}): Distiller {
  const { cacheSecret, ...resolved } = resolveSettings(settings);
  const telemetry = settings.telemetry ?? noopTelemetry;
  const trimmer: FloorTrimmer =
    settings.trimmer ?? createStructuralTrimmer({ preserveKeys: [...resolved.preserveKeys] });
  const client = settings.client;
  const cache = settings.cache;
  const tokenCounter = settings.tokenCounter ?? byteEstimateTokenCounter;
  const now = settings.now ?? (() => performance.now());
  const agentName = settings.agentName?.trim() || 'unnamed';
  const llmDebug =
    settings.llmDebug === true
      ? createLlmDebugRecorder()
      : settings.llmDebug === false || settings.llmDebug === undefined
        ? undefined
        : settings.llmDebug;
  const aiOptions = settings.aiOptions ?? {};
  const model = aiOptions.model ?? resolved.model;
  const maxTokens = aiOptions.maxTokens ?? Math.ceil((resolved.targetBytes / 3.5) * 2);
  const salt = {
    prompt: DISTILL_PROMPT_VERSION,
    maxTokens,
    temperature: aiOptions.temperature ?? null,
    system: aiOptions.system ?? null,
    targetBytes: resolved.targetBytes,
    prefilterBytes: resolved.prefilterBytes,
    contextTokens: resolved.contextTokens,
    mapReduceThresholdBytes: resolved.mapReduceThresholdBytes,
    preserveKeys: resolved.preserveKeys.map((key) => key.toLowerCase()).sort(),
    // Another counter may route differently; the default keeps existing keys.
    ...(settings.tokenCounter ? { tokenCounter: tokenCounter.name } : {}),
  };

  // The result_trim.completed mirror carries the step's ids; on the model path it is a child of
  // the compaction.result_distill span.
  const mirror = async (
    processed: ProcessedResult,
    originalBytes: number,
    context: ResultProcessorContext,
  ) => {
    const { metadata } = processed;
    if (!metadata.contentLost && metadata.outputBytes === originalBytes) return;
    await telemetry.withSpan(
      SPAN_NAMES.resultTrimCompleted,
      resultTrimSpanAttributes(metadata, context),
      () => {},
    );
  };

  const floorOf = (result: string, maxBytes: number, context: ResultProcessorContext) =>
    trimmer.trim(result, maxBytes, context);

  const distill = async (
    result: string,
    originalBytes: number,
    maxBytes: number,
    context: ResultProcessorContext,
    span: TelemetrySpan,
    floor: (cutShort?: boolean) => ProcessedResult,
  ): Promise<ProcessedResult> => {
    const activeClient = client!;
    const attributes = {
      [ATTRIBUTE_NAMES.agentName]: agentName,
      [ATTRIBUTE_NAMES.toolName]: context.toolName,
    };
    telemetry.count(METRIC_NAMES.distillTriggered, 1, attributes);
    const started = now();
    // The deadline is in the context (process derived it, or a layer above did): its signal
    // aborts at it, and only the caller's own cancellation is rethrown.
    const callerSignal = context.deadline ? context.deadline.callerSignal : context.signal;
    const deadlineHit = () => context.deadline?.hit === true;
    const signal = context.signal ?? new AbortController().signal;
    // One listener per segment call in flight, plus the cache's.
    raiseListenerLimit(signal, resolved.mapConcurrency + 10);

    // The route the calls will take (seed 002 §5.3): part of the key, so a remapped alias or
    // another provider order never reuses an answer; an unstable route bypasses the cache.
    // A client without routes is keyed on its provider and the requested model.
    const preflight = activeClient.route?.({
      model,
      maxTokens,
      ...(aiOptions.temperature !== undefined ? { temperature: aiOptions.temperature } : {}),
    });
    const input =
      cache && resolved.cacheTtlMs > 0 && preflight?.stable !== false
        ? {
            // The caller's digest of this result when it has one (the adapters' view cache).
            digest: context.contentDigest ?? (await distillInputDigest(result)),
            bytes: originalBytes,
          }
        : undefined;
    const cacheKey = input
      ? await distillCacheKey({
          resultDigest: input.digest,
          stepTask: context.stepTask,
          userQuery: context.userQuery,
          maxBytes,
          salt: {
            ...salt,
            route: preflight?.fingerprint ?? `${activeClient.provider}#${model}`,
          },
        })
      : undefined;
    if (cache && cacheKey && input) {
      let hit: ProcessedResult | undefined;
      try {
        const value = await bounded(
          () => cache.get(cacheKey, { signal }),
          resolved.cacheTimeoutMs,
          signal,
        );
        hit =
          value === undefined
            ? undefined
            : await decodeDistillCacheEntry(value, {
                key: cacheKey,
                maxBytes,
                input,
                secret: cacheSecret,
              });
      } catch {
        callerSignal?.throwIfAborted();
        hit = undefined;
      }
      if (hit) {
        telemetry.count(METRIC_NAMES.distillCacheHit, 1, attributes);
        span.addEvent(EVENT_NAMES.cacheHit, {
          [ATTRIBUTE_NAMES.cachedBytes]: hit.metadata.outputBytes,
        });
        return hit;
      }
      telemetry.count(METRIC_NAMES.distillCacheMiss, 1, attributes);
    }

    const caller = createModelCaller({
      client: activeClient,
      telemetry,
      llmDebug,
      model,
      maxTokens,
      temperature: aiOptions.temperature,
      signal,
      deadlineHit,
      span,
      now,
      context: {
        requestId: context?.requestId,
        stepId: context?.stepId,
        toolName: context?.toolName,
      },
    });
    // The model is asked for a summary that leaves room for its notes within this budget.
    const summaryBytes = summaryTargetBytes(resolved.targetBytes, maxBytes);
    const distillSystem = aiOptions.system ?? distillSystemPrompt(summaryBytes);
    // One call's source: the pre-filter budget, less when the context window (with the
    // prompt around the source and room for the answer) is smaller.
    const frameBytes =
      utf8ByteLength(distillSystem) +
      utf8ByteLength(distillUserPrompt('', context, { index: 99_999, total: 99_999 }));
    const estimatedTokens = countTokensForLimit(
      tokenCounter,
      result,
      originalBytes,
      resolved.contextTokens,
    );
    // Bytes a token of this result: the counter's measure when it counted the whole result
    // (a custom counter on a result over the context), else the 3.5 estimate.
    const bytesPerToken =
      tokenCounter !== byteEstimateTokenCounter && originalBytes > resolved.contextTokens
        ? Math.min(BYTES_PER_TOKEN, originalBytes / Math.max(1, estimatedTokens))
        : BYTES_PER_TOKEN;
    const contextBytes = Math.floor(
      (resolved.contextTokens - maxTokens) * bytesPerToken - frameBytes,
    );
    const sourceBytes = Math.max(MIN_SOURCE_BYTES, Math.min(resolved.prefilterBytes, contextBytes));
    const run: DistillRun = {
      result,
      originalBytes,
      maxBytes,
      summaryBytes,
      sourceBytes,
      context,
      settings: resolved,
      signal,
      span,
      trimmer,
      deadline: {
        get hit() {
          return deadlineHit();
        },
      },
      get llmInputBytes() {
        return caller.llmInputBytes;
      },
      onProgress: settings.onProgress,
      distillSystem,
      tokenCounter,
      floor,
      call: (input) => caller.call(input),
    };

    const route =
      estimatedTokens > resolved.contextTokens
        ? 'context'
        : resolved.mapReduceThresholdBytes > 0 && originalBytes > resolved.mapReduceThresholdBytes
          ? 'threshold'
          : undefined;
    let outcome: DistillOutcome;
    if (route) {
      telemetry.count(METRIC_NAMES.distillMapReduce, 1, attributes);
      span.addEvent(EVENT_NAMES.mapReduceRoute, {
        [ATTRIBUTE_NAMES.reason]: route,
        [ATTRIBUTE_NAMES.originalBytes]: originalBytes,
        [ATTRIBUTE_NAMES.estimatedTokens]: estimatedTokens,
        [ATTRIBUTE_NAMES.tokenCounter]: tokenCounter.name,
      });
      outcome = await runMapReduce(run);
    } else {
      outcome = await runSingleCall(run);
    }
    callerSignal?.throwIfAborted();
    telemetry.record(METRIC_NAMES.distillDuration, (now() - started) / 1000, attributes);
    if (outcome.fellBack) telemetry.count(METRIC_NAMES.distillFailed, 1, attributes);

    // Written only when every call went where the preflight said (no failover).
    const sameRoute =
      preflight === undefined ||
      [...caller.routes].every((taken) => taken === preflight.fingerprint);
    if (cache && cacheKey && input && outcome.cacheable && !deadlineHit() && sameRoute) {
      try {
        await bounded(
          () =>
            encodeDistillCacheEntry(outcome.processed, input, {
              key: cacheKey,
              secret: cacheSecret,
            }).then((value) => cache.set(cacheKey, value, { ttlMs: resolved.cacheTtlMs, signal })),
          resolved.cacheTimeoutMs,
          signal,
        );
      } catch {
        // A cache that cannot store costs a recomputation later, never this result.
      }
    }
    return outcome.processed;
  };

  const processWithin = async (
    result: string,
    maxBytes: number,
    context: ResultProcessorContext,
  ): Promise<ProcessedResult> => {
    const originalBytes = utf8ByteLength(result);
    // A model path that falls open gets the structural floor at the output budget, marked
    // `fellOpen`, or nothing when the caller floors it itself (`deferFloor`). After a model call
    // the floor has what is left of the deadline and at least its grace; after Stage 1 ran into
    // the deadline it cuts short at once.
    const floor = (cutShort = false): ProcessedResult => {
      if (context.deferFloor) {
        return {
          text: '',
          metadata: { contentLost: true, originalBytes, outputBytes: 0, fellOpen: true },
        };
      }
      const { deadline } = context;
      const floored = floorOf(
        result,
        maxBytes,
        cutShort || !deadline
          ? context
          : { ...context, shouldStop: deadline.pollWithGrace(floorGraceMs(deadline.deadlineMs)) },
      );
      return { text: floored.text, metadata: { ...floored.metadata, fellOpen: true } };
    };
    // A result that fits its budget whole (minified, for JSON) is never summarised.
    if (
      !client ||
      !resolved.enabled ||
      originalBytes <= resolved.thresholdBytes ||
      fitsWhole(result, maxBytes, originalBytes)
    ) {
      const processed = floorOf(result, maxBytes, context);
      await mirror(processed, originalBytes, context);
      return processed;
    }
    return telemetry.withSpan(
      SPAN_NAMES.resultDistill,
      {
        [ATTRIBUTE_NAMES.requestId]: context.requestId,
        [ATTRIBUTE_NAMES.stepId]: context.stepId,
        [ATTRIBUTE_NAMES.toolName]: context.toolName,
        [ATTRIBUTE_NAMES.originalBytes]: originalBytes,
      },
      async (span) => {
        const output = await distill(result, originalBytes, maxBytes, context, span, floor);
        span.setAttributes({
          [ATTRIBUTE_NAMES.outputBytes]: output.metadata.outputBytes,
          [ATTRIBUTE_NAMES.contentLost]: output.metadata.contentLost,
        });
        // A deferred floor is the caller's to run, and to report.
        if (!(output.metadata.fellOpen && context.deferFloor)) {
          await mirror(output, originalBytes, context);
        }
        return output;
      },
    );
  };

  return {
    settings: resolved,
    llmDebug,
    async process(result, maxBytes, context = {}) {
      assertString(result, 'result');
      assertSize(maxBytes, 'maxBytes', { min: 1 });
      context.signal?.throwIfAborted();
      // The compaction deadline, derived here unless a layer above put it in the context. A
      // timer cannot interrupt the synchronous trimmer (Stage 1 and the floor): it polls the
      // deadline and the signal through shouldStop instead, and cuts short when they fire.
      const within = startCallDeadline(context, {
        deadlineMs: resolved.deadlineMs,
        now,
        reason: () => new DistillDeadlineError({ deadlineMs: resolved.deadlineMs }),
      });
      try {
        return await processWithin(result, maxBytes, within.context);
      } finally {
        within.release();
      }
    },
  };
}
