import type { ConversationConfig } from '../config/compaction-config.js';
import { type ConfigWarning, loadConfig } from '../config/load-config.js';
import { ConfigError } from '../errors.js';
import { MIN_TRIM_BUDGET_BYTES } from '../min-trim-budget.js';
import { byteEstimateTokenCounter, type TokenCounter } from '../token-counter.js';
import { utf8ByteLength } from '../utf8.js';

/**
 * The conversation budget's options, as an adapter takes them. Each given value wins over its
 * `COMPACTION_CONVERSATION_*` variable, which wins over the default.
 */
export interface ConversationBudgetOptions {
  /** Hold the tool results of a prompt to the budget. Default true. `COMPACTION_CONVERSATION_ENABLED`. */
  enabled?: boolean;
  /** Budget of all tool results of one prompt, in UTF-8 bytes. Default 98304 (96 KiB). `COMPACTION_CONVERSATION_MAX_BYTES`. */
  maxBytes?: number;
  /** The budget in tokens, counted by `tokenCounter`; wins over `maxBytes`. Default none. `COMPACTION_CONVERSATION_MAX_TOKENS`. */
  maxTokens?: number;
  /**
   * The model's context window in tokens: without `maxBytes` or `maxTokens`, the budget is
   * `windowSharePercent` of it, in tokens. No environment variable (it belongs to the model).
   */
  contextWindowTokens?: number;
  /** Percent (1–100) of `contextWindowTokens` for tool results. Default 25. `COMPACTION_CONVERSATION_WINDOW_SHARE`. */
  windowSharePercent?: number;
  /**
   * Percent (1–100) of the budget each step-down leaves free under it (it frees what the turn
   * went over, plus this), so the prompt prefix and the provider's prompt cache break rarely.
   * Default 40. `COMPACTION_CONVERSATION_CLEAR_AT_LEAST`.
   */
  clearAtLeastPercent?: number;
  /** Newest tool results that always keep their view (at least 1). Default 2. `COMPACTION_CONVERSATION_KEEP_LAST`. */
  keepLast?: number;
  /** Size of the small view an older result steps down to, in UTF-8 bytes (at least 256). Default 2048. `COMPACTION_CONVERSATION_SMALL_VIEW_BYTES`. */
  smallViewBytes?: number;
  /** Counts tokens for a token budget. Default `byteEstimateTokenCounter` (UTF-8 bytes / 3.5). */
  tokenCounter?: TokenCounter;
}

/** The conversation budget, resolved once. */
export interface ResolvedConversationBudget {
  enabled: boolean;
  /** What `budget` and `clearAtLeast` count. */
  unit: 'bytes' | 'tokens';
  budget: number;
  clearAtLeast: number;
  keepLast: number;
  smallViewBytes: number;
  /** The cost of a text in `unit`. */
  measure: (text: string) => number;
  /** The tokens of a text, by `tokenCounter` (for the savings a report gives in both units). */
  countTokens: (text: string) => number;
  /** Environment values of the family that were ignored or read unexpectedly. */
  warnings: ConfigWarning[];
}

const PERCENT_KNOBS = {
  windowSharePercent: { env: 'COMPACTION_CONVERSATION_WINDOW_SHARE', min: 1, fallback: 25 },
  clearAtLeastPercent: { env: 'COMPACTION_CONVERSATION_CLEAR_AT_LEAST', min: 1, fallback: 40 },
} as const;

/**
 * Resolves the conversation budget: explicit options, then the `COMPACTION_CONVERSATION_*`
 * variables of `env`, then the defaults. The budget's form is, first found: `maxTokens` given,
 * `maxBytes` given, `contextWindowTokens` given (its `windowSharePercent`, in tokens),
 * `COMPACTION_CONVERSATION_MAX_TOKENS` set, else `maxBytes` from the environment or its default.
 * An invalid option throws a `ConfigError` naming it; an unusable environment value is ignored
 * and reported in `warnings`.
 */
