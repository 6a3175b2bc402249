import {
  type AgentInputChange,
  type AgentInputProcessor,
  assertSize,
  type JsonValue,
  parseJsonLossless,
  stringifyJsonLossless,
  stripDisclosureNotes,
  utf8ByteLength,
} from '@compaction/core';
import { createStructuralTrimmer, type StructuralTrimmer } from '@compaction/trimmer';

/** Settings of `createAgentInputProcessor`. */
export interface AgentInputProcessorSettings {
  /**
   * Cap per parameter in UTF-8 bytes; 0 passes every parameter through raw (fidelity first: a
   * tool consuming data programmatically usually needs all of it). Default 0.
   * `COMPACTION_RESULT_TRIM_MAX_AGENT_INPUT_BYTES`.
   */
  maxParamBytes?: number;
  /** The trimmer used when capping. Default `createStructuralTrimmer()`. */
  trimmer?: StructuralTrimmer;
}

// Through the lossless serializer, so a value bound from `{{step-N.path}}` keeps its exact
// numbers (64-bit ids included) on every runtime.
function jsonOf(value: unknown): string | undefined {
  try {
    return stringifyJsonLossless(value as JsonValue) ?? undefined;
  } catch {
    return undefined;
  }
}

/**
 * The default tool→tool processor. With no cap it hands the parameters over untouched. With a
 * cap, a string parameter over it is structurally trimmed (note included, so the receiving tool
 * sees that it is partial); a structured parameter over it is trimmed as JSON and parsed back,
 * so the tool still receives the type it expects, and the loss is reported in `changes`.
 */
export function createAgentInputProcessor(
  settings: AgentInputProcessorSettings = {},
): AgentInputProcessor {
  const cap = assertSize(settings.maxParamBytes ?? 0, 'maxParamBytes');
  if (cap <= 0) {
    return {
      async process(params) {
        return { params: { ...params }, changes: [] };
      },
    };
  }
  const trimmer = settings.trimmer ?? createStructuralTrimmer();
  return {
    async process(params, context) {
      context?.signal?.throwIfAborted();
      const output: Record<string, unknown> = {};
      const changes: AgentInputChange[] = [];
      for (const [name, value] of Object.entries(params)) {
        if (typeof value === 'string') {
          const originalBytes = utf8ByteLength(value);
          if (originalBytes <= cap) {
            Object.defineProperty(output, name, {
              value,
              enumerable: true,
              writable: true,
              configurable: true,
            });
            continue;
          }
          const trimmed = trimmer.trim(value, cap, {
            toolName: context?.toolName,
            stepId: context?.stepId,
          });
          Object.defineProperty(output, name, {
            value: trimmed.text,
            enumerable: true,
            writable: true,
            configurable: true,
          });
          changes.push({
            name,
            originalBytes,
            outputBytes: trimmed.metadata.outputBytes,
            contentLost: trimmed.metadata.contentLost,
          });
          continue;
        }
        const json = jsonOf(value);
        const originalBytes = json === undefined ? 0 : utf8ByteLength(json);
        let next = value;
        if (json !== undefined && originalBytes > cap) {
          const trimmed = trimmer.trim(json, cap, {
            toolName: context?.toolName,
            stepId: context?.stepId,
          });
          const parsed = parseJsonLossless(stripDisclosureNotes(trimmed));
          if (parsed.ok) {
            next = parsed.value;
            changes.push({
              name,
              originalBytes,
              outputBytes: utf8ByteLength(jsonOf(next) ?? ''),
              contentLost: trimmed.metadata.contentLost,
            });
          }
        }
        Object.defineProperty(output, name, {
          value: next,
          enumerable: true,
          writable: true,
          configurable: true,
        });
      }
      return { params: output, changes };
    },
  };
}
