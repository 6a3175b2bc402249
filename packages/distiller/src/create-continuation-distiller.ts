import {
  type AIClient,
  ATTRIBUTE_NAMES,
  appendDisclosureNotes,
  assertSize,
  type CompactionTelemetry,
  type ContinuationDistiller,
  type ContinuationDistillInput,
  createShouldStop,
  type DeadlineContext,
  disclosureNotes,
  disclosureNotesByteLength,
  InvalidArgumentError,
  noopTelemetry,
  SPAN_NAMES,
  startCallDeadline,
  truncateUtf8,
  utf8ByteLength,
} from '@compaction/core';
import { createStructuralTrimmer } from '@compaction/trimmer';
import type { LlmDebugRecorder } from './create-llm-debug-recorder.js';
import { createModelCaller } from './create-model-caller.js';
import { DistillDeadlineError } from './distill-deadline-error.js';
import { distillUserPrompt } from './distill-prompts.js';
import { MAX_NOTE_MODEL_BYTES, noteModel } from './distilled-view-bytes.js';
import type { FloorTrimmer } from './floor-trimmer.js';
import { wellFormedText } from './well-formed-text.js';

/** Settings of `createContinuationDistiller`. */
export interface ContinuationDistillerSettings {
  /** The model. Required. */
  client: AIClient;
  /** Model alias or name. Default `fast`. `COMPACTION_RESULT_DISTILL_MODEL`. */
  model?: string;
  /** Largest source the model is shown (structurally pre-filtered). Default 131072. `COMPACTION_RESULT_DISTILL_PREFILTER`. */
  prefilterBytes?: number;
  /** Wall-clock bound per summary in milliseconds; 0 disables. Default 45000. `COMPACTION_RESULT_DISTILL_DEADLINE`. */
  deadlineMs?: number;
  /** The pre-filter. Default `createStructuralTrimmer()`. */
  trimmer?: FloorTrimmer;
  /** Telemetry seam. Default `noopTelemetry`. */
  telemetry?: CompactionTelemetry;
  /** Records every call, described as `continuation summary`. Default none. */
  llmDebug?: LlmDebugRecorder;
  /** Monotonic clock in milliseconds. Default `performance.now`. */
  now?: () => number;
}

const SYSTEM = `You summarise a non-JSON tool result for a planner that decides the next step of an investigation. The planner never sees the result itself, only your summary.
- Say what the result is and how it is organised (sections, columns, fields, line formats) so the planner can refer to it.
- Copy identifiers, names, paths, timestamps, counts and error messages byte for byte; never round or reformat them.
- Lead with errors, failures and anything bearing on the user's request; then what else the result contains.
- Never invent content. Be brief.`;

/**
 * The continuation distiller (seed 002 §6.4) on a model: a short summary of one non-JSON step
 * for the planning section, from the structurally pre-filtered result, ending with the
 * `[distilled: …]` note. Rejects on any failure; the renderer then keeps the floor preview.
 */
export function createContinuationDistiller(
  settings: ContinuationDistillerSettings,
): ContinuationDistiller {
  if (!settings?.client)
    throw new InvalidArgumentError({ argument: 'client', message: 'client is required' });
  const model = settings.model ?? 'fast';
  const prefilterBytes = assertSize(settings.prefilterBytes ?? 131_072, 'prefilterBytes', {
    min: 1,
  });
  const deadlineMs = assertSize(settings.deadlineMs ?? 45_000, 'deadlineMs');
  const trimmer = settings.trimmer ?? createStructuralTrimmer();
  const telemetry = settings.telemetry ?? noopTelemetry;
  const now = settings.now ?? (() => performance.now());

  const summarise = async (
    input: ContinuationDistillInput,
    room: number,
    noteBy: (model: string | undefined) => string,
    bound: DeadlineContext,
  ): Promise<string> => {
    // Without a deadline the pre-filter still stops with the caller's signal.
    const shouldStop = bound.shouldStop ?? createShouldStop({ signal: bound.signal });
    const signal = bound.signal ?? new AbortController().signal;
    const source = trimmer.trim(input.result, prefilterBytes, {
      userQuery: input.userQuery,
      stepTask: input.stepTask,
      ...(shouldStop ? { shouldStop } : {}),
    }).text;
    (bound.deadline?.callerSignal ?? input.signal)?.throwIfAborted();
    if (shouldStop?.()) throw new DistillDeadlineError({ deadlineMs });
    const answer = await telemetry.withSpan(
      SPAN_NAMES.continuationDistill,
      { [ATTRIBUTE_NAMES.stepId]: input.stepId },
      (span) =>
        createModelCaller({
          client: settings.client,
          telemetry,
          llmDebug: settings.llmDebug,
          model,
          maxTokens: Math.max(64, Math.ceil(room / 3)),
          temperature: undefined,
          signal,
          deadlineHit: () => bound.deadline?.hit === true,
          span,
          now,
        }).call({
          system: `${SYSTEM}\n- Stay under about ${room} bytes.`,
          prompt: distillUserPrompt(source, {
            userQuery: input.userQuery,
            stepTask: input.stepTask,
          }),
          description: `continuation summary ${input.stepId}`,
        }),
    );
    const body = wellFormedText(answer.text).trim();
    if (body === '') return '';
    return appendDisclosureNotes(truncateUtf8(body, room), [noteBy(answer.model)]);
  };

  return {
    async distill(input) {
      const originalBytes = utf8ByteLength(input.result);
      // The note names the model that answered; room is kept for the longest name it can show.
      const noteBy = (model: string | undefined) =>
        disclosureNotes.distilled({ originalBytes, model: noteModel([model]) });
      const room =
        input.maxBytes - disclosureNotesByteLength([noteBy('m'.repeat(MAX_NOTE_MODEL_BYTES))]);
      if (room <= 0)
        throw new InvalidArgumentError({
          argument: 'maxBytes',
          message: 'maxBytes is too small for a summary',
        });
      // The deadline comes with the input when the renderer derived it, else it is derived here.
      // The pre-filter is synchronous: it sees the deadline through shouldStop, and a summary
      // whose pre-filter ran into it is not asked for (the floor preview stays).
      const within = startCallDeadline(
        { signal: input.signal, deadline: input.deadline },
        { deadlineMs, now, reason: () => new DistillDeadlineError({ deadlineMs }) },
      );
      try {
        return await summarise(input, room, noteBy, within.context);
      } finally {
        within.release();
      }
    },
  };
}
