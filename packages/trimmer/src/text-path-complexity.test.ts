import { EXHAUSTIVE } from '@compaction/test-runtime';
import { describe, expect, it } from 'vitest';
import { createStructuralTrimmer } from './create-structural-trimmer.js';
import { relativeGrowth } from './test-support/relative-growth.js';
import { expectHonestView } from './test-support/view-invariants.js';

// Every pass of the text path is linear in its input, whatever its shape. Two measures, neither
// a wall-clock limit: the work the path reports to `shouldStop` (it polls once per fixed amount
// of work), and the growth of its time from one size to 8 times that size against the growth of
// a linear reference pass over the same texts, measured alternately in the same run: a linear
// trim grows about as the reference does (8×), a quadratic one 8 times more (64×).

const trimmer = createStructuralTrimmer();
const BUDGET = 4096;
const SMALL = 1 << 18;
const GROWTH = 8;
/**
 * Growth of the trim over growth of the reference: 1 is linear (fixed costs pull it below), a
 * quadratic pass gives 8; other work on the machine moves one measurement by up to about 2×.
 */
const BOUND = 3.5;

/** `unit` repeated to at least `length` UTF-16 units. */
const fill = (unit: string, length: number) => unit.repeat(Math.ceil(length / unit.length));

const FAMILIES: Array<[string, (length: number) => string]> = [
  ['a run of sentence marks', (n) => fill('.', n)],
  ['runs of mixed marks and closers', (n) => fill('?!.)"', n)],
  ['sentences with spaces', (n) => fill('It failed. ', n)],
  ['one long line without newlines', (n) => fill('word ', n)],
  ['many short lines', (n) => fill('x\n', n)],
  ['a run of one character', (n) => fill('a', n)],
  ['CRLF log lines', (n) => fill('2024-05-01 INFO ok\r\n', n)],
  ['combining marks', (n) => fill('e\u0301\u0302', n)],
  ['lines of combining marks', (n) => fill('e\u0301\u0302e\u0301 ERROR\n', n)],
  ['terminal escapes', (n) => fill('\u001b[', n)],
  ['unterminated escape parameters', (n) => fill('\u001b[0;1;2;3;4;5;6;7;8;9', n)],
  ['unterminated hyperlinks', (n) => fill('\u001b]8;;https://x.test/', n)],
  [
    'coloured log lines',
    (n) => fill('\u001b[32mINFO\u001b[0m ok \u001b]8;;u\u0007l\u001b]8;;\u0007\n', n),
  ],
  ['level words everywhere', (n) => fill('level=level=ERROR exit exit code ', n)],
  ['indented continuation lines', (n) => fill('ERROR x\n  at y\n', n)],
  ['NDJSON records', (n) => fill('{"level":30,"res":{"statusCode":200},"ms":12,"msg":"ok"}\n', n)],
  ['diff hunks of one line each', (n) => `diff --git a/x b/x\n${fill('@@ -1 +1 @@\n+a\n', n)}`],
  ['files headed by `---`/`+++` pairs', (n) => fill('--- a/x\n+++ b/x\n@@ -1 +1 @@\n-a\n+b\n', n)],
  [
    'a hunk of lines that read as file headers',
    (n) => `--- a/x\n+++ b/x\n@@ -1,${n} +1,${n} @@\n${fill('--- a\n+++ b\n', n)}`,
  ],
];

/** Work reported to `shouldStop` (one poll per fixed amount) by one trim of `text`. */
function polls(text: string): number {
  let count = 0;
  const view = trimmer.trim(text, BUDGET, {
    shouldStop: () => {
      count++;
      return false;
    },
  });
  expectHonestView(view, text, BUDGET);
  return count;
}

/** A linear pass over `text` that touches every unit and every line, as a trim at least must. */
function reference(text: string): number {
  let sum = 0;
  for (let i = 0; i < text.length; i++) sum += text.charCodeAt(i);
  return sum + text.split('\n').length + Buffer.byteLength(text);
}

describe('the text path is linear on every shape', () => {
  it.each(FAMILIES)('%s: work reported grows as the input does', (_, make) => {
    const small = polls(make(SMALL));
    const large = polls(make(SMALL * GROWTH));
    expect(large).toBeLessThanOrEqual(small * GROWTH * 1.25 + 2);
  });

  // Wall-clock growth depends on what else the machine runs: `pnpm fuzz` runs it; in `pnpm test`
  // the work count above is the proof.
  it.runIf(EXHAUSTIVE).each(FAMILIES)(
    '%s: time grows as a linear reference pass does (wall clock: pnpm fuzz only)',
    (name, make) => {
      const small = make(SMALL);
      const large = make(SMALL * GROWTH);
      const relative = relativeGrowth(
        (text) => trimmer.trim(text, BUDGET),
        reference,
        small,
        large,
        BOUND,
      );
      if (process.env.COMPLEXITY_DEBUG) console.log(name, relative.toFixed(2));
      expect(relative).toBeLessThan(BOUND);
    },
    180_000,
  );
});
