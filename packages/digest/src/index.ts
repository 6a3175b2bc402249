// StepRecord is the composition layer's input and lives in core; re-exported for existing importers.
export type { StepError, StepRecord } from '@compaction/core';
export {
  createDigester,
  type Digester,
  type DigestOutcome,
  type DigestResult,
  digestJson,
} from './create-digester.js';
export { createHeadPreviewProcessor } from './create-head-preview-processor.js';
export {
  createPlanningSectionRenderer,
  type PlanningSection,
  type PlanningSectionConfig,
  type PlanningSectionRenderer,
  type PlanningSectionRenderOptions,
  type PlanningSectionSettings,
  type PlanningStepView,
} from './create-planning-section-renderer.js';
export {
  type BoundTemplate,
  createStepResolver,
  formatPath,
  type PathSegment,
  type ResolvedReference,
  type StepResolver,
} from './create-step-resolver.js';
export {
  DEFAULT_DIGEST_MAX_DEPTH,
  type DigestCaps,
  type DigestSettings,
  resolveDigestCaps,
} from './digest-settings.js';
export { DigestStoppedError } from './digest-stopped-error.js';
export { digestTape } from './digest-tape.js';
export { type DigestElisions, digestValue, type ValueDigest } from './digest-value.js';
export { DIGEST_POLL_INTERVAL, type DigestPassOptions } from './digest-work-poll.js';
export { jsonStringWithin } from './json-string-within.js';
export {
  type FailedOperationEvidence,
  type FailedOperationEvidenceLimits,
  type FailedOperationInput,
  type FailedOperationInputPolicy,
  projectFailedOperationEvidence,
} from './project-failed-operation-evidence.js';
export { StepReferenceError, type StepReferenceErrorCode } from './step-reference-error.js';
