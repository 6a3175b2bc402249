import { createReadStream } from 'node:fs';
import { resolve } from 'node:path';
import { transcriptStem } from '@compaction/artifacts/internal';
import {
  createArtifactStore,
  excerptStream,
  recordStoredArtifact,
} from '@compaction/artifacts/storage';
import type { CliCommand } from '../cli-command.js';
import type { CliIo } from '../cli-io.js';
import { parseCommandArgs, parseIntegerFlag } from '../parse-command-args.js';
import { UsageError } from '../usage-error.js';

/** The input as a byte stream: FILE, or standard input for `-` (or nothing when piped). */
export function inputStream(
  path: string | undefined,
  io: CliIo,
): AsyncIterable<string | Uint8Array> {
  if (path !== undefined && path !== '-') return createReadStream(resolve(io.cwd, path));
  if (path === undefined && io.stdin.isTTY) {
    throw new UsageError('no input: give a FILE argument or pipe data on standard input (-)');
  }
  return io.stdin;
}

/** A fresh operation id for a result stored from the command line. */
export function cliOperationId(): string {
  return `cli-${Date.now().toString(36)}-${Math.random().toString(36).slice(2, 8)}`;
}

/** `compaction excerpt`: the head/tail excerpt of any input; stores the full bytes with --session. */
export const excerptCommand: CliCommand = {
  name: 'excerpt',
  summary: 'cut a result to a budget of chars with a head/tail excerpt; store it beside a session',
  help: `Usage: compaction excerpt --budget CHARS [--max-bytes N] [--session TRANSCRIPT] [--id OPID] [--tool NAME] [--json] [FILE|-]

Prints the first 3/4 and the last 1/4 of the input that fit in CHARS characters (grapheme
clusters), with one marker line between them giving the elided chars, the total bytes and the
SHA-256. The input is streamed, so it may be larger than memory. With --session, the full bytes
are written to <transcript-stem>.artifacts/<OPID>-<first 16 hex of its SHA-256>.txt beside
TRANSCRIPT (OPID with characters other than letters, digits, '_', '.' and '-' as '_') and
indexed, and the marker names that file; without it, the marker says the full result was not
stored. When the file or its index entry cannot be written (a full disk, a read-only store), the
excerpt is still printed, its marker says the full result was not stored, and a warning on
standard error says why (exit status 0).

Options:
  --budget CHARS      the excerpt's size in chars, marker included (required)
  --max-bytes N       also keep the excerpt within N UTF-8 bytes, marker included
  --session PATH      the session transcript to store beside
  --id OPID           operation id naming the stored file (default: a fresh cli-… id)
  --tool NAME         tool name for the index
  --json              print {"text", "contentLost", "stored", "artifact"} instead of the text
  -h, --help          show this help

Examples:
  kubectl logs big-pod | compaction excerpt --budget 4000
  compaction excerpt --budget 16384 --session runs/run-1.jsonl --id call_17 build.log`,
  async run(args, io) {
    const { values, positionals } = parseCommandArgs(args, {
      budget: { type: 'string' },
      'max-bytes': { type: 'string' },
      session: { type: 'string' },
      id: { type: 'string' },
      tool: { type: 'string' },
      json: { type: 'boolean' },
    });
    if (positionals.length > 1) throw new UsageError(`unexpected argument: ${positionals[1]}`);
    const budgetChars = parseIntegerFlag('budget', values.budget as string | undefined);
    if (budgetChars === undefined) throw new UsageError('--budget CHARS is required');
    const maxBytes = parseIntegerFlag('max-bytes', values['max-bytes'] as string | undefined);
    const limits = maxBytes === undefined ? { budgetChars } : { budgetChars, maxBytes };
    const source = inputStream(positionals[0], io);
    const session = values.session as string | undefined;
    let result: Awaited<ReturnType<typeof excerptStream>>;
    let artifact: unknown = null;
    if (session === undefined) {
      result = await excerptStream(source, limits);
    } else {
      const transcriptPath = resolve(io.cwd, session);
      const store = createArtifactStore({
        transcriptPath,
        ...(io.fileSystem ? { fileSystem: io.fileSystem } : {}),
      });
      const opId = (values.id as string | undefined) ?? cliOperationId();
      const toolName = values.tool as string | undefined;
      // Fails open: when the file or its index record cannot be written, the excerpt says the
      // full result was not stored, and a warning says why.
      result = await store.storeStream(opId, source, {
        ...limits,
        record: (stored, preview) =>
          recordStoredArtifact({
            index: store.index,
            sessionId: transcriptStem(transcriptPath),
            stored,
            toolCallId: opId,
            ...(toolName ? { toolName } : {}),
            preview,
          }),
      });
      if (result.failure)
        io.stderr.write(`warning: the full result was not stored: ${result.failure.message}\n`);
      artifact = result.artifact ?? null;
    }
    if (values.json) {
      io.stdout.write(
        `${JSON.stringify({ text: result.excerpt.text, contentLost: result.excerpt.contentLost, stored: result.stored ?? null, artifact }, null, 2)}\n`,
      );
    } else io.stdout.write(result.excerpt.text);
    return 0;
  },
};
