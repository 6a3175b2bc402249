import { CONFIG_KNOBS, formatDuration, loadConfig } from '@compaction/core';
import type { CliCommand } from '../cli-command.js';
import { parseCommandArgs } from '../parse-command-args.js';
import { UsageError } from '../usage-error.js';

function valueAt(config: object, path: string): unknown {
  return path
    .split('.')
    .reduce<unknown>((node, key) => (node as Record<string, unknown>)?.[key], config);
}

function display(kind: string, value: unknown): string {
  if (value === undefined) return '(unset)';
  if (kind === 'secret') return '(set)';
  if (kind === 'duration') return formatDuration(value as number);
  if (Array.isArray(value)) return value.length ? value.join(',') : '(none)';
  return String(value);
}

/** `compaction config`: every knob, its value, where the value came from, and its doc line. */
export const configCommand: CliCommand = {
  name: 'config',
  summary: 'show every COMPACTION_* knob, its value and where the value came from',
  help: `Usage: compaction config [--json]

Prints every knob: its config path, environment variable, resolved value, where the value
came from (default or env) and what it controls. Unusable environment values are reported
on standard error and the default is used.

Options:
  --json     print {"knobs": [...], "warnings": [...]} for machines
  -h, --help show this help

Examples:
  compaction config
  COMPACTION_RESULT_TRIM_MAX_BYTES=32768 compaction config --json`,
  async run(args, io) {
    const { values, positionals } = parseCommandArgs(args, { json: { type: 'boolean' } });
    if (positionals.length > 0) throw new UsageError(`unexpected argument: ${positionals[0]}`);
    const { config, sources, warnings } = loadConfig({ env: io.env });
    const knobs = CONFIG_KNOBS.map((knob) => ({
      path: knob.path,
      env: knob.env ?? null,
      // A secret's value is never printed, only whether it is set.
      value:
        knob.kind === 'secret'
          ? valueAt(config, knob.path) === undefined
            ? null
            : '(set)'
          : (valueAt(config, knob.path) ?? null),
      source: sources[knob.path],
      default: knob.defaultValue ?? null,
      kind: knob.kind,
      doc: knob.doc,
    }));
    if (values.json) {
      io.stdout.write(`${JSON.stringify({ knobs, warnings }, null, 2)}\n`);
      return 0;
    }
    for (const warning of warnings) io.stderr.write(`warning: ${warning.message}\n`);
    const rows = knobs.map((knob) => [
      knob.env ?? `(option) ${knob.path}`,
      display(knob.kind, knob.value ?? undefined),
      knob.source ?? 'default',
      knob.doc,
    ]);
    const widths = [0, 1, 2].map((column) =>
      Math.max(
        ...rows.map((row) => row[column]!.length),
        ['VARIABLE', 'VALUE', 'SOURCE'][column]!.length,
      ),
    );
    const line = (cells: string[]) =>
      cells
        .map((cell, i) => (i < 3 ? cell.padEnd(widths[i]!) : cell))
        .join('  ')
        .trimEnd();
    io.stdout.write(`${line(['VARIABLE', 'VALUE', 'SOURCE', 'WHAT IT CONTROLS'])}\n`);
    for (const row of rows) io.stdout.write(`${line(row)}\n`);
    return 0;
  },
};
