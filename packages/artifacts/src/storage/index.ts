// `@compaction/artifacts/storage`: the store, its index and records, and the streaming excerpt,
// without the reading and search side (and its regex engine), the server or the transcript.
// Every name here is also exported from the root; a one-shot process that only writes (the
// CLI's `store` and `excerpt`) starts faster importing this entry.
export { ArtifactError, type ArtifactErrorCode } from '../artifact-error.js';
export { artifactDirFor } from './artifact-dir-for.js';
export {
  type ArtifactAppendHandle,
  type ArtifactFileSystem,
  type ArtifactWriteHandle,
  nodeArtifactFileSystem,
} from './artifact-file-system.js';
export {
  type ArtifactIndex,
  type ArtifactIndexMatches,
  type ArtifactIndexObserver,
  type ArtifactIndexSettings,
  createArtifactIndex,
} from './artifact-index.js';
export type { ArtifactKind, ArtifactRecord } from './artifact-record.js';
export {
  type ArtifactStore,
  type ArtifactStoreSettings,
  createArtifactStore,
  type StoreStreamOptions,
} from './artifact-store.js';
export {
  type ArtifactRecordInput,
  buildArtifactRecord,
  recordStoredArtifact,
} from './record-stored-artifact.js';
export {
  type ExcerptStreamOptions,
  excerptStream,
  type StreamExcerptResult,
} from './store-stream-excerpt.js';
export type { StoredArtifact } from './stored-artifact.js';
