import { describe, expect, it } from 'vitest';
import { InvalidArgumentError } from '../errors.js';
import { assertConfigOrSettings } from './assert-config-or-settings.js';

describe('assertConfigOrSettings', () => {
  it('says whether a config was given, and refuses it beside a setting it replaces', () => {
    type Settings = { config?: object; limit?: number; depth?: number };
    const check = (settings: Settings) => assertConfigOrSettings(settings, ['limit', 'depth']);
    expect(check({ limit: 3 })).toBe(false);
    expect(check({ config: {} })).toBe(true);
    const both = () => check({ config: {}, limit: 3, depth: 1 });
    expect(both).toThrow(InvalidArgumentError);
    expect(both).toThrow('give either config or limit, depth, not both');
  });
});
