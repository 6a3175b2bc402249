import { BYTES_PER_TOKEN, estimateTokens } from './estimate-tokens.js';
import { utf8ByteLength } from './utf8.js';

/**
 * Counts the tokens a text costs a model. Routing asks it (the distiller's context check and
 * map-reduce's reduce check); reports name it. The default, `byteEstimateTokenCounter`, divides
 * UTF-8 bytes by 3.5, which is free but undercounts logs and numeric data (by a sixth to a
 * third against o200k on the shared fixtures, see bench/results/tokens.md); a real tokenizer
 * (`createGptTokenCounter` from `@compaction/core/gpt-tokenizer`) counts exactly.
 */
export interface TokenCounter {
  /** What counts, as reports and the `compaction.token_counter` attribute name it. */
  readonly name: string;
  /**
   * The tokens of `text`. Synchronous, linear in the text, and never more than its UTF-8 bytes
   * (a token is at least one byte), so callers skip the count when the bytes already fit.
   */
  countTokens(text: string): number;
}

/** The default counter: UTF-8 bytes / 3.5, rounded up. */
export const byteEstimateTokenCounter: TokenCounter = Object.freeze({
  name: `estimate (${BYTES_PER_TOKEN} UTF-8 bytes per token)`,
  countTokens: (text: string) => estimateTokens(utf8ByteLength(text)),
});

/**
 * What routing compares with a limit of `limit` tokens: the count of `text` (of `bytes` UTF-8
 * bytes), or, when the bytes already fit, the bytes themselves (an upper bound: a token is at
 * least one byte), so a real tokenizer runs only on texts that might exceed the limit.
 */
export function countTokensForLimit(
  counter: TokenCounter,
  text: string,
  bytes: number,
  limit: number,
): number {
  if (counter === byteEstimateTokenCounter) return estimateTokens(bytes);
  return bytes <= limit ? bytes : counter.countTokens(text);
}
