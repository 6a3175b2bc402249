export { createArtifactTools } from './create-artifact-tools.js';
export {
  type CompactionMiddlewareSettings,
  createCompactionMiddleware,
} from './create-compaction-middleware.js';
