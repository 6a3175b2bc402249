import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Anthropic from '@anthropic-ai/sdk';
import { startFakeUpstream } from '@compaction/proxy/test';
import { describe, expect, it } from 'vitest';
import { binaryBuilt, runBinary } from '../test-support/run-binary.js';
import { startProxyBinary } from '../test-support/start-proxy-binary.js';

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
    const dir = await mkdtemp(join(tmpdir(), 'proxy-cli-'));
    const proxy = await startProxyBinary([
      '--dir',
      dir,
      '--upstream-anthropic',
      upstream.url,
      '--max-bytes',
      '4096',
    ]);
    try {
      expect(proxy.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
      const log = Array.from({ length: 3000 }, (_, i) => `line ${i}: build step ok`).join('\n');
      const client = new Anthropic({ apiKey: 'sk-ant-secret', baseURL: proxy.url, maxRetries: 0 });
      await client.messages.create({
        model: 'claude-x',
        max_tokens: 10,
        messages: [
          { role: 'user', content: 'check the build' },
          { role: 'assistant', content: [{ type: 'tool_use', id: 't1', name: 'Bash', input: {} }] },
          { role: 'user', content: [{ type: 'tool_result', tool_use_id: 't1', content: log }] },
        ],
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
});
