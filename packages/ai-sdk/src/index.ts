export type { CompactedToolResult } from '@compaction/core';
export type { AiSdkPrompt, CompactionMiddlewareSettings } from './compact-tool-results.js';
export {
  type AiSdkArtifactTool,
  type ArtifactToolInputSchema,
  createArtifactTools,
} from './create-artifact-tools.js';
export {
  type CompactionMiddleware,
  createCompactionMiddleware,
  createCompactionMiddlewareV4,
} from './create-compaction-middleware.js';
export {
  type AiSdkLanguageModel,
  createLanguageModelClient,
  type LanguageModelClientSettings,
} from './create-language-model-client.js';
