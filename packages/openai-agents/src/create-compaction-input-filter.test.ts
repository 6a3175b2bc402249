import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { trailingDisclosureNotes, utf8ByteLength } from '@compaction/core';
import { bigJsonResult } from '@compaction/core/test';
import { createProviderServer } from '@compaction/distiller/test';
import { createArtifactMode } from '@compaction/orchestration';
import { artifactFollowingModel, checkArtifactView } from '@compaction/orchestration/test';
import { skipBelowNode } from '@compaction/test-runtime';
import { createStructuralTrimmer } from '@compaction/trimmer';
import {
  Agent,
  type CallModelInputFilterArgs,
  OpenAIChatCompletionsModel,
  run,
  setTracingDisabled,
  tool,
} from '@openai/agents';
import OpenAI from 'openai';
import { afterEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { createArtifactTools } from './create-artifact-tools.js';
import { createCompactionInputFilter } from './create-compaction-input-filter.js';

const cleanups: Array<() => Promise<unknown>> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0)) await cleanup();
});

// @openai/agents runs on openai 7, which declares Node >= 22.
describe.skipIf(skipBelowNode(22, 'the OpenAI Agents SDK tests'))(
  'createCompactionInputFilter with the real Agents SDK',
  () => {
    it('a 2 MB JSON tool output reaches the model within budget, noted, byte-stable, with a pointer artifact_read resolves', async () => {
      setTracingDisabled(true);
      const server = await createProviderServer({
        handler: artifactFollowingModel({ tool: 'list_pods', pattern: 'OOMKilled' }),
      });
      const root = await mkdtemp(join(tmpdir(), 'openai-agents-'));
      cleanups.push(
        () => server.close(),
        () => rm(root, { recursive: true, force: true }),
      );
      const artifacts = createArtifactMode({ transcriptPath: join(root, 's1.jsonl') });
      const listPods = tool({
        name: 'list_pods',
        description: 'Every pod of the cluster as JSON.',
        parameters: z.object({}),
        execute: async () => bigJsonResult(),
      });
      const agent = new Agent({
        name: 'sre',
        instructions: 'Find failing pods.',
        model: new OpenAIChatCompletionsModel(
          new OpenAI({ apiKey: 'local', baseURL: server.openaiBaseUrl, maxRetries: 0 }),
          'gpt-test',
        ),
        tools: [listPods, ...createArtifactTools(artifacts.tools)],
      });
      const result = await run(agent, 'Which pod failed and why?', {
        callModelInputFilter: createCompactionInputFilter({
          processor: artifacts.processor,
          maxResultBytes: 16_384,
        }),
        maxTurns: 6,
      });
      expect(server.requests).toHaveLength(3);
      expect(server.requests[0]!.toolNames).toEqual([
        'list_pods',
        'artifact_read',
        'artifact_search',
      ]);
      const view = server.requests[1]!.toolResults[0]!.content;
      const report = await checkArtifactView(view, artifacts.tools, artifacts.dir);
      // The one pointer line of @compaction/artifacts, followed as `compaction read` does.
      expect(report.pointer?.id).toBe(report.artifactId);
      expect(report.resolved).toMatchObject({ sameByFile: true, digestMatches: true });
      expect(report.resolved!.page.length).toBeGreaterThan(0);
      expect(report.bytes).toBeLessThanOrEqual(16_384);
      expect(report.notes.length).toBeGreaterThan(0);
      expect(report.read).toContain(`[artifact ${report.artifactId} (`);
      expect(server.requests[2]!.toolResults[0]!.content).toBe(view);
      expect(server.requests[2]!.toolResults[1]!.content).toContain(': 1 match;');
      expect(result.finalOutput).toMatch(
        new RegExp(
          `^The stored result says: \\[artifact ${report.artifactId} \\([^)]+\\): 1 match; \\d+ lines\\]$`,
        ),
      );
      expect(server.requests.every((request) => request.bodyBytes < 40_000)).toBe(true);
    });

    it('compacts string, text and multi-part outputs, keeps images, and leaves the rest alone', async () => {
      const compacted: string[] = [];
      const filter = createCompactionInputFilter({
        processor: createStructuralTrimmer(),
        maxResultBytes: 2048,
        onCompacted: (event) => compacted.push(`${event.toolCallId}:${event.reused}`),
      });
      const pods = bigJsonResult(200_000);
      const base = {
        type: 'function_call_result',
        name: 'list_pods',
        status: 'completed',
      } as const;
      const input = [
        { role: 'user', content: 'which pod failed?' },
        { ...base, callId: 'a', output: pods },
        { ...base, callId: 'b', output: { type: 'text', text: pods } },
        {
          ...base,
          callId: 'c',
          output: [
            { type: 'input_text', text: pods },
            { type: 'input_image', image: 'data:image/png;base64,iVBORw0KGgo=' },
            { type: 'input_text', text: 'more' },
          ],
        },
        { ...base, callId: 'd', output: 'small' },
      ] as CallModelInputFilterArgs['modelData']['input'];
      const args = { modelData: { input }, agent: {} as never, context: undefined };
      const first = await filter(args);
      const texts = first.input.map((item) => JSON.stringify(item));
      const [, a, b, c, d] = first.input as Array<{ output: unknown }>;
      for (const view of [a!.output, (b!.output as { text: string }).text]) {
        expect(utf8ByteLength(view as string)).toBeLessThanOrEqual(2048);
        expect(trailingDisclosureNotes(view as string).length).toBe(1);
      }
      const parts = c!.output as Array<{ type: string; text?: string }>;
      expect(parts.map((part) => part.type)).toEqual(['input_text', 'input_image']);
      expect(utf8ByteLength(parts[0]!.text!)).toBeLessThanOrEqual(2048);
      expect(d!.output).toBe('small');
      expect(first.input[0]).toBe(input[0]);
      const second = await filter(args);
      expect(second.input.map((item) => JSON.stringify(item))).toEqual(texts);
      expect(compacted).toEqual(['a:false', 'b:false', 'c:false', 'a:true', 'b:true', 'c:true']);
    });
  },
);
