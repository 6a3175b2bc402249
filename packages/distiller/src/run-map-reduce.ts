import {
  ATTRIBUTE_NAMES,
  type CombineTruncatedReason,
  countTokensForLimit,
  disclosureNotes,
  EVENT_NAMES,
  type ReduceSkippedReason,
  type ResultTrimMetadata,
  utf8ByteLength,
} from '@compaction/core';
import pLimit from 'p-limit';
import { chunkResult } from './chunk-result.js';
import { distillUserPrompt, reduceSystemPrompt, reduceUserPrompt } from './distill-prompts.js';
import type { DistillOutcome, DistillRun } from './distill-run.js';
import { failedSegmentsReason, noteModel } from './distilled-view-bytes.js';
import { fitDistilledText } from './fit-distilled-text.js';

function combineExtracts(
  extracts: ReadonlyArray<{ index: number; text: string }>,
  total: number,
): string {
  return extracts
    .map((extract) => `[segment ${extract.index} of ${total}]\n${extract.text}`)
    .join('\n\n');
}

/**
 * Map-reduce distillation (seed 002 §5.2): split into segments of at most `run.sourceBytes` (the
 * pre-filter budget, or less when the model's context is smaller), distil them `mapConcurrency` at a time, then reduce the extracts in one more call.
 * Segments that fail or miss the deadline are skipped and disclosed with `[partial: …]`; when
 * the reduce cannot run (failure, empty answer, deadline, or extracts too large for the
 * context) the extracts themselves are the view, with `[findings unreduced: …]`, or cut with
 * `[findings truncated: …]` if they exceed the budget; `reduceSkippedReason` says why either way.
 * Only an `over_context` view is cacheable: it would come out the same on every run.
 */
