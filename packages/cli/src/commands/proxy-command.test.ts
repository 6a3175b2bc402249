import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Anthropic from '@anthropic-ai/sdk';
import { fakeToolCallAnswer, startFakeUpstream } from '@compaction/proxy/test';
import { describe, expect, it, vi } from 'vitest';
import { binaryBuilt, runBinary } from '../test-support/run-binary.js';
import { startProxyBinary } from '../test-support/start-proxy-binary.js';

const log = Array.from({ length: 3000 }, (_, i) => `line ${i}: build step ok`).join('\n');

/** A question, a Bash call, and its result `output`. */
const buildCheck = (output: string): Anthropic.MessageParam[] => [
  { role: 'user', content: 'check the build' },
  { role: 'assistant', content: [{ type: 'tool_use', id: 't1', name: 'Bash', input: {} }] },
  { role: 'user', content: [{ type: 'tool_result', tool_use_id: 't1', content: output }] },
];

/** `compaction proxy` in front of `upstream`, on a fresh folder, results held to 4096 bytes. */
async function startOn(upstream: { url: string }, ...flags: string[]) {
  const dir = await mkdtemp(join(tmpdir(), 'proxy-cli-'));
  const proxy = await startProxyBinary([
    '--dir',
    dir,
    '--upstream-anthropic',
    upstream.url,
    '--max-bytes',
    '4096',
    ...flags,
  ]);
  return { dir, proxy };
}

describe('compaction proxy', () => {
  it('refuses to listen beyond loopback without a token, and rejects a bad port', () => {
    if (!binaryBuilt()) return;
    const open = runBinary(['proxy', '--host', '0.0.0.0', '--port', '0']);
    expect(open.status).toBe(2);
    expect(open.stderr).toContain('needs a token');
    expect(runBinary(['proxy', '--port', '70000']).status).toBe(2);
  });

  it('prints its URL, compacts what goes upstream, logs each request without its key, and stops on SIGTERM', async () => {
    if (!binaryBuilt()) return;
    const upstream = await startFakeUpstream();
    const { dir, proxy } = await startOn(upstream);
    try {
      expect(proxy.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
      const client = new Anthropic({ apiKey: 'sk-ant-secret', baseURL: proxy.url, maxRetries: 0 });
      await client.messages.create({
        model: 'claude-x',
        max_tokens: 10,
        messages: buildCheck(log),
      });
      const sent = JSON.parse(upstream.requests[0]!.body).messages[2].content[0].content;
      expect(Buffer.byteLength(sent)).toBeLessThanOrEqual(4096);
      const path = / in the file (\/\S+) \(/.exec(sent)![1]!;
      expect(path.startsWith(dir)).toBe(true);
      expect(await readFile(path, 'utf8')).toBe(log);
      expect(proxy.stderr()).toMatch(
        /compaction proxy: anthropic-messages \/v1\/messages c_[0-9a-f]{16}: 1 tool results, 1 rewritten; \d+ → \d+ bytes/,
      );
      expect(proxy.stderr()).not.toContain('sk-ant-secret');
    } finally {
      expect(await proxy.stop()).toBe(0);
      await upstream.close();
      await rm(dir, { recursive: true, force: true });
    }
  });

  it("with --artifact-tools, answers the model's artifact_read itself and logs the calls it answered", async () => {
    if (!binaryBuilt()) return;
    const upstream = await startFakeUpstream((request) =>
      request.body.includes('"toolu_read"')
        ? undefined
        : fakeToolCallAnswer(request, [
            {
              id: 'toolu_read',
              name: 'artifact_read',
              input: { id: /artifact (art_[0-9a-f]{24})/.exec(request.body)![1]!, offset: -1 },
            },
          ]),
    );
    const { dir, proxy } = await startOn(upstream, '--artifact-tools');
    try {
      const client = new Anthropic({ apiKey: 'k', baseURL: proxy.url, maxRetries: 0 });
      const answer = await client.messages.create({
        model: 'claude-x',
        max_tokens: 10,
        messages: buildCheck(log),
      });
      expect(answer.content).toEqual([{ type: 'text', text: 'fake answer' }]);
      expect(upstream.requests).toHaveLength(2);
      const read = JSON.parse(upstream.requests[1]!.body).messages[4].content[0].content;
      expect(read).toMatch(
        /: lines 3000-3000 of 3000; end of artifact\]\nline 2999: build step ok$/,
      );
      // The line is written once the answer has gone out.
      await vi.waitFor(() =>
        expect(proxy.stderr()).toContain('; artifact tools added, 1 calls answered'),
      );
    } finally {
      expect(await proxy.stop()).toBe(0);
      await upstream.close();
      await rm(dir, { recursive: true, force: true });
    }
  });
});
