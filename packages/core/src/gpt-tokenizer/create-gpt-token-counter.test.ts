import { fixturesAvailable, readFixture } from '@compaction/fixtures';
import { describe, expect, it } from 'vitest';
import { byteEstimateTokenCounter } from '../token-counter.js';
import { utf8ByteLength } from '../utf8.js';
import { createGptTokenCounter } from './index.js';

describe('createGptTokenCounter', () => {
  it('counts o200k_base tokens and names the encoding', () => {
    const counter = createGptTokenCounter();
    expect(counter.name).toBe('o200k_base (gpt-tokenizer)');
    expect(counter.countTokens('hello world')).toBe(2);
    expect(counter.countTokens('')).toBe(0);
  });

  it('counts text that looks like a special token as text instead of refusing it', () => {
    const counter = createGptTokenCounter();
    expect(counter.countTokens('log line <|endoftext|> more')).toBeGreaterThan(3);
  });

  it('takes another encoding module, and falls back to the estimate if it throws', async () => {
    const cl100k = await import('gpt-tokenizer/encoding/cl100k_base');
    expect(createGptTokenCounter({ tokenizer: cl100k, encoding: 'cl100k_base' }).name).toBe(
      'cl100k_base (gpt-tokenizer)',
    );
    const broken = createGptTokenCounter({
      tokenizer: {
        countTokens: () => {
          throw new Error('boom');
        },
      },
    });
    expect(broken.countTokens('abcdefg')).toBe(byteEstimateTokenCounter.countTokens('abcdefg'));
  });

  it.skipIf(!fixturesAvailable())('counts more tokens than the estimate on a real log', () => {
    const log = readFixture('logs/loghub-HDFS_2k.log');
    const real = createGptTokenCounter().countTokens(log);
    expect(real).toBeGreaterThan(byteEstimateTokenCounter.countTokens(log));
    expect(real).toBeLessThanOrEqual(utf8ByteLength(log));
  });
});
