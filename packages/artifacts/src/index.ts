export { artifactDirFor, transcriptStem } from './artifact-dir-for.js';
export { ArtifactError, type ArtifactErrorCode } from './artifact-error.js';
export { artifactFileName, operationSlug } from './artifact-file-name.js';
export {
  type ArtifactAppendHandle,
  type ArtifactFileSystem,
  type ArtifactWriteHandle,
  nodeArtifactFileSystem,
} from './artifact-file-system.js';
export { type ArtifactIdInput, artifactIdFor } from './artifact-id.js';
export {
  ARTIFACT_INDEX_FILE,
  type ArtifactIndex,
  type ArtifactIndexMatches,
  type ArtifactIndexObserver,
  type ArtifactIndexSettings,
  createArtifactIndex,
  LOOKUP_TAIL_BYTES,
  MIRROR_AFTER_LOOKUPS,
} from './artifact-index.js';
export {
  type ArtifactLibrary,
  type ArtifactLibrarySettings,
  type ArtifactPage,
  type ArtifactSearchResult,
  createArtifactLibrary,
  PAGE_LIMITS,
  type ReadPageOptions,
  type ResolvedArtifact,
  SEARCH_LIMITS,
  type SearchOptions,
} from './artifact-library.js';
export {
  artifactNotStoredLine,
  artifactPointerLine,
  parseArtifactPointerLine,
} from './artifact-pointer-line.js';
export type { ArtifactKind, ArtifactRecord } from './artifact-record.js';
export {
  type ArtifactServer,
  type ArtifactServerSettings,
  createArtifactServer,
  type RunningArtifactServer,
} from './artifact-server.js';
export {
  type ArtifactStore,
  type ArtifactStoreSettings,
  createArtifactStore,
  type StoreStreamOptions,
  storeSessionId,
} from './artifact-store.js';
export {
  ANTHROPIC_ARTIFACT_TOOLS,
  ARTIFACT_TOOL_TEXT,
  type ArtifactToolHandler,
  type ArtifactToolName,
  createArtifactToolHandler,
  formatArtifactPage,
  formatArtifactSearch,
  OPENAI_ARTIFACT_TOOLS,
} from './artifact-tools.js';
export { countGraphemes, createGraphemeCounter, type GraphemeCounter } from './count-graphemes.js';
export {
  type ArtifactProcessorSettings,
  createArtifactProcessor,
} from './create-artifact-processor.js';
export {
  DEFAULT_PROJECTION_POLICIES,
  diffPolicy,
  docPolicy,
  fallbackPolicy,
  fileReadPolicy,
  listPolicy,
  searchPolicy,
  terminalPolicy,
} from './default-projection-policies.js';
export { describeText, type TextDescription } from './describe-text.js';
export { type Excerpt, type ExcerptOptions, excerpt, minimumExcerptBudget } from './excerpt.js';
export {
  type ExcerptSource,
  excerptMarker,
  formatCount,
  parseExcerptMarker,
} from './excerpt-marker.js';
export {
  defaultInlineLimitChars,
  type ExternalizedOutput,
  type ExternalizeOptions,
  externalizeToolOutput,
  MIN_INLINE_LIMIT_CHARS,
} from './externalize-tool-output.js';
export {
  type GraphemeSlice,
  graphemeWindowLimit,
  headGraphemes,
  tailGraphemes,
} from './grapheme-window.js';
export { inferArtifactKind } from './infer-artifact-kind.js';
export { INSPECTOR_PAGE } from './inspector-page.js';
export {
  layOutJson,
  MAX_JSON_LAYOUT_CHARS,
  restoreJsonLayout,
  type StoredForm,
  type StoredLayout,
  storedFormOf,
} from './json-layout.js';
export { kindForTool } from './kind-for-tool.js';
export { createModelCallLog, MODEL_CALLS_FILE, type ModelCallRecord } from './model-call-log.js';
export { type PagingRange, pagingValue } from './paging-value.js';
export type {
  Projection,
  ProjectionContext,
  ProjectionPolicy,
  ToolOutput,
} from './projection-policy.js';
export {
  type PrunedFile,
  type PruneOptions,
  type PruneReport,
  pruneArtifacts,
} from './prune-artifacts.js';
export type {
  TextMatch,
  TextPage,
  TextPosition,
  TextSearchResult,
} from './read-artifact-text.js';
export {
  type ArtifactRecordInput,
  buildArtifactRecord,
  recordStoredArtifact,
} from './record-stored-artifact.js';
export { assertSafeId, isSafeId } from './safe-id.js';
export {
  compileSearchPattern,
  MAX_PATTERN_CHARS,
  type SearchMatcher,
} from './search-pattern.js';
export {
  type LoadTranscriptOptions,
  loadTranscript,
  openSessionTranscript,
  replayTranscript,
  type SessionTranscript,
  type SessionTranscriptSettings,
  type ToolResultEvent,
  type TranscriptMessage,
  type TranscriptRecord,
  type TranscriptToolCall,
  terminalAssistantMessage,
  toOpenAIChatMessages,
} from './session-transcript.js';
export { sha256Hex } from './sha256-hex.js';
export {
  type ExcerptStreamOptions,
  excerptStream,
  type StreamExcerptResult,
} from './store-stream-excerpt.js';
export type { StoredArtifact } from './stored-artifact.js';
export { matchToolNames, type ToolNameSpec } from './tool-name-matcher.js';
