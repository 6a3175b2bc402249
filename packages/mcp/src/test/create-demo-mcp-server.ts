import { bigJsonResult } from '@compaction/core/test';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { z } from 'zod';

/** What the demo server has seen, for tests to check what reached it. */
export interface DemoMcpServerStats {
  /** Calls of `count_slowly` that ended because the client cancelled them. */
  cancelled: number;
}

/**
 * A small MCP server with the shapes a proxy must carry: `list_pods` (about 2 MiB of JSON in
 * one text part, with `structuredContent` and an output schema), `echo`, `count_slowly` (sends
 * progress until done or cancelled), `add_tool` (adds a tool, so the server announces a changed
 * list), `stats` (how many calls were cancelled), a resource and a prompt.
 */
export function createDemoMcpServer(): { server: McpServer; stats: DemoMcpServerStats } {
  const stats: DemoMcpServerStats = { cancelled: 0 };
  const server = new McpServer(
    { name: 'demo-pods', version: '1.0.0' },
    { capabilities: { logging: {} }, instructions: 'Pods of the prod cluster.' },
  );
  server.registerTool(
    'list_pods',
    {
      description: 'Every pod of the cluster as JSON.',
      outputSchema: { kind: z.string(), items: z.array(z.record(z.string(), z.unknown())) },
    },
    async () => {
      const text = bigJsonResult();
      return { content: [{ type: 'text', text }], structuredContent: JSON.parse(text) };
    },
  );
  server.registerTool(
    'echo',
    { description: 'Returns its text.', inputSchema: { text: z.string() } },
    async ({ text }) => ({ content: [{ type: 'text', text }] }),
  );
  server.registerTool(
    'count_slowly',
    {
      description: 'Counts to `to`, one step every 20 ms, with progress.',
      inputSchema: { to: z.number().int() },
    },
    async ({ to }, extra) => {
      const token = extra._meta?.progressToken;
      for (let i = 1; i <= to; i++) {
        await new Promise((resolve) => setTimeout(resolve, 20));
        if (extra.signal.aborted) {
          stats.cancelled++;
          return { content: [{ type: 'text', text: 'cancelled' }], isError: true };
        }
        if (token !== undefined) {
          await extra.sendNotification({
            method: 'notifications/progress',
            params: { progressToken: token, progress: i, total: to, message: `step ${i}` },
          });
        }
      }
      return { content: [{ type: 'text', text: `counted to ${to}` }] };
    },
  );
  server.registerTool('add_tool', { description: 'Adds a tool named `extra`.' }, async () => {
    server.registerTool('extra', { description: 'Added at run time.' }, async () => ({
      content: [{ type: 'text', text: 'extra' }],
    }));
    return { content: [{ type: 'text', text: 'added' }] };
  });
  server.registerTool('stats', { description: 'What the server has seen.' }, async () => ({
    content: [{ type: 'text', text: JSON.stringify(stats) }],
  }));
  server.registerResource(
    'readme',
    'demo://readme',
    { mimeType: 'text/plain', description: 'About this cluster.' },
    async (uri) => ({ contents: [{ uri: uri.href, text: 'prod cluster, 40 nodes' }] }),
  );
  server.registerPrompt(
    'triage',
    { description: 'Triage a pod.', argsSchema: { pod: z.string() } },
    ({ pod }) => ({
      messages: [{ role: 'user', content: { type: 'text', text: `Why is ${pod} failing?` } }],
    }),
  );
  return { server, stats };
}
