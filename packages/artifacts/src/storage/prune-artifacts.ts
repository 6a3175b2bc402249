import { lstat, readdir, unlink } from 'node:fs/promises';
import { join } from 'node:path';
import { InvalidArgumentError } from '@compaction/core';
import { loadTranscript } from '../transcript/session-transcript.js';
import { ARTIFACT_INDEX_FILE, createArtifactIndex } from './artifact-index.js';
import { MODEL_CALLS_FILE } from './model-call-log.js';

/** What to prune; at least one criterion. Nothing is pruned unless asked. */
export interface PruneOptions {
  /** Directory of `<session>.jsonl` transcripts and `<session>.artifacts/` stores. */
  root: string;
  /** Remove artifact files last modified more than this many milliseconds ago. */
  olderThanMs?: number;
  /** Then remove the oldest files until all stores together hold at most this many bytes. */
  maxBytes?: number;
  /**
   * Remove files nothing names, once older than an hour (younger ones may be a settle in
   * progress): files that neither an index record of their store nor a settle line of its
   * transcript (`<session>.jsonl` beside the store) names (a crash between the write and the
   * index append), and temp files. A store whose transcript cannot
   * be read, or holds a line that loading skips (torn), loses no orphans. A file an index record names is never an orphan, with or without a
   * transcript (the CLI, the processor path and tool loops write no transcript).
   */
  orphans?: boolean;
  /** Report what would go without removing anything. Default false. */
  dryRun?: boolean;
  /** Milliseconds since the epoch. Default `Date.now`. */
  clock?: () => number;
  signal?: AbortSignal;
}

/** One removed (or, in a dry run, removable) file. */
export interface PrunedFile {
  /** `<session>.artifacts/<file>`, relative to the root. */
  path: string;
  bytes: number;
  reason: 'orphan' | 'age' | 'size';
}

/** What `pruneArtifacts` did. */
export interface PruneReport {
  removed: PrunedFile[];
  /** Bytes of artifact files left. */
  keptBytes: number;
}

interface Candidate {
  session: string;
  file: string;
  bytes: number;
  mtimeMs: number;
  temp: boolean;
}

/** A file nothing names is an orphan only once it is older than this. */
const ORPHAN_GRACE_MS = 3_600_000;

/**
 * The explicit clean-up an application may call; the library itself never deletes an artifact.
 * Touches only regular files inside `<session>.artifacts/` directories (never a transcript, a
 * symbolic link or the index), and appends a removal line to each store's index for the files
 * it removed, so the index is never rewritten under a concurrent writer.
 */
export async function pruneArtifacts(options: PruneOptions): Promise<PruneReport> {
  const { root } = options;
  if (options.olderThanMs === undefined && options.maxBytes === undefined && !options.orphans) {
    throw new InvalidArgumentError({
      argument: 'options',
      message:
        'pruneArtifacts needs olderThanMs, maxBytes or orphans: nothing is pruned by default',
    });
  }
  for (const [name, value] of [
    ['olderThanMs', options.olderThanMs],
    ['maxBytes', options.maxBytes],
  ] as const) {
    if (value !== undefined && (!Number.isFinite(value) || value < 0)) {
      throw new InvalidArgumentError({
        argument: name,
        message: `${name} must be a non-negative number`,
      });
    }
  }
  const now = (options.clock ?? Date.now)();
  const candidates: Candidate[] = [];
  const named = new Map<string, Set<string> | null>();
  for (const entry of await readdir(root, { withFileTypes: true })) {
    options.signal?.throwIfAborted();
    if (!entry.isDirectory() || !entry.name.endsWith('.artifacts')) continue;
    const session = entry.name.slice(0, -'.artifacts'.length);
    if (!session) continue;
    const dir = join(root, entry.name);
    // The files first, then what names them: a file linked after the listing is not seen, and
    // one linked before it has its index record appended before the index is read, or is
    // younger than the grace period.
    for (const file of await readdir(dir)) {
      if (file === ARTIFACT_INDEX_FILE || file === MODEL_CALLS_FILE) continue;
      const info = await lstat(join(dir, file)).catch(() => undefined);
      if (!info?.isFile()) continue;
      candidates.push({
        session,
        file,
        bytes: info.size,
        mtimeMs: info.mtimeMs,
        temp: file.startsWith('.') && file.endsWith('.tmp'),
      });
    }
    if (options.orphans) {
      const files = new Set<string>();
      try {
        for (const record of await createArtifactIndex({ dir }).list({ signal: options.signal }))
          files.add(record.path);
        let skipped = false;
        for (const record of await loadTranscript(join(root, `${session}.jsonl`), {
          signal: options.signal,
          onWarning: () => {
            skipped = true;
          },
        })) {
          if (record.type === 'tool_settled' && record.artifact) files.add(record.artifact.file);
        }
        // A line loading skipped may have named any of the files.
        named.set(session, skipped ? null : files);
      } catch {
        // An index or transcript that cannot be read: nothing here is known to be an orphan.
        named.set(session, null);
      }
    }
  }

  const removed: PrunedFile[] = [];
  const gone = new Set<Candidate>();
  const take = (candidate: Candidate, reason: PrunedFile['reason']) => {
    gone.add(candidate);
    removed.push({
      path: `${candidate.session}.artifacts/${candidate.file}`,
      bytes: candidate.bytes,
      reason,
    });
  };
  for (const candidate of candidates) {
    if (options.orphans) {
      const files = named.get(candidate.session);
      // A file written within the grace period may be a settle in progress (its index record
      // a moment away), never a crash's leftover.
      const orphan =
        now - candidate.mtimeMs > ORPHAN_GRACE_MS &&
        (candidate.temp || (files !== null && files !== undefined && !files.has(candidate.file)));
      if (orphan) {
        take(candidate, 'orphan');
        continue;
      }
    }
    if (
      !candidate.temp &&
      options.olderThanMs !== undefined &&
      now - candidate.mtimeMs > options.olderThanMs
    ) {
      take(candidate, 'age');
    }
  }
  let keptBytes = candidates.filter((c) => !gone.has(c)).reduce((sum, c) => sum + c.bytes, 0);
  if (options.maxBytes !== undefined && keptBytes > options.maxBytes) {
    const oldestFirst = candidates
      .filter((c) => !gone.has(c) && !c.temp)
      .sort((a, b) => a.mtimeMs - b.mtimeMs);
    for (const candidate of oldestFirst) {
      if (keptBytes <= options.maxBytes) break;
      take(candidate, 'size');
      keptBytes -= candidate.bytes;
    }
  }
  if (options.dryRun) return { removed, keptBytes };

  const touched = new Map<string, Set<string>>();
  for (const candidate of gone) {
    options.signal?.throwIfAborted();
    await unlink(join(root, `${candidate.session}.artifacts`, candidate.file)).catch(
      (error: NodeJS.ErrnoException) => {
        if (error.code !== 'ENOENT') throw error;
      },
    );
    if (candidate.temp) continue;
    const files = touched.get(candidate.session) ?? new Set<string>();
    files.add(candidate.file);
    touched.set(candidate.session, files);
  }
  for (const [session, files] of touched) {
    await createArtifactIndex({ dir: join(root, `${session}.artifacts`) }).remove([...files], {
      ...(options.signal ? { signal: options.signal } : {}),
      ...(options.clock ? { clock: options.clock } : {}),
    });
  }
  return { removed, keptBytes };
}
