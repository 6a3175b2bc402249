import type { CliCommand } from './cli-command.js';

/** One row of the command table: a command's name and how to load it. */
export interface CliCommandEntry {
  /** The word after `compaction`; the loaded command carries the same name. */
  readonly name: string;
  /**
   * Imports the command's module. Only the command that runs is imported, so a hook-style
   * `compaction trim` does not load the MCP SDK, the distiller or the artifact server.
   */
  load(): Promise<CliCommand>;
}
