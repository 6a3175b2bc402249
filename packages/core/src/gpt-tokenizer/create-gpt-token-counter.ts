import { countTokens } from 'gpt-tokenizer';
import { byteEstimateTokenCounter, type TokenCounter } from '../token-counter.js';

/** The part of a gpt-tokenizer encoding module the counter uses. */
export interface GptTokenizerModule {
  countTokens(text: string, options?: { disallowedSpecial?: Set<string> }): number;
}

/** Settings of `createGptTokenCounter`. */
export interface GptTokenCounterSettings {
  /**
   * A gpt-tokenizer encoding module, such as `await import('gpt-tokenizer/encoding/cl100k_base')`
   * for GPT-4 and GPT-3.5. Default: the package's main module, `o200k_base` (GPT-4o, GPT-4.1,
   * GPT-5 and the o-series).
   */
  tokenizer?: GptTokenizerModule;
  /** The encoding's name in reports. Default `o200k_base`, or `custom` with a `tokenizer`. */
  encoding?: string;
}

/**
 * A `TokenCounter` over gpt-tokenizer (an optional peer: `npm install gpt-tokenizer`), exact for
 * OpenAI models and a far better estimate than bytes / 3.5 for others. Text that looks like a
 * special token (`<|endoftext|>`) is counted as plain text, never refused; should the tokenizer
 * throw anyway, that one text is estimated from its bytes.
 */
export function createGptTokenCounter(settings: GptTokenCounterSettings = {}): TokenCounter {
  const tokenizer: GptTokenizerModule = settings.tokenizer ?? { countTokens };
  const encoding = settings.encoding ?? (settings.tokenizer ? 'custom' : 'o200k_base');
  const plainText = { disallowedSpecial: new Set<string>() };
  return Object.freeze({
    name: `${encoding} (gpt-tokenizer)`,
    countTokens(text: string): number {
      try {
        return tokenizer.countTokens(text, plainText);
      } catch {
        return byteEstimateTokenCounter.countTokens(text);
      }
    },
  });
}
