import type { CliCommandEntry } from '../cli-command-entry.js';

// One row per command, in the order `compaction --help` lists them. Each row imports its module
// lazily: a static import here would make every command pay for every other command's packages.
/** Every command, in the order `compaction --help` lists them. */
export const COMMANDS: readonly CliCommandEntry[] = [
  { name: 'config', load: async () => (await import('./config-command.js')).configCommand },
  { name: 'digest', load: async () => (await import('./digest-command.js')).digestCommand },
  { name: 'distill', load: async () => (await import('./distill-command.js')).distillCommand },
  { name: 'excerpt', load: async () => (await import('./excerpt-command.js')).excerptCommand },
  { name: 'mcp', load: async () => (await import('./mcp-command.js')).mcpCommand },
  {
    name: 'mcp-proxy',
    load: async () => (await import('./mcp-proxy-command.js')).mcpProxyCommand,
  },
  { name: 'proxy', load: async () => (await import('./proxy-command.js')).proxyCommand },
  { name: 'prune', load: async () => (await import('./prune-command.js')).pruneCommand },
  { name: 'read', load: async () => (await import('./read-command.js')).readCommand },
  { name: 'search', load: async () => (await import('./search-command.js')).searchCommand },
  { name: 'serve', load: async () => (await import('./serve-command.js')).serveCommand },
  { name: 'store', load: async () => (await import('./store-command.js')).storeCommand },
  { name: 'trim', load: async () => (await import('./trim-command.js')).trimCommand },
];
