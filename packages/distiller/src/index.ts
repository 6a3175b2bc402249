export { type ChunkedResult, type ChunkResultSettings, chunkResult } from './chunk-result.js';
export { type ChainClientSettings, createChainClient } from './create-chain-client.js';
export {
  type ContinuationDistillerSettings,
  createContinuationDistiller,
} from './create-continuation-distiller.js';
export {
  createDistiller,
  type DistillAIOptions,
  type Distiller,
  type DistillerConfig,
  type DistillerSettings,
} from './create-distiller.js';
export {
  createLlmDebugRecorder,
  type LlmDebugRecord,
  type LlmDebugRecorder,
  type LlmDebugRecorderSettings,
} from './create-llm-debug-recorder.js';
export { createLruDistillCache, type LruDistillCacheSettings } from './create-lru-distill-cache.js';
export {
  DISTILL_CACHE_ENVELOPE_VERSION,
  type DistillCacheKeyInput,
  decodeDistillCacheEntry,
  distillCacheKey,
  encodeDistillCacheEntry,
} from './distill-cache-entry.js';
export { DistillDeadlineError } from './distill-deadline-error.js';
export type { DistillProgress } from './distill-progress.js';
export { DISTILL_PROMPT_VERSION } from './distill-prompts.js';
export {
  DISTILLED_NOTE_ROOM_BYTES,
  distilledViewBytes,
  MAX_NOTE_MODEL_BYTES,
} from './distilled-view-bytes.js';
export type { FloorTrimmer } from './floor-trimmer.js';
export { MissingCredentialsError } from './missing-credentials-error.js';
export {
  DEFAULT_MODEL_ALIASES,
  type ModelAlias,
  type ModelAliasTable,
  resolveModelAlias,
} from './model-aliases.js';
export { ModelCallError, type ModelCallErrorKind, toModelCallError } from './model-call-error.js';
export type { ResolvedDistillerSettings } from './resolved-distiller-settings.js';
