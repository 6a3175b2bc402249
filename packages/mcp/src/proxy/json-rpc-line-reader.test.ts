import type { JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';
import { describe, expect, it } from 'vitest';
import { createJsonRpcLineReader, type OversizedLine } from './json-rpc-line-reader.js';

function reader(maxMessageBytes: number) {
  const messages: JSONRPCMessage[] = [];
  const errors: string[] = [];
  const oversized: OversizedLine[] = [];
  const lines = createJsonRpcLineReader({
    maxMessageBytes,
    onMessage: (message) => messages.push(message),
    onError: (error) => errors.push(error.message),
    onOversized: (line) => oversized.push(line),
  });
  return { lines, messages, errors, oversized };
}

/** `text` pushed in pieces of `size` bytes, as a pipe delivers it. */
function pushInPieces(lines: { push(chunk: Buffer): void }, text: string, size: number) {
  const bytes = Buffer.from(text);
  for (let at = 0; at < bytes.length; at += size) lines.push(bytes.subarray(at, at + size));
}

const ping = (id: number) => `${JSON.stringify({ jsonrpc: '2.0', id, method: 'ping' })}\n`;
// How the TypeScript SDK writes an answer: result first, id last.
const answer = (id: number, text: string) =>
  `${JSON.stringify({ result: { content: [{ type: 'text', text }] }, jsonrpc: '2.0', id })}\n`;

describe('createJsonRpcLineReader', () => {
  it('reads messages split anywhere across chunks, with CRLF and blank lines', () => {
    const { lines, messages, errors } = reader(1 << 20);
    const stream = `${ping(1)}\r\n\n${answer(2, 'héllo ✓')}${ping(3).replace('\n', '\r\n')}`;
    for (const size of [1, 2, 7, 64]) {
      messages.length = 0;
      pushInPieces(lines, stream, size);
      expect(messages.map((m) => (m as { id: number }).id)).toEqual([1, 2, 3]);
    }
    expect(errors).toEqual([]);
  });

  it('reads a 27 MB message that arrives in 64 KB chunks', () => {
    const { lines, messages, oversized } = reader(64 * 1024 * 1024);
    const text = 'INFO pod web-1 ready\n'.repeat(1_300_000);
    pushInPieces(lines, answer(7, text), 65_536);
    expect(oversized).toEqual([]);
    expect(messages).toHaveLength(1);
    const result = (messages[0] as unknown as { result: { content: Array<{ text: string }> } })
      .result;
    expect(result.content[0]!.text.length).toBe(text.length);
  });

  it('reports a line that is not JSON-RPC and reads on', () => {
    const { lines, messages, errors } = reader(1 << 20);
    pushInPieces(lines, `this is not JSON\n{"id":1}\n${ping(2)}`, 5);
    expect(errors).toHaveLength(2);
    expect(errors[0]).toContain('not a JSON-RPC message: "this is not JSON"');
    expect(messages).toHaveLength(1);
  });

  it('skips a line over the limit as it comes, telling the id from its end, and reads on', () => {
    const { lines, messages, oversized } = reader(4096);
    pushInPieces(lines, `${answer(5, 'x'.repeat(100_000))}${ping(6)}`, 1000);
    expect(oversized).toEqual([
      { bytes: expect.any(Number), ended: false, kind: 'response' },
      { bytes: utf8(answer(5, 'x'.repeat(100_000))) - 1, ended: true, kind: 'response', id: 5 },
    ]);
    expect(oversized[0]!.bytes).toBeGreaterThan(4096);
    expect(messages).toEqual([{ jsonrpc: '2.0', id: 6, method: 'ping' }]);
  });

  it('tells the id from the start when the writer puts it first, and a request from an answer', () => {
    const { lines, oversized } = reader(4096);
    const first = `{"jsonrpc":"2.0","id":"call-9","result":{"text":"${'y'.repeat(10_000)}"}}\n`;
    const request = `{"method":"sampling/createMessage","params":{"x":"${'z'.repeat(10_000)}"},"jsonrpc":"2.0","id":3}\n`;
    pushInPieces(lines, first + request, 3000);
    expect(oversized.map(({ ended, kind, id }) => ({ ended, kind, id }))).toEqual([
      { ended: false, kind: 'response', id: 'call-9' },
      { ended: true, kind: 'response', id: 'call-9' },
      { ended: false, kind: 'request', id: undefined },
      { ended: true, kind: 'request', id: 3 },
    ]);
  });

  it('reports a line over the limit once when one chunk holds all of it', () => {
    const { lines, oversized, messages } = reader(100);
    lines.push(Buffer.from(`${answer(1, 'x'.repeat(500))}${ping(2)}`));
    expect(oversized).toEqual([
      { bytes: expect.any(Number), ended: true, kind: 'response', id: 1 },
    ]);
    expect(messages).toHaveLength(1);
  });

  it('holds nothing of an endless line but its edges', () => {
    const { lines, oversized } = reader(1000);
    lines.push(Buffer.from('{"result":{"text":"'));
    const chunk = Buffer.alloc(65_536, 'x');
    for (let i = 0; i < 200; i++) lines.push(chunk);
    expect(oversized).toEqual([{ bytes: expect.any(Number), ended: false, kind: 'response' }]);
  });
});

function utf8(text: string): number {
  return Buffer.byteLength(text);
}
