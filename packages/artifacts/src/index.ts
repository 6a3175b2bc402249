export { artifactDirFor, transcriptStem } from './artifact-dir-for.js';
export { ArtifactError, type ArtifactErrorCode } from './artifact-error.js';
export {
  type ArtifactFileSystem,
  type ArtifactWriteHandle,
  nodeArtifactFileSystem,
} from './artifact-file-system.js';
export {
  type ArtifactStore,
  type ArtifactStoreSettings,
  createArtifactStore,
  type StoredArtifact,
  type StoreStreamOptions,
} from './artifact-store.js';
export { countGraphemes, createGraphemeCounter, type GraphemeCounter } from './count-graphemes.js';
export { describeText, type TextDescription } from './describe-text.js';
export { type Excerpt, type ExcerptOptions, excerpt, minimumExcerptBudget } from './excerpt.js';
export {
  type ExcerptSource,
  excerptMarker,
  formatCount,
  parseExcerptMarker,
} from './excerpt-marker.js';
export { type GraphemeSlice, headGraphemes, tailGraphemes } from './grapheme-window.js';
export { assertSafeId, isSafeId } from './safe-id.js';
export { sha256Hex } from './sha256-hex.js';
export {
  type ExcerptStreamOptions,
  excerptStream,
  type StreamExcerptResult,
} from './store-stream-excerpt.js';
