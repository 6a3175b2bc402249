import {
  type ResultProcessorContext,
  stripDisclosureNotes,
  trailingDisclosureNotes,
  utf8ByteLength,
} from '@compaction/core';
import { createStructuralTrimmer } from '@compaction/trimmer';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createContinuationDistiller } from './create-continuation-distiller.js';
import { createLlmDebugRecorder } from './create-llm-debug-recorder.js';
import { DistillDeadlineError } from './distill-deadline-error.js';
import { createOpenAIClient } from './openai/index.js';
import { createProviderServer, type ProviderServer } from './test/index.js';

let server: ProviderServer;
beforeAll(async () => {
  server = await createProviderServer();
});
afterAll(async () => {
  await server.close();
});

const client = () =>
  createOpenAIClient({
    env: { OPENAI_API_KEY: 'k', OPENAI_BASE_URL: server.openaiBaseUrl },
    maxRetries: 0,
  });
const log = Array.from({ length: 30_000 }, (_, i) => `line ${i} INFO ok`).join('\n');
const input = {
  stepId: 'step-2',
  result: log,
  preview: 'line 0 INFO ok',
  maxBytes: 2000,
  userQuery: 'any errors?',
};

describe('createContinuationDistiller', () => {
  it('summarises a pre-filtered source with the real SDK, within the budget, with the distilled note', async () => {
    server.setHandler(() => ({ text: 'A log of 30000 INFO lines; no errors. '.repeat(200) }));
    const debug = createLlmDebugRecorder();
    const summary = await createContinuationDistiller({
      client: client(),
      llmDebug: debug,
    }).distill(input);
    expect(utf8ByteLength(summary)).toBeLessThanOrEqual(2000);
    expect(trailingDisclosureNotes(summary).map((note) => note.kind)).toEqual(['distilled']);
    const [request] = server.requests.slice(-1);
    expect(request!.bodyBytes).toBeLessThan(140_000);
    expect(request!.prompt).toContain('User request: any errors?');
    expect(debug.records.at(-1)!.description).toBe('continuation summary step-2');
  });

  it('replaces a lone surrogate in the summary', async () => {
    server.setHandler(() => ({ text: 'no errors \ud83d in 30000 lines' }));
    const summary = await createContinuationDistiller({ client: client() }).distill(input);
    expect(stripDisclosureNotes(summary)).toBe('no errors \ufffd in 30000 lines');
  });

  it('rejects on a failed call and returns empty for an empty answer (the renderer keeps the preview)', async () => {
    server.setHandler(() => ({ status: 500 }));
    await expect(
      createContinuationDistiller({ client: client() }).distill(input),
    ).rejects.toThrow();
    server.setHandler(() => ({ text: '   ' }));
    expect(await createContinuationDistiller({ client: client() }).distill(input)).toBe('');
  });

  it('gives up at its deadline', async () => {
    // The server never answers: only the deadline ends the call (or the test's timeout would).
    server.setHandler(() => ({ hang: true }));
    await expect(
      createContinuationDistiller({ client: client(), deadlineMs: 300 }).distill(input),
    ).rejects.toThrow();
  });

  it('asks for no summary when its synchronous pre-filter ran into the deadline', async () => {
    const clock = { now: 0 };
    const polls: boolean[] = [];
    const trimmer = {
      trim(result: string, maxBytes: number, context: ResultProcessorContext = {}) {
        // A pre-filter on a hostile input: one millisecond per unit of work, polling as it goes.
        while (!context.shouldStop?.()) clock.now++;
        polls.push(true);
        return createStructuralTrimmer().trim(result.slice(0, maxBytes), maxBytes);
      },
    };
    const before = server.requests.length;
    await expect(
      createContinuationDistiller({
        client: client(),
        deadlineMs: 2000,
        trimmer,
        now: () => clock.now,
      }).distill(input),
    ).rejects.toSatisfy(DistillDeadlineError.isInstance);
    expect(clock.now).toBe(2000);
    expect(polls).toEqual([true]);
    expect(server.requests.length).toBe(before);
  });
});
