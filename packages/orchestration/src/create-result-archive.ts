import type { ResultArchive } from '@compaction/core';
import type { SynthesisArtifacts } from './create-synthesis-artifacts.js';

/**
 * The `ResultArchive` of a session's artifact store: a full tool result is stored under its
 * tool call id and tool name, so it gets the very artifact id a processor's pointer names for
 * it, and resolves to `undefined` when it cannot be written (`storeStep` rejects only on an
 * abort). The caller's `contentDigest` is passed on, so the store does not hash the text again. With
 * `pointTo: 'file'` each stored result also gives its file's absolute path, which pointer lines
 * then name instead of `artifact_read`.
 */
export function createResultArchive(
  artifacts: SynthesisArtifacts,
  options: { pointTo?: 'artifact-tools' | 'file' } = {},
): ResultArchive {
  return {
    async archive({ toolCallId, toolName, text, contentDigest, signal }) {
      const { record } = await artifacts.storeStep(
        { id: toolCallId, status: 'succeeded', result: text, toolName },
        { ...(signal ? { signal } : {}), ...(contentDigest ? { contentDigest } : {}) },
      );
      if (!record) return undefined;
      return {
        artifactId: record.id,
        sha256: record.digest,
        bytes: record.bytes,
        ...(options.pointTo === 'file' ? { path: artifacts.store.pathOf(record.path) } : {}),
      };
    },
  };
}
