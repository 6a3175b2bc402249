import { describe, expect, it } from 'vitest';
import {
  BudgetTooSmallError,
  CompactionError,
  ConfigError,
  InvalidArgumentError,
} from './errors.js';

describe('errors', () => {
  it('detects each class with isInstance, not instanceof alone', () => {
    const config = new ConfigError({
      option: 'trim.maxResultBytes',
      envVar: 'X',
      value: 0,
      reason: 'bad',
    });
    const budget = new BudgetTooSmallError({ budgetBytes: 10, minimumBytes: 64 });
    expect(CompactionError.isInstance(config)).toBe(true);
    expect(ConfigError.isInstance(config)).toBe(true);
    expect(BudgetTooSmallError.isInstance(config)).toBe(false);
    expect(BudgetTooSmallError.isInstance(budget)).toBe(true);
    expect(CompactionError.isInstance(new Error('plain'))).toBe(false);
    expect(ConfigError.isInstance(undefined)).toBe(false);
  });

  it('carries structured fields, a stable code and the cause', () => {
    const cause = new Error('inner');
    const error = new InvalidArgumentError({
      argument: 'maxBytes',
      message: 'must be positive',
      cause,
    });
    expect(error.code).toBe('invalid_argument');
    expect(error.argument).toBe('maxBytes');
    expect(error.cause).toBe(cause);
    const budget = new BudgetTooSmallError({
      budgetBytes: 10,
      minimumBytes: 64,
      what: 'the trimmer',
    });
    expect(budget.message).toBe(
      'Budget of 10 bytes is below the minimum of 64 bytes for the trimmer',
    );
    expect(new BudgetTooSmallError({ budgetBytes: 1, minimumBytes: 256 }).message).toBe(
      'Budget of 1 byte is below the minimum of 256 bytes',
    );
    expect(
      new ConfigError({ option: 'a.b', envVar: 'COMPACTION_A', value: 'x', reason: 'nope' })
        .message,
    ).toBe('Invalid value for a.b (COMPACTION_A): nope');
  });

  it('is recognised across copies that share only the marker symbols', () => {
    const foreign = Object.assign(new Error('other copy'), {
      [Symbol.for('compaction.error')]: true,
      [Symbol.for('compaction.error.ConfigError')]: true,
    });
    expect(ConfigError.isInstance(foreign)).toBe(true);
  });
});
