import { byteEstimateTokenCounter, type StepRecord, type TokenCounter } from '@compaction/core';
import { createScriptedAIClient } from '@compaction/core/test';
import { describe, expect, it } from 'vitest';
import type { SynthesisAssembly } from './assemble-synthesis-prompt.js';
import { createCompaction } from './create-compaction.js';

const records = JSON.stringify(
  Array.from({ length: 3000 }, (_, i) => ({
    id: i,
    message: `request ${i} served in ${i % 97}ms`,
  })),
); // ~150 KB: ~43 000 tokens estimated

describe('createCompaction tokenCounter', () => {
  it('says the byte estimate counts by default', () => {
    expect(createCompaction({ env: {} }).tokenCounter).toBe(byteEstimateTokenCounter);
  });

  it('routes the synthesis distiller by the counter it is given', async () => {
    const oneTokenPerByte: TokenCounter = {
      name: 'one token per byte',
      countTokens: (text) => new TextEncoder().encode(text).length,
    };
    const env = { COMPACTION_RESULT_DISTILL_CONTEXT_TOKENS: '100000' };
    const run = async (tokenCounter?: TokenCounter) => {
      const aiClient = createScriptedAIClient(() => 'request 42 was slow');
      const compaction = createCompaction({
        env,
        aiClient,
        ...(tokenCounter ? { tokenCounter } : {}),
      });
      const view = await compaction.synthesisProcessor.process(records, 4096, {
        userQuery: 'slow?',
      });
      return { compaction, view };
    };
    const estimated = await run();
    expect(estimated.view.metadata.strategy).not.toBe('map-reduce');
    const counted = await run(oneTokenPerByte);
    expect(counted.compaction.tokenCounter.name).toBe('one token per byte');
    expect(counted.view.metadata.strategy).toBe('map-reduce');
  });
});

describe('synthesis budgets from a context window, counted by the tokenCounter', () => {
  // A log of short numeric lines: about 2 bytes per token, far denser than the 3.5 estimate.
  const log = (seed: number) =>
    Array.from({ length: 6000 }, (_, i) => `${seed}:${i} ${(i * 7919) % 1000}`).join('\n');
  const steps: StepRecord[] = [1, 2, 3].map((n) => ({
    id: `step-${n}`,
    status: 'succeeded',
    toolName: 'logs',
    result: log(n),
  }));
  const twoBytesPerToken: TokenCounter = {
    name: 'two bytes per token',
    countTokens: (text) => Math.ceil(new TextEncoder().encode(text).length / 2),
  };
  const successTokens = (assembly: SynthesisAssembly, counter: TokenCounter) =>
    assembly.sections
      .filter((section) => section.status === 'succeeded')
      .reduce((sum, section) => sum + counter.countTokens(section.text), 0);

  it('keeps the success views within the token share as the counter counts them', async () => {
    const contextWindowTokens = 40_000;
    const share = contextWindowTokens / 4;
    // Without a counter the byte budget assumes 3.5 bytes per token: 35 000 bytes, about
    // 17 500 of these tokens, well over the 10 000-token share.
    const estimated = await createCompaction({ env: {}, contextWindowTokens }).assembleSynthesis(
      steps,
    );
    expect(estimated.successBytes).toBeGreaterThan(30_000);
    expect(successTokens(estimated, twoBytesPerToken)).toBeGreaterThan(share);

    const counted = await createCompaction({
      env: {},
      contextWindowTokens,
      tokenCounter: twoBytesPerToken,
    }).assembleSynthesis(steps);
    expect(counted.successTokens).toBe(successTokens(counted, twoBytesPerToken));
    expect(counted.successTokens).toBeLessThanOrEqual(share);
    // The share is used, not abandoned: at least four fifths of it.
    expect(counted.successTokens).toBeGreaterThan(share * 0.8);
    expect(counted.contentLost).toBe(true);
    for (const section of counted.sections) expect(section.text).toMatch(/\[(trimmed|reduced)/);
  });

  it('leaves budgets that already fit as the byte estimate made them', async () => {
    const sparse: TokenCounter = {
      name: 'five bytes per token',
      countTokens: (text) => Math.ceil(new TextEncoder().encode(text).length / 5),
    };
    const plain = await createCompaction({
      env: {},
      contextWindowTokens: 40_000,
    }).assembleSynthesis(steps);
    const counted = await createCompaction({
      env: {},
      contextWindowTokens: 40_000,
      tokenCounter: sparse,
    }).assembleSynthesis(steps);
    expect(counted.text).toBe(plain.text);
    expect(plain.successTokens).toBeUndefined();
  });

  it('counts nothing without a context window: the fixed byte budgets stay', async () => {
    const plain = await createCompaction({ env: {} }).assembleSynthesis(steps);
    const counted = await createCompaction({
      env: {},
      tokenCounter: twoBytesPerToken,
    }).assembleSynthesis(steps);
    expect(counted.text).toBe(plain.text);
    expect(counted.successTokens).toBeUndefined();
  });

  it('makes each distillation once: model calls per assembly equal the distilled results', async () => {
    // A model that answers about the size it is asked for, with digits as dense as the logs.
    const model = createScriptedAIClient((request) => {
      const asked = Number(/under about (\d+) bytes/.exec(request.system ?? '')?.[1] ?? 200);
      return '7'.repeat(Math.max(1, asked - 16)).replace(/(.{60})/g, '$1\n');
    });
    const contextWindowTokens = 20_000;
    const compaction = createCompaction({
      env: {},
      aiClient: model,
      contextWindowTokens,
      tokenCounter: twoBytesPerToken,
    });
    const assembly = await compaction.assembleSynthesis(steps);
    const distilled = assembly.sections.filter(
      (section) => section.metadata?.strategy === 'distilled',
    );
    expect(distilled).toHaveLength(steps.length);
    expect(model.requests).toHaveLength(distilled.length);
    // Each summary was asked for at its share in this result's density, so the views fit.
    expect(assembly.successTokens).toBe(successTokens(assembly, twoBytesPerToken));
    expect(assembly.successTokens).toBeLessThanOrEqual(contextWindowTokens / 4);
  });
});
