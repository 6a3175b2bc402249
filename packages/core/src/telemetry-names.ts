/**
 * Every span, event, metric and attribute name Compaction emits, in one place. Names are
 * low-cardinality; attributes are namespaced under `compaction.` (model calls also use the
 * OpenTelemetry `gen_ai.*` conventions). Durations are in seconds, sizes in bytes.
 */

/** Span names. */
export const SPAN_NAMES = {
  /** One synthesis-path distillation (single call or map-reduce). */
  resultDistill: 'compaction.result_distill',
  /** A trim that changed the result: mirrors content loss and coverage. */
  resultTrimCompleted: 'result_trim.completed',
  /** Rendering the continuation planning section. */
  continuationBudget: 'compaction.continuation_budget',
  /** One model call made by a distiller. */
  modelCall: 'compaction.model_call',
  /** One summary of a non-JSON step by the continuation distiller. */
  continuationDistill: 'compaction.continuation_distill',
} as const;

/** Span event names (on the active distill or continuation span). */
export const EVENT_NAMES = {
  mapReduceRoute: 'result_distill.mapreduce_route',
  stage1Complete: 'result_distill.stage1_complete',
  stage2Complete: 'result_distill.stage2_complete',
  mapReduceComplete: 'result_distill.mapreduce_complete',
  cacheHit: 'result_distill.cache_hit',
  llmFailed: 'result_distill.llm_failed',
  continuationRetention: 'failure_evidence.continuation_retention',
} as const;

/** Metric kind, unit and description for instrument creation. */
export interface MetricDefinition {
  kind: 'counter' | 'histogram';
  unit: string;
  description: string;
}

/** Metric names. */
export const METRIC_NAMES = {
  distillTriggered: 'compaction.result_distill.triggered',
  distillDuration: 'compaction.result_distill.duration',
  distillFailed: 'compaction.result_distill.failed',
  distillMapReduce: 'compaction.result_distill.mapreduce',
  distillCacheHit: 'compaction.result_distill.cache_hit',
  distillCacheMiss: 'compaction.result_distill.cache_miss',
  continuationSectionBytes: 'compaction.continuation.section_bytes',
  continuationStepsShown: 'compaction.continuation.steps_shown',
  continuationStepsEvicted: 'compaction.continuation.steps_evicted',
  continuationEscalations: 'compaction.continuation.escalations',
} as const;

/** A metric name. */
export type MetricName = (typeof METRIC_NAMES)[keyof typeof METRIC_NAMES];

/** How each metric is recorded. */
export const METRIC_DEFINITIONS: Readonly<Record<MetricName, MetricDefinition>> = {
  'compaction.result_distill.triggered': {
    kind: 'counter',
    unit: '{distillation}',
    description: 'Results sent to a distiller.',
  },
  'compaction.result_distill.duration': {
    kind: 'histogram',
    unit: 's',
    description: 'Wall-clock time of one distillation.',
  },
  'compaction.result_distill.failed': {
    kind: 'counter',
    unit: '{distillation}',
    description: 'Distillations that fell back to the structural floor.',
  },
  'compaction.result_distill.mapreduce': {
    kind: 'counter',
    unit: '{distillation}',
    description: 'Distillations routed to map-reduce.',
  },
  'compaction.result_distill.cache_hit': {
    kind: 'counter',
    unit: '{lookup}',
    description: 'Distillations served from the cache.',
  },
  'compaction.result_distill.cache_miss': {
    kind: 'counter',
    unit: '{lookup}',
    description: 'Cache lookups that found nothing usable.',
  },
  'compaction.continuation.section_bytes': {
    kind: 'histogram',
    unit: 'By',
    description: 'Rendered size of a continuation planning section.',
  },
  'compaction.continuation.steps_shown': {
    kind: 'histogram',
    unit: '{step}',
    description: 'Completed steps shown in a planning section.',
  },
  'compaction.continuation.steps_evicted': {
    kind: 'histogram',
    unit: '{step}',
    description: 'Completed steps evicted from a planning section for budget.',
  },
  'compaction.continuation.escalations': {
    kind: 'counter',
    unit: '{escalation}',
    description: 'Non-JSON steps escalated to the continuation distiller.',
  },
};

/**
 * Attribute names. Two metric labels keep seed 002 §10's names as they are, so dashboards
 * built for it work: `agent_name` on the distillation metrics (the agent the compaction serves,
 * the `agentName` setting, `unnamed` when not given) and `module` on the continuation metrics
 * (always `orchestration`).
 */
export const ATTRIBUTE_NAMES = {
  agentName: 'agent_name',
  module: 'module',
  requestId: 'compaction.request_id',
  stepId: 'compaction.step_id',
  toolName: 'compaction.tool_name',
  reason: 'compaction.reason',
  originalBytes: 'compaction.original_bytes',
  outputBytes: 'compaction.output_bytes',
  prefilteredBytes: 'compaction.prefiltered_bytes',
  distilledBytes: 'compaction.distilled_bytes',
  cachedBytes: 'compaction.cached_bytes',
  estimatedTokens: 'compaction.estimated_tokens',
  tokenCounter: 'compaction.token_counter',
  chunksTotal: 'compaction.chunks_total',
  chunksCompleted: 'compaction.chunks_completed',
  combinedBytes: 'compaction.combined_bytes',
  llmInputBytes: 'compaction.llm_input_bytes',
  chunkStrategy: 'compaction.chunk_strategy',
  combineTruncatedReason: 'compaction.combine_truncated_reason',
  contentLost: 'compaction.content_lost',
  sourceCoverageRatio: 'compaction.source_coverage_ratio',
  segmentsAnalyzed: 'compaction.segments_analyzed',
  segmentsTotal: 'compaction.segments_total',
  partialCoverage: 'compaction.partial_coverage',
  combineTruncated: 'compaction.combine_truncated',
  error: 'compaction.error',
  durationMs: 'compaction.duration_ms',
  stepsTotal: 'compaction.steps_total',
  stepsShown: 'compaction.steps_shown',
  escalations: 'compaction.escalations',
  /** Successful step ids a planning section kept with the failed-operation views counted. */
  retainedWithProjection: 'compaction.retained_with_projection',
  /** Successful step ids the same section would have kept without those views. */
  retainedWithoutProjection: 'compaction.retained_without_projection',
  genAiSystem: 'gen_ai.system',
  genAiRequestModel: 'gen_ai.request.model',
  genAiUsageInputTokens: 'gen_ai.usage.input_tokens',
  genAiUsageOutputTokens: 'gen_ai.usage.output_tokens',
} as const;
