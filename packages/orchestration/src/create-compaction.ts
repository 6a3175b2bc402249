import { createModelCallLog } from '@compaction/artifacts';
import {
  type AgentInputProcessor,
  type AIClient,
  byteEstimateTokenCounter,
  type CompactionConfig,
  type CompactionConfigOptions,
  type CompactionTelemetry,
  type ConfigWarning,
  type ContinuationDistiller,
  callWithDeadline,
  type DistillCache,
  loadConfig,
  noopTelemetry,
  type ResultProcessor,
  SeamDeadlineError,
  type StepRecord,
  startCallDeadline,
  type TokenCounter,
  utf8ByteLength,
} from '@compaction/core';
import {
  createPlanningSectionRenderer,
  createStepResolver,
  type FailedOperationInputPolicy,
  type PlanningSection,
  type PlanningSectionRenderer,
  type StepResolver,
} from '@compaction/digest';
import {
  createContinuationDistiller,
  createLlmDebugRecorder,
  type DistillAIOptions,
  distilledViewBytes,
  type LlmDebugRecorder,
} from '@compaction/distiller';
import { createStructuralTrimmer, MIN_TRIM_BUDGET_BYTES } from '@compaction/trimmer';
import { budgetsFromContextWindow } from './allocate-synthesis-budgets.js';
import { assembleSynthesisPrompt, type SynthesisAssembly } from './assemble-synthesis-prompt.js';
import { boundByDeadline } from './bound-by-deadline.js';
import { createAgentInputProcessor } from './create-agent-input-processor.js';
import { createSynthesisArtifacts, type SynthesisArtifacts } from './create-synthesis-artifacts.js';
import { buildSynthesisProcessor } from './create-synthesis-processor.js';
import { guardResultProcessor } from './guard-result-processor.js';

/** Behavioural seams (seed 002 §8.3); each one given replaces the default the factory builds. */
export interface CompactionDependencies {
  /** Replaces the synthesis processor. It is still held to the honesty contract. */
  resultProcessor?: ResultProcessor;
  /** Replaces the resolution-source trimmer. */
  sourceResultProcessor?: ResultProcessor;
  /** Replaces the tool→tool transform (raw pass-through by default). */
  agentInputProcessor?: AgentInputProcessor;
  /** Replaces the continuation distiller used for non-JSON escalations. */
  continuationDistiller?: ContinuationDistiller;
  /** A cache of finished distillations (LRU, Redis, your own). Default none. */
  distillCache?: DistillCache;
}

/** Settings of `createCompaction`. */
export interface CreateCompactionSettings {
  /** Explicit options; they win over `COMPACTION_*` variables and defaults. */
  config?: CompactionConfigOptions;
  /** Environment to read `COMPACTION_*` variables from. Default `process.env`, read once here. */
  env?: Readonly<Record<string, string | undefined>>;
  /** The model used for distillation. Without one every path is structural. */
  aiClient?: AIClient;
  /** Seams. */
  deps?: CompactionDependencies;
  /** Telemetry. Default `noopTelemetry`. */
  telemetry?: CompactionTelemetry;
  /** The agent this compaction serves: the `agent_name` label of the distillation metrics. Default `unnamed`. */
  agentName?: string;
  /** Per-call model overrides for the synthesis distiller. */
  aiOptions?: DistillAIOptions;
  /** LLM-debug recorder for distill calls (used when `llmDebug` is on). */
  llmDebug?: LlmDebugRecorder;
  /**
   * The target model's context window in tokens: when given, the synthesis budgets become
   * shares of it (a quarter in all, a twelfth per result) instead of the fixed byte budgets.
   */
  contextWindowTokens?: number;
  /**
   * Counts tokens for the distiller's context check (`distill.contextTokens`): which results
   * map-reduce, and whether the extracts fit one reduce call. Default `byteEstimateTokenCounter`
   * (UTF-8 bytes / 3.5); `createGptTokenCounter()` from `@compaction/core/gpt-tokenizer` counts
   * exactly. `tokenCounter.name` on the result says which one is used.
   */
  tokenCounter?: TokenCounter;
  /** Which inputs of failed attempts may appear in prompts. Default: all. */
  failedOperationInputPolicy?: FailedOperationInputPolicy;
  /** Receives configuration warnings. Default: collected in `warnings` only. */
  onWarning?: (message: string) => void;
  /**
   * The session transcript: when given, every synthesis result that will not appear whole is
   * stored in `<transcript-stem>.artifacts/` beside it, and its section carries a marker line
   * naming the artifact so the model can ask for more with `artifact_read` / `artifact_search`.
   */
  transcriptPath?: string;
  /** Clock for artifact records, in milliseconds since the epoch. Default `Date.now`. */
  clock?: () => number;
  /**
   * Monotonic clock in milliseconds for the compaction deadline (`distill.deadlineMs`), which
   * every synthesis, source and continuation call polls. Default `performance.now`.
   */
  now?: () => number;
}

