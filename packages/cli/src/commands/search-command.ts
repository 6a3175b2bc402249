import { SEARCH_LIMITS } from '@compaction/artifacts/reading';
import { artifactScope } from '../artifact-scope.js';
import type { CliCommand } from '../cli-command.js';
import { parseCommandArgs, parseIntegerFlag } from '../parse-command-args.js';
import { UsageError } from '../usage-error.js';

/** `compaction search`: the lines of a stored artifact that match a pattern. */
export const searchCommand: CliCommand = {
  name: 'search',
  summary: 'print the lines of a stored artifact that match a pattern (literal, or --regex)',
  help: `Usage: compaction search REF PATTERN (--session TRANSCRIPT | --dir DIR) [--regex] [--case-sensitive] [--max-matches N] [--from-line N] [--from-column N] [--json]

Prints each line of the artifact REF (its id art_…, the file name an excerpt marker names, or
the operation id it was stored under) that matches PATTERN, as LINE:COLUMN: TEXT, a line over
300 characters as a window around the match. Lines and columns count from 1, as
'compaction read --offset LINE --column COLUMN' and the artifact_search tool count them. PATTERN
is literal text unless --regex (RE2 syntax: linear time, no backreferences or lookaround), and
matches in any case unless --case-sensitive. A summary goes to standard error, with where to go
on when the search stopped at --max-matches or its time budget (${SEARCH_LIMITS.defaultTimeMs / 1000} s).

Options:
  --session PATH     the session transcript whose store holds REF
  --dir DIR          look in every session under DIR instead
  --regex            PATTERN is a regular expression
  --case-sensitive   match case
  --max-matches N    stop after N matches (default ${SEARCH_LIMITS.defaultMatches}; a larger N than ${SEARCH_LIMITS.maxMatches} reads ${SEARCH_LIMITS.maxMatches})
  --from-line N      start at line N (the one the summary names to go on)
  --from-column N    start at column N of that line
  --json             print {"id", "file", "totalLines", "matches": [{"line", "column", "length", "text"}], "more", "next", …}
  -h, --help         show this help

Examples:
  compaction search call_17 'connection refused' --session runs/run-1.jsonl
  compaction search art_3f9c0d1e2a4b5c6d7e8f9a0b 'status=5\\d\\d' --regex --dir runs
  compaction search call_17 ERROR --case-sensitive --session runs/run-1.jsonl --from-line 901`,
  async run(args, io) {
    const { values, positionals } = parseCommandArgs(args, {
      session: { type: 'string' },
      dir: { type: 'string' },
      regex: { type: 'boolean' },
      'case-sensitive': { type: 'boolean' },
      'max-matches': { type: 'string' },
      'from-line': { type: 'string' },
      'from-column': { type: 'string' },
      json: { type: 'boolean' },
    });
    const [ref, pattern, extra] = positionals;
    if (ref === undefined || pattern === undefined)
      throw new UsageError('REF and PATTERN are required');
    if (extra !== undefined) throw new UsageError(`unexpected argument: ${extra}`);
    const { library, sessionId } = artifactScope(values, io);
    const result = await library.search(ref, pattern, {
      ...(sessionId === undefined ? {} : { sessionId }),
      regex: values.regex === true,
      caseSensitive: values['case-sensitive'] === true,
      maxMatches: parseIntegerFlag('max-matches', values['max-matches'] as string | undefined, 1),
      fromLine: parseIntegerFlag('from-line', values['from-line'] as string | undefined, 1),
      fromColumn: parseIntegerFlag('from-column', values['from-column'] as string | undefined, 1),
    });
    if (values.json) {
      io.stdout.write(`${JSON.stringify(result)}\n`);
      return 0;
    }
    for (const match of result.matches)
      io.stdout.write(`${match.line}:${match.column}: ${match.text}\n`);
    const count = result.matches.length;
    const summary = [
      `[artifact ${result.id} (${result.file}): ${count}${result.more ? '+' : ''} match${count === 1 && !result.more ? '' : 'es'}; ${result.totalLines} lines]`,
    ];
    if (result.windowedLines > 0)
      summary.push(
        `[${result.windowedLines} line(s) too long to test whole were searched in overlapping windows]`,
      );
    if (result.more && result.next) {
      const at = `--from-line ${result.next.line}${result.next.column > 1 ? ` --from-column ${result.next.column}` : ''}`;
      summary.push(
        result.stoppedBy === 'time'
          ? `[stopped by the time budget at line ${result.next.line} of ${result.totalLines}; search again with ${at} to go on]`
          : `[more matches: search again with ${at}]`,
      );
    }
    io.stderr.write(`${summary.join('\n')}\n`);
    return 0;
  },
};
