import { readdir, readFile, rename, stat, unlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { InvalidArgumentError } from '@compaction/core';
import { ARTIFACT_INDEX_FILE, parseIndexLines } from './artifact-index.js';
import { isSafeId } from './safe-id.js';
import { loadTranscript } from './session-transcript.js';

/** What to prune; at least one criterion. Nothing is pruned unless asked. */
export interface PruneOptions {
  /** Directory of `<session>.jsonl` transcripts and `<session>.artifacts/` stores. */
  root: string;
  /** Remove artifact files last modified more than this many milliseconds ago. */
  olderThanMs?: number;
  /** Then remove the oldest files until all stores together hold at most this many bytes. */
  maxBytes?: number;
  /**
   * Remove files no transcript names: every file of a store whose transcript is gone, files
   * the transcript's settle lines never name (a crash between write and settle), and temp files
   * older than an hour.
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

const TEMP_GRACE_MS = 3_600_000;

/**
 * The explicit clean-up an application may call; the library itself never deletes an artifact.
 * Touches only files inside `<session>.artifacts/` directories (never a transcript), and
 * rewrites each store's index without the removed files.
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
    if (!isSafeId(session)) continue;
    if (options.orphans) {
      const transcript = join(root, `${session}.jsonl`);
      const exists = (await stat(transcript).catch(() => undefined))?.isFile() ?? false;
      if (!exists) named.set(session, null);
      else {
        const files = new Set<string>();
        for (const record of await loadTranscript(transcript, { signal: options.signal })) {
          if (record.type === 'tool_settled' && record.artifact) files.add(record.artifact.file);
        }
        named.set(session, files);
      }
    }
    for (const file of await readdir(join(root, entry.name))) {
      if (file === ARTIFACT_INDEX_FILE) continue;
      const info = await stat(join(root, entry.name, file)).catch(() => undefined);
      if (!info?.isFile()) continue;
      candidates.push({
        session,
        file,
        bytes: info.size,
        mtimeMs: info.mtimeMs,
        temp: file.startsWith('.') && file.endsWith('.tmp'),
      });
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
      const orphan = candidate.temp
        ? now - candidate.mtimeMs > TEMP_GRACE_MS
        : files === null || (files !== undefined && !files.has(candidate.file));
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
    const files = touched.get(candidate.session) ?? new Set<string>();
    files.add(candidate.file);
    touched.set(candidate.session, files);
  }
  for (const [session, files] of touched) {
    const indexPath = join(root, `${session}.artifacts`, ARTIFACT_INDEX_FILE);
    const text = await readFile(indexPath, 'utf8').catch(() => undefined);
    if (text === undefined) continue;
    const kept = parseIndexLines(text).filter((record) => !files.has(record.path));
    const temp = `${indexPath}.${process.pid}.tmp`;
    await writeFile(temp, kept.map((record) => `${JSON.stringify(record)}\n`).join(''));
    await rename(temp, indexPath);
  }
  return { removed, keptBytes };
}
