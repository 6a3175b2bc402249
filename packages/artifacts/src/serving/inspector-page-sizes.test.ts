import { describe, expect, it } from 'vitest';
import { INSPECTOR_PAGE } from './inspector-page.js';

// The page's own size formatter, taken from its script as the browser runs it.
const source = /const size = (\(n\) => [^;]+);/.exec(INSPECTOR_PAGE)?.[1];
const size = new Function(`return ${source}`)() as (bytes: number) => string;

describe('the inspector page labels sizes in binary units (issue 43, item 16)', () => {
  it('divides by 1024 and says KiB and MiB', () => {
    expect(size(512)).toBe('512 B');
    expect(size(1536)).toBe('1.5 KiB');
    expect(size(3 * 1024 * 1024)).toBe('3.0 MiB');
  });

  it('names no decimal unit for a binary number anywhere on the page', () => {
    expect(INSPECTOR_PAGE).not.toMatch(/' [KMG]B'/);
  });
});
