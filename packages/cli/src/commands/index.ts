import type { CliCommand } from '../cli-command.js';
import { configCommand } from './config-command.js';
import { digestCommand } from './digest-command.js';
import { distillCommand } from './distill-command.js';
import { excerptCommand } from './excerpt-command.js';
import { mcpCommand } from './mcp-command.js';
import { mcpProxyCommand } from './mcp-proxy-command.js';
import { proxyCommand } from './proxy-command.js';
import { pruneCommand } from './prune-command.js';
import { readCommand } from './read-command.js';
import { searchCommand } from './search-command.js';
import { serveCommand } from './serve-command.js';
import { storeCommand } from './store-command.js';
import { trimCommand } from './trim-command.js';

/** Every command, in the order `compaction --help` lists them. */
export const COMMANDS: readonly CliCommand[] = [
  configCommand,
  digestCommand,
  distillCommand,
  excerptCommand,
  mcpCommand,
  mcpProxyCommand,
  proxyCommand,
  pruneCommand,
  readCommand,
  searchCommand,
  serveCommand,
  storeCommand,
  trimCommand,
];
