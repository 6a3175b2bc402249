import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { unnamedNoteRoom } from './unnamed-note-room.js';

describe('unnamedNoteRoom', () => {
  it('is 8% where the names fit, more where they do not, up to 19%', () => {
    expect(unnamedNoteRoom(10_000, 5_000)).toBe(800);
    expect(unnamedNoteRoom(10_000, 0)).toBe(800);
    expect(unnamedNoteRoom(1_000, 1_000_000)).toBe(189);
    expect(unnamedNoteRoom(1_000, 4_000)).toBeGreaterThan(80);
  });

  it('never shrinks as the budget grows, and grows by less than it (property)', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 256, max: 2_000_000 }),
        fc.integer({ min: 1, max: 200_000 }),
        fc.integer({ min: 0, max: 5_000_000 }),
        (budget, more, names) => {
          const small = unnamedNoteRoom(budget, names);
          const large = unnamedNoteRoom(budget + more, names);
          expect(large).toBeGreaterThanOrEqual(small);
          expect(large - small).toBeLessThanOrEqual(more);
        },
      ),
      { numRuns: 2000 },
    );
  });
});
