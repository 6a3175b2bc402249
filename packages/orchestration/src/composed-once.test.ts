import * as core from '@compaction/core';
import { createScriptedAIClient } from '@compaction/core/test';
import { createPlanningSectionRenderer, type StepRecord } from '@compaction/digest';
import { createDistiller } from '@compaction/distiller';
import type * as trimmer from '@compaction/trimmer';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { createCompaction } from './create-compaction.js';

// Every package imports the configuration loader, the deadline and the trimmer from their
// package: counting the calls on those modules counts them in whichever layer they happen.
vi.mock('@compaction/core', async (importOriginal) => {
  const original = await importOriginal<typeof import('@compaction/core')>();
  return {
    ...original,
    loadConfig: vi.fn(original.loadConfig),
    resolveConfig: vi.fn(original.resolveConfig),
    startCallDeadline: vi.fn(original.startCallDeadline),
    createShouldStop: vi.fn(original.createShouldStop),
  };
});
const trims: Array<{ bytes: number; maxBytes: number }> = [];
vi.mock('@compaction/trimmer', async (importOriginal) => {
  const original = await importOriginal<typeof import('@compaction/trimmer')>();
  return {
    ...original,
    createStructuralTrimmer: (settings?: trimmer.StructuralTrimmerSettings) => {
      const made = original.createStructuralTrimmer(settings);
      const trim: typeof made.trim = (result, maxBytes, context) => {
        trims.push({ bytes: core.utf8ByteLength(result), maxBytes });
        return made.trim(result, maxBytes, context);
      };
      return {
        ...made,
        trim,
        process: async (result, maxBytes, context) => {
          context?.signal?.throwIfAborted();
          return trim(result, maxBytes, context);
        },
      } satisfies trimmer.StructuralTrimmer;
    },
  };
});

const resolutions = () =>
  vi.mocked(core.loadConfig).mock.calls.length + vi.mocked(core.resolveConfig).mock.calls.length;
// Calls that started a new deadline (the others found one in the context and used it as given).
const derivedDeadlines = () => {
  const spy = vi.mocked(core.startCallDeadline).mock;
  return spy.results.filter((result, i) => {
    const made = result.type === 'return' ? result.value.context.deadline : undefined;
    return made !== undefined && made !== spy.calls[i]![0].deadline;
  }).length;
};
const clear = () => {
  for (const spy of [
    core.loadConfig,
    core.resolveConfig,
    core.startCallDeadline,
    core.createShouldStop,
  ]) {
    vi.mocked(spy).mockClear();
  }
  trims.length = 0;
};

const logs = Array.from(
  { length: 1200 },
  (_, i) => `2026-12-01T10:00:${i % 60}Z INFO request ${i} ok`,
).join('\n');
const steps: StepRecord[] = [
  { id: 'step-1', status: 'succeeded', toolName: 'logs', result: logs },
  { id: 'step-2', status: 'succeeded', toolName: 'small', result: '{"ok":true}' },
];

describe('configuration resolved once', () => {
  beforeEach(clear);

  it('createCompaction resolves once and hands the layers the resolved configuration', async () => {
    const messages: string[] = [];
    const compaction = createCompaction({
      env: { COMPACTION_RESULT_DISTILL_MAPREDUCE_THRESHOLD: '65536' },
      // A model: the distiller and the continuation distiller are both built.
      aiClient: createScriptedAIClient(() => 'summary'),
      onWarning: (message) => messages.push(message),
    });
    expect(compaction.distillationActive).toBe(true);
    expect(resolutions()).toBe(1);
    // The one warning is reported once, with nothing left to hide repeats.
    expect(messages.filter((m) => m.includes('below the pre-filter budget'))).toHaveLength(1);
    await compaction.renderContinuation(steps);
    await compaction.assembleSynthesis(steps);
    expect(resolutions()).toBe(1);
  });

  it('a standalone factory resolves its plain settings once, and a resolved config not at all', () => {
    createDistiller({ targetBytes: 2048 });
    createPlanningSectionRenderer({ env: {}, maxTotalBytes: 8192 });
    expect(resolutions()).toBe(2);
    const { config } = core.loadConfig({ env: {} });
    clear();
    createDistiller({ config });
    createPlanningSectionRenderer({ config });
    expect(resolutions()).toBe(0);
  });

  it('refuses a resolved config together with the knobs it replaces', () => {
    const { config } = core.loadConfig({ env: {} });
    expect(() => createDistiller({ config, targetBytes: 2048 })).toThrow(/config or targetBytes/);
    expect(() => createPlanningSectionRenderer({ config, env: {} })).toThrow(/config or env/);
  });
});

describe('the deadline derived once per call', () => {
  beforeEach(clear);

  it('once per result of an assembly, once per render, once per source, and no poll wraps another', async () => {
    const compaction = createCompaction({
      env: {},
      config: { distill: { thresholdBytes: 4096 }, trim: { maxResultBytes: 16_384 } },
      aiClient: createScriptedAIClient(() => 'a short summary of the log'),
    });
    clear();
    const assembly = await compaction.assembleSynthesis(steps, {
      signal: new AbortController().signal,
    });
    expect(assembly.sections[0]!.metadata!.strategy).toBe('distilled');
    expect(derivedDeadlines()).toBe(steps.length);
    clear();
    await compaction.renderContinuation(steps);
    expect(derivedDeadlines()).toBe(1);
    clear();
    await compaction.compactSource(logs);
    expect(derivedDeadlines()).toBe(1);
    // Every poll comes from the one deadline: no layer wrapped the context's poll in its own.
    expect(vi.mocked(core.createShouldStop)).not.toHaveBeenCalled();
  });

  it('a standalone distiller derives its own, once', async () => {
    const distiller = createDistiller({
      client: createScriptedAIClient(() => 'a short summary of the log'),
      thresholdBytes: 4096,
    });
    await distiller.process(logs, 2048);
    expect(derivedDeadlines()).toBe(1);
  });
});

describe('a distillation that fell open', () => {
  beforeEach(clear);

  it('is floored once, by the composer, at the share it would have had undistilled', async () => {
    const compaction = createCompaction({
      env: {},
      config: { distill: { thresholdBytes: 4096 }, trim: { maxResultBytes: 16_384 } },
      aiClient: createScriptedAIClient(() => new Error('the model is down')),
    });
    clear();
    const assembly = await compaction.assembleSynthesis(steps);
    const section = assembly.sections[0]!;
    expect(section.metadata!.fellOpen).toBe(true);
    expect(section.budgetBytes).toBe(16_384);
    // One floor of the log, at its undistilled share, not one at the summary's size first.
    expect(trims.filter((call) => call.bytes === core.utf8ByteLength(logs))).toEqual([
      { bytes: core.utf8ByteLength(logs), maxBytes: 16_384 },
    ]);
  });

  it('a distiller that never settles gets the byte cut, then the floor at its undistilled share', async () => {
    const compaction = createCompaction({
      env: {},
      config: {
        distill: { thresholdBytes: 4096, deadlineMs: 200 },
        trim: { maxResultBytes: 16_384 },
      },
      // Ignores its signal: only the guard's abandonment (a second past the deadline) ends it.
      aiClient: { provider: 'hung', complete: () => new Promise(() => {}) },
    });
    const assembly = await compaction.assembleSynthesis(steps);
    const section = assembly.sections[0]!;
    expect(section.budgetBytes).toBe(16_384);
    expect(section.metadata!.fellOpen).toBe(true);
    expect(core.utf8ByteLength(section.text)).toBeGreaterThan(12_000);
  });
});
