import { BudgetTooSmallError, loadConfig } from '@compaction/core';
import { createStructuralTrimmer, MIN_TRIM_BUDGET_BYTES } from '@compaction/trimmer';
import type { CliCommand } from '../cli-command.js';
import { parseCommandArgs, parseIntegerFlag } from '../parse-command-args.js';
import { readInput } from '../read-input.js';
import { UsageError } from '../usage-error.js';

/** `compaction trim`: the deterministic structural trim of one result to a byte budget. */
export const trimCommand: CliCommand = {
  name: 'trim',
  summary: 'trim one result (JSON, NDJSON, logs, text) to a byte budget, without a model',
  help: `Usage: compaction trim [--budget BYTES] [--query TEXT] [--task TEXT]
                      [--preserve-keys a,b] [--json] [FILE|-]

Reads one result from FILE (or standard input) and prints the structural trim: the whole
result when it fits; pretty JSON minified when that fits (numbers kept byte for byte, no
note); otherwise a view that keeps whole fields, items, lines or sentences, followed by one
disclosure note ([trimmed: …] or [severely reduced: …]) saying what was dropped. JSON stays
valid JSON before the note. The output, note included, never exceeds the budget in UTF-8 bytes.

Options:
  --budget BYTES        UTF-8 byte budget of the output, note included (≥ ${MIN_TRIM_BUDGET_BYTES} when the
                        result must be cut). Default: the single-result trim budget,
                        trim.maxTotalBytes (COMPACTION_RESULT_TRIM_MAX_TOTAL_BYTES, 196608).
  --query TEXT          the user's question: matching records and lines are kept first
  --task TEXT           what the step was asked to do; used like --query
  --preserve-keys a,b   object keys (case-insensitive) to favour; default config trim.preserveKeys
  --json                print {"text": …, "metadata": …} instead of the view
  -h, --help            show this help

Examples:
  kubectl get pods -A -o json | compaction trim --budget 16384 --query "CrashLoopBackOff"
  compaction trim --budget 8000 --preserve-keys id,error --json result.json`,
  async run(args, io) {
    const { values, positionals } = parseCommandArgs(args, {
      budget: { type: 'string' },
      query: { type: 'string' },
      task: { type: 'string' },
      'preserve-keys': { type: 'string' },
      json: { type: 'boolean' },
    });
    if (positionals.length > 1) throw new UsageError(`unexpected argument: ${positionals[1]}`);
    const budgetFlag = parseIntegerFlag('budget', values.budget as string | undefined);
    const keysFlag = values['preserve-keys'] as string | undefined;
    const preserveKeys =
      keysFlag === undefined
        ? undefined
        : keysFlag
            .split(',')
            .map((key) => key.trim())
            .filter((key) => key !== '');
    const { config, warnings } = loadConfig({
      env: io.env,
      options: preserveKeys ? { trim: { preserveKeys } } : {},
    });
    for (const warning of warnings) io.stderr.write(`warning: ${warning.message}\n`);
    const budget = budgetFlag ?? config.trim.maxTotalBytes;
    const input = await readInput(positionals[0], io);
    const trimmer = createStructuralTrimmer({
      preserveKeys: config.trim.preserveKeys,
      ...(io.telemetry ? { telemetry: io.telemetry } : {}),
    });
    let view: Awaited<ReturnType<typeof trimmer.process>>;
    try {
      view = await trimmer.process(input, budget, {
        userQuery: values.query as string | undefined,
        stepTask: values.task as string | undefined,
      });
    } catch (error) {
      if (BudgetTooSmallError.isInstance(error)) {
        throw new UsageError(
          `--budget ${budget} is below the minimum of ${MIN_TRIM_BUDGET_BYTES} bytes for a result that must be cut`,
        );
      }
      throw error;
    }
    io.stdout.write(values.json ? `${JSON.stringify(view)}\n` : view.text);
    return 0;
  },
};
