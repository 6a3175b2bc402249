// `@compaction/artifacts/reading`: the library that finds, pages and searches stored artifacts,
// and the artifact tools over it, without the server, the transcript, the artifact processor or
// tool-output externalizing.
// Every name here is also exported from the root; a one-shot process that only reads (the CLI's
// `read` and `search`) starts faster importing this entry.
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
  ANTHROPIC_ARTIFACT_TOOLS,
  ARTIFACT_TOOL_TEXT,
  type ArtifactToolHandler,
  type ArtifactToolName,
  createArtifactToolHandler,
  formatArtifactPage,
  formatArtifactSearch,
  OPENAI_ARTIFACT_TOOLS,
} from './artifact-tools.js';
