import {
  type JsonValue,
  parseJsonLossless,
  type StepRecord,
  stringifyJsonLossless,
} from '@compaction/core';
import { createDigester, createPlanningSectionRenderer } from '@compaction/digest';
import { createStructuralTrimmer } from '@compaction/trimmer';
import type { CliCommand } from '../cli-command.js';
import { parseCommandArgs, parseIntegerFlag } from '../parse-command-args.js';
import { readInput } from '../read-input.js';
import { UsageError } from '../usage-error.js';

const STATUSES = new Set(['succeeded', 'failed', 'rejected']);

class StepsFileError extends Error {}

function plainObject(value: JsonValue | undefined): value is { [key: string]: JsonValue } {
  return (
    typeof value === 'object' &&
    value !== null &&
    !Array.isArray(value) &&
    Object.getPrototypeOf(value) === Object.prototype
  );
}

function stepsFrom(text: string): StepRecord[] {
  const parsed = parseJsonLossless(text);
  if (!parsed.ok) throw new StepsFileError(`the steps file is not JSON: ${parsed.error.message}`);
  if (!Array.isArray(parsed.value)) {
    throw new StepsFileError(
      'the steps file must be a JSON array of {id, status, result | error, inputs?}',
    );
  }
  return parsed.value.map((entry, index) => {
    const where = `step ${index + 1}`;
    if (!plainObject(entry)) throw new StepsFileError(`${where} is not an object`);
    const { id, status, result, error, inputs, toolName, task } = entry;
    if (typeof id !== 'string' || id === '')
      throw new StepsFileError(`${where} has no string "id"`);
    if (typeof status !== 'string' || !STATUSES.has(status)) {
      throw new StepsFileError(
        `${where} (${id}) needs "status": "succeeded", "failed" or "rejected"`,
      );
    }
    const step: StepRecord = { id, status: status as StepRecord['status'] };
    if (result !== undefined) {
      step.result = typeof result === 'string' ? result : stringifyJsonLossless(result);
    }
    if (typeof error === 'string') step.error = { code: 'error', message: error };
    else if (plainObject(error)) {
      step.error = {
        code: typeof error.code === 'string' ? error.code : 'error',
        message: typeof error.message === 'string' ? error.message : '',
      };
    } else if (error !== undefined && error !== null) {
      throw new StepsFileError(`${where} (${id}): "error" must be a string or {code, message}`);
    }
    if (inputs !== undefined) {
      if (!plainObject(inputs))
        throw new StepsFileError(`${where} (${id}): "inputs" must be an object`);
      step.inputs = inputs;
    }
    if (typeof toolName === 'string') step.toolName = toolName;
    if (typeof task === 'string') step.task = task;
    return step;
  });
}

/** `compaction digest`: the structure-complete digest of a JSON result, or a planning section. */
export const digestCommand: CliCommand = {
  name: 'digest',
  summary: 'print the structure-complete digest of a JSON result, or render a planning section',
  help: `Usage: compaction digest [--json] [FILE|-]
       compaction digest --steps STEPS.json [--budget BYTES] [--json]

Without --steps, reads one JSON result from FILE (or standard input) and prints its digest:
valid JSON in which every key is kept (objects wider than the key cap are sampled to sorted
keys plus a "…" entry), arrays keep a head sample plus a "…N more of M" entry, and long
strings become "…(N chars)". Numbers are kept byte for byte. Input that is not JSON fails.

With --steps, reads a JSON array of completed steps, in the order they completed:
  {"id": "step-1", "status": "succeeded", "result": <JSON value or text>}
  {"id": "step-2", "status": "failed", "error": {"code": "timeout", "message": "…"},
   "inputs": {"url": "…"}}
  {"id": "step-3", "status": "rejected", "error": "binding failed before dispatch"}
and prints the continuation planning section: JSON results as digests, text results as
structural-trimmer previews, failures with their bounded evidence, newest first within the
budget, closing with "[showing N of M completed steps]".

Caps come from COMPACTION_CONTINUATION_* and COMPACTION_FAILED_OPERATION_* (see
'compaction config').

Options:
  --steps FILE    render a planning section from a steps file (- for standard input)
  --budget BYTES  soft target of the section (default COMPACTION_CONTINUATION_RESULT_MAX_TOTAL_CHARS)
  --json          print a JSON object with the output and its accounting
  -h, --help      show this help

Examples:
  kubectl get pods -o json | compaction digest
  compaction digest --json loki-response.json
  compaction digest --steps steps.json --budget 8192`,
  async run(args, io) {
    const { values, positionals } = parseCommandArgs(args, {
      json: { type: 'boolean' },
      steps: { type: 'string' },
      budget: { type: 'string' },
    });
    if (positionals.length > 1) throw new UsageError(`unexpected argument: ${positionals[1]}`);
    const budget = parseIntegerFlag('budget', values.budget as string | undefined);

    if (values.steps !== undefined) {
      if (positionals.length > 0) {
        throw new UsageError('give either --steps FILE or a result FILE, not both');
      }
      let steps: StepRecord[];
      try {
        steps = stepsFrom(await readInput(values.steps as string, io));
      } catch (error) {
        if (error instanceof StepsFileError) {
          io.stderr.write(`compaction digest: ${error.message}\n`);
          return 1;
        }
        throw error;
      }
      const section = await createPlanningSectionRenderer({
        env: io.env,
        maxTotalBytes: budget,
        floor: createStructuralTrimmer(),
        ...(io.telemetry ? { telemetry: io.telemetry } : {}),
      }).render(steps);
      io.stdout.write(values.json ? `${JSON.stringify(section)}\n` : `${section.text}\n`);
      return 0;
    }

    if (budget !== undefined) throw new UsageError('--budget applies to --steps only');
    const outcome = createDigester({ env: io.env }).digest(await readInput(positionals[0], io));
    if (!outcome.ok) {
      io.stderr.write(`compaction digest: the input is not JSON (${outcome.error.message})\n`);
      return 1;
    }
    if (values.json) {
      const { digest, ok: _ok, ...accounting } = outcome;
      const rest = JSON.stringify(accounting).slice(1);
      io.stdout.write(`{"digest":${digest},${rest}\n`);
    } else {
      io.stdout.write(`${outcome.digest}\n`);
    }
    return 0;
  },
};
