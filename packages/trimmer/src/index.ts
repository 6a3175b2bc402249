export { createStructuralTrimmer } from './create-structural-trimmer.js';
export { describeResult } from './describe-result.js';
export { parseCutLineMarker } from './engine/cut-line-marker.js';
export { parseOmittedLinesMarker } from './engine/omitted-lines-marker.js';
export type { VocabularyOverride } from './resolve-vocabulary.js';
export {
  type JsonSelectionMode,
  MIN_TRIM_BUDGET_BYTES,
  type StructuralTrimmer,
  type StructuralTrimmerSettings,
} from './structural-trimmer.js';
export { DEFAULT_VOCABULARY, LEVEL_NAMES, type LevelName, type Vocabulary } from './vocabulary.js';
