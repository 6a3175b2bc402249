import { describe, expect, it } from 'vitest';
import { escapeRegExp } from './escape-reg-exp.js';

describe('escapeRegExp', () => {
  it('matches its text literally, special characters and all', () => {
    const text = 'a.b*c+d?e^f$g{h}i(j)k|l[m]n\\o/p';
    expect(new RegExp(`^${escapeRegExp(text)}$`).test(text)).toBe(true);
    expect(new RegExp(escapeRegExp('a.b')).test('axb')).toBe(false);
  });
});
