import { byteEstimateTokenCounter, type TokenCounter } from '@compaction/core';
import { createScriptedAIClient } from '@compaction/core/test';
import { describe, expect, it } from 'vitest';
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
