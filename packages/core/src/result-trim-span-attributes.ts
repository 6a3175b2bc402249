import type { ResultProcessorContext } from './result-processor.js';
import type { TelemetryAttributes } from './telemetry.js';
import { ATTRIBUTE_NAMES } from './telemetry-names.js';
import type { ResultTrimMetadata } from './trim-metadata.js';

/**
 * Attributes of a `result_trim.completed` span (seed 002 §10): the step's correlation ids, the
 * loss flag (always) and the coverage fields a view has, so a trace can tell a 28%-seen view
 * from a complete one. The same set for every processor that emits the span.
 */
export function resultTrimSpanAttributes(
  metadata: ResultTrimMetadata,
  context: Pick<ResultProcessorContext, 'requestId' | 'stepId' | 'toolName'> = {},
): TelemetryAttributes {
  return {
    [ATTRIBUTE_NAMES.requestId]: context.requestId,
    [ATTRIBUTE_NAMES.stepId]: context.stepId,
    [ATTRIBUTE_NAMES.toolName]: context.toolName,
    [ATTRIBUTE_NAMES.reason]: metadata.strategy,
    [ATTRIBUTE_NAMES.contentLost]: metadata.contentLost,
    [ATTRIBUTE_NAMES.sourceCoverageRatio]: metadata.sourceCoverageRatio,
    [ATTRIBUTE_NAMES.llmInputBytes]: metadata.llmInputBytes,
    [ATTRIBUTE_NAMES.segmentsAnalyzed]: metadata.segmentsAnalyzed,
    [ATTRIBUTE_NAMES.segmentsTotal]: metadata.segmentsTotal,
    [ATTRIBUTE_NAMES.partialCoverage]: metadata.partialCoverage,
    [ATTRIBUTE_NAMES.combineTruncated]: metadata.combineTruncated,
    [ATTRIBUTE_NAMES.originalBytes]: metadata.originalBytes,
    [ATTRIBUTE_NAMES.outputBytes]: metadata.outputBytes,
  };
}
