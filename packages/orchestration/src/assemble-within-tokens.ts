import type { TokenCounter } from '@compaction/core';
import type { SynthesisAssembly } from './assemble-synthesis-prompt.js';

/** Byte budgets of one synthesis assembly. */
export interface SynthesisByteBudgets {
  totalBytes: number;
  perResultBytes: number;
}

/** Settings of `assembleWithinTokens`. */
export interface AssembleWithinTokensSettings {
  /** The byte budgets to start from (the 3.5 bytes-per-token estimate of the token shares). */
  budgets: SynthesisByteBudgets;
  /** Tokens all success views together may take. */
  totalTokens: number;
  /** Tokens one success view may take when several share the prompt. */
  perResultTokens: number;
  tokenCounter: TokenCounter;
  /** Assemblies tried at most. Default 6. */
  maxAttempts?: number;
}

// Shrink a little past the measured ratio, so the next assembly lands under the share.
const MARGIN = 0.97;

/**
 * Assembles with `budgets`, counts the success views' tokens with `tokenCounter` and, while
 * they exceed `totalTokens` (or one view exceeds `perResultTokens` among several), assembles
 * again with the byte budgets scaled by the measured ratio. Text denser than the estimate (logs,
 * numbers) then stays within the token share; text that already fits is returned as the first
 * assembly made it, with no second pass. `successTokens` says what the counter counted. After
 * `maxAttempts` the last assembly is returned as it is (over the share only with a counter
 * whose counts are far from proportional to bytes; `successTokens` then shows it).
 */
export async function assembleWithinTokens(
  assemble: (budgets: SynthesisByteBudgets) => Promise<SynthesisAssembly>,
  settings: AssembleWithinTokensSettings,
): Promise<SynthesisAssembly & { successTokens: number }> {
  const { totalTokens, perResultTokens, tokenCounter } = settings;
  const maxAttempts = settings.maxAttempts ?? 6;
  let budgets = settings.budgets;
  for (let attempt = 1; ; attempt++) {
    const assembly = await assemble(budgets);
    const successes = assembly.sections.filter((section) => section.status === 'succeeded');
    const counts = successes.map((section) => tokenCounter.countTokens(section.text));
    const successTokens = counts.reduce((sum, count) => sum + count, 0);
    const largest = Math.max(0, ...counts);
    const scale = Math.min(
      1,
      successTokens > 0 ? totalTokens / successTokens : 1,
      successes.length > 1 && largest > 0 ? perResultTokens / largest : 1,
    );
    if (scale >= 1 || attempt >= maxAttempts) return { ...assembly, successTokens };
    budgets = {
      totalBytes: Math.max(1, Math.floor(budgets.totalBytes * scale * MARGIN)),
      perResultBytes: Math.max(1, Math.floor(budgets.perResultBytes * scale * MARGIN)),
    };
    budgets.perResultBytes = Math.min(budgets.perResultBytes, budgets.totalBytes);
  }
}
