export { withLosslessJsonFeatures } from '../json/lossless-json-features.js';
export { bigJsonResult } from './big-json-result.js';
export { buildJsonTapeInJs } from './build-json-tape-in-js.js';
export {
  createMemoryDistillCache,
  type MemoryDistillCache,
  type MemoryDistillCacheSettings,
} from './create-memory-distill-cache.js';
export {
  createRecordingTelemetry,
  type RecordedMetric,
  type RecordedSpan,
  type RecordingTelemetry,
} from './create-recording-telemetry.js';
export {
  createScriptedAIClient,
  type ScriptedAIClient,
  type ScriptedAnswer,
} from './create-scripted-ai-client.js';
