import { dirname } from 'node:path';
import {
  type ArtifactRecord,
  type ArtifactStore,
  type ArtifactToolHandler,
  artifactDirFor,
  artifactNotStoredLine,
  artifactPointerLine,
  createArtifactLibrary,
  createArtifactStore,
  createArtifactToolHandler,
  recordStoredArtifact,
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
   * every front end prints), or the not-stored line when it could not be stored (never throws:
   * the compaction goes on without it).
   */
  storeStep(
    step: StepRecord,
    options?: { requestId?: string; signal?: AbortSignal },
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
      try {
        const stored = await store.store(opId, result, { signal: options.signal });
        const record = await recordStoredArtifact({
          index: store.index,
          sessionId,
          stored,
          toolCallId: opId,
          ...(step.toolName ? { toolName: step.toolName } : {}),
          title: step.task ?? step.toolName ?? step.id,
          preview: result.slice(0, 2000),
          ...(settings.clock ? { clock: settings.clock } : {}),
          signal: options.signal,
        });
        return { record, line: artifactPointerLine(record) };
      } catch (error) {
        const reason = error instanceof Error ? error.message.split('\n')[0]! : String(error);
        return { line: artifactNotStoredLine(`write failed: ${reason}`) };
      }
    },
  };
}