/** Options of one synthesis or continuation call. */
export interface CompactionCallOptions {
  userQuery?: string;
  requestId?: string;
  signal?: AbortSignal;
  /** An extra poll that stops synchronous work early (see `ResultProcessorContext.shouldStop`). */
  shouldStop?: () => boolean;
}

/** Every compaction path, built from one configuration. */
export interface Compaction {
  /** The configuration in effect. */
  readonly config: CompactionConfig;
  /** Environment values that were ignored or read unexpectedly. */
  readonly warnings: readonly ConfigWarning[];
  /** True when synthesis results over the threshold go to a model. */
  readonly distillationActive: boolean;
  /** Synthesis-path processor (distiller over trimmer, or trimmer, or your own, guarded). */
  readonly synthesisProcessor: ResultProcessor;
  /** Resolution-source processor: the structural trimmer, never a model. */
  readonly sourceProcessor: ResultProcessor;
  /** Tool→tool processor: raw unless capped. */
  readonly agentInputProcessor: AgentInputProcessor;
  /** Continuation planning-section renderer. */
  readonly continuation: PlanningSectionRenderer;
  /** What counts tokens for routing (`name` says which). */
  readonly tokenCounter: TokenCounter;
  /** Synthesis budgets in effect, in bytes. */
  readonly synthesisBudgets: { totalBytes: number; perResultBytes: number };
  /**
   * Whether a synthesis result of this size is over the distill threshold with a model to send
   * it to. `assembleSynthesis` also keeps whole (minified, for JSON) a result that fits the
   * share it would get undistilled.
   */
  willDistill(resultBytes: number): boolean;
  /** Whether parameter micro-resolution should switch to schema-guided mapping for a source this size. */
  usesSchemaMapping(sourceBytes: number): boolean;
  /** Compacts a source for parameter resolution to `trim.maxMicroBytes`. */
  compactSource(
    result: string,
    options?: CompactionCallOptions & { stepId?: string; toolName?: string },
  ): ReturnType<ResultProcessor['process']>;
  /** Several step results in one synthesis prompt, within the total budget. */
  assembleSynthesis(
    steps: readonly StepRecord[],
    options?: CompactionCallOptions,
  ): Promise<SynthesisAssembly>;
  /** The continuation planning section for the completed steps. */
  renderContinuation(
    steps: readonly StepRecord[],
    options?: CompactionCallOptions,
  ): Promise<PlanningSection>;
  /** Binds `{{step-N.path}}` references against the full step results. */
  resolver(steps: Iterable<StepRecord>): StepResolver;
  /** The session's artifact store and tools, when `transcriptPath` was given. */
  readonly artifacts: SynthesisArtifacts | undefined;
  /** The model-call recorder, when `llmDebug` is on (persisted beside the transcript when there is one). */
  readonly llmDebug: LlmDebugRecorder | undefined;
  /** Resolves when background writes (recorded model calls) have reached the disk. */
  flush(): Promise<void>;
}

