export { createArtifactTools } from './create-artifact-tools.js';
export {
  type CompactionInputFilterSettings,
  createCompactionInputFilter,
} from './create-compaction-input-filter.js';
