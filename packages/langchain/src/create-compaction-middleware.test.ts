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
import { createStructuralTrimmer } from '@compaction/trimmer';
import { Command } from '@langchain/langgraph';
import { ChatOpenAI } from '@langchain/openai';
import {
  AIMessage,
  type BaseMessage,
  createAgent,
  createMiddleware,
  HumanMessage,
  ToolMessage,
  tool,
} from 'langchain';
import { afterEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { createCompactionMiddleware } from './create-compaction-middleware.js';

const cleanups: Array<() => Promise<unknown>> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0)) await cleanup();
});

async function startModel() {
  const server = await createProviderServer({
    handler: artifactFollowingModel({ tool: 'list_pods', pattern: 'OOMKilled' }),
  });
  cleanups.push(() => server.close());
  const model = new ChatOpenAI({
    model: 'gpt-test',
    apiKey: 'local',
    maxRetries: 0,
    configuration: { baseURL: server.openaiBaseUrl },
  });
  return { server, model };
}

const listPods = (output: () => unknown) =>
  tool(async () => output(), {
    name: 'list_pods',
    description: 'Every pod of the cluster as JSON.',
    schema: z.object({}),
  });

describe('createCompactionMiddleware with the real LangChain createAgent', () => {
  it('a 2 MB JSON tool result reaches the model within budget, noted, with a pointer artifact_read resolves', async () => {
    const { server, model } = await startModel();
    const root = await mkdtemp(join(tmpdir(), 'langchain-'));
    cleanups.push(() => rm(root, { recursive: true, force: true }));
    const artifacts = createArtifactMode({ transcriptPath: join(root, 's1.jsonl') });
    const agent = createAgent({
      model,
      tools: [listPods(() => bigJsonResult())],
      middleware: [
        createCompactionMiddleware({
          processor: artifacts.processor,
          maxResultBytes: 16_384,
          tools: artifacts.tools,
        }),
      ],
    });
    const result = await agent.invoke({
      messages: [{ role: 'user', content: 'Which pod failed and why?' }],
    });
    expect(server.requests).toHaveLength(3);
    expect(server.requests[0]!.toolNames.sort()).toEqual([
      'artifact_read',
      'artifact_search',
      'list_pods',
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
    // The state holds the view, paired with the call that asked for it.
    const toolMessages = result.messages.filter((message) => ToolMessage.isInstance(message));
    expect(toolMessages.map((message) => [message.tool_call_id, message.name])).toEqual([
      ['call_1', 'list_pods'],
      ['call_2', 'artifact_search'],
    ]);
    expect(toolMessages[0]!.content).toBe(view);
    expect(result.messages.at(-1)!.text).toMatch(
      new RegExp(
        `^The stored result says: \\[artifact ${report.artifactId} \\([^)]+\\): 1 match; \\d+ lines\\]$`,
      ),
    );
  });

  it('keeps a tool error a message the model can correct, as the agent does without middleware', async () => {
    // LangChain stops turning tool errors into messages once any middleware wraps tool calls:
    // with this one, a throwing tool used to end the run.
    const boom = tool(
      async () => {
        throw new Error('boom');
      },
      { name: 'list_pods', description: 'Every pod of the cluster as JSON.', schema: z.object({}) },
    );
    for (const middleware of [
      [],
      [createCompactionMiddleware({ processor: createStructuralTrimmer() })],
    ]) {
      const { server, model } = await startModel();
      const agent = createAgent({ model, tools: [boom], middleware });
      const result = await agent.invoke({
        messages: [{ role: 'user', content: 'Which pod failed?' }],
      });
      expect(server.requests[1]!.toolResults[0]!.content).toBe(
        'Error: boom\n Please fix your mistakes.',
      );
      const [failed] = result.messages.filter((message) => ToolMessage.isInstance(message));
      expect([failed!.tool_call_id, failed!.name, failed!.status]).toEqual([
        'call_1',
        'list_pods',
        'error',
      ]);
    }
    // Asked to, it lets the error through as LangChain does with wrapping middleware.
    const { model } = await startModel();
    const strict = createAgent({
      model,
      tools: [boom],
      middleware: [
        createCompactionMiddleware({ processor: createStructuralTrimmer(), toolErrors: 'throw' }),
      ],
    });
    await expect(
      strict.invoke({ messages: [{ role: 'user', content: 'Which pod failed?' }] }),
    ).rejects.toThrow('boom');
    expect(() =>
      createCompactionMiddleware({
        processor: createStructuralTrimmer(),
        toolErrors: 'ignore' as never,
      }),
    ).toThrow(/toolErrors/);
  });

  it('compacts the ToolMessage inside a Command result', async () => {
    const { server, model } = await startModel();
    const pods = bigJsonResult(300_000);
    const agent = createAgent({
      model,
      tools: [
        tool(
          async (_input, config) =>
            new Command({
              update: {
                messages: [
                  new ToolMessage({
                    content: pods,
                    tool_call_id: config.toolCall!.id!,
                    name: 'list_pods',
                  }),
                ],
              },
            }),
          { name: 'list_pods', description: 'Pods.', schema: z.object({}) },
        ),
      ],
      middleware: [
        createCompactionMiddleware({ processor: createStructuralTrimmer(), maxResultBytes: 4096 }),
      ],
    });
    server.setHandler((request) =>
      request.toolResults.length === 0
        ? { toolCalls: [{ id: 'call_1', name: 'list_pods', arguments: {} }] }
        : { text: 'done' },
    );
    const result = await agent.invoke({ messages: [{ role: 'user', content: 'pods?' }] });
    const message = result.messages.find((m) => ToolMessage.isInstance(m)) as ToolMessage;
    expect(message.tool_call_id).toBe('call_1');
    const text = message.content as string;
    expect(utf8ByteLength(text)).toBeLessThanOrEqual(4096);
    expect(trailingDisclosureNotes(text).length).toBe(1);
    // The model got the view, never the raw 300 kB.
    expect(server.requests[1]!.toolResults[0]!.content).toBe(text);
    expect(result.messages.at(-1)!.content).toBe('done');
  });

  it("keeps a Command's goto, resume and other update keys, for an update of [key, value] pairs too", async () => {
    const middleware = createCompactionMiddleware({
      processor: createStructuralTrimmer(),
      maxResultBytes: 4096,
    });
    const pods = bigJsonResult(300_000);
    const message = () => new ToolMessage({ content: pods, tool_call_id: 'call_9' });
    const request = {
      toolCall: { id: 'call_9', name: 'list_pods', args: {} },
      state: { messages: [] },
      runtime: {},
    } as never;
    const updates: Array<Record<string, unknown> | Array<[string, unknown]>> = [
      { messages: [message()], pods_seen: 1 },
      [
        ['messages', [message()]],
        ['pods_seen', 1],
      ],
    ];
    for (const update of updates) {
      const command = new Command({ update, goto: 'triage', resume: 'yes' });
      const out = (await middleware.wrapToolCall!(request, async () => command)) as Command;
      expect(out).toBeInstanceOf(Command);
      expect(out.goto).toEqual(command.goto);
      expect(out.resume).toBe('yes');
      const pairs = Array.isArray(out.update) ? out.update : Object.entries(out.update!);
      const keys = Object.fromEntries(pairs as Array<[string, unknown]>);
      expect(keys.pods_seen).toBe(1);
      const [compacted] = keys.messages as ToolMessage[];
      expect(compacted!.tool_call_id).toBe('call_9');
      expect(utf8ByteLength(compacted!.content as string)).toBeLessThanOrEqual(4096);
    }
  });

  it('compacts the text blocks of a multi-part result and keeps its image', async () => {
    const { server, model } = await startModel();
    const pods = bigJsonResult(300_000);
    const agent = createAgent({
      model,
      tools: [
        tool(
          async () => [
            { type: 'text', text: pods },
            { type: 'image_url', image_url: { url: 'data:image/png;base64,iVBORw0KGgo=' } },
          ],
          { name: 'list_pods', description: 'Pods.', schema: z.object({}) },
        ),
      ],
      middleware: [
        createCompactionMiddleware({ processor: createStructuralTrimmer(), maxResultBytes: 4096 }),
      ],
    });
    server.setHandler((request) =>
      request.toolResults.length === 0
        ? { toolCalls: [{ id: 'call_1', name: 'list_pods', arguments: {} }] }
        : { text: 'done' },
    );
    const result = await agent.invoke({ messages: [{ role: 'user', content: 'pods?' }] });
    const message = result.messages.find((m) => ToolMessage.isInstance(m)) as ToolMessage;
    const blocks = message.content as Array<{ type: string; text?: string }>;
    expect(blocks.map((block) => block.type)).toEqual(['text', 'image_url']);
    expect(utf8ByteLength(blocks[0]!.text!)).toBeLessThanOrEqual(4096);
    expect(trailingDisclosureNotes(blocks[0]!.text!).length).toBe(1);
    expect(message.tool_call_id).toBe('call_1');
  });
  it('holds the conversation budget over a scripted 60-call run: pairing, earlier bytes, restart, pointers', async () => {
    const root = await mkdtemp(join(tmpdir(), 'langchain-conversation-'));
    cleanups.push(() => rm(root, { recursive: true, force: true }));
    const transcriptPath = join(root, 's1.jsonl');
    const BUDGET = 48_000;
    const CALLS = 60;
    const reports: ConversationReport[] = [];
    const middlewareFor = (artifacts: ReturnType<typeof createArtifactMode>) =>
      createCompactionMiddleware({
        processor: artifacts.processor,
        tools: artifacts.tools,
        maxResultBytes: 8192,
        conversation: { ...artifacts.conversation, maxBytes: BUDGET, env: {} },
        onConversation: (report) => reports.push(report),
      });
    const mode = createArtifactMode({ transcriptPath, clock: () => 0 });
    const readsAt = new Set([20, 45, 59]);
    const server = await createProviderServer({
      handler: (request, step) => {
        if (step === CALLS) return { text: 'done' };
        if (readsAt.has(step)) {
          // The model follows the pointer of the largest result it sees.
          const pointers = [
            ...JSON.stringify(request.toolResults).matchAll(
              /, (\d+) bytes, (?:sha256 [0-9a-f]{64}, )?stored as (art_[0-9a-f]{24})/g,
            ),
          ].sort((a, b) => Number(b[1]) - Number(a[1]));
          const args = { id: pointers[0]?.[2] ?? 'art_none', offset: 1, limit: 400 };
          return { toolCalls: [{ id: `call-${step}`, name: 'artifact_read', arguments: args }] };
        }
        const name = ['read_file', 'terminal', 'list_items'][step % 3]!;
        return { toolCalls: [{ id: `call-${step}`, name, arguments: { step } }] };
      },
    });
    cleanups.push(() => server.close());
    const model = new ChatOpenAI({
      model: 'gpt-test',
      apiKey: 'local',
      maxRetries: 0,
      configuration: { baseURL: server.openaiBaseUrl },
    });
    const sizeOf = (step: number) =>
      1000 + ((step * 7919) % 12_000) + (step % 20 === 7 ? 60_000 : 0);
    const stepArg = z.object({ step: z.number() });
    // What each tool returned, by call id: stepped-down pointers must resolve to these bytes.
    const full = new Map<string, string>();
    const kept = (step: number, text: string) => {
      full.set(`call-${step}`, text);
      return text;
    };
    const tools = [
      tool(
        async ({ step }) =>
          kept(
            step,
            Array.from(
              { length: Math.ceil(sizeOf(step) / 40) },
              (_, i) => `${step}:${i} const value = compute(${i});`,
            ).join('\n'),
          ),
        { name: 'read_file', description: 'A file.', schema: stepArg },
      ),
      tool(
        async ({ step }) =>
          kept(
            step,
            Array.from({ length: Math.ceil(sizeOf(step) / 50) }, (_, i) =>
              i % 97 === 3
                ? `2026-01-01T00:00:00Z ERROR step ${step} test ${i} failed`
                : `2026-01-01T00:00:00Z INFO step ${step} test ${i} ok`,
            ).join('\n'),
          ),
        { name: 'terminal', description: 'A command.', schema: stepArg },
      ),
      tool(
        async ({ step }) =>
          kept(
            step,
            JSON.stringify(
              Array.from({ length: Math.ceil(sizeOf(step) / 60) }, (_, i) => ({
                id: `${step}-${i}`,
                state: i % 13 ? 'ok' : 'failed',
              })),
            ),
          ),
        { name: 'list_items', description: 'Items.', schema: stepArg },
      ),
    ];
    // What the compaction middleware is given (the state) and what it hands on.
    // biome-ignore lint/suspicious/noExplicitAny: the recorded request is replayed as it came.
    const requests: any[] = [];
    const sent: BaseMessage[][] = [];
    const outer = createMiddleware({
      name: 'Outer',
      wrapModelCall: (request, handler) => {
        requests.push(request);
        return handler(request);
      },
    });
    const inner = createMiddleware({
      name: 'Inner',
      wrapModelCall: (request, handler) => {
        sent.push(request.messages);
        return handler(request);
      },
    });
    const agent = createAgent({ model, tools, middleware: [outer, middlewareFor(mode), inner] });
    const state = await agent.invoke(
      { messages: [{ role: 'user', content: 'Run the whole test plan and tell me what failed.' }] },
      { recursionLimit: 4 * CALLS },
    );
    expect(state.messages.at(-1)!.text).toBe('done');
    expect(sent).toHaveLength(CALLS + 1);

    const results = (messages: BaseMessage[]) => messages.filter((m) => ToolMessage.isInstance(m));
    const textOf = (message: BaseMessage) => message.content as string;
    let breaks = 0;
    let previous: string[] = [];
    for (const [k, messages] of sent.entries()) {
      const raw: BaseMessage[] = requests[k].messages;
      const texts = results(messages).map(textOf);
      const total = texts.reduce((sum, text) => sum + utf8ByteLength(text), 0);
      expect(total).toBeLessThanOrEqual(BUDGET);
      // Pairing: the same messages and tool call ids as the state.
      expect(messages.map((m) => m.type)).toEqual(raw.map((m) => m.type));
      const calledIds = messages.flatMap((m) =>
        m.type === 'ai' ? ((m as { tool_calls?: Array<{ id: string }> }).tool_calls ?? []) : [],
      );
      expect(results(messages).map((m) => (m as ToolMessage).tool_call_id)).toEqual(
        calledIds.map((call) => call.id),
      );
      expect(results(raw).map((m) => (m as ToolMessage).tool_call_id)).toEqual(
        calledIds.map((call) => call.id),
      );
      // Earlier results keep their bytes, except at a step-down, which only a crossing causes.
      if (previous.some((text, i) => texts[i] !== text)) {
        breaks++;
        const grown =
          previous.reduce((sum, text) => sum + utf8ByteLength(text), 0) +
          texts.slice(previous.length).reduce((sum, text) => sum + utf8ByteLength(text), 0);
        expect(grown).toBeGreaterThan(BUDGET);
      }
      // An artifact read reaches the model whole the call after it.
      const newest = results(messages).at(-1) as ToolMessage | undefined;
      if (newest?.name === 'artifact_read')
        expect(textOf(newest)).toBe(textOf(results(raw).at(-1)!));
      previous = texts;
    }
    expect(reports.at(-1)!.stepDowns).toBe(breaks);
    expect(breaks).toBeGreaterThan(0);
    expect(breaks).toBeLessThan(CALLS / 3);

    // A restarted process (a fresh artifact mode and middleware) sends the same messages.
    const restarted = middlewareFor(createArtifactMode({ transcriptPath, clock: () => 1 }));
    let again: BaseMessage[] = [];
    // biome-ignore lint/suspicious/noExplicitAny: the hook is called as the agent calls it.
    await restarted.wrapModelCall!(requests.at(-1), (request: any) => {
      again = request.messages;
      return sent.at(-1)!.at(-1) as never;
    });
    expect(again.map(textOf)).toEqual(sent.at(-1)!.map(textOf));

    // Every pointer resolves to stored bytes whose sha256 matches, and they are the tool's whole
    // result, even where the state holds a view of it.
    const library = createArtifactLibrary({ root });
    const original = results(requests.at(-1).messages);
    let pointers = 0;
    let short = 0;
    let ofViews = 0;
    for (const [i, message] of results(sent.at(-1)!).entries()) {
      const line = textOf(message).split('\n')[0]!;
      if (!line.startsWith('[stepped down: ')) continue;
      pointers++;
      const [, sha, id] = /(?:sha256 ([0-9a-f]{64}), )?stored as (art_[0-9a-f]{24})/.exec(line)!;
      const found = await library.resolve(id!);
      const bytes = await readFile(join(found.dir, found.record.path));
      // A short line names no SHA-256: the index record it resolves to does.
      expect(sha256Hex(bytes)).toBe(sha ?? found.record.digest);
      if (!sha) short++;
      const callId = (message as ToolMessage).tool_call_id;
      const whole =
        (message as ToolMessage).name === 'artifact_read' ? textOf(original[i]!) : full.get(callId);
      expect(bytes.toString('utf8')).toBe(whole);
      if (textOf(original[i]!) !== whole) ofViews++;
    }
    expect(pointers).toBeGreaterThan(10);
    // Pointer lines of earlier step-downs are in their short form.
    expect(short).toBeGreaterThan(0);
    expect(ofViews).toBeGreaterThan(0);
    const pages = original.filter((m) => (m as ToolMessage).name === 'artifact_read');
    expect(pages.map((m) => textOf(m).slice(0, 14))).toEqual(Array(3).fill('[artifact art_'));
  });
  it('reads the conversation budget from COMPACTION_CONVERSATION_* and turns it off with false', async () => {
    const messages: BaseMessage[] = [new HumanMessage('what failed?')];
    for (let i = 0; i < 6; i++) {
      messages.push(
        new AIMessage({ content: '', tool_calls: [{ id: `c${i}`, name: 'logs', args: {} }] }),
        new ToolMessage({
          content: `${i} INFO ok\n`.repeat(150),
          tool_call_id: `c${i}`,
          name: 'logs',
        }),
      );
    }
    const sentFor = async (middleware: ReturnType<typeof createCompactionMiddleware>) => {
      let sent: BaseMessage[] = [];
      // biome-ignore lint/suspicious/noExplicitAny: the hook is called as the agent calls it.
      await middleware.wrapModelCall!({ messages, runtime: {} } as any, (request: any) => {
        sent = request.messages;
        return new AIMessage('ok') as never;
      });
      return sent;
    };
    const reports: ConversationReport[] = [];
    const env = { COMPACTION_CONVERSATION_MAX_BYTES: '4096' };
    const held = await sentFor(
      createCompactionMiddleware({
        processor: createStructuralTrimmer(),
        conversation: { env },
        onConversation: (report) => reports.push(report),
      }),
    );
    expect(reports[0]).toMatchObject({ unit: 'bytes', budget: 4096, withinBudget: true });
    const tools = held.filter((m) => ToolMessage.isInstance(m)) as ToolMessage[];
    expect(
      tools.reduce((sum, m) => sum + utf8ByteLength(m.content as string), 0),
    ).toBeLessThanOrEqual(4096);
    expect(tools.map((m) => [m.tool_call_id, m.name])).toEqual(
      Array.from({ length: 6 }, (_, i) => [`c${i}`, 'logs']),
    );
    const off = await sentFor(
      createCompactionMiddleware({ processor: createStructuralTrimmer(), conversation: false }),
    );
    expect(off).toBe(messages);
  });
});
