import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createArtifactLibrary } from '@compaction/artifacts';
import { sha256Hex } from '@compaction/artifacts/internal';
import { type ConversationReport, trailingDisclosureNotes, utf8ByteLength } from '@compaction/core';
import { bigJsonResult } from '@compaction/core/test';
import { createProviderServer } from '@compaction/distiller/test';
import { createArtifactMode } from '@compaction/orchestration';
import { artifactFollowingModel, checkArtifactView } from '@compaction/orchestration/test';
import { skipBelowNode } from '@compaction/test-runtime';
import { createStructuralTrimmer } from '@compaction/trimmer';
import {
  Agent,
  type CallModelInputFilter,
  type CallModelInputFilterArgs,
  type Model,
  type ModelRequest,
  OpenAIChatCompletionsModel,
  run,
  setTracingDisabled,
  tool,
  Usage,
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

    it("leaves the artifact tools' own answers alone, with the tools given or by their names", async () => {
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
      // Without them, `artifact_read` is still known by its name; another tool's page is not.
      const named = await createCompactionInputFilter({ processor, maxResultBytes: 2048 })(args);
      expect((named.input[1] as { output: unknown }).output).toBe(page);
      const renamed = structuredClone(input);
      (renamed[1] as { name: string }).name = 'read_page';
      const other = await createCompactionInputFilter({ processor, maxResultBytes: 2048 })({
        ...args,
        modelData: { input: renamed },
      });
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
    it('holds the conversation budget over a scripted 60-call run: pairing, earlier bytes, restart, pointers', async () => {
      setTracingDisabled(true);
      const root = await mkdtemp(join(tmpdir(), 'agents-conversation-'));
      cleanups.push(() => rm(root, { recursive: true, force: true }));
      const transcriptPath = join(root, 's1.jsonl');
      const BUDGET = 48_000;
      const CALLS = 60;
      const reports: ConversationReport[] = [];
      const filterFor = (artifacts: ReturnType<typeof createArtifactMode>) =>
        createCompactionInputFilter({
          processor: artifacts.processor,
          tools: artifacts.tools,
          maxResultBytes: 8192,
          conversation: { ...artifacts.conversation, maxBytes: BUDGET, env: {} },
          onConversation: (report) => reports.push(report),
        });
      const mode = createArtifactMode({ transcriptPath, clock: () => 0 });
      const filter = filterFor(mode);
      type Input = CallModelInputFilterArgs['modelData']['input'];
      const raw: Input[] = [];
      const recording: CallModelInputFilter = (args) => {
        raw.push(args.modelData.input);
        return filter(args);
      };
      const sent: Input[] = [];
      const readsAt = new Set([20, 45, 59]);
      const model: Model = {
        async getResponse(request: ModelRequest) {
          const step = sent.length;
          sent.push(request.input as Input);
          const usage = new Usage();
          if (step === CALLS) {
            const content = [{ type: 'output_text' as const, text: 'done' }];
            const message = { type: 'message', role: 'assistant', status: 'completed', content };
            return { usage, output: [message as never] };
          }
          let name = ['read_file', 'terminal', 'list_items'][step % 3]!;
          let args: unknown = { step };
          if (readsAt.has(step)) {
            // The model follows the pointer of the largest result it sees.
            const pointers = [
              ...JSON.stringify(request.input).matchAll(
                /, (\d+) bytes, (?:sha256 [0-9a-f]{64}, )?stored as (art_[0-9a-f]{24})/g,
              ),
            ].sort((a, b) => Number(b[1]) - Number(a[1]));
            name = 'artifact_read';
            args = { id: pointers[0]?.[2], offset: 1, limit: 400 };
          }
          const call = {
            type: 'function_call',
            callId: `call-${step}`,
            name,
            arguments: JSON.stringify(args),
            status: 'completed',
          };
          return { usage, output: [call as never] };
        },
        getStreamedResponse() {
          throw new Error('not streamed');
        },
      };
      const sizeOf = (step: number) =>
        1000 + ((step * 7919) % 12_000) + (step % 20 === 7 ? 60_000 : 0);
      const stepArg = z.object({ step: z.number() });
      const tools = [
        tool({
          name: 'read_file',
          description: 'A file.',
          parameters: stepArg,
          execute: async ({ step }) =>
            Array.from(
              { length: Math.ceil(sizeOf(step) / 40) },
              (_, i) => `${step}:${i} const value = compute(${i});`,
            ).join('\n'),
        }),
        tool({
          name: 'terminal',
          description: 'A command.',
          parameters: stepArg,
          execute: async ({ step }) =>
            Array.from({ length: Math.ceil(sizeOf(step) / 50) }, (_, i) =>
              i % 97 === 3
                ? `2026-01-01T00:00:00Z ERROR step ${step} test ${i} failed`
                : `2026-01-01T00:00:00Z INFO step ${step} test ${i} ok`,
            ).join('\n'),
        }),
        tool({
          name: 'list_items',
          description: 'Items.',
          parameters: stepArg,
          execute: async ({ step }) =>
            JSON.stringify(
              Array.from({ length: Math.ceil(sizeOf(step) / 60) }, (_, i) => ({
                id: `${step}-${i}`,
                state: i % 13 ? 'ok' : 'failed',
              })),
            ),
        }),
        ...createArtifactTools(mode.tools),
      ];
      const agent = new Agent({ name: 'runner', instructions: 'Run the plan.', model, tools });
      const result = await run(agent, 'Run the whole test plan and tell me what failed.', {
        callModelInputFilter: recording,
        maxTurns: CALLS + 2,
      });
      expect(result.finalOutput).toBe('done');
      expect(sent).toHaveLength(CALLS + 1);

      type Item = Input[number];
      const results = (input: Input) =>
        input.filter(
          (item): item is Extract<Item, { type: 'function_call_result' }> =>
            item.type === 'function_call_result',
        );
      const textOf = (item: Item) => {
        const output = (item as { output: unknown }).output;
        return typeof output === 'string' ? output : (output as { text: string }).text;
      };
      let breaks = 0;
      let previous: string[] = [];
      for (const [k, input] of sent.entries()) {
        const texts = results(input).map(textOf);
        const total = texts.reduce((sum, text) => sum + utf8ByteLength(text), 0);
        expect(total).toBeLessThanOrEqual(BUDGET);
        // Pairing: the same items and call ids as the input the runner built.
        expect(input.map((item) => item.type ?? 'message')).toEqual(
          raw[k]!.map((item) => item.type ?? 'message'),
        );
        const calledIds = input.flatMap((item) =>
          item.type === 'function_call' ? [item.callId] : [],
        );
        expect(results(input).map((item) => item.callId)).toEqual(calledIds);
        expect(results(raw[k]!).map((item) => item.callId)).toEqual(calledIds);
        // Earlier results keep their bytes, except at a step-down, which only a crossing causes.
        if (previous.some((text, i) => texts[i] !== text)) {
          breaks++;
          const grown =
            previous.reduce((sum, text) => sum + utf8ByteLength(text), 0) +
            texts.slice(previous.length).reduce((sum, text) => sum + utf8ByteLength(text), 0);
          expect(grown).toBeGreaterThan(BUDGET);
        }
        // An artifact read reaches the model whole the call after it.
        const newest = results(input).at(-1);
        if (newest?.name === 'artifact_read')
          expect(textOf(newest)).toBe(textOf(results(raw[k]!).at(-1)!));
        previous = texts;
      }
      expect(reports.at(-1)!.stepDowns).toBe(breaks);
      expect(breaks).toBeGreaterThan(0);
      expect(breaks).toBeLessThan(CALLS / 3);

      // A restarted process (a fresh artifact mode and filter) sends the same input.
      const restarted = filterFor(createArtifactMode({ transcriptPath, clock: () => 1 }));
      const again = await restarted({
        modelData: { input: raw.at(-1)!, instructions: 'Run the plan.' },
        agent: agent as never,
        context: undefined,
      });
      expect(again.input).toEqual(sent.at(-1));

      // Every pointer resolves to stored bytes whose sha256 matches, and they are the output.
      const library = createArtifactLibrary({ root });
      const original = results(raw.at(-1)!);
      let pointers = 0;
      let short = 0;
      for (const [i, item] of results(sent.at(-1)!).entries()) {
        const line = textOf(item).split('\n')[0]!;
        if (!line.startsWith('[stepped down: ')) continue;
        pointers++;
        const [, sha, id] = /(?:sha256 ([0-9a-f]{64}), )?stored as (art_[0-9a-f]{24})/.exec(line)!;
        const found = await library.resolve(id!);
        const bytes = await readFile(join(found.dir, found.record.path));
        // A short line names no SHA-256: the index record it resolves to does.
        expect(sha256Hex(bytes)).toBe(sha ?? found.record.digest);
        if (!sha) short++;
        expect(bytes.toString('utf8')).toBe(textOf(original[i]!));
      }
      expect(pointers).toBeGreaterThan(10);
      // Pointer lines of earlier step-downs are in their short form.
      expect(short).toBeGreaterThan(0);
      const pages = original.filter((item) => item.name === 'artifact_read');
      expect(pages.map((item) => textOf(item).slice(0, 14))).toEqual(
        Array(3).fill('[artifact art_'),
      );
    });
    it('counts shell call outputs in the conversation budget and steps older ones down to a pointer', async () => {
      const root = await mkdtemp(join(tmpdir(), 'agents-shell-'));
      cleanups.push(() => rm(root, { recursive: true, force: true }));
      const mode = createArtifactMode({ transcriptPath: join(root, 's.jsonl'), env: {} });
      const reports: ConversationReport[] = [];
      const filter = createCompactionInputFilter({
        processor: mode.processor,
        tools: mode.tools,
        maxResultBytes: 4096,
        conversation: { ...mode.conversation, maxBytes: 12_000, env: {} },
        onConversation: (report) => reports.push(report),
      });
      const logOf = (k: number) =>
        Array.from({ length: 400 }, (_, i) => `run ${k} step ${i} ok`).join('\n');
      const input: Array<Record<string, unknown>> = [{ role: 'user', content: 'build it' }];
      for (let k = 0; k < 6; k++) {
        input.push(
          {
            type: 'shell_call',
            callId: `s${k}`,
            status: 'completed',
            action: { commands: ['make'] },
          },
          {
            type: 'shell_call_output',
            callId: `s${k}`,
            output: [{ stdout: logOf(k), stderr: '', outcome: { type: 'exit', exitCode: 0 } }],
          },
        );
      }
      type Input = CallModelInputFilterArgs['modelData']['input'];
      const args = { modelData: { input: input as Input }, agent: {} as never, context: undefined };
      const { input: sent } = await filter(args);
      type Shell = { callId: string; output: Array<{ stdout: string; stderr: string }> };
      const shells = sent.filter((item) => item.type === 'shell_call_output') as Shell[];
      const bytes = shells.map((item) =>
        item.output.reduce((sum, entry) => sum + utf8ByteLength(entry.stdout + entry.stderr), 0),
      );
      expect(bytes.reduce((a, b) => a + b, 0)).toBeLessThanOrEqual(12_000);
      expect(reports.at(-1)!.pointers).toBeGreaterThan(0);
      const first = shells[0]!.output[0]!.stdout;
      const [, sha, id] = /(?:sha256 ([0-9a-f]{64}), )?stored as (art_[0-9a-f]{24})/.exec(first)!;
      const found = await createArtifactLibrary({ root }).resolve(id!);
      const stored = await readFile(join(found.dir, found.record.path));
      expect(sha256Hex(stored)).toBe(sha ?? found.record.digest);
      expect(stored.toString('utf8')).toContain(logOf(0));
      // The newest keeps its per-text view; the pairing with its shell_call is untouched.
      expect(shells.at(-1)!.output[0]!.stdout).toContain('run 5 step 0 ok');
      expect(sent.map((item) => item.type)).toEqual(input.map((item) => item.type));
    });

    it('reads the conversation budget from COMPACTION_CONVERSATION_* and turns it off with false', async () => {
      const input = [{ role: 'user', content: 'what failed?' }] as Array<Record<string, unknown>>;
      for (let i = 0; i < 6; i++) {
        input.push(
          { type: 'function_call', callId: `c${i}`, name: 'logs', arguments: '{}' },
          {
            type: 'function_call_result',
            callId: `c${i}`,
            name: 'logs',
            status: 'completed',
            output: `${i} INFO ok\n`.repeat(150),
          },
        );
      }
      const args = {
        modelData: { input: input as CallModelInputFilterArgs['modelData']['input'] },
        agent: {} as never,
        context: undefined,
      };
      const total = (out: { input: unknown[] }) =>
        out.input.reduce<number>(
          (sum, item) =>
            sum +
            ((item as { type?: string }).type === 'function_call_result'
              ? utf8ByteLength((item as { output: string }).output)
              : 0),
          0,
        );
      const reports: ConversationReport[] = [];
      const env = { COMPACTION_CONVERSATION_MAX_BYTES: '4096' };
      const held = await createCompactionInputFilter({
        processor: createStructuralTrimmer(),
        conversation: { env },
        onConversation: (report) => reports.push(report),
      })(args);
      expect(reports[0]).toMatchObject({ unit: 'bytes', budget: 4096, withinBudget: true });
      expect(total(held)).toBeLessThanOrEqual(4096);
      expect(held.input.map((item) => (item as { callId?: string }).callId)).toEqual(
        input.map((item) => item.callId),
      );
      const off = await createCompactionInputFilter({
        processor: createStructuralTrimmer(),
        conversation: false,
      })(args);
      expect(off.input).toEqual(input);
    });
  },
);
