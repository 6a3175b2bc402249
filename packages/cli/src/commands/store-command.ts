import { resolve } from 'node:path';
import {
  ArtifactError,
  type ArtifactRecord,
  createArtifactStore,
  recordStoredArtifact,
} from '@compaction/artifacts/storage';
import type { CliCommand } from '../cli-command.js';
import { parseCommandArgs } from '../parse-command-args.js';
import { countingStream, progressLine } from '../progress-line.js';
import { UsageError } from '../usage-error.js';
import { cliOperationId, inputStream } from './excerpt-command.js';

/** `compaction store`: writes a result beside a session transcript and indexes it. */
export const storeCommand: CliCommand = {
  name: 'store',
  summary: 'store a result in <transcript-stem>.artifacts/ beside a session and index it',
  help: `Usage: compaction store --session TRANSCRIPT [--id OPID] [--tool NAME] [FILE|-]

Streams the input to <transcript-stem>.artifacts/<OPID>-<first 16 hex of its SHA-256>.txt (temp file, then
a new name: an earlier result stored under the same OPID is never replaced), adds it to the
store's index and prints {"id", "file", "digest", "bytes", "chars", "lines"} as JSON. Read it
back with 'compaction read ID --session TRANSCRIPT' (the id, the file name or the OPID). When
the index entry cannot be written (a full disk, a read-only index), nothing is printed, the exit
status is 1 and the message names the stored file, which reads back by that name.
On a terminal, the bytes stored so far are shown on standard error.

Options:
  --session PATH   the session transcript to store beside (required)
  --id OPID        operation id, any text (default: a fresh cli-… id)
  --tool NAME      tool name for the index (also decides the kind: terminal → terminal_log, …)
  -h, --help       show this help

Examples:
  compaction store --session runs/run-1.jsonl --id call_17 --tool terminal build.log
  curl -s https://example.org/big.json | compaction store --session runs/run-1.jsonl -`,
  async run(args, io) {
    const { values, positionals } = parseCommandArgs(args, {
      session: { type: 'string' },
      id: { type: 'string' },
      tool: { type: 'string' },
    });
    if (positionals.length > 1) throw new UsageError(`unexpected argument: ${positionals[1]}`);
    const session = values.session as string | undefined;
    if (session === undefined) throw new UsageError('--session TRANSCRIPT is required');
    const store = createArtifactStore({
      transcriptPath: resolve(io.cwd, session),
      ...(io.fileSystem ? { fileSystem: io.fileSystem } : {}),
    });
    const opId = (values.id as string | undefined) ?? cliOperationId();
    const progress = progressLine(io);
    const source = countingStream(inputStream(positionals[0], io), progress, 'storing');
    const result = await store.storeStream(opId, source, { budgetChars: 400 });
    if (!result.stored) throw result.failure ?? new Error('the result was not stored');
    const tool = values.tool as string | undefined;
    let record: ArtifactRecord;
    try {
      record = await recordStoredArtifact({
        index: store.index,
        sessionId: store.sessionId,
        stored: result.stored,
        toolCallId: opId,
        ...(tool ? { toolName: tool } : {}),
        preview: result.excerpt.head,
      });
    } catch (error) {
      // No id is printed that would not resolve; the bytes are there under their file name.
      const { file } = result.stored;
      throw new ArtifactError({
        code: 'artifact_store_failed',
        message: `stored ${file} but could not record it in the index, so it has no artifact id: ${(error as Error).message ?? String(error)}; read it back by its file name: compaction read ${file} --session ${session}`,
        subject: file,
        cause: error,
      });
    }
    io.stdout.write(`${JSON.stringify({ id: record.id, ...result.stored })}\n`);
    return 0;
  },
};
