import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { ErrorCode, McpError } from '@modelcontextprotocol/sdk/types.js';
import { afterEach, describe, expect, it } from 'vitest';
import { createStdioUpstreamTransport } from './create-stdio-upstream-transport.js';

/**
 * A server process that speaks MCP's stdio wire format by hand, so it can write what the SDK's
 * server never would: `big` answers with `bytes` of text in one line (its id last, as the
 * TypeScript SDK writes it), `endless` starts an answer that never ends, `hold` answers only
 * once `release` is called, `ask_big` sends the client a 3 MB request and answers with what it
 * hears back, `echo` answers at once.
 */
const SERVER = `
const out = (message) => process.stdout.write(JSON.stringify(message) + '\\n');
let held;
let asking;
let buffer = '';
process.stdin.on('data', (chunk) => {
  buffer += chunk;
  for (let at = buffer.indexOf('\\n'); at >= 0; at = buffer.indexOf('\\n')) {
    const message = JSON.parse(buffer.slice(0, at));
    buffer = buffer.slice(at + 1);
    if (message.id === 'big-ask') {
      out({ jsonrpc: '2.0', id: asking, result: { content: [{ type: 'text', text: message.error.message }] } });
    }
    if (message.method === 'initialize') {
      out({ jsonrpc: '2.0', id: message.id, result: { protocolVersion: message.params.protocolVersion, capabilities: { tools: {} }, serverInfo: { name: 'wire', version: '1' } } });
    } else if (message.method === 'tools/call') {
      const { name, arguments: args } = message.params;
      if (name === 'echo') out({ jsonrpc: '2.0', id: message.id, result: { content: [{ type: 'text', text: args.text }] } });
      if (name === 'hold') held = message.id;
      if (name === 'release') {
        out({ jsonrpc: '2.0', id: held, result: { content: [{ type: 'text', text: 'released' }] } });
        out({ jsonrpc: '2.0', id: message.id, result: { content: [] } });
      }
      if (name === 'ask_big') {
        asking = message.id;
        out({ method: 'sampling/createMessage', params: { messages: [{ role: 'user', content: { type: 'text', text: 'x'.repeat(3000000) } }], maxTokens: 1 }, jsonrpc: '2.0', id: 'big-ask' });
      }
      if (name === 'big') {
        process.stdout.write(JSON.stringify({ result: { content: [{ type: 'text', text: 'x'.repeat(args.bytes) }] }, jsonrpc: '2.0', id: message.id }) + '\\n');
      }
      if (name === 'endless') {
        process.stdout.write('{"result":{"content":[{"type":"text","text":"');
        const chunk = 'x'.repeat(65536);
        const more = () => process.stdout.write(chunk) ? setImmediate(more) : process.stdout.once('drain', more);
        more();
      }
    }
  }
});
process.stdin.on('end', () => process.exit(0));
`;

const clients: Client[] = [];
afterEach(async () => {
  for (const client of clients.splice(0)) await client.close();
});

async function connect(maxMessageBytes?: number) {
  const transport = createStdioUpstreamTransport({
    command: process.execPath,
    args: ['-e', SERVER],
    ...(maxMessageBytes === undefined ? {} : { maxMessageBytes }),
  });
  const client = new Client({ name: 'test', version: '1' });
  clients.push(client);
  await client.connect(transport);
  return { client, transport };
}

const textOf = (result: unknown) =>
  (result as { content: Array<{ text: string }> }).content[0]!.text;

describe('createStdioUpstreamTransport', () => {
  it('reads a 27 MB answer whole (the SDK transport stops at 10 MiB)', async () => {
    const { client } = await connect();
    const result = await client.callTool({ name: 'big', arguments: { bytes: 27_000_000 } });
    expect(textOf(result).length).toBe(27_000_000);
    expect(textOf(await client.callTool({ name: 'echo', arguments: { text: 'up' } }))).toBe('up');
  });

  it('answers the call an oversized answer belongs to with an error, and stays connected', async () => {
    const { client, transport } = await connect(1024 * 1024);
    const error = await client
      .callTool({ name: 'big', arguments: { bytes: 3_000_000 } })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(McpError);
    expect((error as McpError).code).toBe(ErrorCode.InternalError);
    expect((error as McpError).message).toContain(
      "the MCP server's answer to tools/call is larger than 1 MiB, the most the proxy reads",
    );
    expect((error as McpError).data).toEqual({ maxMessageBytes: 1024 * 1024 });
    expect(textOf(await client.callTool({ name: 'echo', arguments: { text: 'up' } }))).toBe('up');
    expect(transport.pid).toBeGreaterThan(0);
  });

  it('with two calls waiting, answers the one the oversized answer names once it ends', async () => {
    const { client } = await connect(1024 * 1024);
    const held = client.callTool({ name: 'hold', arguments: {} });
    const big = await client
      .callTool({ name: 'big', arguments: { bytes: 3_000_000 } })
      .catch((e: unknown) => e);
    expect((big as McpError).code).toBe(ErrorCode.InternalError);
    await client.callTool({ name: 'release', arguments: {} });
    expect(textOf(await held)).toBe('released');
  });

  it('answers the only call waiting as soon as an endless answer passes the limit', async () => {
    const { client, transport } = await connect(1024 * 1024);
    const error = await client
      .callTool({ name: 'endless', arguments: {} })
      .catch((e: unknown) => e);
    expect((error as McpError).code).toBe(ErrorCode.InternalError);
    // The server is still running (and still writing); closing ends it.
    const pid = transport.pid!;
    expect(() => process.kill(pid, 0)).not.toThrow();
    await client.close();
    await expect.poll(() => alive(pid), { timeout: 10_000 }).toBe(false);
  });

  it("answers the server's own oversized request with an error, so it does not wait for ever", async () => {
    const { client } = await connect(1024 * 1024);
    const result = await client.callTool({ name: 'ask_big', arguments: {} });
    expect(textOf(result)).toBe(
      'the request is larger than 1 MiB, the most the proxy reads; it was skipped',
    );
  });

  it('refuses a limit that is not a size', () => {
    expect(() => createStdioUpstreamTransport({ command: 'x', maxMessageBytes: 0 })).toThrow(
      /maxMessageBytes/,
    );
  });
});

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}
