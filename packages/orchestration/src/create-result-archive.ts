import type { ResultArchive } from '@compaction/core';
import type { SynthesisArtifacts } from './create-synthesis-artifacts.js';

/**
 * The `ResultArchive` of a session's artifact store: a full tool result is stored under its
 * tool call id and tool name, so it gets the very artifact id a processor's pointer names for
 * it, and resolves to `undefined` when it cannot be written (`storeStep` never throws).
 */
export function createResultArchive(artifacts: SynthesisArtifacts): ResultArchive {
  return {
    async archive({ toolCallId, toolName, text, signal }) {
      const { record } = await artifacts.storeStep(
        { id: toolCallId, status: 'succeeded', result: text, toolName },
        signal ? { signal } : {},
      );
      return record
        ? { artifactId: record.id, sha256: record.digest, bytes: record.bytes }
        : undefined;
    },
  };
}
