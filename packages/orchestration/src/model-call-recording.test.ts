import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { createArtifactLibrary } from '@compaction/artifacts';
import type { StepRecord } from '@compaction/core';
import { createOpenAIClient } from '@compaction/distiller/openai';
import { createProviderServer } from '@compaction/distiller/test';
import { describe, expect, it } from 'vitest';
import { createCompaction } from './create-compaction.js';

const bigLog = Array.from(
  { length: 60_000 },
  (_, i) => `line ${i} INFO request ok latency=${i % 97}ms`,
).join('\n');

describe('COMPACTION_LLM_DEBUG_ENABLED with a transcript', () => {
  it('records every distill call, with request and step ids, beside the transcript for the inspector', async () => {
    const server = await createProviderServer({
      handler: () => ({ text: 'no errors in this segment' }),
    });
    const root = await mkdtemp(join(tmpdir(), 'model-calls-'));
    try {
      const transcriptPath = join(root, 'run-9.jsonl');
      const compaction = createCompaction({
        env: {
          COMPACTION_LLM_DEBUG_ENABLED: 'true',
          COMPACTION_RESULT_DISTILL_MAPREDUCE_THRESHOLD: '1000000',
        },
        transcriptPath,
        aiClient: createOpenAIClient({
          env: { OPENAI_API_KEY: 'k', OPENAI_BASE_URL: server.openaiBaseUrl },
          maxRetries: 0,
        }),
      });
      const steps: StepRecord[] = [
        { id: 'step-1', status: 'succeeded', toolName: 'fetch_logs', result: bigLog },
      ];
      await compaction.assembleSynthesis(steps, { requestId: 'req-77' });
      await compaction.flush();
      expect(compaction.llmDebug!.records.length).toBe(server.requests.length);
      const calls = await createArtifactLibrary({ root: dirname(transcriptPath) }).modelCalls(
        'run-9',
      );
      expect(calls.length).toBe(server.requests.length);
      expect(calls.map((call) => call.description)).toContain('map-reduce reduce');
      expect(calls.some((call) => /^map-reduce chunk 1\/\d+$/.test(call.description))).toBe(true);
      expect(calls.every((call) => call.requestId === 'req-77' && call.stepId === 'step-1')).toBe(
        true,
      );
    } finally {
      await server.close();
      await rm(root, { recursive: true, force: true });
    }
  });
});