export function resolveConversationBudget(
  options: ConversationBudgetOptions = {},
  env?: Readonly<Record<string, string | undefined>>,
): ResolvedConversationBudget {
  const { tokenCounter, contextWindowTokens, ...knobs } = options;
  for (const [name, range] of Object.entries(PERCENT_KNOBS)) {
    const value = knobs[name as keyof typeof PERCENT_KNOBS];
    if (value !== undefined && (!Number.isSafeInteger(value) || value < range.min || value > 100))
      throw new ConfigError({
        option: `conversation.${name}`,
        value,
        reason: `must be an integer from ${range.min} to 100`,
      });
  }
  if (
    contextWindowTokens !== undefined &&
    (!Number.isSafeInteger(contextWindowTokens) || contextWindowTokens <= 0)
  )
    throw new ConfigError({
      option: 'contextWindowTokens',
      value: contextWindowTokens,
      reason: 'must be a positive integer',
    });
  if (tokenCounter !== undefined && typeof tokenCounter?.countTokens !== 'function')
    throw new ConfigError({
      option: 'tokenCounter',
      value: tokenCounter,
      reason: 'must be a TokenCounter (countTokens(text))',
    });

  const given = Object.fromEntries(
    Object.entries(knobs).filter(([, value]) => value !== undefined),
  ) as Partial<ConversationConfig>;
  const loaded = loadConfig({ options: { conversation: given }, ...(env ? { env } : {}) });
  const config = loaded.config.conversation;
  const warnings = loaded.warnings.filter((warning) => warning.path.startsWith('conversation.'));
  for (const [name, range] of Object.entries(PERCENT_KNOBS)) {
    const key = name as keyof typeof PERCENT_KNOBS;
    if (config[key] <= 100) continue;
    warnings.push({
      path: `conversation.${name}`,
      env: range.env,
      source: 'env',
      value: String(config[key]),
      message: `${range.env}=${JSON.stringify(String(config[key]))} is above 100 percent; using the default (${range.fallback})`,
    });
    config[key] = range.fallback;
  }

  const source = (path: keyof ConversationConfig) => loaded.sources[`conversation.${path}`];
  if (config.smallViewBytes < MIN_TRIM_BUDGET_BYTES) {
    if (source('smallViewBytes') === 'option')
      throw new ConfigError({
        option: 'conversation.smallViewBytes',
        value: config.smallViewBytes,
        reason: `must be at least ${MIN_TRIM_BUDGET_BYTES} (the least a structural trim can cut to)`,
      });
    warnings.push({
      path: 'conversation.smallViewBytes',
      env: 'COMPACTION_CONVERSATION_SMALL_VIEW_BYTES',
      source: 'env',
      value: String(config.smallViewBytes),
      message: `COMPACTION_CONVERSATION_SMALL_VIEW_BYTES=${JSON.stringify(String(config.smallViewBytes))} is below ${MIN_TRIM_BUDGET_BYTES}; using ${MIN_TRIM_BUDGET_BYTES}`,
    });
    config.smallViewBytes = MIN_TRIM_BUDGET_BYTES;
  }
  const counter = tokenCounter ?? byteEstimateTokenCounter;
  let unit: 'bytes' | 'tokens' = 'tokens';
  let budget: number;
  if (source('maxTokens') === 'option' && config.maxTokens !== undefined) budget = config.maxTokens;
  else if (source('maxBytes') === 'option') {
    unit = 'bytes';
    budget = config.maxBytes;
  } else if (contextWindowTokens !== undefined)
    budget = Math.max(1, Math.floor((contextWindowTokens * config.windowSharePercent) / 100));
  else if (config.maxTokens !== undefined) budget = config.maxTokens;
  else {
    unit = 'bytes';
    budget = config.maxBytes;
  }
  return {
    enabled: config.enabled,
    unit,
    budget,
    clearAtLeast: Math.floor((budget * config.clearAtLeastPercent) / 100),
    keepLast: config.keepLast,
    smallViewBytes: config.smallViewBytes,
    measure: unit === 'bytes' ? utf8ByteLength : (text) => counter.countTokens(text),
    countTokens: (text) => counter.countTokens(text),
    warnings,
  };
}
