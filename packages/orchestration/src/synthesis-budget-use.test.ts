import { type StepRecord, trailingDisclosureNotes, utf8ByteLength } from '@compaction/core';
import { DISTILLED_NOTE_ROOM_BYTES, distilledViewBytes } from '@compaction/distiller';
import { createOpenAIClient } from '@compaction/distiller/openai';
import { createProviderServer, type ProviderServer } from '@compaction/distiller/test';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createCompaction } from './create-compaction.js';

// Synthesis budgets as the seed states them (seed 002 §4, §5.1): the total is the budget of a
// lone result, a distilled result is allocated its summary and its notes, a result that fits is
// never summarised, and a distillation that falls open gets back the budget it did not use.

function logLines(count: number, needle: number): string {
  const lines: string[] = [];
  for (let i = 0; i < count; i++) {
    lines.push(
      i === needle
        ? `2026-11-30T06:00:00Z ERROR payments pool exhausted txn=txn_0042 line=${i}`
        : `2026-11-30T06:00:00Z INFO request ok route=/api/items/${i} latency=${i % 90}ms`,
    );
  }
  return lines.join('\n');
}

function records(count: number): string {
  return JSON.stringify(
    Array.from({ length: count }, (_, i) => ({ id: `rec-${i}`, level: i % 97 ? 'info' : 'error' })),
  );
}

const TOTAL = 196_608;
const bigLogs = logLines(40_000, 31_000); // ~3 MB
const bigRecords = records(30_000); // ~1 MB

let server: ProviderServer;
beforeAll(async () => {
  server = await createProviderServer();
});
afterAll(async () => {
  await server.close();
});
beforeEach(() => {
  server.resetStats();
  server.setHandler(() => ({ text: 'txn_0042: payments pool exhausted' }));
});

function compactionWith(model: boolean) {
  return createCompaction({
    env: {},
    ...(model
      ? {
          aiClient: createOpenAIClient({
            env: { OPENAI_API_KEY: 'k', OPENAI_BASE_URL: server.openaiBaseUrl },
            maxRetries: 0,
          }),
        }
      : {}),
  });
}

const step = (id: string, result: string): StepRecord => ({
  id,
  status: 'succeeded',
  toolName: 'tool',
  result,
});

