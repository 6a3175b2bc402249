import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type Anthropic from '@anthropic-ai/sdk';
import type { ResultProcessor } from '@compaction/core';
import { type CompactionProxySettings, createCompactionProxy } from '../create-compaction-proxy.js';
import type { ProxyRequestStats } from '../proxy-request-stats.js';
import { startFakeUpstream } from '../test/index.js';

const cleanups: Array<() => Promise<unknown>> = [];

/** Registers `cleanup` to run in `closeTestProxies`, last registered first. */
export function onTestCleanup(cleanup: () => Promise<unknown>): void {
  cleanups.push(cleanup);
}

/** Stops every upstream and proxy the tests started and removes their folders (for `afterEach`). */
export async function closeTestProxies(): Promise<void> {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
}

/** 200 KB of log lines with one error near the end. */
export const bigLog = (tag: string) =>
  Array.from({ length: 4000 }, (_, i) =>
    i === 3990 ? `ERROR ${tag}: disk quota exceeded on /var/data` : `INFO ${tag} step ${i} ok`,
  ).join('\n');

/** A view that always throws, to see the proxy fail open. */
export const explodingView: ResultProcessor = {
  process: async () => {
    throw new Error('view exploded');
  },
};

/** A question, a Bash call, and its result `log` (a cache breakpoint on it). */
export const anthropicConversation = (log: string): Anthropic.MessageParam[] => [
  { role: 'user', content: 'Why did the nightly job fail?' },
  {
    role: 'assistant',
    content: [{ type: 'tool_use', id: 'toolu_1', name: 'Bash', input: { command: 'cat job.log' } }],
  },
  {
    role: 'user',
    content: [
      {
        type: 'tool_result',
        tool_use_id: 'toolu_1',
        content: log,
        cache_control: { type: 'ephemeral' },
      },
    ],
  },
];

/** A fake upstream, and a proxy in front of it on a fresh folder with 8 KiB results. */
export async function startTestProxy(
  settings: Partial<CompactionProxySettings> = {},
  script?: Parameters<typeof startFakeUpstream>[0],
) {
  const upstream = await startFakeUpstream(script);
  onTestCleanup(() => upstream.close());
  const dir = await mkdtemp(join(tmpdir(), 'compaction-proxy-'));
  onTestCleanup(() => rm(dir, { recursive: true, force: true }));
  const events: ProxyRequestStats[] = [];
  const proxy = createCompactionProxy({
    port: 0,
    dir,
    upstreamAnthropic: upstream.url,
    upstreamOpenai: upstream.url,
    maxResultBytes: 8192,
    env: {},
    onRequest: (event) => events.push(event),
    ...settings,
  });
  const url = await proxy.listen();
  onTestCleanup(() => proxy.close());
  return { upstream, proxy, url, dir, events };
}
