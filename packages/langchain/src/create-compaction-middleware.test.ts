import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { trailingDisclosureNotes, utf8ByteLength } from '@compaction/core';
import { bigJsonResult } from '@compaction/core/test';
import { createProviderServer } from '@compaction/distiller/test';
import { createArtifactMode } from '@compaction/orchestration';
import { artifactFollowingModel, checkArtifactView } from '@compaction/orchestration/test';
import { createStructuralTrimmer } from '@compaction/trimmer';
import { Command } from '@langchain/langgraph';
import { ChatOpenAI } from '@langchain/openai';
import { createAgent, ToolMessage, tool } from 'langchain';
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
});
