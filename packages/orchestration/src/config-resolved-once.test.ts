import * as core from '@compaction/core';
import { createScriptedAIClient } from '@compaction/core/test';
import { createPlanningSectionRenderer } from '@compaction/digest';
import { createDistiller } from '@compaction/distiller';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { createCompaction } from './create-compaction.js';

// Every package imports the configuration loader from @compaction/core: counting the calls on
// that module counts every resolution, in whichever layer it happens.
vi.mock('@compaction/core', async (importOriginal) => {
  const original = await importOriginal<typeof import('@compaction/core')>();
  return {
    ...original,
    loadConfig: vi.fn(original.loadConfig),
    resolveConfig: vi.fn(original.resolveConfig),
  };
});

const resolutions = () =>
  vi.mocked(core.loadConfig).mock.calls.length + vi.mocked(core.resolveConfig).mock.calls.length;

describe('configuration resolved once', () => {
  const clear = () => {
    vi.mocked(core.loadConfig).mockClear();
    vi.mocked(core.resolveConfig).mockClear();
  };
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
    await compaction.renderContinuation([{ id: 'step-1', status: 'succeeded', result: 'ok' }]);
    await compaction.assembleSynthesis([{ id: 'step-1', status: 'succeeded', result: 'ok' }]);
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
