import { dirname, resolve } from 'node:path';
import { storeSessionId } from '@compaction/artifacts/internal';
import { type ArtifactLibrary, createArtifactLibrary } from '@compaction/artifacts/reading';
import { artifactDirFor } from '@compaction/artifacts/storage';
import type { CliIo } from './cli-io.js';
import { UsageError } from './usage-error.js';

/** The library a command reads artifacts from, and the one session it is held to, if any. */
export interface ArtifactScope {
  library: ArtifactLibrary;
  /** Set with --session: only that session's store is searched for a reference. */
  sessionId: string | undefined;
}

/**
 * `--session TRANSCRIPT` (that session's store) or `--dir DIR` (every session under DIR):
 * exactly one of them, as `read` and `search` take it.
 */
export function artifactScope(
  values: { session?: unknown; dir?: unknown },
  io: CliIo,
): ArtifactScope {
  const session = values.session as string | undefined;
  const dir = values.dir as string | undefined;
  if ((session === undefined) === (dir === undefined))
    throw new UsageError('give --session TRANSCRIPT or --dir DIR');
  const transcriptPath = session === undefined ? undefined : resolve(io.cwd, session);
  return {
    library: createArtifactLibrary({
      root: transcriptPath ? dirname(transcriptPath) : resolve(io.cwd, dir!),
    }),
    sessionId: transcriptPath ? storeSessionId(artifactDirFor(transcriptPath)) : undefined,
  };
}
