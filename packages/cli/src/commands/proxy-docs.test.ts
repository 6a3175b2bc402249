import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Anthropic from '@anthropic-ai/sdk';
import { startFakeUpstream } from '@compaction/proxy/test';
import OpenAI from 'openai';
import { describe, expect, it } from 'vitest';
import {
  envAssignments,
  onPort,
  proxyDocBlock,
  proxyDocClients,
} from '../test-support/proxy-doc.js';
import { binaryBuilt } from '../test-support/run-binary.js';
import { startProxyBinary } from '../test-support/start-proxy-binary.js';
import { proxyCommand } from './proxy-command.js';

/** The flags of a doc's `compaction proxy … &` line, its upstream pointed at `upstream`. */
function proxyFlags(line: string, upstream: string): string[] {
  expect(line).toMatch(/^compaction proxy( .*)? &$/);
  const words = line.replace(/ &$/, '').split(' ').slice(2);
  return words.map((word, i) => (words[i - 1]?.startsWith('--upstream-') ? upstream : word));
}

describe('docs/proxy.md', () => {
  it('gives each client kind at most three lines, on the default port the help names', () => {
    expect(proxyDocClients()).toEqual(['claude-code', 'codex', 'openai-compatible', 'sdk']);
    for (const name of proxyDocClients()) expect(proxyDocBlock(name).length).toBeLessThanOrEqual(3);
    expect(proxyCommand.help).toContain('(default: 8787)');
  });

  it.each(['codex', 'openai-compatible'])(
    'the %s lines work as written: the proxy starts with their flags, and the OpenAI SDK on their base URL is compacted',
    async (name) => {
      if (!binaryBuilt()) return;
      const [start, client] = proxyDocBlock(name);
      const upstream = await startFakeUpstream();
      const dir = await mkdtemp(join(tmpdir(), 'proxy-doc-'));
      const proxy = await startProxyBinary([
        ...proxyFlags(start!, upstream.url),
        '--dir',
        dir,
        '--upstream-openai',
        upstream.url,
        '--max-bytes',
        '4096',
      ]);
      try {
        const named =
          envAssignments(client!).OPENAI_BASE_URL ?? /base_url="([^"]+)"/.exec(client!)?.[1];
        const baseURL = onPort(named!, proxy.url);
        const openai = new OpenAI({ apiKey: 'sk-doc', baseURL, maxRetries: 0 });
        const output = 'x'.repeat(20_000);
        await openai.responses.create({
          model: 'gpt-x',
          input: [
            { role: 'user', content: 'go' },
            { type: 'function_call', call_id: 'c1', name: 'shell', arguments: '{}' },
            { type: 'function_call_output', call_id: 'c1', output },
          ],
        });
        expect(upstream.requests[0]!.path).toBe('/v1/responses');
        expect(upstream.requests[0]!.body.length).toBeLessThan(6000);
      } finally {
        expect(await proxy.stop()).toBe(0);
        await upstream.close();
        await rm(dir, { recursive: true, force: true });
      }
    },
  );

  it('the raw SDK lines work as written', async () => {
    if (!binaryBuilt()) return;
    const [anthropicLine, openaiLine] = proxyDocBlock('sdk');
    const upstream = await startFakeUpstream();
    const dir = await mkdtemp(join(tmpdir(), 'proxy-doc-'));
    const proxy = await startProxyBinary([
      '--dir',
      dir,
      '--upstream-openai',
      upstream.url,
      '--upstream-anthropic',
      upstream.url,
    ]);
    try {
      const url = (line: string) => onPort(/baseURL: '([^']+)'/.exec(line)![1]!, proxy.url);
      const anthropic = new Anthropic({ apiKey: 'k', baseURL: url(anthropicLine!), maxRetries: 0 });
      const openai = new OpenAI({ apiKey: 'k', baseURL: url(openaiLine!), maxRetries: 0 });
      await anthropic.messages.create({
        model: 'm',
        max_tokens: 5,
        messages: [{ role: 'user', content: 'hi' }],
      });
      await openai.chat.completions.create({
        model: 'm',
        messages: [{ role: 'user', content: 'hi' }],
      });
      expect(upstream.requests.map((r) => r.path)).toEqual([
        '/v1/messages',
        '/v1/chat/completions',
      ]);
    } finally {
      expect(await proxy.stop()).toBe(0);
      await upstream.close();
      await rm(dir, { recursive: true, force: true });
    }
  });
});
