// A bounded, seeded fuzz run of every public pass inside `pnpm test`: a few thousand generated,
// hostile and mutated inputs per entry point, each checked against the invariants of
// bench/lib/fuzz-harness.mjs. No clock is read; `pnpm fuzz` runs the long version with the
// cost check.
import { describe, expect, it } from 'vitest';
import { FUZZ_ENTRIES, fuzzEntry } from './lib/fuzz-harness.mjs';

const CASES = Number(process.env.FUZZ_CASES ?? 2000);
const SEED = 17;

describe('fuzz (bounded, seeded)', () => {
  for (const name of Object.keys(FUZZ_ENTRIES)) {
    it(`${name}: ${CASES} cases hold every invariant`, { timeout: 300_000 }, () => {
      const report = fuzzEntry(name, { cases: CASES, seed: SEED });
      expect(report.violations.slice(0, 5)).toEqual([]);
    });
  }
});
