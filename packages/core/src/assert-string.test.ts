import { describe, expect, it } from 'vitest';
import { assertString } from './assert-string.js';
import { InvalidArgumentError } from './errors.js';

describe('assertString', () => {
  it('returns strings and refuses anything else by name', () => {
    expect(assertString('', 'text')).toBe('');
    let error: unknown;
    try {
      assertString(42, 'text');
    } catch (caught) {
      error = caught;
    }
    expect(InvalidArgumentError.isInstance(error)).toBe(true);
    expect((error as Error).message).toBe('text must be a string, got number');
  });
});
