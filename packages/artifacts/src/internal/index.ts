// Shared by the @compaction packages, not a public API: the store's file layout and naming, the
// id checks and the digest helper. It may change in any release; import the root entry point
// instead.
export { formatCount } from '../projection/excerpt-marker.js';
export { transcriptStem } from '../storage/artifact-dir-for.js';
export { operationSlug } from '../storage/artifact-file-name.js';
export { ARTIFACT_INDEX_FILE, MIRROR_AFTER_LOOKUPS } from '../storage/artifact-index.js';
export { storeSessionId } from '../storage/artifact-store.js';
export { MODEL_CALLS_FILE } from '../storage/model-call-log.js';
export { assertSafeId, isSafeId } from '../storage/safe-id.js';
export { sha256Hex } from '../storage/sha256-hex.js';
