import { describe, expect, it } from 'vitest';
import { NODE_MAJOR, sampled, skipBelowNode } from './index.js';

describe('skipBelowNode', () => {
  it('runs a test on the line it needs and newer ones', () => {
    expect(NODE_MAJOR).toBe(Number(process.version.slice(1).split('.')[0]));
    expect(skipBelowNode(NODE_MAJOR, 'tests for this line')).toBe(false);
    expect(skipBelowNode(20, 'tests for Node 20')).toBe(false);
  });

  it('skips a test that needs a newer line', () => {
    expect(skipBelowNode(NODE_MAJOR + 1, 'tests for the next line')).toBe(true);
  });
});

describe('sampled', () => {
  const units = Array.from({ length: 10_000 }, (_, i) => i);

  it('keeps every selected item and the same seeded share of the rest on every run', () => {
    const pick = () => sampled(units, { share: 0.1, seed: 7, keep: (i) => i % 1000 === 0 });
    const first = pick();
    expect(pick()).toEqual(first);
    for (let i = 0; i < units.length; i += 1000) expect(first).toContain(i);
    expect(first.length).toBeGreaterThan(900);
    expect(first.length).toBeLessThan(1200);
    expect([...first].sort((a, b) => a - b)).toEqual(first);
    expect(sampled(units, { share: 0.1, seed: 8 })).not.toEqual(
      sampled(units, { share: 0.1, seed: 7 }),
    );
  });
});
