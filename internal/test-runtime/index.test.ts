import { describe, expect, it } from 'vitest';
import { NODE_MAJOR, skipBelowNode } from './index.js';

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
