export type { CliCommand } from './cli-command.js';
export type { CliCommandEntry } from './cli-command-entry.js';
export type { CliIo } from './cli-io.js';
export { COMMANDS } from './commands/index.js';
export { InputTooLargeError } from './input-too-large-error.js';
export { type ReadInputOptions, readInput } from './read-input.js';
export { EXIT_CODES, runCli } from './run-cli.js';
export { UsageError } from './usage-error.js';
