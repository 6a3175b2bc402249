import {
  type AICompletion,
  ATTRIBUTE_NAMES,
  disclosureNotes,
  EVENT_NAMES,
  type ResultTrimMetadata,
  stripDisclosureNotes,
  utf8ByteLength,
} from '@compaction/core';
import { distillUserPrompt } from './distill-prompts.js';
import type { DistillOutcome, DistillRun } from './distill-run.js';
import { noteModel } from './distilled-view-bytes.js';
import { fitDistilledText } from './fit-distilled-text.js';

/**
 * The two-stage single call (seed 002 §5.1): Stage 1 trims the result to the pre-filter budget
 * (`run.sourceBytes`: less when the model's context is smaller) with the structural trimmer (disclosed with `[partial source: …]` when it dropped content),
 * Stage 2 asks the model for a summary. Any failure returns the floor.
 */
export async function runSingleCall(run: DistillRun): Promise<DistillOutcome> {
  const { result, originalBytes, span } = run;
  let llmSource = result;
  let coverage = 1;
  let partial = false;
  if (originalBytes > run.sourceBytes) {
    const stage1 = run.trimmer.trim(run.result, run.sourceBytes, run.context);
    llmSource = stage1.text;
    if (stage1.metadata.contentLost) {
      partial = true;
      coverage =
        stage1.metadata.keptRatio ??
        Math.min(1, utf8ByteLength(stripDisclosureNotes(stage1)) / originalBytes);
    }
  }
  span.addEvent(EVENT_NAMES.stage1Complete, {
    [ATTRIBUTE_NAMES.originalBytes]: originalBytes,
    [ATTRIBUTE_NAMES.prefilteredBytes]: utf8ByteLength(llmSource),
  });
  // Stage 1 ran into the deadline (or the caller stopped it): no time is left for a model call.
  if (run.context.shouldStop?.()) {
    return { processed: run.floor(true), cacheable: false, fellBack: true };
  }

  let completion: AICompletion;
  try {
    completion = await run.call({
      system: run.distillSystem,
      prompt: distillUserPrompt(llmSource, run.context),
      description: 'single-call distill',
    });
  } catch {
    return { processed: run.floor(), cacheable: false, fellBack: true };
  }
  const body = completion.text.trim();
  span.addEvent(EVENT_NAMES.stage2Complete, {
    [ATTRIBUTE_NAMES.distilledBytes]: utf8ByteLength(body),
    [ATTRIBUTE_NAMES.genAiUsageInputTokens]: completion.usage?.inputTokens,
    [ATTRIBUTE_NAMES.genAiUsageOutputTokens]: completion.usage?.outputTokens,
  });
  // A summary is never the whole result, so it always says what it is.
  const notes = [
    disclosureNotes.distilled({ originalBytes, model: noteModel([completion.model]) }),
    ...(partial ? [disclosureNotes.partialSource({ coverageRatio: coverage })] : []),
  ];
  const fitted = body === '' ? undefined : fitDistilledText(body, notes, run.maxBytes);
  if (!fitted) return { processed: run.floor(), cacheable: false, fellBack: true };
  const metadata: ResultTrimMetadata = {
    contentLost: true,
    originalBytes,
    outputBytes: utf8ByteLength(fitted.text),
    strategy: 'distilled',
    sourceCoverageRatio: coverage,
    llmInputBytes: run.llmInputBytes,
    partialCoverage: partial,
  };
  return { processed: { text: fitted.text, metadata }, cacheable: true, fellBack: false };
}
