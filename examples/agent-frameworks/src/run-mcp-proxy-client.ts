import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';

/** The MCP client configuration of the example, as a user writes it (also in docs/integrations.md). */
export const MCP_CLIENT_CONFIG = JSON.parse(
  readFileSync(new URL('../mcp-client-config.json', import.meta.url), 'utf8'),
) as { mcpServers: { pods: { command: string; args: string[] } } };

const require = createRequire(import.meta.url);
const packageDir = (name: string) => dirname(require.resolve(`${name}/package.json`));

/**
 * The configured server, run from this checkout: `npx -y -p @compaction/cli compaction` becomes
 * the workspace's CLI, `pods-server.js` the demo MCP server of `@compaction/mcp/test` (2 MB of
 * pods), and the artifacts go to `dir`.
 */
function localServer(dir: string): { command: string; args: string[] } {
  const { args } = MCP_CLIENT_CONFIG.mcpServers.pods;
  const proxyArgs = args.slice(args.indexOf('mcp-proxy') + 1);
  const split = proxyArgs.indexOf('--');
  return {
    command: process.execPath,
    args: [
      join(packageDir('@compaction/cli'), 'bin', 'compaction.js'),
      'mcp-proxy',
      '--dir',
      dir,
      ...proxyArgs.slice(0, split + 1),
      process.execPath,
      join(packageDir('@compaction/mcp'), 'dist', 'test', 'demo-mcp-server-main.js'),
    ],
  };
}

function textOf(result: unknown): string {
  return (result as { content: Array<{ type: string; text?: string }> }).content
    .flatMap((part) => (part.type === 'text' && part.text !== undefined ? [part.text] : []))
    .join('\n');
}

/** What the MCP client saw through the proxy. */
export interface McpProxyRun {
  /** UTF-8 bytes of the `list_pods` result as the client got it. */
  viewBytes: number;
  /** The line of the view that points at the stored result. */
  pointer: string;
  /** The first line `artifact_search` answered for `OOMKilled`. */
  found: string;
}

/** Calls `list_pods` through `compaction mcp-proxy`, then follows the pointer as a model would. */
export async function runMcpProxyClient(settings: { dir: string }): Promise<McpProxyRun> {
  const client = new Client({ name: 'example', version: '1.0.0' });
  await client.connect(
    new StdioClientTransport({ ...localServer(settings.dir), stderr: 'ignore' }),
  );
  try {
    const view = textOf(await client.callTool({ name: 'list_pods', arguments: {} }));
    const id = /art_[0-9a-f]{24}/.exec(view)?.[0];
    const found = textOf(
      await client.callTool({ name: 'artifact_search', arguments: { id, pattern: 'OOMKilled' } }),
    );
    return {
      viewBytes: Buffer.byteLength(view),
      pointer: view.split('\n')[0] ?? '',
      found: found.split('\n')[0] ?? '',
    };
  } finally {
    await client.close();
  }
}
