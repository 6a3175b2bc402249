#!/usr/bin/env node
// An MCP server over stdio whose tools misbehave on the wire, for tests of what fronts one (the
// proxy): it writes to its standard output directly, beside the SDK's transport.
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { z } from 'zod';

const server = new McpServer(
  { name: 'faults', title: 'Faults', version: '1.0.0' },
  { instructions: 'Tools that misbehave.' },
);
const forever = () => new Promise<never>(() => {});
const write = (text: string) =>
  new Promise<void>((resolve) => {
    if (process.stdout.write(text)) resolve();
    else process.stdout.once('drain', resolve);
  });

server.registerTool(
  'echo',
  { description: 'Returns its text.', inputSchema: { text: z.string() } },
  async ({ text }) => ({ content: [{ type: 'text', text }] }),
);
server.registerTool('never', { description: 'Never answers.' }, forever);
server.registerTool(
  'garbage',
  { description: 'Answers with a line that is not JSON.' },
  async () => {
    await write('this is not JSON-RPC\n');
    return forever();
  },
);
server.registerTool('wrong_id', { description: 'Answers under another id.' }, async (extra) => {
  const id = Number(extra.requestId) + 1000;
  await write(`${JSON.stringify({ jsonrpc: '2.0', id, result: { content: [] } })}\n`);
  return forever();
});
server.registerTool('crash', { description: 'Exits while the call waits.' }, async () => {
  setTimeout(() => process.exit(3), 10);
  return forever();
});
server.registerTool(
  'big_log',
  {
    description: 'A log of about `bytes` bytes in one text part, one OOMKilled line near the end.',
    inputSchema: { bytes: z.number().int().positive() },
  },
  async ({ bytes }) => {
    const line = 'INFO 2026-12-01T10:00:00Z pod web-1 request served in 12 ms\n';
    const text = `${line.repeat(Math.ceil(bytes / line.length))}ERROR pod checkout-7f9c OOMKilled\n`;
    return { content: [{ type: 'text', text }] };
  },
);
server.registerTool(
  'flood',
  {
    description:
      'Answers with one line of `bytes` bytes (its id at the end, as the TypeScript SDK writes it); with `endless`, the line never ends.',
    inputSchema: { bytes: z.number().int().positive(), endless: z.boolean().optional() },
  },
  async ({ bytes, endless }, extra) => {
    const start = '{"result":{"content":[{"type":"text","text":"';
    const end = `"}]},"jsonrpc":"2.0","id":${JSON.stringify(extra.requestId)}}\n`;
    if (!endless) {
      // One write, so that no other message lands inside the line.
      await write(`${start}${'x'.repeat(bytes)}${end}`);
      return forever();
    }
    await write(start);
    const chunk = 'x'.repeat(65_536);
    for (;;) {
      await write(chunk);
      // Lets stdin be read, so a closed stdin ends the endless line.
      await new Promise((resolve) => setImmediate(resolve));
    }
  },
);

process.stdin.on('end', () => process.exit(0));
await server.connect(new StdioServerTransport());
