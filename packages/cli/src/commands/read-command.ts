import { dirname, resolve } from 'node:path';
import { createArtifactLibrary, transcriptStem } from '@compaction/artifacts';
import type { CliCommand } from '../cli-command.js';
import { parseCommandArgs, parseIntegerFlag } from '../parse-command-args.js';
import { UsageError } from '../usage-error.js';

/** `compaction read`: one page of a stored artifact. */
export const readCommand: CliCommand = {
  name: 'read',
  summary: 'print a page of a stored artifact, by lines or chars',
  help: `Usage: compaction read ID --session TRANSCRIPT [--offset N] [--limit N] [--chars]

Prints lines [offset, offset+limit) of artifact ID from the store beside TRANSCRIPT, exactly
as stored. The next offset (or "end") is reported on standard error.

Options:
  --session PATH   the session transcript whose store holds ID (required)
  --offset N       first line (0-based) or char; default 0
  --limit N        lines (default 200, max 1000) or chars (default 20000, max 100000)
  --chars          count offset and limit in chars (UTF-16 code units) instead of lines
  --json           print the page as {"id", "unit", "offset", "count", "text", "nextOffset", …}
  -h, --help       show this help

Examples:
  compaction read art_3f9c0d1e2a4b5c6d7e8f9a0b --session runs/run-1.jsonl --offset 200
  compaction read art_3f9c0d1e2a4b5c6d7e8f9a0b --session runs/run-1.jsonl --json | jq .nextOffset`,
  async run(args, io) {
    const { values, positionals } = parseCommandArgs(args, {
      session: { type: 'string' },
      offset: { type: 'string' },
      limit: { type: 'string' },
      chars: { type: 'boolean' },
      json: { type: 'boolean' },
    });
    const [id, extra] = positionals;
    if (id === undefined) throw new UsageError('ID is required');
    if (extra !== undefined) throw new UsageError(`unexpected argument: ${extra}`);
    const session = values.session as string | undefined;
    if (session === undefined) throw new UsageError('--session TRANSCRIPT is required');
    const transcriptPath = resolve(io.cwd, session);
    const library = createArtifactLibrary({ root: dirname(transcriptPath) });
    const page = await library.readPage(id, {
      sessionId: transcriptStem(transcriptPath),
      offset: parseIntegerFlag('offset', values.offset as string | undefined, 0),
      limit: parseIntegerFlag('limit', values.limit as string | undefined),
      unit: values.chars ? 'chars' : 'lines',
    });
    if (values.json) {
      io.stdout.write(`${JSON.stringify(page)}\n`);
      return 0;
    }
    io.stdout.write(page.text);
    io.stderr.write(page.nextOffset === null ? 'end\n' : `next offset ${page.nextOffset}\n`);
    return 0;
  },
};
