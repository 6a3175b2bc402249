import { dirname } from 'node:path';
import {
  type ArtifactRecord,
  type ArtifactStore,
  type ArtifactToolHandler,
  artifactDirFor,
  createArtifactLibrary,
  createArtifactStore,
  createArtifactToolHandler,
  storeWithPointer,
} from '@compaction/artifacts';
import { transcriptStem } from '@compaction/artifacts/internal';
import type { StepRecord } from '@compaction/core';
import { requireTranscriptPath } from './require-transcript-path.js';

/** Full results of a session stored beside its transcript, and the tools that read them back. */
export interface SynthesisArtifacts {
  /** The session id (the transcript's file name without its extension). */
  readonly sessionId: string;
  /** `<transcript-stem>.artifacts/` beside the transcript. */
  readonly dir: string;
  readonly store: ArtifactStore;
  /** `artifact_read` / `artifact_search` handlers scoped to this session. */
  readonly tools: ArtifactToolHandler;
  /**
   * Stores a step's full result and returns its pointer line (`artifactPointerLine`, the one
   * every front end prints), or the not-stored line with the reason when it could not be stored
   * or indexed (`storeWithPointer`'s rule: the compaction goes on without it). Rejects only with
   * the signal's reason when `signal` aborts. `contentDigest`: the result's SHA-256 when the
   * caller already has it, so the store does not hash it again.
   */
  storeStep(
    step: StepRecord,
    options?: { requestId?: string; signal?: AbortSignal; contentDigest?: string },
  ): Promise<{
    line: string;
    record?: ArtifactRecord;
  }>;
}

/** Creates the session's artifact store for the synthesis path. */
export function createSynthesisArtifacts(settings: {
  transcriptPath: string;
  clock?: () => number;
}): SynthesisArtifacts {
  const transcriptPath = requireTranscriptPath(
    settings?.transcriptPath,
    'createSynthesisArtifacts',
  );
  const sessionId = transcriptStem(transcriptPath);
  const dir = artifactDirFor(transcriptPath);
  const store = createArtifactStore({ transcriptPath });
  const library = createArtifactLibrary({ root: dirname(transcriptPath) });
  const tools = createArtifactToolHandler({ library, sessionId });
  return {
    sessionId,
    dir,
    store,
    tools,
    async storeStep(step, options = {}) {
      const result = step.result ?? '';
      const opId = [options.requestId, step.id].filter(Boolean).join('-');
      const outcome = await storeWithPointer({
        store,
        opId,
        content: result,
        record: {
          sessionId,
          toolCallId: opId,
          ...(step.toolName ? { toolName: step.toolName } : {}),
          title: step.task ?? step.toolName ?? step.id,
          preview: result.slice(0, 2000),
          ...(settings.clock ? { clock: settings.clock } : {}),
        },
        ...(options.contentDigest ? { contentDigest: options.contentDigest } : {}),
        ...(options.signal ? { signal: options.signal } : {}),
      });
      return outcome.record
        ? { record: outcome.record, line: outcome.line }
        : { line: outcome.line };
    },
  };
}
