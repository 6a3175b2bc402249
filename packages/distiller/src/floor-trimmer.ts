import type { ProcessedResult, ResultProcessorContext } from '@compaction/core';

/** The structural trimmer the distiller uses as its Stage-1 pre-filter and fail-open floor. */
export interface FloorTrimmer {
  /** Trims `result` to `maxBytes` UTF-8 bytes, synchronously. */
  trim(result: string, maxBytes: number, context?: ResultProcessorContext): ProcessedResult;
}
