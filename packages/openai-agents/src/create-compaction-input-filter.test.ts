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
import fc from 'fast-check';
import OpenAI from 'openai';
import { afterEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { createArtifactTools } from './create-artifact-tools.js';
import { createCompactionInputFilter, shareBudget } from './create-compaction-input-filter.js';

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

    it("leaves the artifact tools' own answers alone when given the tools", async () => {
      const root = await mkdtemp(join(tmpdir(), 'agents-own-'));
      cleanups.push(() => rm(root, { recursive: true, force: true }));
      const { processor, tools } = createArtifactMode({ transcriptPath: join(root, 's.jsonl') });
      const page = `[artifact art_x (f.txt): lines 1-900 of 9000; next: offset=901]\n${'log line\n'.repeat(900)}`;
      const input = [
        { role: 'user', content: 'which pod failed?' },
        {
          type: 'function_call_result',
          name: 'artifact_read',
          status: 'completed',
          callId: 'r',
          output: page,
        },
      ] as CallModelInputFilterArgs['modelData']['input'];
      const args = { modelData: { input }, agent: {} as never, context: undefined };
      const own = await createCompactionInputFilter({ processor, tools, maxResultBytes: 2048 })(
        args,
      );
      expect((own.input[1] as { output: unknown }).output).toBe(page);
      // Without them, the page is an output like any other (stored again and compacted).
      const other = await createCompactionInputFilter({ processor, maxResultBytes: 2048 })(args);
      expect(utf8ByteLength((other.input[1] as { output: string }).output)).toBeLessThanOrEqual(
        2048,
      );
    });

    it('compacts a shell call’s stdout and stderr to the budget in all, short texts and outcomes kept', async () => {
      const compacted: string[] = [];
      const filter = createCompactionInputFilter({
        processor: createStructuralTrimmer(),
        maxResultBytes: 4096,
        onCompacted: (event) => compacted.push(`${event.toolCallId}:${event.reused}`),
      });
      const log = Array.from(
        { length: 3000 },
        (_, i) => `2026-12-02T06:${String(i % 60).padStart(2, '0')} INFO step ${i} ok`,
      );
      log[2100] = '2026-12-02T06:21 ERROR disk full on /var/lib/data';
      const input = [
        { role: 'user', content: 'why did the build fail?' },
        {
          type: 'shell_call_output',
          callId: 's1',
          output: [
            { stdout: 'ok\n', stderr: '', outcome: { type: 'exit', exitCode: 0 } },
            {
              stdout: log.join('\n'),
              stderr: 'warning: x\n'.repeat(900),
              outcome: { type: 'exit', exitCode: 2 },
            },
          ],
        },
      ] as CallModelInputFilterArgs['modelData']['input'];
      const args = { modelData: { input }, agent: {} as never, context: undefined };
      const first = await filter(args);
      const shell = first.input[1] as {
        output: Array<{ stdout: string; stderr: string; outcome: unknown }>;
      };
      const texts = shell.output.flatMap((entry) => [entry.stdout, entry.stderr]);
      expect(texts.reduce((sum, text) => sum + utf8ByteLength(text), 0)).toBeLessThanOrEqual(4096);
      expect(shell.output[0]).toEqual({
        stdout: 'ok\n',
        stderr: '',
        outcome: { type: 'exit', exitCode: 0 },
      });
      expect(shell.output[1]!.outcome).toEqual({ type: 'exit', exitCode: 2 });
      expect(shell.output[1]!.stdout).toContain('ERROR disk full');
      for (const text of [shell.output[1]!.stdout, shell.output[1]!.stderr]) {
        expect(trailingDisclosureNotes(text).length).toBe(1);
      }
      const second = await filter(args);
      expect(JSON.stringify(second.input)).toBe(JSON.stringify(first.input));
      expect(compacted.slice(0, 4)).toEqual(['s1#2:false', 's1#3:false', 's1#2:true', 's1#3:true']);
      // Too many long texts for a share each: one view of them all, in the first stdout.
      const many = Array.from({ length: 20 }, (_, i) => ({
        stdout: `${i}: ${'line of output\n'.repeat(700)}`,
        stderr: '',
        outcome: { type: 'exit', exitCode: i === 13 ? 1 : 0 },
      }));
      const crowded = await filter({
        ...args,
        modelData: {
          input: [{ type: 'shell_call_output', callId: 's3', output: many }] as typeof input,
        },
      });
      const merged = (crowded.input[0] as typeof shell).output;
      expect(merged.map((entry) => entry.outcome)).toEqual(many.map((entry) => entry.outcome));
      expect(merged[0]!.stdout).toContain('[command 1 stdout]');
      expect(utf8ByteLength(merged[0]!.stdout)).toBeLessThanOrEqual(4096);
      expect(merged.slice(1).every((entry) => entry.stdout === '' && entry.stderr === '')).toBe(
        true,
      );
      expect(trailingDisclosureNotes(merged[0]!.stdout).length).toBe(1);
      // A shell output within the budget passes as it is.
      const small = [{ type: 'shell_call_output', callId: 's2', output: [shell.output[0]] }];
      const passed = await filter({ ...args, modelData: { input: small as typeof input } });
      expect(passed.input[0]).toBe(small[0]);
    });

    it('shares a budget: short texts keep their size, long ones split the rest', () => {
      expect(shareBudget([10, 5000, 3000], 4096)).toEqual([10, 2043, 2043]);
      expect(shareBudget([10, 20], 4096)).toEqual([10, 20]);
      expect(shareBudget([1000, 5000], 4096)).toEqual([1000, 3096]);
      // Too many long texts for a trim each: undefined (they are viewed as one).
      expect(shareBudget(Array(20).fill(10_000), 4096)).toBeUndefined();
      fc.assert(
        fc.property(
          fc.array(fc.nat(20_000), { minLength: 1, maxLength: 12 }),
          fc.integer({ min: 256, max: 50_000 }),
          (sizes, budget) => {
            const shares = shareBudget(sizes, budget);
            if (!shares) return;
            expect(
              shares.reduce((sum, share, i) => sum + Math.min(share, sizes[i]!), 0),
            ).toBeLessThanOrEqual(budget);
            shares.forEach((share, i) => {
              expect(share).toBeLessThanOrEqual(sizes[i]!);
              if (share < sizes[i]!) expect(share).toBeGreaterThanOrEqual(256);
            });
          },
        ),
      );
    });
  },
);
