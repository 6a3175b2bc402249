import { describe, expect, it } from 'vitest';
import { loadConfig } from '../config/load-config.js';
import { byteEstimateTokenCounter, type TokenCounter } from '../token-counter.js';
import { resolveConversationBudget } from './resolve-conversation-budget.js';

const words: TokenCounter = { name: 'words', countTokens: (text) => text.split(/\s+/).length };

describe('resolveConversationBudget', () => {
  it('defaults to 96 KiB of tool results, clearing 40% at a step-down and keeping the last 2', () => {
    const budget = resolveConversationBudget({}, {});
    expect(budget).toMatchObject({
      enabled: true,
      unit: 'bytes',
      budget: 98_304,
      clearAtLeast: 39_321,
      keepLast: 2,
      smallViewBytes: 2048,
    });
    expect(budget.measure('héllo')).toBe(6);
  });

  it('reads the COMPACTION_CONVERSATION_* family, and explicit options win over it', () => {
    const env = {
      COMPACTION_CONVERSATION_MAX_BYTES: '65536',
      COMPACTION_CONVERSATION_CLEAR_AT_LEAST: '25',
      COMPACTION_CONVERSATION_KEEP_LAST: '5',
      COMPACTION_CONVERSATION_SMALL_VIEW_BYTES: '1024',
    };
    expect(resolveConversationBudget({}, env)).toMatchObject({
      unit: 'bytes',
      budget: 65_536,
      clearAtLeast: 16_384,
      keepLast: 5,
      smallViewBytes: 1024,
    });
    expect(resolveConversationBudget({ maxBytes: 10_000, keepLast: 1 }, env)).toMatchObject({
      budget: 10_000,
      clearAtLeast: 2500,
      keepLast: 1,
    });
    expect(
      resolveConversationBudget({}, { COMPACTION_CONVERSATION_ENABLED: 'false' }).enabled,
    ).toBe(false);
    expect(resolveConversationBudget({ enabled: false }, {}).enabled).toBe(false);
  });

  it('counts tokens for a token budget or a share of the context window', () => {
    const tokens = resolveConversationBudget({ maxTokens: 30_000, tokenCounter: words }, {});
    expect(tokens).toMatchObject({ unit: 'tokens', budget: 30_000, clearAtLeast: 12_000 });
    expect(tokens.measure('a b c')).toBe(3);
    const window = resolveConversationBudget({ contextWindowTokens: 200_000 }, {});
    expect(window).toMatchObject({ unit: 'tokens', budget: 50_000 });
    expect(window.measure('x'.repeat(35))).toBe(
      byteEstimateTokenCounter.countTokens('x'.repeat(35)),
    );
    expect(
      resolveConversationBudget(
        { contextWindowTokens: 200_000 },
        { COMPACTION_CONVERSATION_WINDOW_SHARE: '10' },
      ).budget,
    ).toBe(20_000);
    // An explicit byte budget wins over a token budget from the environment.
    expect(
      resolveConversationBudget({ maxBytes: 9000 }, { COMPACTION_CONVERSATION_MAX_TOKENS: '500' }),
    ).toMatchObject({ unit: 'bytes', budget: 9000 });
    expect(
      resolveConversationBudget({}, { COMPACTION_CONVERSATION_MAX_TOKENS: '500' }),
    ).toMatchObject({ unit: 'tokens', budget: 500 });
  });

  it('refuses bad options with an error naming them, and ignores bad environment values with a warning', () => {
    expect(() => resolveConversationBudget({ maxBytes: 0 }, {})).toThrow(/conversation.maxBytes/);
    expect(() => resolveConversationBudget({ keepLast: 0 }, {})).toThrow(/conversation.keepLast/);
    expect(() => resolveConversationBudget({ contextWindowTokens: -1 }, {})).toThrow(
      /contextWindowTokens/,
    );
    expect(() => resolveConversationBudget({ windowSharePercent: 150 }, {})).toThrow(
      /windowSharePercent/,
    );
    expect(() => resolveConversationBudget({ clearAtLeastPercent: 101 }, {})).toThrow(
      /clearAtLeastPercent/,
    );
    expect(() => resolveConversationBudget({ smallViewBytes: 100 }, {})).toThrow(
      /conversation.smallViewBytes/,
    );
    expect(
      resolveConversationBudget({}, { COMPACTION_CONVERSATION_SMALL_VIEW_BYTES: '100' }),
    ).toMatchObject({ smallViewBytes: 256, warnings: [{ path: 'conversation.smallViewBytes' }] });
    expect(() => resolveConversationBudget({ tokenCounter: {} as never }, {})).toThrow(
      /tokenCounter/,
    );
    const env = {
      COMPACTION_CONVERSATION_MAX_BYTES: 'lots',
      COMPACTION_CONVERSATION_WINDOW_SHARE: '150',
    };
    const budget = resolveConversationBudget({ contextWindowTokens: 1000 }, env);
    expect(budget.budget).toBe(250);
    expect(budget.warnings.map((w) => w.env)).toEqual([
      'COMPACTION_CONVERSATION_MAX_BYTES',
      'COMPACTION_CONVERSATION_WINDOW_SHARE',
    ]);
  });

  it('is what `compaction config` shows: every knob of the family is in the table', () => {
    const { sources } = loadConfig({ env: {} });
    expect(Object.keys(sources).filter((path) => path.startsWith('conversation.'))).toEqual([
      'conversation.enabled',
      'conversation.maxBytes',
      'conversation.maxTokens',
      'conversation.windowSharePercent',
      'conversation.clearAtLeastPercent',
      'conversation.keepLast',
      'conversation.smallViewBytes',
    ]);
  });
});
