import type { AIUsage } from '@compaction/core';

/** One distill model call, as recorded for inspection. */
export interface LlmDebugRecord {
  /** Always `result_distillation`. */
  kind: 'result_distillation';
  /** What the call was for: `single-call distill`, `map-reduce chunk 4/7`, `map-reduce reduce`. */
  description: string;
  /** The model or alias requested. */
  model: string;
  /** UTF-8 bytes of system and user prompt sent. */
  inputBytes: number;
  /** The model's text, when it answered. */
  output?: string;
  /** Token usage, when reported. */
  usage?: AIUsage;
  /** Wall-clock duration in milliseconds. */
  durationMs: number;
  /** The failure message, when the call failed. */
  error?: string;
  /** The request the compaction belonged to, when the caller gave one. */
  requestId?: string;
  /** The step whose result was compacted, when the caller gave one. */
  stepId?: string;
  /** The tool that produced the result, when the caller gave one. */
  toolName?: string;
  /** When the call ended, in milliseconds since the epoch (set by the recorder). */
  at?: number;
}

/** Keeps distill calls for inspection (the `llmDebug` knob, `COMPACTION_LLM_DEBUG_ENABLED`). */
export interface LlmDebugRecorder {
  /** The recorded calls, oldest first. */
  readonly records: readonly LlmDebugRecord[];
  /** Adds one call; the oldest is dropped beyond `maxRecords`. */
  record(entry: LlmDebugRecord): void;
  /** Forgets every record. */
  clear(): void;
}

/** Settings of `createLlmDebugRecorder`. */
export interface LlmDebugRecorderSettings {
  /** Most records kept. Default 1000. */
  maxRecords?: number;
  /** Called with each record as it is added (to persist it, say). Errors it throws are ignored. */
  onRecord?: (record: LlmDebugRecord) => void;
  /** Milliseconds since the epoch. Default `Date.now`. */
  now?: () => number;
}

/** An in-memory recorder of distill calls. */
export function createLlmDebugRecorder(settings: LlmDebugRecorderSettings = {}): LlmDebugRecorder {
  const maxRecords = settings.maxRecords ?? 1000;
  const records: LlmDebugRecord[] = [];
  return {
    records,
    record(input) {
      const entry = { ...input, at: input.at ?? (settings.now ?? Date.now)() };
      records.push(entry);
      try {
        settings.onRecord?.(entry);
      } catch {
        // Debug recording never breaks a compaction.
      }
      if (records.length > maxRecords) records.splice(0, records.length - maxRecords);
    },
    clear() {
      records.length = 0;
    },
  };
}
