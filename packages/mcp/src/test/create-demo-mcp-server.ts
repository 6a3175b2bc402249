import { bigJsonResult } from '@compaction/core/test';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import {
  CreateMessageResultSchema,
  RootsListChangedNotificationSchema,
} from '@modelcontextprotocol/sdk/types.js';
import { z } from 'zod';

/** What the demo server has seen, for tests to check what reached it. */
export interface DemoMcpServerStats {
  /** Calls of `count_slowly` that ended because the client cancelled them. */
  cancelled: number;
  /** `notifications/roots/list_changed` the client sent. */
  rootsChanged: number;
}

const BIG_TEXT_BYTES = 300_000;

/** About 300 kB of log lines, with one `OOMKilled` near the end. */
function bigLog(): string {
  const lines: string[] = [];
  for (let i = 0; lines.join('\n').length < BIG_TEXT_BYTES; i++) {
    lines.push(`2026-12-01T10:${String(i % 60).padStart(2, '0')}:00Z pod web-${i} ready`);
  }
  lines.push('2026-12-01T11:00:00Z pod checkout-7f9c OOMKilled');
  return lines.join('\n');
}

/**
 * A small MCP server with the shapes a proxy must carry: `list_pods` (about 2 MiB of JSON in
 * one text part, with `structuredContent` and an output schema), `echo`, `count_slowly` (sends
 * progress until done or cancelled), `add_tool` (adds a tool, so the server announces a changed
 * list), `stats` (how many calls were cancelled), tools that ask the client (`ask_model` for
 * sampling, `ask_model_briefly` which cancels its sampling request, `list_roots`, `ask_user` for
 * elicitation), `log` (a message per level), `pods_log` (a 300 kB log embedded as a resource),
 * resources (`demo://readme`, the 300 kB `demo://pods.log`) and a prompt.
 */
export function createDemoMcpServer(): { server: McpServer; stats: DemoMcpServerStats } {
  const stats: DemoMcpServerStats = { cancelled: 0, rootsChanged: 0 };
  const server = new McpServer(
    { name: 'demo-pods', title: 'Demo pods', version: '1.0.0' },
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
  server.registerTool(
    'ask_model',
    { description: "Asks the client's model.", inputSchema: { question: z.string() } },
    async ({ question }) => {
      const steps: number[] = [];
      try {
        const answer = await server.server.createMessage(
          {
            messages: [{ role: 'user', content: { type: 'text', text: question } }],
            maxTokens: 100,
          },
          { onprogress: (progress) => steps.push(progress.progress) },
        );
        const text = answer.content.type === 'text' ? answer.content.text : answer.content.type;
        return {
          content: [
            { type: 'text', text: `${answer.model}: ${text} (progress ${steps.join(',')})` },
          ],
        };
      } catch (error) {
        return { content: [{ type: 'text', text: String(error) }], isError: true };
      }
    },
  );
  server.registerTool(
    'ask_model_briefly',
    { description: "Asks the client's model and gives up after 100 ms." },
    async () => {
      try {
        await server.server.request(
          {
            method: 'sampling/createMessage',
            params: {
              messages: [{ role: 'user', content: { type: 'text', text: 'wait' } }],
              maxTokens: 1,
            },
          },
          CreateMessageResultSchema,
          { signal: AbortSignal.timeout(100) },
        );
        return { content: [{ type: 'text', text: 'answered' }] };
      } catch {
        return { content: [{ type: 'text', text: 'gave up' }] };
      }
    },
  );
  server.registerTool('list_roots', { description: "The client's roots." }, async () => {
    const { roots } = await server.server.listRoots();
    return { content: [{ type: 'text', text: roots.map((root) => root.uri).join(' ') }] };
  });
  server.registerTool('ask_user', { description: 'Asks the user to confirm.' }, async () => {
    const answer = await server.server.elicitInput({
      message: 'Restart checkout?',
      requestedSchema: { type: 'object', properties: { ok: { type: 'boolean' } } },
    });
    return {
      content: [{ type: 'text', text: `${answer.action} ${JSON.stringify(answer.content)}` }],
    };
  });
  server.registerTool('log', { description: 'Logs one message per level.' }, async () => {
    for (const level of ['debug', 'info', 'error'] as const) {
      await server.sendLoggingMessage({ level, data: `${level} message` });
    }
    return { content: [{ type: 'text', text: 'logged' }] };
  });
  server.registerTool(
    'pods_log',
    { description: 'The pod log, embedded as a resource.' },
    async () => ({
      content: [
        { type: 'text', text: 'The pod log:' },
        {
          type: 'resource',
          resource: { uri: 'demo://pods.log', mimeType: 'text/plain', text: bigLog() },
        },
      ],
    }),
  );
  server.registerResource(
    'pods-log',
    'demo://pods.log',
    { mimeType: 'text/plain', description: 'Every pod event.' },
    async (uri) => ({ contents: [{ uri: uri.href, mimeType: 'text/plain', text: bigLog() }] }),
  );
  server.server.setNotificationHandler(RootsListChangedNotificationSchema, async () => {
    stats.rootsChanged++;
  });
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
