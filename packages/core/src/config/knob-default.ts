import { CONFIG_KNOBS } from './config-knobs.js';

/**
 * The built-in default of the numeric knob at `path` (such as `trim.maxResultBytes`), read from
 * the knob table, so a factory's default and the documented default are one value. Throws for
 * a path that names no numeric knob (a programming error).
 */
export function knobDefault(path: string): number {
  const value = CONFIG_KNOBS.find((knob) => knob.path === path)?.defaultValue;
  if (typeof value !== 'number') throw new Error(`no numeric knob ${path}`);
  return value;
}
