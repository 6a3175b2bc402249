import type { CliIo } from './cli-io.js';

/** One `compaction` sub-command. */
export interface CliCommand {
  /** The word after `compaction`. */
  name: string;
  /** One line for the command list. */
  summary: string;
  /** Full help: usage line, options and examples. */
  help: string;
  /** Runs the command; resolves to the exit code. Throw `UsageError` for a bad command line. */
  run(args: string[], io: CliIo): Promise<number>;
}
