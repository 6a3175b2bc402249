import {
  assertSize,
  assertString,
  InvalidArgumentError,
  noopTelemetry,
  type ProcessedResult,
  type ResultProcessorContext,
  resultTrimSpanAttributes,
  SPAN_NAMES,
} from '@compaction/core';
import { resolveVocabulary } from './resolve-vocabulary.js';
import type { StructuralTrimmer, StructuralTrimmerSettings } from './structural-trimmer.js';
import { type TrimOptions, trimResult } from './trim-result.js';

function invalid(argument: string, message: string): never {
  throw new InvalidArgumentError({ argument, message });
}

function integerSetting(name: string, value: number | undefined, fallback: number): number {
  if (value === undefined) return fallback;
  if (!Number.isSafeInteger(value) || value < 1) {
    invalid(name, `${name} must be an integer ≥ 1, got ${String(value)}`);
  }
  return value;
}

/**
 * Creates the structural trimmer. Settings are validated here, so a bad one fails at
 * construction, not on the first result.
 */
export function createStructuralTrimmer(
  settings: StructuralTrimmerSettings = {},
): StructuralTrimmer {
  const relevanceShare = settings.relevanceShare ?? 0.35;
  if (!(relevanceShare >= 0 && relevanceShare <= 0.9)) {
    invalid(
      'relevanceShare',
      `relevanceShare must be between 0 and 0.9, got ${String(relevanceShare)}`,
    );
  }
  const preserveKeys = settings.preserveKeys ?? [];
  if (!Array.isArray(preserveKeys) || preserveKeys.some((key) => typeof key !== 'string')) {
    invalid('preserveKeys', 'preserveKeys must be an array of strings');
  }
  const selection = settings.selection ?? 'information-first';
  if (selection !== 'information-first' && selection !== 'breadth-first') {
    invalid(
      'selection',
      `selection must be 'information-first' or 'breadth-first', got ${String(selection)}`,
    );
  }
  const options: TrimOptions = {
    selection,
    preserveKeys: preserveKeys.filter((key) => key.trim() !== '').map((key) => key.trim()),
    nestedArrayCap: integerSetting('nestedArrayCap', settings.nestedArrayCap, 500),
    relevanceShare,
    maxJsonNodes: integerSetting('maxJsonNodes', settings.maxJsonNodes, 3_000_000),
    termCache: new Map(),
    vocabulary: resolveVocabulary(settings.vocabulary),
  };
  const telemetry = settings.telemetry ?? noopTelemetry;

  // A non-string (an object a caller forgot to serialise) would otherwise become
  // `[object Object]`, reported as unchanged: a silent loss.
  const trim = (result: string, maxBytes: number, context?: ResultProcessorContext) =>
    trimResult(
      assertString(result, 'result'),
      assertSize(maxBytes, 'maxBytes', { allowInfinity: true }),
      context,
      options,
    );

  return {
    trim,
    async process(result, maxBytes, context): Promise<ProcessedResult> {
      context?.signal?.throwIfAborted();
      const processed = trim(result, maxBytes, context);
      if (processed.metadata.strategy !== 'unchanged') {
        try {
          await telemetry.withSpan(
            SPAN_NAMES.resultTrimCompleted,
            resultTrimSpanAttributes(processed.metadata, context),
            () => undefined,
          );
        } catch {
          // Telemetry never breaks the host.
        }
      }
      return processed;
    },
  };
}
