import {
  type AIClient,
  type CompactionConfig,
  type CompactionConfigOptions,
  type CompactionTelemetry,
  type DistillCache,
  loadConfig,
  type ResultProcessor,
  type TokenCounter,
} from '@compaction/core';
import type { DistillAIOptions, LlmDebugRecorder } from '@compaction/distiller';
import { boundByDeadline } from './bound-by-deadline.js';
import { buildDistillationProcessor } from './build-distillation-processor.js';
import { byteCutFloor } from './byte-cut-floor.js';
import { guardResultProcessor } from './guard-result-processor.js';

/** Settings of `createSynthesisProcessor`. */
export interface SynthesisProcessorSettings {
  /** Explicit options; they win over `COMPACTION_*` variables and defaults. */
  config?: CompactionConfigOptions;
  /** Environment to read `COMPACTION_*` variables from. Default `process.env` where there is one, else none. */
  env?: Readonly<Record<string, string | undefined>>;
  /** The model results over the distill threshold go to. Without one the processor is the structural trimmer. */
  aiClient?: AIClient;
  /** A cache of finished distillations (`createLruDistillCache()`, your own). Default none. */
  distillCache?: DistillCache;
  /** Telemetry. Default none. */
  telemetry?: CompactionTelemetry;
  /** Per-call model overrides for the distiller. */
  aiOptions?: DistillAIOptions;
  /** Counts tokens for the distiller's context check. Default: UTF-8 bytes / 3.5. */
  tokenCounter?: TokenCounter;
  /** The `agent_name` label of the distillation metrics. Default `unnamed`. */
  agentName?: string;
  /** Receives configuration warnings. Default: none reported. */
  onWarning?: (message: string) => void;
  /** Monotonic clock in milliseconds for the compaction deadline. Default `performance.now`. */
  now?: () => number;
}

/** What `buildSynthesisProcessor` composes, from a configuration already resolved. */
export interface SynthesisProcessorInput
  extends Omit<SynthesisProcessorSettings, 'config' | 'env' | 'onWarning'> {
  config: CompactionConfig;
  /** Replaces the built-in processor; it is still guarded and bounded, as a seam. */
  resultProcessor?: ResultProcessor;
  /** LLM-debug recorder for distill calls (used when `llmDebug` is on). */
  llmDebug?: LlmDebugRecorder;
}

/**
 * The synthesis processor of `createCompaction`, from a resolved configuration: the distiller
 * over the structural trimmer when a model is given and distillation is on, the trimmer
 * otherwise, a disclosed byte cut when trimming is off, or `resultProcessor`; bounded by the
 * compaction deadline and held to the honesty contract.
 */
export function buildSynthesisProcessor(input: SynthesisProcessorInput): ResultProcessor {
  const { config, telemetry } = input;
  let synthesis: ResultProcessor;
  if (input.resultProcessor) synthesis = input.resultProcessor;
  else if (!config.trim.enabled)
    synthesis = { process: async (result, maxBytes) => byteCutFloor(result, maxBytes) };
  else
    synthesis = buildDistillationProcessor({
      config,
      aiClient: input.aiClient,
      cache: input.distillCache,
      telemetry,
      aiOptions: input.aiOptions,
      llmDebug: input.llmDebug,
      now: input.now,
      tokenCounter: input.tokenCounter,
      ...(input.agentName ? { agentName: input.agentName } : {}),
    });
  // Every compaction, with a model or without, is bounded by the deadline, derived once per
  // call (unless a composer put it in the context): the synchronous trimmer sees it through the
  // shouldStop poll. A replaced processor is also abandoned a second past it, and gets the
  // result_trim.completed span the built-ins emit themselves.
  const deadlineMs = config.distill.deadlineMs;
  return boundByDeadline(
    guardResultProcessor(
      synthesis,
      input.resultProcessor ? { seam: 'resultProcessor', deadlineMs, telemetry } : {},
    ),
    { deadlineMs, now: input.now },
  );
}

/**
 * The synthesis processor alone (the distiller over the structural trimmer with a model, the
 * trimmer without one), for a framework adapter's `processor`, with no file storage: it imports
 * no Node.js built-in, so it also runs on edge runtimes and in browsers
 * (`@compaction/orchestration/edge`). Configuration as in `createCompaction`: explicit options,
 * then `COMPACTION_*` variables, then defaults.
 *
 *   createCompactionMiddlewareV4({ processor: createSynthesisProcessor({ aiClient }) })
 */
export function createSynthesisProcessor(
  settings: SynthesisProcessorSettings = {},
): ResultProcessor {
  const { config, warnings } = loadConfig({
    ...(settings.config ? { options: settings.config } : {}),
    ...(settings.env ? { env: settings.env } : {}),
  });
  for (const warning of warnings) settings.onWarning?.(warning.message);
  const { onWarning: _reported, ...input } = settings;
  return buildSynthesisProcessor({ ...input, config });
}
