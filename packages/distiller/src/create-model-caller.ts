import {
  type AIClient,
  type AICompletion,
  ATTRIBUTE_NAMES,
  type CompactionTelemetry,
  EVENT_NAMES,
  SPAN_NAMES,
  type TelemetrySpan,
  utf8ByteLength,
} from '@compaction/core';
import type { LlmDebugRecorder } from './create-llm-debug-recorder.js';
import { wellFormedText } from './well-formed-text.js';

/** What one compaction's model calls share. */
export interface ModelCallerSettings {
  client: AIClient;
  telemetry: CompactionTelemetry;
  llmDebug: LlmDebugRecorder | undefined;
  model: string;
  maxTokens: number;
  temperature: number | undefined;
  /** The compaction's signal (caller and deadline). */
  signal: AbortSignal;
  /** True once the deadline passed, so failures name it instead of the SDK's abort error. */
  deadlineHit: () => boolean;
  /** The distill span that receives `llm_failed` events. */
  span: TelemetrySpan;
  now: () => number;
  /** Correlation ids copied onto debug records. */
  context?: {
    requestId?: string | undefined;
    stepId?: string | undefined;
    toolName?: string | undefined;
  };
}

/** One model call of a compaction. */
export interface ModelCaller {
  call(input: { system: string; prompt: string; description: string }): Promise<AICompletion>;
  /** User-prompt UTF-8 bytes sent so far. */
  readonly llmInputBytes: number;
  /** The route every answer so far reported (`AICompletion.route`), undefined where one did not. */
  readonly routes: ReadonlySet<string | undefined>;
}

function errorMessage(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/**
 * Model calls with a `compaction.model_call` span, an `llm_failed` event on failure and an
 * LLM-debug record either way. Each call gets its own child signal, so the SDK's abort
 * listeners go away with the call instead of piling up on the signal all segments share.
 */
export function createModelCaller(settings: ModelCallerSettings): ModelCaller {
  const { client, telemetry, llmDebug, model, signal, span, now } = settings;
  let llmInputBytes = 0;
  const routes = new Set<string | undefined>();
  return {
    get llmInputBytes() {
      return llmInputBytes;
    },
    routes,
    async call({ system, prompt, description }) {
      signal.throwIfAborted();
      const inputBytes = utf8ByteLength(system) + utf8ByteLength(prompt);
      llmInputBytes += utf8ByteLength(prompt);
      const ids = {
        ...(settings.context?.requestId ? { requestId: settings.context.requestId } : {}),
        ...(settings.context?.stepId ? { stepId: settings.context.stepId } : {}),
        ...(settings.context?.toolName ? { toolName: settings.context.toolName } : {}),
      };
      const started = now();
      const controller = new AbortController();
      const forward = () => controller.abort(signal.reason);
      signal.addEventListener('abort', forward, { once: true });
      try {
        const completion = await telemetry.withSpan(
          SPAN_NAMES.modelCall,
          {
            [ATTRIBUTE_NAMES.genAiSystem]: client.provider,
            [ATTRIBUTE_NAMES.genAiRequestModel]: model,
          },
          async (callSpan) => {
            const answer = await client.complete({
              system,
              prompt,
              model,
              maxTokens: settings.maxTokens,
              ...(settings.temperature !== undefined ? { temperature: settings.temperature } : {}),
              signal: controller.signal,
              description,
            });
            callSpan.setAttributes({
              [ATTRIBUTE_NAMES.genAiUsageInputTokens]: answer.usage?.inputTokens,
              [ATTRIBUTE_NAMES.genAiUsageOutputTokens]: answer.usage?.outputTokens,
            });
            return answer;
          },
        );
        // A model can answer with a lone surrogate (a cut emoji): replaced by U+FFFD (the same
        // 3 UTF-8 bytes it was counted as), so the view stays text any API accepts.
        completion.text = wellFormedText(completion.text);
        routes.add(completion.route);
        llmDebug?.record({
          kind: 'result_distillation',
          ...ids,
          description,
          model,
          inputBytes,
          output: completion.text,
          ...(completion.usage ? { usage: completion.usage } : {}),
          durationMs: now() - started,
        });
        return completion;
      } catch (error) {
        const durationMs = now() - started;
        const reason = errorMessage(settings.deadlineHit() ? signal.reason : error);
        span.addEvent(EVENT_NAMES.llmFailed, {
          [ATTRIBUTE_NAMES.error]: reason,
          [ATTRIBUTE_NAMES.durationMs]: Math.round(durationMs),
        });
        llmDebug?.record({
          kind: 'result_distillation',
          ...ids,
          description,
          model,
          inputBytes,
          durationMs,
          error: reason,
        });
        throw error;
      } finally {
        signal.removeEventListener('abort', forward);
      }
    },
  };
}
