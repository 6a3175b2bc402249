export { ArtifactError, type ArtifactErrorCode } from './artifact-error.js';
export {
  artifactFilePointerLine,
  artifactNotStoredLine,
  artifactPointerLine,
  parseArtifactPointerLine,
} from './projection/artifact-pointer-line.js';
export {
  type ArtifactProcessorSettings,
  createArtifactProcessor,
} from './projection/create-artifact-processor.js';
export {
  DEFAULT_PROJECTION_POLICIES,
  diffPolicy,
  docPolicy,
  fallbackPolicy,
  fileReadPolicy,
  listPolicy,
  searchPolicy,
  terminalPolicy,
} from './projection/default-projection-policies.js';
export {
  type Excerpt,
  type ExcerptOptions,
  excerpt,
  minimumExcerptBudget,
} from './projection/excerpt.js';
export {
  type ExcerptSource,
  excerptMarker,
  parseExcerptMarker,
} from './projection/excerpt-marker.js';
export {
  defaultInlineLimitChars,
  type ExternalizedOutput,
  type ExternalizeOptions,
  externalizeToolOutput,
  MIN_INLINE_LIMIT_CHARS,
} from './projection/externalize-tool-output.js';
export { inferArtifactKind } from './projection/infer-artifact-kind.js';
export { kindForTool } from './projection/kind-for-tool.js';
export type {
  Projection,
  ProjectionContext,
  ProjectionPolicy,
  ToolOutput,
} from './projection/projection-policy.js';
export {
  type NotStoredPointer,
  type PointerRecordFields,
  type StoredPointer,
  type StoreWithPointerInput,
  type StoreWithPointerOutcome,
  storeWithPointer,
} from './projection/store-with-pointer.js';
export { matchToolNames, type ToolNameSpec } from './projection/tool-name-matcher.js';
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
} from './reading/artifact-library.js';
export {
  ANTHROPIC_ARTIFACT_TOOLS,
  ARTIFACT_TOOL_TEXT,
  type ArtifactToolHandler,
  type ArtifactToolName,
  createArtifactToolHandler,
  formatArtifactPage,
  formatArtifactSearch,
  OPENAI_ARTIFACT_TOOLS,
} from './reading/artifact-tools.js';
export { MAX_PATTERN_CHARS } from './reading/max-pattern-chars.js';
export { type PagingRange, pagingValue } from './reading/paging-value.js';
export type {
  TextMatch,
  TextPage,
  TextPosition,
  TextSearchResult,
} from './reading/read-artifact-text.js';
export { compileSearchPattern, type SearchMatcher } from './reading/search-pattern.js';
export {
  type ArtifactServer,
  type ArtifactServerSettings,
  createArtifactServer,
  type RunningArtifactServer,
} from './serving/artifact-server.js';
export { INSPECTOR_PAGE } from './serving/inspector-page.js';
export { artifactDirFor } from './storage/artifact-dir-for.js';
export { artifactFileName } from './storage/artifact-file-name.js';
export {
  type ArtifactAppendHandle,
  type ArtifactFileSystem,
  type ArtifactWriteHandle,
  nodeArtifactFileSystem,
} from './storage/artifact-file-system.js';
export { type ArtifactIdInput, artifactIdFor } from './storage/artifact-id.js';
export {
  type ArtifactIndex,
  type ArtifactIndexMatches,
  type ArtifactIndexObserver,
  type ArtifactIndexSettings,
  createArtifactIndex,
  LOOKUP_TAIL_BYTES,
} from './storage/artifact-index.js';
export type { ArtifactKind, ArtifactRecord } from './storage/artifact-record.js';
export {
  type ArtifactStore,
  type ArtifactStoreSettings,
  createArtifactStore,
  type StoreStreamOptions,
} from './storage/artifact-store.js';
export {
  layOutJson,
  MAX_JSON_LAYOUT_CHARS,
  restoreJsonLayout,
  type StoredForm,
  type StoredLayout,
  storedFormOf,
} from './storage/json-layout.js';
export { createModelCallLog, type ModelCallRecord } from './storage/model-call-log.js';
export {
  type PrunedFile,
  type PruneOptions,
  type PruneReport,
  pruneArtifacts,
} from './storage/prune-artifacts.js';
export {
  type ArtifactRecordInput,
  buildArtifactRecord,
  recordStoredArtifact,
} from './storage/record-stored-artifact.js';
export {
  type ExcerptStreamOptions,
  excerptStream,
  type StreamExcerptResult,
} from './storage/store-stream-excerpt.js';
export type { StoredArtifact } from './storage/stored-artifact.js';
export {
  countGraphemes,
  createGraphemeCounter,
  type GraphemeCounter,
} from './text/count-graphemes.js';
export { describeText, type TextDescription } from './text/describe-text.js';
export {
  type GraphemeSlice,
  graphemeWindowLimit,
  headGraphemes,
  tailGraphemes,
} from './text/grapheme-window.js';
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
} from './transcript/session-transcript.js';
