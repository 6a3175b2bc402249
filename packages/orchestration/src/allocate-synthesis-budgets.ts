import { InvalidArgumentError } from '@compaction/core';

/** One result competing for space in a synthesis prompt. */
export interface SynthesisBudgetRequest {
  /** Key the budget is returned under (a step id). */
  id: string;
  /** UTF-8 bytes of the full result. */
  bytes: number;
  /** True when the result will be distilled: it is sized at its post-distill footprint. */
  willDistill: boolean;
}

/** Budgets of `allocateSynthesisBudgets`. */
export interface SynthesisBudgetSettings {
  /** Cap per result, in bytes (`trim.maxResultBytes`, 64 KiB). */
  perResultBytes: number;
  /** All results together, in bytes (`trim.maxTotalBytes`, 192 KiB). */
  totalBytes: number;
  /** Expected size of a distilled result, in bytes (`distill.targetBytes`, 4 KiB). */
  distilledBytes: number;
  /** Smallest useful budget; results that cannot get it get 0 and are left out. Default 1. */
  minimumBytes?: number;
}

/**
 * Splits the synthesis budget between results, max-min fairly: each result asks for what it
 * needs (its size, or its post-distill footprint when it will be distilled), capped per result;
 * small demands are met in full and the rest share what remains equally. The sum never
 * exceeds `totalBytes`. Deterministic: ties break by input order.
 */
export function allocateSynthesisBudgets(
  requests: readonly SynthesisBudgetRequest[],
  settings: SynthesisBudgetSettings,
): Map<string, number> {
  const { perResultBytes, totalBytes, distilledBytes } = settings;
  const minimum = settings.minimumBytes ?? 1;
  for (const [name, value] of Object.entries({ perResultBytes, totalBytes, distilledBytes })) {
    if (!Number.isSafeInteger(value) || value <= 0) {
      throw new InvalidArgumentError({
        argument: name,
        message: `${name} must be a positive integer, got ${value}`,
      });
    }
  }
  const demands = requests.map((request, order) => ({
    id: request.id,
    order,
    demand: Math.min(
      perResultBytes,
      request.willDistill ? Math.min(distilledBytes, request.bytes) : request.bytes,
    ),
  }));
  const byDemand = [...demands].sort((a, b) => a.demand - b.demand || a.order - b.order);
  const budgets = new Map<string, number>();
  let remaining = totalBytes;
  let left = byDemand.length;
  for (const entry of byDemand) {
    const share = Math.floor(remaining / left);
    const budget = Math.min(entry.demand, share);
    const granted = budget >= Math.min(minimum, entry.demand) ? budget : 0;
    budgets.set(entry.id, granted);
    remaining -= granted;
    left--;
  }
  return new Map(demands.map((entry) => [entry.id, budgets.get(entry.id)!]));
}

/** The synthesis budgets derived from a model's context window (beyond the seed). */
export interface ContextWindowBudgetSettings {
  /** The target model's context window, in tokens. */
  contextWindowTokens: number;
  /** Share of the window all results together may take, 0–1. Default 0.25. */
  totalShare?: number;
  /** Share of the window one result may take, 0–1. Default a third of `totalShare`. */
  perResultShare?: number;
  /** Bytes per token for the estimate. Default 3.5. */
  bytesPerToken?: number;
}

/**
 * Total and per-result synthesis budgets as fractions of a model's context window, in bytes
 * (the window's token shares at `bytesPerToken`) and in tokens (the shares themselves, which a
 * `TokenCounter` can check; see `createCompaction`'s `tokenCounter`).
 */
export function budgetsFromContextWindow(settings: ContextWindowBudgetSettings): {
  totalBytes: number;
  perResultBytes: number;
  totalTokens: number;
  perResultTokens: number;
} {
  const { contextWindowTokens } = settings;
  const totalShare = settings.totalShare ?? 0.25;
  const perResultShare = settings.perResultShare ?? totalShare / 3;
  const bytesPerToken = settings.bytesPerToken ?? 3.5;
  if (!Number.isFinite(contextWindowTokens) || contextWindowTokens <= 0) {
    throw new InvalidArgumentError({
      argument: 'contextWindowTokens',
      message: 'contextWindowTokens must be positive',
    });
  }
  for (const [name, share] of Object.entries({ totalShare, perResultShare })) {
    if (!(share > 0 && share <= 1)) {
      throw new InvalidArgumentError({
        argument: name,
        message: `${name} must be in (0, 1], got ${share}`,
      });
    }
  }
  const totalBytes = Math.floor(contextWindowTokens * bytesPerToken * totalShare);
  const perResultBytes = Math.min(
    totalBytes,
    Math.floor(contextWindowTokens * bytesPerToken * perResultShare),
  );
  const totalTokens = Math.floor(contextWindowTokens * totalShare);
  const perResultTokens = Math.min(totalTokens, Math.floor(contextWindowTokens * perResultShare));
  return { totalBytes, perResultBytes, totalTokens, perResultTokens };
}
