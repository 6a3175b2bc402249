export type { CliCommand } from './cli-command.js';
export type { CliIo } from './cli-io.js';
export { COMMANDS } from './commands/index.js';
export { readInput } from './read-input.js';
export { EXIT_CODES, runCli } from './run-cli.js';
export { UsageError } from './usage-error.js';
