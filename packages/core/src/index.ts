export type {
  AgentInputChange,
  AgentInputContext,
  AgentInputProcessor,
  ProcessedAgentInput,
} from './agent-input-processor.js';
export type {
  AIClient,
  AICompletion,
  AICompletionRequest,
  AIRoute,
  AIUsage,
} from './ai-client.js';
export {
  ARTIFACT_TOOL_NAMES,
  type ArtifactToolDefinition,
  type ArtifactToolset,
} from './artifact-toolset.js';
export { type AssertSizeOptions, assertSize } from './assert-size.js';
export { assertString } from './assert-string.js';
export {
  type CallDeadline,
  type CallDeadlineSettings,
  type DeadlineContext,
  floorGraceMs,
  startCallDeadline,
} from './call-deadline.js';
export { type CallWithDeadlineOptions, callWithDeadline } from './call-with-deadline.js';
export { assertConfigOrSettings } from './config/assert-config-or-settings.js';
export type {
  ArtifactsConfig,
  CompactionConfig,
  CompactionConfigOptions,
  ContinuationConfig,
  ConversationConfig,
  DistillConfig,
  FailedOperationViewConfig,
  McpProxyConfig,
  TrimConfig,
} from './config/compaction-config.js';
export { CONFIG_KNOBS, type KnobDefinition, type KnobKind } from './config/config-knobs.js';
export { knobDefault } from './config/knob-default.js';
export {
  type ConfigSource,
  type ConfigWarning,
  type LoadConfigInput,
  type LoadedConfig,
  loadConfig,
  resolveConfig,
} from './config/load-config.js';
export { formatDuration, parseDuration } from './config/parse-duration.js';
export { renderEnvReference } from './config/render-env-reference.js';
export { contentDigest } from './content-digest.js';
export type {
  ContinuationDistiller,
  ContinuationDistillInput,
} from './continuation-distiller.js';
export type {
  ConversationResult,
  ConversationStep,
} from './conversation/conversation-result.js';
export {
  type ConversationBudget,
  type ConversationBudgetSettings,
  type ConversationOutcome,
  type ConversationReport,
  type ConversationSavings,
  type ConversationToolResult,
  createConversationBudget,
} from './conversation/create-conversation-budget.js';
export {
  type ConversationFit,
  type FitConversationSettings,
  type FittedResult,
  fitConversation,
  MIN_STEP_DOWN_BYTES,
  noteReserve,
  pointerLine,
  shortPointerLine,
} from './conversation/fit-conversation.js';
export {
  type ConversationBudgetOptions,
  type ResolvedConversationBudget,
  resolveConversationBudget,
} from './conversation/resolve-conversation-budget.js';
export type { ArchivedResult, ResultArchive } from './conversation/result-archive.js';
export type { ResultDescriber } from './conversation/result-describer.js';
export { createShouldStop, type ShouldStopSettings } from './create-should-stop.js';
export type { DistillCache } from './distill-cache.js';
export {
  BudgetTooSmallError,
  CompactionError,
  type CompactionErrorOptions,
  ConfigError,
  InvalidArgumentError,
  SeamDeadlineError,
} from './errors.js';
export { BYTES_PER_TOKEN, estimateTokens } from './estimate-tokens.js';
export { buildJsonTape, type JsonTapeOutcome, withJsonTape } from './json/build-json-tape.js';
export type { JsonTape, JsonTapeWordSearch } from './json/json-tape.js';
export type {
  JsonTapeInventory,
  JsonTapeReader,
  JsonTapeSignatures,
  JsonTapeValueOptions,
  JsonTapeValues,
} from './json/json-tape-reader.js';
export {
  type JsonArray,
  type JsonObject,
  type JsonValue,
  type LosslessParseResult,
  parseJsonLossless,
  stringifyJsonLossless,
} from './json/lossless-json.js';
export {
  type LosslessJsonFeatures,
  losslessJsonFeatures,
} from './json/lossless-json-features.js';
export { LosslessNumber } from './json/lossless-number.js';
export { fitsWhole } from './json/minified-json-bytes.js';
export { type NumberScanBackend, numberScanBackend } from './json/scan-number-tokens.js';
export { writeUtf16Units } from './json/write-utf16-units.js';
export { MIN_TRIM_BUDGET_BYTES } from './min-trim-budget.js';
export { cutWithNote, type NotedCut } from './notes/cut-with-note.js';
export {
  type DiffFileChange,
  type DiffFiles,
  formatDiffFiles,
  parseDiffFiles,
  tellsDiffPath,
} from './notes/diff-files.js';
export {
  appendDisclosureNotes,
  DISCLOSURE_NOTE_PREFIXES,
  type DisclosureNoteKind,
  disclosureNoteKind,
  disclosureNotes,
  disclosureNotesByteLength,
  ESCAPES_REMOVED_SEGMENT,
  formatPercent,
  neutralizeNoteLines,
  stripDisclosureNotes,
  trailingDisclosureNotes,
} from './notes/disclosure-notes.js';
export { headCutView } from './notes/head-cut-view.js';
export {
  formatLevelBreakdown,
  type LevelBreakdown,
  type LevelCount,
  parseLevelBreakdown,
} from './notes/level-breakdown.js';
export {
  formatLineShape,
  formatLineShapes,
  LINE_SHAPES_MARKER_BYTES,
  type LineShape,
  parseLineShapes,
  toldShape,
} from './notes/line-shapes.js';
export {
  formatPartialAnalysis,
  type PartialAnalysis,
  parsePartialAnalysis,
} from './notes/partial-analysis.js';
export {
  formatRecordCoverage,
  parseRecordCoverage,
  type RecordCoverage,
  type RecordDistribution,
  type RecordRange,
} from './notes/record-coverage.js';
export type {
  ProcessedResult,
  ResultProcessor,
  ResultProcessorContext,
} from './result-processor.js';
export { resultTrimSpanAttributes } from './result-trim-span-attributes.js';
export type { StepError, StepRecord } from './step-record.js';
export {
  type CompactionTelemetry,
  noopTelemetry,
  type TelemetryAttributes,
  type TelemetryAttributeValue,
  type TelemetrySpan,
} from './telemetry.js';
export {
  ATTRIBUTE_NAMES,
  EVENT_NAMES,
  METRIC_DEFINITIONS,
  METRIC_NAMES,
  type MetricDefinition,
  type MetricName,
  SPAN_NAMES,
} from './telemetry-names.js';
export {
  byteEstimateTokenCounter,
  countTokensForLimit,
  type TokenCounter,
} from './token-counter.js';
export {
  type CompactedToolResult,
  createToolResultViews,
  type ToolResultView,
  type ToolResultViews,
  type ToolResultViewsSettings,
} from './tool-result-views.js';
export {
  type ChunkStrategy,
  type CombineTruncatedReason,
  losslessMetadata,
  type ReduceSkippedReason,
  type ResultTrimMetadata,
  type TrimStrategy,
} from './trim-metadata.js';
export { truncateUtf8, truncateUtf8Start, utf8ByteLength } from './utf8.js';