describe('synthesis budgets', () => {
  it('gives a lone result the whole total, not the per-result cap', async () => {
    const assembly = await compactionWith(false).assembleSynthesis([step('step-1', bigLogs)]);
    const [section] = assembly.sections;
    expect(section!.budgetBytes).toBeGreaterThan(65_536);
    expect(section!.budgetBytes).toBeLessThanOrEqual(TOTAL);
    expect(assembly.successBytes).toBeLessThanOrEqual(TOTAL);
    expect(assembly.successBytes).toBeGreaterThan(TOTAL * 0.9);
  });

  it('allocates a distilled result its summary plus its notes, so a summary of the target size is kept whole', async () => {
    const target = 4096;
    // The model answers with exactly the size it was asked for.
    server.setHandler((request) => {
      const asked = Number(/under about (\d+) bytes/.exec(request.system)?.[1]);
      const line = 'txn_0042 payments pool exhausted at 06:00; ';
      return { text: line.repeat(Math.ceil(asked / line.length)).slice(0, asked) };
    });
    const assembly = await compactionWith(true).assembleSynthesis([
      step('step-1', bigLogs),
      step('step-2', bigRecords),
      step('step-3', records(3000)),
    ]);
    for (const section of assembly.sections.slice(0, 2)) {
      expect(section.metadata!.strategy).toMatch(/distilled|map-reduce/);
      expect(section.budgetBytes).toBe(distilledViewBytes(target));
      const kinds = trailingDisclosureNotes(section.text).map((note) => note.kind);
      expect(kinds).not.toContain('trimmed');
      expect(kinds[0]).toBe('distilled');
    }
    for (const request of server.requests)
      expect(request.system).toContain(`under about ${target} bytes`);
    expect(assembly.successBytes).toBeLessThanOrEqual(TOTAL);
    expect(DISTILLED_NOTE_ROOM_BYTES).toBeGreaterThan(200);
  });

  it('asks for a smaller summary when the allocation is tighter than target plus notes', async () => {
    server.setHandler(() => ({ text: 'txn_0042' }));
    const compaction = createCompaction({
      env: {},
      config: { trim: { maxTotalBytes: 3000 } },
      aiClient: createOpenAIClient({
        env: { OPENAI_API_KEY: 'k', OPENAI_BASE_URL: server.openaiBaseUrl },
        maxRetries: 0,
      }),
    });
    const assembly = await compaction.assembleSynthesis([step('step-1', bigRecords)]);
    const asked = Number(/under about (\d+) bytes/.exec(server.requests[0]!.system)?.[1]);
    expect(asked).toBeLessThanOrEqual(
      assembly.sections[0]!.budgetBytes! - DISTILLED_NOTE_ROOM_BYTES,
    );
    expect(assembly.successBytes).toBeLessThanOrEqual(3000);
  });

  it('never summarises a result that fits its budget whole: a 20 KB result under a 192 KiB total', async () => {
    const result = records(700);
    expect(utf8ByteLength(result)).toBeGreaterThan(16_384);
    const compaction = compactionWith(true);
    expect(compaction.willDistill(utf8ByteLength(result))).toBe(true);
    const assembly = await compaction.assembleSynthesis([step('step-1', result)]);
    expect(server.requests).toHaveLength(0);
    expect(assembly.sections[0]!.metadata!.contentLost).toBe(false);
    expect(assembly.sections[0]!.text.endsWith(result)).toBe(true);
    // Pretty JSON that fits once minified is kept whole too.
    const pretty = JSON.stringify(JSON.parse(records(5000)), null, 2);
    expect(utf8ByteLength(pretty)).toBeGreaterThan(TOTAL);
    const minified = await compaction.assembleSynthesis([step('step-1', pretty)], {});
    expect(server.requests).toHaveLength(0);
    expect(minified.sections[0]!.metadata).toMatchObject({
      contentLost: false,
      strategy: 'minified',
    });
  });

  it('gives a distillation that fell open the share it would have had undistilled', async () => {
    server.setHandler(() => ({ status: 500 }));
    const assembly = await compactionWith(true).assembleSynthesis([
      step('step-1', bigLogs),
      step('step-2', bigRecords),
      step('step-3', records(2000)),
    ]);
    const [logs, recs, small] = assembly.sections;
    for (const section of [logs!, recs!]) {
      expect(section.metadata!.strategy).not.toMatch(/distilled|map-reduce/);
      expect(section.metadata!.contentLost).toBe(true);
      // Not a summary-sized floor: the per-result cap, as if it had never been meant for a model.
      expect(section.budgetBytes).toBe(65_536);
      expect(utf8ByteLength(section.text)).toBeGreaterThan(distilledViewBytes(4096));
    }
    expect(logs!.text).toContain('txn_0042');
    expect(small!.metadata!.contentLost).toBe(false);
    expect(assembly.successBytes).toBeLessThanOrEqual(TOTAL);
  });

  it('leaves out, with a registered note and metadata, a result that cannot get the smallest useful budget', async () => {
    const compaction = createCompaction({ env: {}, config: { trim: { maxTotalBytes: 3000 } } });
    const steps = Array.from({ length: 12 }, (_, i) => step(`step-${i + 1}`, logLines(2000, 5)));
    const assembly = await compaction.assembleSynthesis(steps);
    const left = assembly.sections.filter((section) => section.metadata!.strategy === 'omitted');
    expect(left.length).toBeGreaterThan(0);
    for (const section of left) {
      expect(trailingDisclosureNotes(section.text).map((note) => note.kind)).toEqual([
        'result-left-out',
      ]);
      expect(section.metadata).toMatchObject({
        contentLost: true,
        originalBytes: utf8ByteLength(steps[0]!.result!),
      });
    }
    expect(assembly.successBytes).toBeLessThanOrEqual(3000);
  });

  it('keeps the whole prompt within the total however the model fails (property over result mixes)', async () => {
    server.setHandler((_request, index) =>
      index % 2 ? { status: 500 } : { text: 'x'.repeat(9000) },
    );
    const compaction = compactionWith(true);
    for (const count of [1, 2, 3, 5]) {
      const steps = Array.from({ length: count }, (_, i) =>
        step(`step-${i + 1}`, i % 2 ? records(2000 + i * 4000) : logLines(8000 + i * 3000, 10)),
      );
      const assembly = await compaction.assembleSynthesis(steps);
      expect(assembly.successBytes).toBeLessThanOrEqual(TOTAL);
      for (const section of assembly.sections) {
        expect(utf8ByteLength(section.text)).toBeLessThanOrEqual(TOTAL);
        if (section.metadata!.contentLost) {
          expect(trailingDisclosureNotes(section.text).length).toBeGreaterThan(0);
        }
      }
    }
  });
});