export async function runMapReduce(run: DistillRun): Promise<DistillOutcome> {
  const { settings, signal, span, context } = run;
  const { chunks, strategy } = chunkResult(run.result, { maxChunkBytes: run.sourceBytes });
  const total = chunks.length;
  const extracts: Array<string | undefined> = new Array(total);
  const models: Array<string | undefined> = new Array(total);
  let completed = 0;
  let failed = 0;
  const limit = pLimit(settings.mapConcurrency);

  await Promise.all(
    chunks.map((chunk, position) =>
      limit(async () => {
        // Queued segments still start after the deadline; they must return at once.
        if (signal.aborted) return;
        try {
          const answer = await run.call({
            system: run.distillSystem,
            prompt: distillUserPrompt(chunk, context, { index: position + 1, total }),
            description: `map-reduce chunk ${position + 1}/${total}`,
          });
          const text = answer.text.trim();
          if (text === '') throw new Error('empty extract');
          extracts[position] = text;
          models[position] = answer.model;
          completed++;
        } catch {
          failed++;
        }
        run.onProgress?.({ total, completed, failed });
      }),
    ),
  );

  const finished = extracts.flatMap((text, position) =>
    text === undefined ? [] : [{ index: position + 1, text }],
  );
  const analyzedBytes = chunks.reduce(
    (sum, chunk, position) => sum + (extracts[position] === undefined ? 0 : utf8ByteLength(chunk)),
    0,
  );
  const chunkBytes = chunks.reduce((sum, chunk) => sum + utf8ByteLength(chunk), 0);

  const report = (combinedBytes: number, reason?: CombineTruncatedReason) =>
    span.addEvent(EVENT_NAMES.mapReduceComplete, {
      [ATTRIBUTE_NAMES.chunksTotal]: total,
      [ATTRIBUTE_NAMES.chunksCompleted]: finished.length,
      [ATTRIBUTE_NAMES.combinedBytes]: combinedBytes,
      [ATTRIBUTE_NAMES.llmInputBytes]: run.llmInputBytes,
      [ATTRIBUTE_NAMES.chunkStrategy]: strategy,
      [ATTRIBUTE_NAMES.combineTruncatedReason]: reason,
    });

  if (finished.length === 0) {
    report(0);
    return { processed: run.floor(), cacheable: false, fellBack: true };
  }

  const partial = finished.length < total;
  const coverageNotes = partial
    ? [
        disclosureNotes.partial({
          analyzed: finished.length,
          total,
          reason: run.deadline.hit
            ? 'the compaction deadline was reached'
            : failedSegmentsReason(total - finished.length),
        }),
      ]
    : [];

  const combined = combineExtracts(finished, total);
  const combinedBytes = utf8ByteLength(combined);
  let body: string | undefined;
  // The note names the model that wrote the view: the reduce's, else the segments'.
  let writers: Array<string | undefined> = models;
  let reduceProblem: ReduceSkippedReason | undefined;
  if (total === 1) {
    body = finished[0]!.text;
  } else if (signal.aborted) {
    // Only the deadline aborts here: a caller's abort rejects the whole compaction.
    reduceProblem = run.deadline.hit ? 'deadline' : 'reduce_failed';
  } else if (
    countTokensForLimit(run.tokenCounter, combined, combinedBytes, settings.contextTokens) >
    settings.contextTokens
  ) {
    reduceProblem = 'over_context';
  } else {
    try {
      const answer = await run.call({
        system: reduceSystemPrompt(run.summaryBytes),
        prompt: reduceUserPrompt(finished, total, context),
        description: 'map-reduce reduce',
      });
      body = answer.text.trim() || undefined;
      if (body === undefined) reduceProblem = 'reduce_failed';
      else writers = [answer.model];
    } catch {
      reduceProblem = run.deadline.hit ? 'deadline' : 'reduce_failed';
    }
  }
  // The `[findings truncated: …]` note and `combineTruncatedReason` keep seed 002's two reasons:
  // a reduce the deadline stopped is a failed one there.
  const truncatedReason: CombineTruncatedReason =
    reduceProblem === 'over_context' ? 'over_context' : 'reduce_failed';

  const notes = [
    disclosureNotes.distilled({ originalBytes: run.originalBytes, model: noteModel(writers) }),
    ...coverageNotes,
  ];
  let fitted: ReturnType<typeof fitDistilledText>;
  let combineTruncated = false;
  if (body !== undefined) {
    fitted = fitDistilledText(body, notes, run.maxBytes);
  } else {
    // Unreduced extracts never pass for a summary: whole, they say so with `[findings
    // unreduced: …]`; cut, `[findings truncated: …]` says so with its reason in that note's place.
    fitted = fitDistilledText(
      combined,
      notes,
      run.maxBytes,
      (keptBytes) =>
        disclosureNotes.findingsTruncated({ reason: truncatedReason, budgetBytes: keptBytes }),
      disclosureNotes.findingsUnreduced({ extracts: finished.length, reason: reduceProblem! }),
    );
    combineTruncated = fitted?.cut ?? false;
  }
  report(combinedBytes, combineTruncated ? truncatedReason : undefined);
  if (!fitted) return { processed: run.floor(), cacheable: false, fellBack: true };

  const metadata: ResultTrimMetadata = {
    contentLost: true,
    originalBytes: run.originalBytes,
    outputBytes: utf8ByteLength(fitted.text),
    strategy: 'map-reduce',
    sourceCoverageRatio: chunkBytes > 0 ? Math.min(1, analyzedBytes / chunkBytes) : 1,
    llmInputBytes: run.llmInputBytes,
    segmentsAnalyzed: finished.length,
    segmentsTotal: total,
    partialCoverage: partial,
    combineTruncated,
    ...(combineTruncated ? { combineTruncatedReason: truncatedReason } : {}),
    ...(reduceProblem ? { reduceSkippedReason: reduceProblem } : {}),
    chunkStrategy: strategy,
  };
  return {
    processed: { text: fitted.text, metadata },
    // A failed or stopped reduce may succeed next time; only over_context is deterministic.
    cacheable: !partial && (reduceProblem === undefined || reduceProblem === 'over_context'),
    fellBack: false,
  };
}
