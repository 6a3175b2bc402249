import { describe, expect, it } from 'vitest';
import {
  byteEstimateTokenCounter,
  countTokensForLimit,
  type TokenCounter,
} from './token-counter.js';

function countingCounter(): TokenCounter & { calls: number } {
  const counter = {
    name: 'one token per character',
    calls: 0,
    countTokens(text: string) {
      counter.calls++;
      return text.length;
    },
  };
  return counter;
}

describe('byteEstimateTokenCounter', () => {
  it('counts UTF-8 bytes / 3.5, rounded up, and says so', () => {
    expect(byteEstimateTokenCounter.countTokens('')).toBe(0);
    expect(byteEstimateTokenCounter.countTokens('abcdefg')).toBe(2);
    expect(byteEstimateTokenCounter.countTokens('é'.repeat(7))).toBe(4);
    expect(byteEstimateTokenCounter.name).toBe('estimate (3.5 UTF-8 bytes per token)');
  });
});

describe('countTokensForLimit', () => {
  it('does not run a real counter on a text whose bytes already fit the limit', () => {
    const counter = countingCounter();
    expect(countTokensForLimit(counter, 'x'.repeat(100), 100, 100)).toBe(100);
    expect(counter.calls).toBe(0);
    expect(countTokensForLimit(counter, 'x'.repeat(101), 101, 100)).toBe(101);
    expect(counter.calls).toBe(1);
  });

  it('estimates from the bytes it is given with the default counter', () => {
    expect(countTokensForLimit(byteEstimateTokenCounter, 'ignored', 35_000, 1)).toBe(10_000);
  });
});
