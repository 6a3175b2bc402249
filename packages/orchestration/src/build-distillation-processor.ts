import type {
  AIClient,
  CompactionConfig,
  CompactionTelemetry,
  DistillCache,
  TokenCounter,
} from '@compaction/core';
import {
  createDistiller,
  type DistillAIOptions,
  type Distiller,
  type LlmDebugRecorder,
} from '@compaction/distiller';
import { createStructuralTrimmer, type StructuralTrimmer } from '@compaction/trimmer';

/** Inputs of `buildDistillationProcessor`. */
export interface DistillationProcessorInput {
  /** The resolved configuration (`loadConfig(...).config`). */
  config: CompactionConfig;
  /** The model; without one the bare structural floor is returned. */
  aiClient?: AIClient;
  /** A cache of finished distillations; without one nothing is cached. */
  cache?: DistillCache;
  /** Telemetry seam. Default none. */
  telemetry?: CompactionTelemetry;
  /** Per-call model overrides (model, max tokens, temperature, system prompt). */
  aiOptions?: DistillAIOptions;
  /** LLM-debug recorder to use when `config.llmDebug` is on. Default: a new one. */
  llmDebug?: LlmDebugRecorder;
  /** Monotonic clock in milliseconds for the deadline. Default `performance.now`. */
  now?: () => number;
  /** Counts tokens for the distiller's context check. Default: UTF-8 bytes / 3.5. */
  tokenCounter?: TokenCounter;
  /** The `agent_name` label of the distillation metrics. Default `unnamed`. */
  agentName?: string;
}

/**
 * The Layer-2 stack a hand-wired runner needs (seed 002 §9): the structural trimmer as Stage-1
 * pre-filter and floor, wrapped by the distiller, with the cache inside it. Without a model
 * client, or with distillation disabled, the bare trimmer is returned.
 */
export function buildDistillationProcessor(
  input: DistillationProcessorInput,
): Distiller | StructuralTrimmer {
  const { config } = input;
  const trimmer = createStructuralTrimmer({
    preserveKeys: config.trim.preserveKeys,
    telemetry: input.telemetry,
  });
  if (!input.aiClient || !config.distill.enabled) return trimmer;
  return createDistiller({
    client: input.aiClient,
    cache: input.cache,
    telemetry: input.telemetry,
    trimmer,
    // Resolved once by the caller: the distiller uses it as it is.
    config,
    tokenCounter: input.tokenCounter,
    aiOptions: input.aiOptions,
    llmDebug: config.llmDebug ? (input.llmDebug ?? true) : false,
    ...(input.now ? { now: input.now } : {}),
    ...(input.agentName ? { agentName: input.agentName } : {}),
  });
}
