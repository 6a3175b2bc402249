export {
  type CompactedToolResult,
  type CompactionMiddlewareSettings,
  createCompactionMiddleware,
} from './create-compaction-middleware.js';
