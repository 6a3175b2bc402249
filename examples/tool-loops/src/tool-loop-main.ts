import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { ProviderServer } from '@compaction/distiller/test';
import type { ToolLoopRun } from './run-openai-tool-loop.js';
import { startScriptedModel } from './scripted-provider.js';

/** Runs one example: against the real API when `hasKey`, else against the scripted local model. */
export async function runExample(
  name: string,
  hasKey: boolean,
  run: (endpoint: { baseURL?: string; transcriptPath: string }) => Promise<ToolLoopRun>,
): Promise<void> {
  let server: ProviderServer | undefined;
  if (!hasKey) {
    server = await startScriptedModel();
    console.log(
      `No ${name} API key: the SDK talks to a local server playing a scripted model (${server.url}).`,
    );
  }
  const dir = join(process.cwd(), '.demo');
  mkdirSync(dir, { recursive: true });
  const transcriptPath = join(dir, `${name.toLowerCase()}-loop-${Date.now()}.jsonl`);
  try {
    const result = await run({
      ...(server
        ? { baseURL: name === 'OpenAI' ? server.openaiBaseUrl : server.anthropicBaseUrl }
        : {}),
      transcriptPath,
    });
    for (const message of result.toolMessages)
      console.log(`tool message ${message.tool}: ${message.bytes} bytes`);
    console.log(`\nAnswer: ${result.answer}\n\nFull outputs: ${result.artifactsDir}`);
  } finally {
    await server?.close();
  }
}