/**
 * Builds every compaction path from one configuration (explicit options → `COMPACTION_*`
 * variables → defaults) and the seams given. Synthesis: the distiller over the trimmer when a
 * model client is present and distillation is enabled (gated on trimming, seed 002 §4), the
 * bare trimmer otherwise, and a disclosed byte cut when trimming is disabled. Sources: always
 * the trimmer at the micro-resolution budget. Agent inputs: raw unless capped. Continuation:
 * digests, previews and, when distillation is enabled with a model and escalations > 0, the
 * continuation distiller (independent of trimming).
 */
export function createCompaction(settings: CreateCompactionSettings = {}): Compaction {
  const loaded = loadConfig({ options: settings.config, env: settings.env });
  const { config } = loaded;
  const warnings = [...loaded.warnings];
  // Resolved here only: the layers below are given `config` as it is.
  for (const warning of warnings) settings.onWarning?.(warning.message);
  const telemetry = settings.telemetry ?? noopTelemetry;
  const deps = settings.deps ?? {};
  const trimmer = createStructuralTrimmer({ preserveKeys: config.trim.preserveKeys, telemetry });

  const artifacts = settings.transcriptPath
    ? createSynthesisArtifacts({
        transcriptPath: settings.transcriptPath,
        ...(settings.clock ? { clock: settings.clock } : {}),
      })
    : undefined;
  // With a transcript, recorded model calls go beside it for the inspector's second tab.
  const modelCallLog = artifacts ? createModelCallLog({ dir: artifacts.dir }) : undefined;
  const llmDebug =
    settings.llmDebug ??
    (config.llmDebug
      ? createLlmDebugRecorder(
          modelCallLog ? { onRecord: (record) => void modelCallLog.append(record) } : {},
        )
      : undefined);

  const distillationActive =
    !deps.resultProcessor &&
    config.trim.enabled &&
    config.distill.enabled &&
    settings.aiClient !== undefined;
  const synthesisProcessor = buildSynthesisProcessor({
    config,
    ...(deps.resultProcessor ? { resultProcessor: deps.resultProcessor } : {}),
    aiClient: settings.aiClient,
    distillCache: deps.distillCache,
    telemetry,
    aiOptions: settings.aiOptions,
    llmDebug,
    now: settings.now,
    tokenCounter: settings.tokenCounter,
    ...(settings.agentName ? { agentName: settings.agentName } : {}),
  });
  const seamDeadlineMs = config.distill.deadlineMs;
  const deadline = { deadlineMs: seamDeadlineMs, now: settings.now };
  // A synthesis distillation that fell open is floored by the composer, once, with the budget
  // others left (the deadline is the one the composer derived for that result).
  const floorProcessor = boundByDeadline(guardResultProcessor(trimmer), deadline);
  const sourceProcessor = deps.sourceResultProcessor
    ? boundByDeadline(
        guardResultProcessor(deps.sourceResultProcessor, {
          seam: 'sourceResultProcessor',
          deadlineMs: seamDeadlineMs,
          telemetry,
        }),
        { ...deadline, seam: 'sourceResultProcessor' },
      )
    : boundByDeadline(guardResultProcessor(trimmer), deadline);
  const customAgentInput = deps.agentInputProcessor;
  // A tool-input transform may be a redactor: past its deadline the call fails (closed) with a
  // SeamDeadlineError rather than dispatching parameters it never processed.
  const agentInputProcessor: AgentInputProcessor = customAgentInput
    ? {
        process: (params, context) =>
          callWithDeadline((signal) => customAgentInput.process(params, { ...context, signal }), {
            seam: 'agentInputProcessor',
            deadlineMs: seamDeadlineMs,
            signal: context?.signal,
          }),
      }
    : createAgentInputProcessor({ maxParamBytes: config.trim.maxAgentInputBytes, trimmer });

  // Wired independently of trimming (seed 002 §4): it needs distillation enabled, a model or a
  // replacement, and escalations > 0.
  const escalationsOn = config.distill.enabled && config.continuation.maxEscalations > 0;
  const continuationDistiller = !escalationsOn
    ? undefined
    : (deps.continuationDistiller ??
      (settings.aiClient
        ? createContinuationDistiller({
            client: settings.aiClient,
            model: config.distill.model,
            prefilterBytes: config.distill.prefilterBytes,
            deadlineMs: config.distill.deadlineMs,
            trimmer,
            telemetry,
            llmDebug,
          })
        : undefined));
  const continuation = createPlanningSectionRenderer({
    config,
    inputPolicy: settings.failedOperationInputPolicy,
    floor: trimmer,
    distiller: continuationDistiller,
    telemetry,
  });

  // NaN or 0 is a caller's bug, refused there, not a silent fall back to the fixed budgets.
  const windowBudgets =
    settings.contextWindowTokens !== undefined
      ? budgetsFromContextWindow({ contextWindowTokens: settings.contextWindowTokens })
      : undefined;
  const synthesisBudgets = windowBudgets
    ? { totalBytes: windowBudgets.totalBytes, perResultBytes: windowBudgets.perResultBytes }
    : { totalBytes: config.trim.maxTotalBytes, perResultBytes: config.trim.maxResultBytes };
  const willDistill = (bytes: number) =>
    distillationActive && bytes > config.distill.thresholdBytes;

  return {
    config,
    warnings,
    distillationActive,
    synthesisProcessor,
    sourceProcessor,
    agentInputProcessor,
    continuation,
    tokenCounter: settings.tokenCounter ?? byteEstimateTokenCounter,
    synthesisBudgets,
    willDistill,
    usesSchemaMapping: (bytes) =>
      config.trim.schemaMappingThreshold > 0 && bytes > config.trim.schemaMappingThreshold,
    compactSource: (result, options = {}) =>
      sourceProcessor.process(result, config.trim.maxMicroBytes, {
        userQuery: options.userQuery,
        requestId: options.requestId,
        signal: options.signal,
        stepId: options.stepId,
        toolName: options.toolName,
        ...(options.shouldStop ? { shouldStop: options.shouldStop } : {}),
      }),
    assembleSynthesis: (steps, options = {}) =>
      assembleSynthesisPrompt(steps, {
        processor: synthesisProcessor,
        totalBytes: synthesisBudgets.totalBytes,
        perResultBytes: synthesisBudgets.perResultBytes,
        distilledBytes: distilledViewBytes(config.distill.targetBytes),
        willDistill,
        minimumBytes: MIN_TRIM_BUDGET_BYTES,
        floor: floorProcessor,
        ...(artifacts
          ? {
              // Only results that cannot appear whole are worth a file and a marker.
              annotate: async (step: StepRecord, distilled: boolean) => {
                const bytes = utf8ByteLength(step.result ?? '');
                if (!distilled && bytes <= synthesisBudgets.perResultBytes) return undefined;
                const artifact = await artifacts.storeStep(step, {
                  requestId: options.requestId,
                  signal: options.signal,
                });
                return artifact.line;
              },
            }
          : {}),
        failedOperationView: {
          ...config.failedOperationView,
          policy: settings.failedOperationInputPolicy,
        },
        userQuery: options.userQuery,
        requestId: options.requestId,
        signal: options.signal,
        shouldStop: options.shouldStop,
        deadline,
        // With a window and a counter, the views are held to the window's token shares as the
        // counter counts them (the byte budgets assume 3.5 bytes per token).
        ...(windowBudgets && settings.tokenCounter
          ? {
              tokens: {
                counter: settings.tokenCounter,
                totalTokens: windowBudgets.totalTokens,
                perResultTokens: windowBudgets.perResultTokens,
              },
            }
          : {}),
      }),
    renderContinuation: async (steps, options = {}) => {
      const { shouldStop, signal, ...rest } = options;
      const within = startCallDeadline(
        { ...(signal ? { signal } : {}), ...(shouldStop ? { shouldStop } : {}) },
        {
          ...deadline,
          reason: () =>
            new SeamDeadlineError({ seam: 'planningSection', deadlineMs: seamDeadlineMs }),
        },
      );
      try {
        return await continuation.render(steps, { ...rest, ...within.context });
      } finally {
        within.release();
      }
    },
    resolver: (steps) => createStepResolver(steps),
    artifacts,
    llmDebug,
    flush: async () => {
      await modelCallLog?.flushed();
    },
  };
}
