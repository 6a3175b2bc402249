import { describe, expect, it } from 'vitest';
import { CONFIG_KNOBS } from './config-knobs.js';
import { knobDefault } from './knob-default.js';

describe('knobDefault', () => {
  it('reads the default from the knob table', () => {
    const knob = CONFIG_KNOBS.find((candidate) => candidate.path === 'trim.maxResultBytes')!;
    expect(knobDefault('trim.maxResultBytes')).toBe(knob.defaultValue);
    expect(knobDefault('artifacts.inlineLimitChars')).toBe(4000);
  });

  it('refuses a path that names no numeric knob', () => {
    expect(() => knobDefault('trim.nothing')).toThrow(/no numeric knob trim.nothing/);
    expect(() => knobDefault('trim.preserveKeys')).toThrow(/no numeric knob/);
  });
});
