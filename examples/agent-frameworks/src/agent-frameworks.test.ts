import { existsSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createProviderServer } from '@compaction/distiller/test';
import { artifactFollowingModel } from '@compaction/orchestration/test';
import { skipBelowNode } from '@compaction/test-runtime';
import { afterEach, describe, expect, it } from 'vitest';
import type { AgentSettings } from './agent-settings.js';

const cleanups: Array<() => Promise<unknown>> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0)) await cleanup();
});

async function offline(): Promise<{ settings: AgentSettings; bodies: () => number[] }> {
  const server = await createProviderServer({
    handler: artifactFollowingModel({ tool: 'list_pods', pattern: 'OOMKilled' }),
  });
  const root = await mkdtemp(join(tmpdir(), 'agent-frameworks-'));
  cleanups.push(
    () => server.close(),
    () => rm(root, { recursive: true, force: true }),
  );
  return {
    settings: {
      apiKey: 'local',
      baseURL: server.openaiBaseUrl,
      model: 'gpt-test',
      transcriptPath: join(root, 's1.jsonl'),
    },
    bodies: () => server.requests.map((request) => request.bodyBytes),
  };
}

// Each agent: the model is offered list_pods and the artifact tools, gets the 2 MB result as a
// pointer and a view, searches the stored result and answers from what the search found.
const ANSWER =
  /^The stored result says: \[artifact art_[0-9a-f]{24} \([^)]+\): 1 match; \d+ lines\]$/;

describe('the example agents, offline against the scripted model', () => {
  it('AI SDK', async () => {
    const { runAiSdkAgent } = await import('./run-ai-sdk-agent.js');
    const { settings, bodies } = await offline();
    expect(await runAiSdkAgent(settings)).toMatch(ANSWER);
    expect(bodies()).toHaveLength(3);
    expect(Math.max(...bodies())).toBeLessThan(30_000);
  });

  it.skipIf(skipBelowNode(22, 'the AI SDK 7 example'))('Vercel AI SDK 7', async () => {
    const { runAiSdk7Agent } = await import('./run-ai-sdk-7-agent.js');
    const { settings, bodies } = await offline();
    expect(await runAiSdk7Agent(settings)).toMatch(ANSWER);
    expect(bodies()).toHaveLength(3);
    expect(Math.max(...bodies())).toBeLessThan(30_000);
  });

  it('LangChain createAgent', async () => {
    const { runLangChainAgent } = await import('./run-langchain-agent.js');
    const { settings, bodies } = await offline();
    expect(await runLangChainAgent(settings)).toMatch(ANSWER);
    expect(Math.max(...bodies())).toBeLessThan(30_000);
  });

  it.skipIf(skipBelowNode(22, 'the OpenAI Agents SDK example'))('OpenAI Agents SDK', async () => {
    const { runOpenAIAgentsAgent } = await import('./run-openai-agents-agent.js');
    const { settings, bodies } = await offline();
    expect(await runOpenAIAgentsAgent(settings)).toMatch(ANSWER);
    expect(Math.max(...bodies())).toBeLessThan(30_000);
  });
});

const BUILT = ['../../../packages/cli/dist/bin.js', '../../../packages/mcp/dist/test/index.js'].map(
  (path) => new URL(path, import.meta.url),
);
function proxyBuilt(): boolean {
  if (BUILT.every((url) => existsSync(url))) return true;
  if (process.env.CI === 'true')
    throw new Error('build the CLI and @compaction/mcp before testing');
  return false;
}

describe.skipIf(!proxyBuilt())('the example MCP client, through compaction mcp-proxy', () => {
  it('gets list_pods within --max-bytes, with a pointer artifact_search follows', async () => {
    const { runMcpProxyClient } = await import('./run-mcp-proxy-client.js');
    const dir = await mkdtemp(join(tmpdir(), 'agent-frameworks-mcp-'));
    cleanups.push(() => rm(dir, { recursive: true, force: true }));
    const run = await runMcpProxyClient({ dir });
    expect(run.viewBytes).toBeLessThanOrEqual(16_384);
    expect(run.pointer).toMatch(/^Full output stored as artifact art_[0-9a-f]{24} \(/);
    expect(run.found).toMatch(/^\[artifact art_[0-9a-f]{24} \([^)]+\): 1 match; \d+ lines\]$/);
  });
});
