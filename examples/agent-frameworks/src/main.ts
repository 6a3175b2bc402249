#!/usr/bin/env node
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { createProviderServer, type ProviderServer } from '@compaction/distiller/test';
import { artifactFollowingModel } from '@compaction/orchestration/test';
import type { AgentSettings } from './agent-settings.js';
import { runMcpProxyClient } from './run-mcp-proxy-client.js';

type Runner = (settings: AgentSettings) => Promise<string>;
// Loaded on use: the OpenAI Agents SDK runs on openai 7 and AI SDK 7 declares Node >= 22, so
// both need Node 22 or later.
const AGENTS: Record<string, { minNode: number; load: () => Promise<Runner> }> = {
  'ai-sdk': {
    minNode: 20,
    load: async () => (await import('./run-ai-sdk-agent.js')).runAiSdkAgent,
  },
  'ai-sdk-7': {
    minNode: 22,
    load: async () => (await import('./run-ai-sdk-7-agent.js')).runAiSdk7Agent,
  },
  'openai-agents': {
    minNode: 22,
    load: async () => (await import('./run-openai-agents-agent.js')).runOpenAIAgentsAgent,
  },
  langchain: {
    minNode: 20,
    load: async () => (await import('./run-langchain-agent.js')).runLangChainAgent,
  },
};
const nodeMajor = Number(process.versions.node.split('.')[0]);
const which = process.argv[2] ?? 'all';
if (which !== 'all' && which !== 'mcp-proxy' && !(which in AGENTS)) {
  console.error(
    `usage: node dist/main.js [all|${[...Object.keys(AGENTS), 'mcp-proxy'].join('|')}]`,
  );
  process.exit(2);
}
const dir = join(process.cwd(), '.demo');
mkdirSync(dir, { recursive: true });
const key = process.env.OPENAI_API_KEY;
let server: ProviderServer | undefined;
if (!key && !process.env.OPENAI_BASE_URL) {
  server = await createProviderServer({
    handler: artifactFollowingModel({ tool: 'list_pods', pattern: 'OOMKilled' }),
  });
  console.log(
    `No OPENAI_API_KEY: the SDKs talk to a local server playing a scripted model (${server.url}).`,
  );
}
try {
  for (const [name, agent] of Object.entries(AGENTS)) {
    if (which !== 'all' && which !== name) continue;
    if (nodeMajor < agent.minNode) {
      console.log(
        `\n${name}: needs Node ${agent.minNode} or later (this is ${process.version}); skipped`,
      );
      continue;
    }
    server?.resetStats();
    const run = await agent.load();
    const answer = await run({
      apiKey: key || 'local',
      baseURL: server?.openaiBaseUrl ?? process.env.OPENAI_BASE_URL,
      model: process.env.OPENAI_MODEL ?? 'gpt-5-mini',
      transcriptPath: join(dir, `${name}-${Date.now()}.jsonl`),
    });
    const sizes = server
      ? ` (request bodies: ${server.requests.map((r) => r.bodyBytes).join(', ')} bytes)`
      : '';
    console.log(`\n${name}: ${answer.slice(0, 160)}${sizes}`);
  }
  if (which === 'all' || which === 'mcp-proxy') {
    const run = await runMcpProxyClient({ dir });
    console.log(
      `\nmcp-proxy: list_pods came back as ${run.viewBytes} bytes\n  ${run.pointer}\n  ${run.found}`,
    );
  }
} finally {
  await server?.close();
}
