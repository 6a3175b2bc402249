import { resolve } from 'node:path';
import { pruneArtifacts } from '@compaction/artifacts';
import type { CliCommand } from '../cli-command.js';
import { parseCommandArgs } from '../parse-command-args.js';
import { UsageError } from '../usage-error.js';

const DURATION = /^(\d+(?:\.\d+)?)(ms|s|m|h|d)$/;
const UNIT_MS: Record<string, number> = { ms: 1, s: 1000, m: 60_000, h: 3_600_000, d: 86_400_000 };
const SIZE = /^(\d+(?:\.\d+)?)([KMGT]i?B?|B)?$/i;
const POWER: Record<string, number> = { '': 0, b: 0, k: 1, m: 2, g: 3, t: 4 };

/** `30d`, `12h`, `90m`, `45s`, `500ms` → milliseconds. */
export function parseDuration(flag: string, value: string): number {
  const match = DURATION.exec(value.trim());
  if (!match)
    throw new UsageError(
      `--${flag} must be a duration such as 30d, 12h or 90m, got ${JSON.stringify(value)}`,
    );
  return Math.round(Number(match[1]) * UNIT_MS[match[2]!]!);
}

/** `500M`, `1G`, `2GiB`, `1048576` → bytes (binary multiples). */
export function parseSize(flag: string, value: string): number {
  const match = SIZE.exec(value.trim());
  if (!match)
    throw new UsageError(
      `--${flag} must be a size such as 500M or 2G, got ${JSON.stringify(value)}`,
    );
  const unit = (match[2] ?? '').charAt(0).toLowerCase();
  return Math.floor(Number(match[1]) * 1024 ** POWER[unit]!);
}

/** `compaction prune`: the explicit clean-up of stored artifacts. */
export const pruneCommand: CliCommand = {
  name: 'prune',
  summary: 'remove stored artifacts by age, total size or as orphans (nothing unless asked)',
  help: `Usage: compaction prune --dir DIR [--older-than DURATION] [--max-bytes SIZE] [--orphans] [--dry-run] [--json]

Removes files from the <session>.artifacts/ stores in DIR; nothing else is ever touched, and
nothing is removed unless a criterion is given. A file an index record or a transcript names
is never an orphan. Each store's index gets a removal line per file removed. Prints what was
(or, with --dry-run, would be) removed.

Options:
  --dir DIR              directory of session transcripts and stores (required)
  --older-than DURATION  files last written longer ago than this (30d, 12h, 90m)
  --max-bytes SIZE       then the oldest files until the stores hold at most this (500M, 2G)
  --orphans              files nothing names and temp files, once older than an hour
  --dry-run              report only
  --json                 print the report as JSON
  -h, --help             show this help

Examples:
  compaction prune --dir runs --older-than 30d --dry-run
  compaction prune --dir runs --orphans --max-bytes 2G`,
  async run(args, io) {
    const { values, positionals } = parseCommandArgs(args, {
      dir: { type: 'string' },
      'older-than': { type: 'string' },
      'max-bytes': { type: 'string' },
      orphans: { type: 'boolean' },
      'dry-run': { type: 'boolean' },
      json: { type: 'boolean' },
    });
    if (positionals.length > 0) throw new UsageError(`unexpected argument: ${positionals[0]}`);
    const dir = values.dir as string | undefined;
    if (dir === undefined) throw new UsageError('--dir DIR is required');
    const olderThan = values['older-than'] as string | undefined;
    const maxBytes = values['max-bytes'] as string | undefined;
    if (olderThan === undefined && maxBytes === undefined && !values.orphans)
      throw new UsageError(
        'give --older-than, --max-bytes or --orphans: nothing is pruned by default',
      );
    const report = await pruneArtifacts({
      root: resolve(io.cwd, dir),
      ...(olderThan === undefined ? {} : { olderThanMs: parseDuration('older-than', olderThan) }),
      ...(maxBytes === undefined ? {} : { maxBytes: parseSize('max-bytes', maxBytes) }),
      ...(values.orphans ? { orphans: true } : {}),
      ...(values['dry-run'] ? { dryRun: true } : {}),
    });
    if (values.json) {
      io.stdout.write(`${JSON.stringify(report)}\n`);
      return 0;
    }
    const dryRun = values['dry-run'] === true;
    for (const file of report.removed)
      io.stdout.write(
        `${dryRun ? 'would remove' : 'removed'} ${file.path} (${file.bytes} bytes, ${file.reason})\n`,
      );
    const count = report.removed.length;
    io.stdout.write(
      `${count} ${count === 1 ? 'file' : 'files'} ${dryRun ? 'would be removed' : 'removed'}; ${report.keptBytes} bytes ${dryRun ? 'would be kept' : 'kept'}\n`,
    );
    return 0;
  },
};
