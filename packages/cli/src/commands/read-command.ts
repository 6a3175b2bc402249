import { formatArtifactPage } from '@compaction/artifacts/reading';
import { artifactScope } from '../artifact-scope.js';
import type { CliCommand } from '../cli-command.js';
import { parseCommandArgs, parseIntegerFlag } from '../parse-command-args.js';
import { UsageError } from '../usage-error.js';

function signedInteger(flag: string, value: string | undefined): number | undefined {
  if (value === undefined) return undefined;
  if (!/^-?\d{1,15}$/.test(value.trim()))
    throw new UsageError(`--${flag} must be an integer, got ${JSON.stringify(value)}`);
  return Number(value);
}

/** `compaction read`: one page of a stored artifact. */
export const readCommand: CliCommand = {
  name: 'read',
  summary: 'print a page of a stored artifact (by id, file name or operation id)',
  help: `Usage: compaction read REF (--session TRANSCRIPT | --dir DIR) [--offset N] [--limit N] [--column N] [--tail N] [--json]

Prints a page of the artifact REF: its id (art_…), the file name an excerpt marker names, or
the operation id it was stored under. Lines count from 1, as 'compaction search' (and the
artifact_search tool) and editors number them: 'compaction search REF PATTERN' gives the line to
start at. The page header (lines, total, next offset) goes to standard error.

Options:
  --session PATH   the session transcript whose store holds REF
  --dir DIR        look in every session under DIR instead
  --offset N       first line, from 1; negative counts from the end (--offset -50: the last 50)
  --tail N         the last N lines (same as --offset -N)
  --limit N        lines per page, at least 1 (default 200; a larger N than 1000 reads 1000)
  --column N       column of the first line to start at, for a long line paged in windows
  --json           print the page as {"id", "file", "line", "count", "totalLines", "text", "next", …}
  -h, --help       show this help

Examples:
  compaction read art_3f9c0d1e2a4b5c6d7e8f9a0b --session runs/run-1.jsonl --offset 201
  compaction read call_17 --session runs/run-1.jsonl --tail 40
  compaction read art_3f9c0d1e2a4b5c6d7e8f9a0b --dir runs --json | jq .next`,
  async run(args, io) {
    const { values, positionals } = parseCommandArgs(args, {
      session: { type: 'string' },
      dir: { type: 'string' },
      offset: { type: 'string' },
      tail: { type: 'string' },
      column: { type: 'string' },
      limit: { type: 'string' },
      json: { type: 'boolean' },
    });
    const [ref, extra] = positionals;
    if (ref === undefined) throw new UsageError('REF is required');
    if (extra !== undefined) throw new UsageError(`unexpected argument: ${extra}`);
    const { library, sessionId } = artifactScope(values, io);
    if (values.tail !== undefined && values.offset !== undefined)
      throw new UsageError('--tail and --offset do not go together');
    const tail = parseIntegerFlag('tail', values.tail as string | undefined, 1);
    const page = await library.readPage(ref, {
      ...(sessionId === undefined ? {} : { sessionId }),
      offset:
        tail === undefined ? signedInteger('offset', values.offset as string | undefined) : -tail,
      column: parseIntegerFlag('column', values.column as string | undefined, 1),
      limit: parseIntegerFlag('limit', values.limit as string | undefined, 1),
    });
    if (values.json) {
      io.stdout.write(`${JSON.stringify(page)}\n`);
      return 0;
    }
    io.stdout.write(page.text);
    io.stderr.write(`${formatArtifactPage({ ...page, text: '' }).trimEnd()}\n`);
    return 0;
  },
};
