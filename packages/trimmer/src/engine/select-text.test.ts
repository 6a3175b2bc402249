import {
  type LineShape,
  parseLevelBreakdown,
  parseLineShapes,
  parseRecordCoverage,
  trailingDisclosureNotes,
} from '@compaction/core';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { createStructuralTrimmer } from '../create-structural-trimmer.js';
import { isUnifiedDiff } from '../readers/is-unified-diff.js';
import { type DiffHeaderStyle, generatedDiff } from '../test-support/generated-diffs.js';
import { expectHonestView, expectMarkedLines, viewBody } from '../test-support/view-invariants.js';

function routineFile(index: number): string {
  const lines = [
    `diff --git a/src/file${index}.ts b/src/file${index}.ts`,
    `index 1111111..2222222 100644`,
    `--- a/src/file${index}.ts`,
    `+++ b/src/file${index}.ts`,
  ];
  for (let h = 0; h < 6; h++) {
    lines.push(`@@ -${10 + h * 40},7 +${10 + h * 40},7 @@ export function handler${h}() {`);
    for (let c = 0; c < 3; c++) lines.push(`   const value${c} = compute${c}(input);`);
    lines.push(
      '-  return items.map((item) => item.total);',
      '+  return items.map((entry) => entry.total);',
    );
    for (let c = 0; c < 2; c++) lines.push(`   logger.debug('step ${c}');`);
  }
  return lines.join('\n');
}

const needle = [
  'diff --git a/deploy/payments/values.yaml b/deploy/payments/values.yaml',
  'index 3333333..4444444 100644',
  '--- a/deploy/payments/values.yaml',
  '+++ b/deploy/payments/values.yaml',
  '@@ -12,7 +12,7 @@ payments:',
  '   replicas: 6',
  '   database:',
  '-    poolMax: 50',
  '+    poolMax: 5',
  '     poolTimeoutSeconds: 2',
].join('\n');

/** The mail header `git format-patch` opens a patch with, and the blank line after it. */
const MAIL_HEADER = [
  'From 6e62251904bae9fc8f15204ce684ef467b10cf51 Mon Sep 17 00:00:00 2001',
  'From: Dev <dev@example.com>',
  'Date: Mon, 8 Sep 2025 09:32:56 -0700',
  'Subject: [PATCH] payments: lower the pool size to 5',
  '',
];

const files = Array.from({ length: 80 }, (_, i) => routineFile(i));
files.splice(57, 0, needle);
const diff = `${files.join('\n')}\n`;

describe('diffs are trimmed by hunk, each kept hunk with its file header', () => {
  it('recognises a unified diff', () => {
    expect(isUnifiedDiff(diff)).toBe(true);
    expect(isUnifiedDiff('plain\ntext\nwith @@ signs')).toBe(false);
  });

  it('recognises a diff as its patterns define one: a `diff --git` line with a line after it, and a hunk', () => {
    const byPatterns = (text: string) =>
      /(^|\n)diff --git [^\n]*\n/.test(text) &&
      /(^|\n)@@ -\d+(?:,\d+)? \+\d+(?:,\d+)? @@/.test(text);
    const piece = fc.constantFrom(
      'diff --git a/x b/x',
      'diff --git ',
      '\n',
      '@@ -1 +1 @@',
      'x',
      ' ',
    );
    fc.assert(
      fc.property(fc.array(piece, { maxLength: 12 }), (pieces) => {
        const text = pieces.join('');
        expect(isUnifiedDiff(text)).toBe(byPatterns(text));
        // Where its lines start, as `lineStarts` has them: after every newline but a last one.
        const starts = [0, ...[...text.matchAll(/\n(?=[\s\S])/g)].map((match) => match.index + 1)];
        expect(isUnifiedDiff(text, starts)).toBe(byPatterns(text));
      }),
      { numRuns: 2000 },
    );
  });

  it('keeps the whole hunk of a file the question names, with the file it belongs to', () => {
    const view = createStructuralTrimmer().trim(diff, 12_000, {
      userQuery: 'what changed in the payments deploy?',
    });
    expect(view.metadata.contentLost).toBe(true);
    expect(view.text).toContain(`${needle}\n`);
    expect(view.text).toMatch(/\[trimmed: \d+\/\d+ file headers and hunks kept/);
    // No hunk appears without its file header.
    const lines = view.text.split('\n');
    let header = false;
    for (const line of lines) {
      if (line.startsWith('diff --git ')) header = true;
      if (line.startsWith('@@ ')) expect(header).toBe(true);
    }
  });

  it('shows the changed lines of a file asked for by path, though another file names it on every line', () => {
    const goMod = [
      'diff --git a/go.mod b/go.mod',
      'index 986858a0..09abb12d 100644',
      '--- a/go.mod',
      '+++ b/go.mod',
      '@@ -33,12 +33,12 @@ require (',
      ...Array.from({ length: 6 }, (_, i) => [
        `-\tgithub.com/acme/lib${i} v1.${i}.0`,
        `+\tgithub.com/acme/lib${i} v1.${i + 1}.0`,
      ]).flat(),
      ...Array.from({ length: 40 }, (_, i) => ` \tgithub.com/other/dep${i} v0.${i}.0 // indirect`),
    ].join('\n');
    const goSum = [
      'diff --git a/go.sum b/go.sum',
      'index 1111111..2222222 100644',
      '--- a/go.sum',
      '+++ b/go.sum',
      ...Array.from({ length: 20 }, (_, h) => [
        `@@ -${h * 30 + 1},12 +${h * 30 + 1},12 @@`,
        ...Array.from({ length: 12 }, (_, i) => {
          const mark = i % 4 === 0 ? '-' : i % 4 === 1 ? '+' : ' ';
          return `${mark}github.com/mod${h}/pkg${i} v0.${i}.0/go.mod h1:${'x'.repeat(40)}=`;
        }),
      ]).flat(),
    ].join('\n');
    // Other files say "changed" here and there, as real code and docs do.
    const files = Array.from({ length: 30 }, (_, i) =>
      i % 3 === 0
        ? routineFile(i).replace(
            '+  return items.map((entry) => entry.total);',
            `+  return items.map((entry) => entry.total); // changed in review ${i}`,
          )
        : routineFile(i),
    );
    files.splice(3, 0, goMod, goSum);
    const text = `${files.join('\n')}\n`;
    for (const budget of [3000, 6000]) {
      const view = trimmer.trim(text, budget, { userQuery: 'What changed in go.mod?' });
      expectHonestView(view, text, budget);
      const body = viewBody(view);
      for (let i = 0; i < 6; i++) {
        expect(body).toContain(
          `-\tgithub.com/acme/lib${i} v1.${i}.0\n+\tgithub.com/acme/lib${i} v1.${i + 1}.0\n`,
        );
      }
    }
  });

  it('shows every changed line of a named file whose small hunks do not all fit, before their context', () => {
    // Ten small hunks of three context lines, one change, three context lines each: whole, they
    // take twice the room their changes need.
    const manifest = [
      'diff --git a/package.json b/package.json',
      'index 5555555..6666666 100644',
      '--- a/package.json',
      '+++ b/package.json',
      ...Array.from({ length: 10 }, (_, h) => [
        `@@ -${h * 20 + 1},7 +${h * 20 + 1},7 @@`,
        ...Array.from({ length: 3 }, (_, c) => `     "unchanged-dep-${h}-${c}": "^1.${c}.0",`),
        `-    "dep-${h}": "^2.${h}.0",`,
        `+    "dep-${h}": "^3.${h}.0",`,
        ...Array.from({ length: 3 }, (_, c) => `     "other-dep-${h}-${c}": "^4.${c}.0",`),
      ]).flat(),
    ].join('\n');
    const files = Array.from({ length: 40 }, (_, i) => routineFile(i));
    files.splice(25, 0, manifest);
    const text = `${files.join('\n')}\n`;
    const budget = 2400;
    expect(Buffer.byteLength(manifest)).toBeGreaterThan(budget);
    const view = trimmer.trim(text, budget, { userQuery: 'what changed in package.json?' });
    expectHonestView(view, text, budget);
    const lines = expectMarkedLines(view, text);
    for (let h = 0; h < 10; h++) {
      expect(lines).toContain(`-    "dep-${h}": "^2.${h}.0",`);
      expect(lines).toContain(`+    "dep-${h}": "^3.${h}.0",`);
      expect(lines).toContain(`@@ -${h * 20 + 1},7 +${h * 20 + 1},7 @@`);
    }
  });

  it('opens a patch with its subject, however long its message and diffstat', () => {
    const preamble = [
      ...MAIL_HEADER,
      ...Array.from({ length: 60 }, (_, i) => `Bumps dependency ${i} for the security group.`),
      '---',
      ...Array.from({ length: 81 }, (_, i) => ` src/file${i}.ts | 4 ++--`),
      ' 81 files changed, 162 insertions(+), 162 deletions(-)',
      '',
    ].join('\n');
    const text = `${preamble}${diff}`;
    for (const budget of [900, 2000]) {
      for (const userQuery of [undefined, 'what changed in src/file7.ts?']) {
        const view = trimmer.trim(text, budget, userQuery ? { userQuery } : undefined);
        expectHonestView(view, text, budget);
        const kept = expectMarkedLines(view, text);
        expect(kept).toContain('Subject: [PATCH] payments: lower the pool size to 5');
        // No `@@` line stands alone: a split hunk's header comes with a line of it.
        kept.forEach((line, at) => {
          if (line.startsWith('@@ ')) expect(/^[+ -]/.test(kept[at + 1] ?? '')).toBe(true);
        });
      }
    }
  });

  it('shows what a patch changed in all: its diffstat, or at least its summary line', () => {
    // 80 files changed: the diffstat names each with how much changed, the line after it
    // counts them all. A reader asks what changed before how.
    const stat = Array.from(
      { length: 80 },
      (_, i) =>
        ` src/${['api', 'db', 'ui', 'jobs'][i % 4]}/file${i}.ts | ${12 - (i % 9)} ${'+'.repeat(6 - (i % 5))}${'-'.repeat(1 + (i % 4))}`,
    );
    stat.splice(57, 0, ' deploy/payments/values.yaml | 2 +-');
    const preamble = [
      ...MAIL_HEADER,
      'The pool of 50 held connections the database needs for its replicas.',
      '---',
      ...stat,
      ' 81 files changed, 486 insertions(+), 222 deletions(-)',
      '',
    ].join('\n');
    // Expected outputs of tests that fail on purpose: error lines in changed files.
    const expectations = Array.from({ length: 20 }, (_, i) =>
      [
        `diff --git a/test/expected/case${i}.err b/test/expected/case${i}.err`,
        'index aa469f10b717..292b68b9cdca 100644',
        `--- a/test/expected/case${i}.err`,
        `+++ b/test/expected/case${i}.err`,
        '@@ -1 +1 @@',
        `-error: sqlite3_exec failed -- call to json_contains(json, ${i}) failed`,
        `+error: sqlite3_exec failed -- call to json_contains(json, value ${i}) failed`,
      ].join('\n'),
    ).join('\n');
    const text = `${preamble}${diff}${expectations}\n`;
    const bytes = Buffer.byteLength(text);
    let whole = 0;
    for (const share of [0.01, 0.03, 0.1, 0.2]) {
      const budget = Math.floor(bytes * share);
      const view = trimmer.trim(text, budget);
      expectHonestView(view, text, budget);
      const kept = expectMarkedLines(view, text);
      expect(kept).toContain(' 81 files changed, 486 insertions(+), 222 deletions(-)');
      // The diffstat tells the files: the note does not again.
      expect(trailingDisclosureNotes(view.text)[0]!.text).not.toContain('; files ');
      // Where the diffstat takes at most two fifths of the room, all of it.
      if (Buffer.byteLength(stat.join('\n')) <= 0.4 * budget) {
        for (const line of stat) expect(kept).toContain(line);
        whole++;
      }
    }
    expect(whole).toBeGreaterThan(0);
  });

  it('never shows a file header without any of its hunks', () => {
    for (const budget of [600, 1500, 4000]) {
      for (const userQuery of ['what changed in src/file7.ts?', 'payments', undefined]) {
        const view = trimmer.trim(diff, budget, userQuery ? { userQuery } : undefined);
        expectHonestView(view, diff, budget);
        const lines = expectMarkedLines(view, diff);
        lines.forEach((line, at) => {
          if (!line.startsWith('diff --git ')) return;
          const rest = lines.slice(at + 1);
          const end = rest.findIndex((next) => next.startsWith('diff --git '));
          expect(
            rest.slice(0, end < 0 ? undefined : end).some((next) => next.startsWith('@@ ')),
          ).toBe(true);
        });
      }
    }
  });
});

/** A routine log: `count` lines of one service doing the same few things. */
function routineLog(count: number, eol = '\n'): string[] {
  const lines: string[] = [];
  for (let i = 0; i < count; i++) {
    const time = `2024-05-01T12:${String(Math.floor(i / 60) % 60).padStart(2, '0')}:${String(i % 60).padStart(2, '0')}.${String(i % 1000).padStart(3, '0')}Z`;
    const line =
      i % 3 === 0
        ? `${time} INFO [worker-${i % 7}] processed batch ${1000 + i} in ${(i * 37) % 90}ms`
        : i % 3 === 1
          ? `${time} INFO [worker-${i % 7}] fetched ${(i * 13) % 500} items from queue orders-${i % 4}`
          : `${time} DEBUG [scheduler] next run in ${(i * 7) % 60}s`;
    lines.push(line + (eol === '\r\n' ? '\r' : ''));
  }
  return lines;
}

function plantAt(lines: string[], depth: number, planted: string[]): string {
  const copy = [...lines];
  copy.splice(Math.floor(lines.length * depth), 0, ...planted);
  return copy.join('\n');
}

const trimmer = createStructuralTrimmer();
const budgetAt = (text: string, share: number) => Math.floor(Buffer.byteLength(text) * share);

describe('logs: what stands out is kept without a query', () => {
  const anomalies = [
    '2024-05-01T12:31:07.311Z ERROR [worker-2] ledger write failed: connection reset (txn 77f3)',
    'src/billing/invoice.py:214:9: severity: E undefined-name "ledger_total" is not defined',
    'ALERTS{alertname="QueueBacklog", alertstate="firing", queue="orders-2", severity="warning"} 1',
    'E0501 12:31:07.311204    2231 controller.go:114] failed to sync orders-2: deadline exceeded',
    'level=fatal msg="cannot open journal" path=/var/lib/app/journal',
    'worker-2 exited with exit code 137',
  ];
  const lines = routineLog(4000);

  it.each(anomalies)(
    'keeps %j at a 3 percent budget, asked nothing or a generic question',
    (line) => {
      for (const depth of [0.35, 0.63, 0.92]) {
        const text = plantAt(lines, depth, [line]);
        const budget = budgetAt(text, 0.03);
        for (const context of [undefined, { userQuery: 'is anything wrong?' }]) {
          const view = trimmer.trim(text, budget, context);
          expectHonestView(view, text, budget);
          expect(viewBody(view)).toContain(line);
        }
      }
    },
  );

  it('shows the first and the last line of a log of one routine shape, at any budget', () => {
    // A log written newest first, every line but its many errors one shape: its ends are its
    // time range, though the errors could take all the room.
    const lines = Array.from({ length: 1000 }, (_, i) => {
      const at = new Date(Date.UTC(2024, 3, 16, 15, 10, 44) - i * 37).toISOString();
      return i % 10 === 5
        ? `ts=${at} level=error msg="failed to decode logfmt" err="syntax error at pos ${i}"`
        : `ts=${at} level=info msg="received file watcher event" name=/var/log/pods/app-${i % 7}/0.log op=CREATE`;
    });
    const text = lines.join('\n');
    for (const share of [0.03, 0.1, 0.3]) {
      const budget = budgetAt(text, share);
      const view = trimmer.trim(text, budget);
      expectHonestView(view, text, budget);
      const shown = viewBody(view).split('\n');
      expect(shown[0]).toBe(lines[0]);
      expect(shown.at(-1)).toBe(lines.at(-1));
    }
  });

  it('keeps a stack trace with its frames and the line before it', () => {
    const trace = [
      '2024-05-01T12:31:07.311Z ERROR [worker-2] request failed',
      'java.lang.IllegalStateException: pool exhausted',
      '\tat com.example.pool.Pool.acquire(Pool.java:88)',
      '\tat com.example.api.Handler.handle(Handler.java:41)',
      'Caused by: java.net.SocketTimeoutException: Read timed out',
      '\t... 12 more',
    ];
    const text = plantAt(lines, 0.5, trace);
    const view = trimmer.trim(text, budgetAt(text, 0.03));
    const body = viewBody(view);
    expect(body).toContain(trace.join('\n'));
    const before = lines[Math.floor(lines.length * 0.5) - 1]!;
    expect(body).toContain(`${before}\n${trace[0]}`);
  });

  it('says in the note how many lines of each level were dropped', () => {
    const text = plantAt(lines, 0.5, [anomalies[0]!, anomalies[4]!]);
    for (const share of [0.03, 0.2]) {
      const budget = budgetAt(text, share);
      const view = trimmer.trim(text, budget);
      expectHonestView(view, text, budget);
      const note = trailingDisclosureNotes(view.text)[0]!.text;
      const breakdown = parseLevelBreakdown(note);
      expect(breakdown?.unit).toBe('lines');
      const byLevel = Object.fromEntries(
        breakdown!.counts.map((entry) => [entry.level, [entry.dropped, entry.total]]),
      );
      expect(Object.keys(byLevel)).toEqual(['fatal', 'error', 'info', 'debug']);
      expect(byLevel.fatal).toEqual([0, 1]);
      expect(byLevel.error).toEqual([0, 1]);
      const kept = viewBody(view).split('\n');
      const keptInfo = kept.filter((line) => line.includes(' INFO ')).length;
      expect(byLevel.info).toEqual([2667 - keptInfo, 2667]);
      expect(byLevel.debug![1]).toBe(1333);
      expect(view.metadata.fieldsTotal).toBe(4002);
      const dropped = breakdown!.counts.reduce((sum, entry) => sum + entry.dropped, 0);
      expect(dropped).toBe(view.metadata.fieldsDropped);
    }
  });

  it('tells how the events divide by shape over all lines, errors first, at every larger budget', () => {
    // 60 errors of one statement (numbers differ) among 11 others and 3000 routine lines.
    const routine = routineLog(3000);
    const repeated = Array.from(
      { length: 60 },
      (_, i) =>
        `2024-05-01T13:${String(i % 60).padStart(2, '0')}:00.000Z ERROR [worker-${i % 7}] sync of shard ${i * 3} failed: timeout after ${30 + i}s`,
    );
    const others = Array.from(
      { length: 11 },
      (_, i) =>
        `2024-05-01T14:00:${String(i).padStart(2, '0')}.000Z ERROR [api] ${['quota', 'disk', 'auth'][i % 3]} check ${'abcdefghijk'[i]} rejected`,
    );
    const all = [...routine];
    for (const [i, line] of repeated.entries()) all.splice(40 + i * 45, 0, line);
    for (const [i, line] of others.entries()) all.splice(200 + i * 250, 0, line);
    const text = all.join('\n');
    let told: LineShape[] = [];
    for (const share of [0.005, 0.01, 0.03, 0.1]) {
      const budget = budgetAt(text, share);
      const view = trimmer.trim(text, budget);
      expectHonestView(view, text, budget);
      const shapes = parseLineShapes(trailingDisclosureNotes(view.text)[0]!.text) ?? [];
      // What a smaller budget told, a larger one tells, in the same words.
      expect(shapes.slice(0, told.length)).toEqual(told);
      told = shapes;
    }
    expect(told.slice(0, 2)).toEqual([
      { count: 60, level: 'error', shape: '# ERROR [#] sync of shard # failed: timeout after #' },
      { count: 1000, level: 'info', shape: '# INFO [#] processed batch # in #' },
    ]);
    // The eleven others are of one line each: there is no shape of them to count.
    expect(told.some((entry) => entry.shape.includes('[api]'))).toBe(false);
  });

  it("counts in the note are the input's own, whatever the mix, the continuations and the budget", () => {
    const users = 'admin oracle test guest ubuntu pi postgres git root ftp user support'.split(' ');
    const statements = [
      (n: number, level: string) => `${level} [ledger] call to ledger timed out after ${n}ms`,
      (n: number, level: string) => `${level} [pool] connection pool at ${n % 100}% capacity`,
      (n: number, level: string) =>
        `${level} [auth] failed password for ${users[n % users.length]} from 10.0.${n % 256}.${n % 7}`,
      (n: number, level: string) => `${level} [cache] hit for key order:${n}`,
      (n: number, level: string) => `${level} [api] GET /orders/${n} answered in ${n % 300}ms`,
    ];
    const levels = ['ERROR', 'WARN', 'INFO', 'DEBUG'];
    let told = 0;
    fc.assert(
      fc.property(
        fc.array(
          fc.record({
            statement: fc.nat(statements.length - 1),
            level: fc.nat(levels.length - 1),
            n: fc.nat(100_000),
            frames: fc.nat(3),
          }),
          { minLength: 50, maxLength: 600 },
        ),
        fc.double({ min: 0.005, max: 0.3, noNaN: true }),
        (events, share) => {
          const lines: string[] = [];
          for (const [i, event] of events.entries()) {
            const time = `2024-05-01T13:${String(i % 60).padStart(2, '0')}:00.${i % 1000}Z`;
            lines.push(`${time} ${statements[event.statement]!(event.n, levels[event.level]!)}`);
            for (let f = 0; f < event.frames; f++)
              lines.push(`    at com.acme.Frame${f}.run(Frame.java:${event.n % 900})`);
          }
          const text = lines.join('\n');
          const budget = Math.max(256, budgetAt(text, share));
          const view = trimmer.trim(text, budget);
          expectHonestView(view, text, budget);
          const shapes = parseLineShapes(trailingDisclosureNotes(view.text)[0]?.text ?? '') ?? [];
          told += shapes.length;
          for (const entry of shapes) {
            // The shape read as a pattern: `#` a run of numbers and ids, `*` a word, `…` the rest.
            const pattern = new RegExp(
              `^${entry.shape
                .split(/([#*…])/)
                .map((part) =>
                  part === '#'
                    ? '.+?'
                    : part === '*'
                      ? '\\S+?'
                      : part === '…'
                        ? '.*'
                        : part.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'),
                )
                .join('')}$`,
            );
            const events = lines.filter((line) => !line.startsWith(' ') && pattern.test(line));
            expect(entry.count).toBe(events.length);
            const level = new Set(events.map((line) => line.split(' ')[1]!.toLowerCase()));
            if (entry.level !== undefined) expect([...level]).toEqual([entry.level]);
          }
          // The same input and budget, the same note, byte for byte.
          expect(trimmer.trim(text, budget).text).toBe(view.text);
          // A larger budget tells what this one told, unless it shows every line.
          const larger = trimmer.trim(text, 2 * budget);
          if (larger.metadata.contentLost) {
            const more = parseLineShapes(trailingDisclosureNotes(larger.text)[0]!.text) ?? [];
            expect(more.slice(0, shapes.length)).toEqual(shapes);
          }
        },
      ),
      { numRuns: 60 },
    );
    expect(told).toBeGreaterThan(10);
  });

  it('leaves the breakdown out when the budget has no room for it, and never goes over', () => {
    const text = plantAt(lines, 0.5, [anomalies[0]!]);
    for (const budget of [256, 300, 400]) {
      const view = trimmer.trim(text, budget);
      expectHonestView(view, text, budget);
    }
    expect(
      parseLevelBreakdown(trailingDisclosureNotes(trimmer.trim(text, 256).text)[0]!.text),
    ).toBe(undefined);
  });

  it('keeps what the question names on top of what stands out', () => {
    const text = plantAt(lines, 0.5, [anomalies[0]!]);
    const named = lines[3000]!;
    const view = trimmer.trim(text, budgetAt(text, 0.01), {
      userQuery: `what happened to batch ${named.match(/batch (\d+)/)?.[1] ?? ''}?`,
    });
    expect(named).toContain('batch');
    expect(viewBody(view)).toContain(named);
    expect(viewBody(view)).toContain(anomalies[0]);
  });

  it('handles CRLF logs and keeps their line endings', () => {
    const crlf = routineLog(3000, '\r\n');
    const text = plantAt(crlf, 0.7, [`${anomalies[0]}\r`]);
    const view = trimmer.trim(text, budgetAt(text, 0.03));
    expectHonestView(view, text, budgetAt(text, 0.03));
    expect(viewBody(view)).toContain(`${anomalies[0]}\r\n`);
    expect(
      viewBody(view)
        .split('\n')
        .slice(0, -1)
        .every((line) => line.endsWith('\r')),
    ).toBe(true);
  });
});

describe('logs: a question does not crowd out what stands out, nor a repeated head', () => {
  const users = Array.from({ length: 40 }, (_, i) => `user${String.fromCharCode(97 + (i % 26))}x`);
  function sshLog(count: number): string[] {
    const lines: string[] = [];
    for (let i = 0; i < count; i++) {
      const time = `Dec 10 06:${String(Math.floor(i / 60) % 60).padStart(2, '0')}:${String(i % 60).padStart(2, '0')}`;
      lines.push(
        i % 2 === 0
          ? `${time} LabSZ sshd[${24200 + i}]: Failed password for invalid user ${users[i % 40]} from 173.234.31.186 port ${38000 + i} ssh2`
          : `${time} LabSZ sshd[${24200 + i}]: Received disconnect from 173.234.31.186: 11: Bye Bye [preauth]`,
      );
    }
    return lines;
  }
  const errors = [
    '[Sun Dec 04 04:47:44 2005] [error] mod_jk child workerEnv in error state 6',
    "[Sun Dec 04 04:51:08 2005] [error] jk2_init() Can't find child 1566 in scoreboard",
    '[Sun Dec 04 05:04:04 2005] [error] [client 81.199.21.119] Directory index forbidden by rule',
    '2024-05-01T12:31:07.311Z ERROR [worker-2] ledger write failed: connection reset (txn 77f3)',
  ];

  it('keeps error lines when the question matches hundreds of routine lines', () => {
    // A service log with 300 failed logins (3%, each matching the question's "failed") and 300
    // error lines of four shapes (3%), neither named by the question's other words.
    const service = routineLog(9400);
    const ssh = sshLog(600).filter((line) => line.includes('Failed password'));
    const lines: string[] = [];
    for (let i = 0; i < service.length; i++) {
      lines.push(service[i]!);
      if (i % 31 === 7) lines.push(ssh[Math.floor(i / 31)]!);
      if (i % 31 === 19) lines.push(errors[Math.floor(i / 31) % 4]!.replace('6', `${i}`));
    }
    const text = lines.join('\n');
    for (const share of [0.01, 0.03]) {
      const budget = budgetAt(text, share);
      const view = trimmer.trim(text, budget, { userQuery: 'Which pod failed, and why?' });
      expectHonestView(view, text, budget);
      const kept = expectMarkedLines(view, text);
      const keptErrors = kept.filter((line) => /\[error\]| ERROR /.test(line));
      // Every shape of error, each more than once where its lines differ (two shapes are the
      // same line over and over: once says it).
      for (const shape of ['workerEnv', 'jk2_init', 'Directory index', 'ledger write']) {
        const differ = new Set(text.split('\n').filter((line) => line.includes(shape))).size > 1;
        const shown = new Set(keptErrors.filter((line) => line.includes(shape)));
        expect(shown.size).toBeGreaterThanOrEqual(differ ? 2 : 1);
      }
      // The question's matches are at least two lines in five (copies of one line counted
      // once; the failed logins are one statement's, forty user names apart, and say less each
      // time, as copies do).
      const matched = new Set(kept.filter((line) => /\bfailed\b/i.test(line)));
      expect(matched.size).toBeGreaterThanOrEqual((2 * new Set(kept).size) / 5);
    }
  });

  it('shows a few copies of an error shape the note counts, then the other kinds that stand out, unless asked for it', () => {
    // 45 errors of one statement and ten kinds of less common line, twenty each, among routine
    // lines: each error copy says less (REPEAT_DECAY), but the first ten still outrank them.
    const routine = routineLog(3000);
    const disconnects = Array.from(
      { length: 45 },
      (_, i) =>
        `2024-05-01T13:${String(i % 60).padStart(2, '0')}:00.000Z ERROR [sshd] received disconnect from 10.0.${i}.9: no more authentication methods available`,
    );
    const kinds = 'alpha bravo charlie delta echo foxtrot golf hotel india juliet'.split(' ');
    const odd = kinds.flatMap((kind, k) =>
      Array.from(
        { length: 20 },
        (_, i) =>
          `2024-05-01T14:0${k}:${String(i).padStart(2, '0')}.000Z [${kind}] ${kind} replica resynced ${k * 10 + i} shards`,
      ),
    );
    const all = [...routine];
    for (const [i, line] of disconnects.entries()) all.splice(300 + i * 50, 0, line);
    for (const [i, line] of odd.entries()) all.splice(400 + i * 12, 0, line);
    const text = all.join('\n');
    const budget = budgetAt(text, 0.02);
    const view = trimmer.trim(text, budget);
    expectHonestView(view, text, budget);
    const kept = expectMarkedLines(view, text);
    const shownDisconnects = kept.filter((line) => line.includes('received disconnect')).length;
    // The shape is shown, a few times, and counted in the note.
    expect(shownDisconnects).toBeGreaterThanOrEqual(3);
    expect(shownDisconnects).toBeLessThanOrEqual(6);
    expect(parseLineShapes(trailingDisclosureNotes(view.text)[0]!.text)?.[0]).toEqual({
      count: 45,
      level: 'error',
      shape: '# ERROR [sshd] received disconnect from #: no more authentication methods available',
    });
    // Every other kind that stands out is shown, and the note counts the first of them right
    // after the errors and the commonest lines (a rare shape of more lines than the view shows
    // of one before the others), before the other routine shapes of a thousand lines.
    for (const kind of kinds) expect(kept.some((line) => line.includes(`[${kind}]`))).toBe(true);
    expect(parseLineShapes(trailingDisclosureNotes(view.text)[0]!.text)?.[2]).toEqual({
      count: 20,
      shape: '# [alpha] alpha replica resynced # shards',
    });
    // A question that matches the errors wants them: as many as before.
    const asked = trimmer.trim(text, budget, { userQuery: 'why the received disconnect?' });
    const askedKept = expectMarkedLines(asked, text);
    expect(askedKept.filter((line) => line.includes('received disconnect')).length).toBeGreaterThan(
      10,
    );
  });

  it('shows a run of lines of one shape at the start once or twice, not as far as the head share goes', () => {
    const burner = Array.from({ length: 300 }, (_, i) => `CPU burner ${i % 4} running`);
    const lines = [...burner, ...sshLog(3000)];
    lines.splice(2000, 0, errors[0]!);
    const text = lines.join('\n');
    const budget = budgetAt(text, 0.03);
    for (const context of [undefined, { userQuery: 'which user failed?' }]) {
      const view = trimmer.trim(text, budget, context);
      expectHonestView(view, text, budget);
      const body = viewBody(view);
      expect(body.startsWith(`${burner[0]}\n${burner[1]}\n`)).toBe(true);
      // Two copies from the head share (not the 70 that fit in it); the last bytes of room,
      // too few for any other line, may extend the head by a few more.
      expect(
        body.split('\n').filter((line) => line.startsWith('CPU burner')).length,
      ).toBeLessThanOrEqual(10);
      expect(body).toContain(lines[300]);
      expect(body).toContain(errors[0]);
    }
  });

  it('does not rank every copy of a shape that is merely less common than the average', () => {
    // Every eighth line is the same heartbeat: rarer than the order lines, not rare.
    const lines = Array.from({ length: 3000 }, (_, i) =>
      i % 8 === 0
        ? 'heartbeat: ok'
        : i === 2222
          ? `2024-05-01T10:00:00Z ERROR orders-svc order=${i} payment provider returned 502`
          : `2024-05-01T10:00:00Z INFO orders-svc order=${i} created for customer c-${(i * 7919) % 10007} total=${(i * 13) % 500}.00 EUR`,
    );
    const text = `${lines.join('\n')}\n`;
    const budget = budgetAt(text, 0.05);
    const view = trimmer.trim(text, budget);
    expectHonestView(view, text, budget);
    const kept = expectMarkedLines(view, text);
    expect(kept).toContain(lines[2222]);
    const heartbeats = kept.filter((line) => line === 'heartbeat: ok').length;
    const orders = kept.filter((line) => line.includes(' INFO ')).length;
    // Before: 286 heartbeats and 4 order lines.
    expect(heartbeats).toBeLessThan(orders / 4);
  });

  it('keeps every copy of a rare shape past the first eight, when there is room', () => {
    const lines = Array.from(
      { length: 3000 },
      (_, i) =>
        `2024-05-01T10:${String(i % 60).padStart(2, '0')}:00Z INFO orders-svc order=${i} created`,
    );
    for (let k = 0; k < 30; k++)
      lines.splice(
        k * 100 + 50,
        0,
        `sudo: user${k} : TTY=pts/${k} ; USER=root ; COMMAND=/bin/bash; user${k} became root`,
      );
    const text = lines.join('\n');
    const budget = budgetAt(text, 0.1);
    const view = trimmer.trim(text, budget);
    expectHonestView(view, text, budget);
    const kept = expectMarkedLines(view, text);
    expect(kept.filter((line) => line.includes('became root')).length).toBe(30);
  });

  it('shows a line the question matches once, not each of its copies, and every line that differs', () => {
    const help =
      '  = help: for further information visit https://rust-lang.github.io/rust-clippy/master/index.html#cast_possible_truncation';
    const lines: string[] = [];
    for (let i = 0; i < 400; i++) {
      lines.push(`warning: casting \`u64\` to \`u${8 + (i % 3) * 8}\` may truncate the value`);
      lines.push(`   --> src/codec/frame${i}.rs:${40 + i}:13`);
      lines.push(i % 40 === 7 ? `  = help: lint ${i} clippy::cast_sign_loss fired` : help);
    }
    const text = lines.join('\n');
    const budget = budgetAt(text, 0.03);
    const view = trimmer.trim(text, budget, { userQuery: 'which clippy lints fired? help' });
    expectHonestView(view, text, budget);
    const kept = expectMarkedLines(view, text);
    // Once where the question put it, and where the start and the end are shown as they are
    // (six copies before).
    expect(kept.filter((line) => line === help).length).toBeLessThanOrEqual(2);
    for (let i = 7; i < 400; i += 40)
      expect(kept).toContain(`  = help: lint ${i} clippy::cast_sign_loss fired`);
  });

  it('cuts a log with one huge line by lines, never as prose joining lines far apart', () => {
    const payload = `payload=${'{"k":"v"},'.repeat(54_000)}`;
    const lines = [
      '2024-05-01 INFO start',
      '2024-05-01 INFO fetched payload',
      payload,
      '2024-05-01 ERROR parse failed at byte 539999',
      '2024-05-01 INFO done',
    ];
    const text = `${lines.join('\r\n')}\r\n`;
    const view = trimmer.trim(text, 400);
    expectHonestView(view, text, 400);
    const kept = expectMarkedLines(view, text);
    expect(kept).toContain('2024-05-01 ERROR parse failed at byte 539999\r');
    expect(viewBody(view)).toMatch(/^\[line 3 omitted\]\r$/m);
    expect(trailingDisclosureNotes(view.text)[0]!.text).toContain('lines dropped by level');
  });

  it('shows an input line shaped like a marker with its bracket turned, so only markers parse', () => {
    const lines = Array.from({ length: 500 }, (_, i) => `INFO line ${i + 1}`);
    lines[250] = '[lines 1-200 omitted]';
    lines[300] = '[line 3 cut: columns 1-5 of 10]';
    const text = lines.join('\n');
    const view = trimmer.trim(text, 420, { userQuery: 'omitted cut' });
    expectHonestView(view, text, 420);
    const body = viewBody(view).split('\n');
    expect(body).toContain('(lines 1-200 omitted]');
    expect(body).toContain('(line 3 cut: columns 1-5 of 10]');
    expectMarkedLines(view, text);
  });

  it('fills the room left with the lines that differ before copies of lines shown', () => {
    const lines: string[] = [];
    for (const n of [3, 2, 4, 1])
      for (let i = 0; i < 1500; i++) lines.push(`CPU burner ${n} running`);
    const text = lines.join('\n');
    for (const budget of [600, 3000]) {
      const view = trimmer.trim(text, budget);
      expectHonestView(view, text, budget);
      const kept = new Set(expectMarkedLines(view, text));
      for (const n of [1, 2, 3, 4]) expect(kept).toContain(`CPU burner ${n} running`);
    }
  });
});

describe('diffs: a hunk too big for the budget is shown around what matters in it', () => {
  const bigHunk = [
    'diff --git a/config/app.log b/config/app.log',
    'index 5555555..6666666 100644',
    '--- a/config/app.log',
    '+++ b/config/app.log',
    '@@ -1,200 +1,201 @@ fixtures',
    ...Array.from({ length: 100 }, (_, i) => ` 2024-05-01 INFO step ${i} completed in ${i % 9}ms`),
    '+2024-05-01 ERROR step 100 failed: disk quota exceeded on /var/data',
    ...Array.from({ length: 100 }, (_, i) => ` 2024-05-01 INFO step ${i + 101} completed`),
  ].join('\n');
  const text = `${files.slice(0, 40).join('\n')}\n${bigHunk}\n${files.slice(40).join('\n')}\n`;

  it('keeps the line with its @@ header and file header, never a line without them', () => {
    const budget = 6000;
    const view = trimmer.trim(text, budget);
    expectHonestView(view, text, budget);
    const body = viewBody(view);
    expect(body).toContain('+2024-05-01 ERROR step 100 failed: disk quota exceeded on /var/data');
    expect(body).toContain('diff --git a/config/app.log b/config/app.log\n');
    expect(body).toContain('@@ -1,200 +1,201 @@ fixtures\n');
    expect(trailingDisclosureNotes(view.text)[0]!.text).toMatch(
      /file headers, hunks and hunk lines|by level/,
    );
    let header = false;
    let hunk = false;
    for (const line of body.split('\n')) {
      if (line.startsWith('diff --git ')) {
        header = true;
        hunk = false;
      } else if (line.startsWith('@@ ')) {
        expect(header).toBe(true);
        hunk = true;
      } else if (/^[+ -]/.test(line) && !line.startsWith('+++') && !line.startsWith('---')) {
        expect(hunk).toBe(true);
      }
    }
  });

  it('never shows the unchanged lines of a split hunk without one of its changes', () => {
    // Unchanged code that reads like a level (`Level::FATAL`, `LOG(ERROR)`) states nothing about
    // the change; it used to outrank the changed lines and stand alone.
    const code = [
      'diff --git a/src/logging.cc b/src/logging.cc',
      'index 7777777..8888888 100644',
      '--- a/src/logging.cc',
      '+++ b/src/logging.cc',
      ...Array.from({ length: 6 }, (_, h) => [
        `@@ -${h * 40 + 1},41 +${h * 40 + 1},41 @@ void Log${h}() {`,
        ...Array.from(
          { length: 20 },
          (_, i) => `   if (level == Level::FATAL) LOG(ERROR) << "step ${h}.${i}";`,
        ),
        `-  flush(${h});`,
        `+  flush_all(${h});`,
        ...Array.from({ length: 20 }, (_, i) => `   CHECK(ok) << "fatal: ${h}.${i}";`),
      ]).flat(),
    ].join('\n');
    const text = `${files.slice(0, 30).join('\n')}\n${code}\n${files.slice(30).join('\n')}\n`;
    for (const budget of [1500, 4000]) {
      for (const userQuery of [undefined, 'what changed in src/logging.cc?']) {
        const view = trimmer.trim(text, budget, userQuery ? { userQuery } : undefined);
        expectHonestView(view, text, budget);
        const lines = expectMarkedLines(view, text);
        let hunkHasChange = true;
        let hunkHasContext = false;
        const check = () => expect(!hunkHasContext || hunkHasChange).toBe(true);
        for (const line of lines) {
          if (line.startsWith('@@ ') || line.startsWith('diff --git ')) {
            check();
            hunkHasChange = false;
            hunkHasContext = false;
          } else if (/^[+-]/.test(line) && !/^(\+\+\+|---) /.test(line)) hunkHasChange = true;
          else if (line.startsWith(' ')) hunkHasContext = true;
        }
        check();
      }
    }
  });

  it('still keeps small hunks whole', () => {
    const view = trimmer.trim(diff, 12_000, { userQuery: 'what changed in the payments deploy?' });
    expect(view.text).toContain(`${needle}\n`);
    expect(view.text).toMatch(/\[trimmed: \d+\/\d+ file headers and hunks kept/);
  });
});

/** The 0-based source lines a view of lines shows, as its markers place them. */
function shownLineNumbers(body: string): number[] {
  const shown: number[] = [];
  let next = 0;
  for (const line of body.split('\n')) {
    const marker = /^\[lines? (\d+)(?:-(\d+))? omitted\]\r?$/.exec(line);
    if (marker) next = Number(marker[2] ?? marker[1]);
    else shown.push(next++);
  }
  return shown;
}

describe('diffs headed without `diff --git` are read as diffs', () => {
  // Where each file of a generated diff starts: its first header line (the removed and added
  // lines of the hostile hunk, `--- note` and `+++ counter`, start none).
  const fileStart = /^(diff -Npur |Index: |Only in |--- old\/\S+\t|Binary files old\/)/;
  const styles: Array<[DiffHeaderStyle, '\n' | '\r\n']> = [
    ['recursive', '\n'],
    ['recursive', '\r\n'],
    ['bare', '\n'],
    ['index', '\n'],
  ];

  it.each(styles)(
    '%s (%j): whole hunks under their own file header, the anomaly shown',
    (style, eol) => {
      const diff = generatedDiff(100, { style, eol });
      const source = diff.text.split('\n');
      // Per source line: the line its file starts on, and the `@@` line of its hunk.
      const fileOf: number[] = [];
      const hunkOf: number[] = [];
      let file = -1;
      let hunk = -1;
      source.forEach((line, i) => {
        if (fileStart.test(line) && !(line.startsWith('Binary') && /^diff /.test(source[i - 1]!))) {
          if (!(line.startsWith('--- ') && /^(diff|=)/.test(source[i - 2] ?? ''))) file = i;
          hunk = -1;
        }
        if (line.startsWith('@@ ')) hunk = i;
        fileOf.push(file);
        hunkOf.push(hunk);
      });
      const bytes = Buffer.byteLength(diff.text);
      for (const share of [0.01, 0.03, 0.1]) {
        const budget = Math.floor(bytes * share);
        const view = trimmer.trim(diff.text, budget);
        expectHonestView(view, diff.text, budget);
        expectMarkedLines(view, diff.text);
        const body = viewBody(view);
        expect(body).toContain(diff.anomaly);
        if (share >= 0.1) {
          expect(trailingDisclosureNotes(view.text)[0]!.text).toMatch(
            /file headers(, hunks and hunk lines| and hunks) kept/,
          );
        }
        const shown = new Set(shownLineNumbers(body));
        for (const i of shown) {
          if (fileOf[i]! >= 0) expect(shown.has(fileOf[i]!)).toBe(true);
          if (hunkOf[i]! >= 0) expect(shown.has(hunkOf[i]!)).toBe(true);
        }
      }
    },
  );

  it.each([
    ['recursive', 101],
    ['git', 100],
  ] as const)(
    'tells in the note of a %s diff how many files changed, of which kinds, and the most changed',
    (style, total) => {
      const diff = generatedDiff(100, { style });
      const bytes = Buffer.byteLength(diff.text);
      for (const share of [0.01, 0.03]) {
        const budget = Math.floor(bytes * share);
        const view = trimmer.trim(diff.text, budget);
        expectHonestView(view, diff.text, budget);
        const note = trailingDisclosureNotes(view.text)[0]!.text;
        const told = new RegExp(`; files ${total} \\(4 new, 3 deleted, 1 binary\\): ([^;]*)`).exec(
          note,
        );
        expect(told).not.toBeNull();
        const named = told![1]!.split(', ');
        expect(named.pop()).toMatch(/^\+\d+ more$/);
        expect(named.length).toBeGreaterThanOrEqual(share === 0.01 ? 1 : 5);
        // Most changed first: the files only one side has, whole.
        const first = named[0]!.split(' ');
        expect(diff.deleted.concat(diff.added)).toContain(first[0]);
        expect(first.at(-1)).toMatch(/^(new|deleted)$/);
        for (const file of named) expect(diff.paths).toContain(file.split(' ')[0]);
      }
    },
  );

  it('reads a `---`/`+++` pair as a diff where the diff is most of the text, not a log quoting one', () => {
    const quoted = [
      '--- expected',
      '+++ actual',
      '@@ -1,3 +1,3 @@',
      ' Invoice 42',
      '-Total: 100.00 EUR',
      '+Total: 10.00 EUR',
      ' Paid',
    ];
    expect(isUnifiedDiff(`${quoted.join('\n')}\n`)).toBe(true);
    const log = routineLog(200);
    log.splice(100, 0, 'FAILED test_render_invoice: rendered invoice differs', ...quoted);
    expect(isUnifiedDiff(`${log.join('\n')}\n`)).toBe(false);
    // A git diff is one wherever its header is.
    log.splice(101, 0, 'diff --git a/invoice.txt b/invoice.txt');
    expect(isUnifiedDiff(`${log.join('\n')}\n`)).toBe(true);
    for (const style of ['recursive', 'bare', 'index'] as const) {
      expect(isUnifiedDiff(generatedDiff(20, { style }).text)).toBe(true);
    }
  });

  it("answers a question that names a file by its path with that file's hunks", () => {
    const diff = generatedDiff(100);
    const asked = diff.paths.find(
      (path, i) =>
        i > 60 && path.endsWith('.c') && !diff.added.includes(path) && !diff.deleted.includes(path),
    )!;
    const from = diff.text.indexOf(`diff -Npur old/${asked} `);
    const to = diff.text.indexOf('\ndiff ', from) + 1;
    const budget = Math.floor(Buffer.byteLength(diff.text) * 0.03);
    const view = trimmer.trim(diff.text, budget, { userQuery: `what changed in ${asked}?` });
    expectHonestView(view, diff.text, budget);
    expect(viewBody(view)).toContain(diff.text.slice(from, to));
  });
});

describe('JSON lines among the plain lines of a log: records judged by their fields', () => {
  it('keeps the one failed request among JSON lines of a log that has plain lines too', () => {
    const lines: string[] = [];
    for (let i = 0; i < 3000; i++) {
      lines.push(
        JSON.stringify({
          level: 30,
          reqId: `req-${i}`,
          res: { statusCode: i === 2100 ? 503 : 200 },
          responseTime: i === 2100 ? 7196 : 8 + ((i * 37) % 40),
          msg: 'request completed',
        }),
      );
      if (i % 2 === 0) lines.push(`** headers check_for_fraud -> 00-${(i * 7919).toString(16)}-01`);
    }
    const text = lines.join('\n');
    const budget = budgetAt(text, 0.1);
    const view = trimmer.trim(text, budget);
    expectHonestView(view, text, budget);
    expect(view.metadata.strategy).toBe('text');
    expect(viewBody(view)).toContain('"statusCode":503');
  });

  it("tells what holds of a log's JSON lines where they are most of its lines, and only then", () => {
    const lines: string[] = [];
    for (let i = 0; i < 2000; i++) {
      const failed = i % 40 === 0;
      lines.push(
        JSON.stringify({
          level: 30,
          reqId: `req-${i}`,
          res: { statusCode: failed ? 503 : 200 },
          msg: 'request completed',
        }),
      );
      if (i % 2 === 0) lines.push(`** headers check_for_fraud -> 00-${(i * 7919).toString(16)}-01`);
    }
    lines.splice(700, 0, JSON.stringify({ level: 30, msg: 'Server listening at :3005' }));
    const noteOf = (text: string) => {
      const budget = budgetAt(text, 0.03);
      const view = trimmer.trim(text, budget);
      expectHonestView(view, text, budget);
      return { view, note: trailingDisclosureNotes(view.text)[0]!.text };
    };
    const mostly = noteOf(lines.join('\n'));
    const coverage = parseRecordCoverage(mostly.note)!;
    const shown = viewBody(mostly.view)
      .split('\n')
      .filter((line) => line.startsWith('{'));
    // The line with no `reqId` is a record shown whole, not named by it.
    expect(coverage).toMatchObject({ total: 2001, namedBy: 'reqId', whole: shown.length });
    expect(coverage.named).toBe(shown.filter((line) => line.includes('"reqId"')).length);
    expect(coverage.distributions?.find((d) => d.field === 'res.statusCode')?.values).toEqual([
      { value: '200', count: 1950 },
      { value: '503', count: 50 },
    ]);
    // A plain log with a few JSON lines among its lines: nothing is said of them all.
    const plain = lines.map((line, i) =>
      line.startsWith('{') && i % 3 !== 0 ? `at ${i}: ok` : line,
    );
    expect(parseRecordCoverage(noteOf(plain.join('\n')).note)).toBeUndefined();
  });
});
describe('a line too long to keep is shown in a window, not left out with the room unused', () => {
  it('stays a line view within its budget whatever the budget, never a byte cut', () => {
    // A window placed early and widened at the end used to leave the gaps around it counted as
    // closed: the view came out over budget and was thrown away for a byte cut.
    fc.assert(
      fc.property(
        fc.integer({ min: 5, max: 120 }),
        fc.integer({ min: 2_000, max: 40_000 }),
        fc.double({ min: 0, max: 1, noNaN: true }),
        fc.double({ min: 0.01, max: 0.99, noNaN: true }),
        fc.boolean(),
        (count, length, where, share, coloured) => {
          const lines = Array.from({ length: count }, (_, i) =>
            coloured ? `\u001b[32mINFO\u001b[0m step ${i}` : `INFO step ${i}`,
          );
          lines.splice(Math.floor(where * count), 0, `payload ${'word '.repeat(length / 5)}`);
          const text = lines.join('\n');
          const budget = Math.max(400, Math.floor(Buffer.byteLength(text) * share));
          const view = trimmer.trim(text, budget);
          expectHonestView(view, text, budget);
          if (view.metadata.contentLost) {
            expect(view.metadata.strategy).toBe('text');
            expectMarkedLines(view, text);
          }
        },
      ),
      { numRuns: 300 },
    );
  });

  it('shows the part of a 60 KB log line around its error, with the line and columns', () => {
    const lines = routineLog(300);
    const long = `2024-05-01T12:31:07Z INFO payload ${'a'.repeat(30_000)} ERROR: disk full ${'b'.repeat(30_000)}`;
    lines.splice(150, 0, long);
    const text = lines.join('\n');
    const budget = 8192;
    const view = trimmer.trim(text, budget);
    expectHonestView(view, text, budget);
    const body = viewBody(view);
    expect(body).toContain('ERROR: disk full');
    expect(body).toMatch(/^\[line 151 cut: columns \d+-\d+ of 60052\]$/m);
    // Each kept line and the window where the markers say; the window counts as dropped.
    expectMarkedLines(view, text);
    expect(view.metadata.fieldsDropped).toBeGreaterThan(0);
    expect(view.metadata.outputBytes).toBeGreaterThan(0.9 * budget);
  });

  it('keeps the 3 KB error line a question names whenever it fits, not only without the question', () => {
    const lines = Array.from(
      { length: 3000 },
      (_, i) =>
        `2024-05-01 10:${String(Math.floor(i / 60) % 60).padStart(2, '0')}:${String(i % 60).padStart(2, '0')}.123 INFO  [worker-${i % 8}] c.a.orders.Handler - processed order ord-${100000 + i} in ${20 + ((i * 7) % 90)}ms`,
    );
    const payload = JSON.stringify({
      items: Array.from({ length: 60 }, (_, k) => ({
        sku: `SKU-${1000 + k}`,
        qty: (k % 5) + 1,
        note: 'gift wrap please',
      })),
    });
    const error = `2024-05-01 10:35:00.001 ERROR [worker-3] c.a.orders.Handler - order ord-102100 rejected: PaymentDeclinedException: card_declined (insufficient_funds) payload=${payload}`;
    lines.splice(
      2100,
      0,
      error,
      '\tat c.a.orders.Handler.charge(Handler.java:212)',
      '\tat c.a.orders.Handler.process(Handler.java:88)',
    );
    const text = `${lines.join('\n')}\n`;
    for (const budget of [4200, 4600, 5000]) {
      for (const context of [undefined, { userQuery: 'Why was order ord-102100 rejected?' }]) {
        const view = trimmer.trim(text, budget, context);
        expectHonestView(view, text, budget);
        expect(expectMarkedLines(view, text)).toContain(error);
      }
    }
  });

  it('fills the budget from a text of a few huge lines (a minified bundle), where it kept a header only', () => {
    const code = 'var a=function(t){return t+1};'.repeat(3000);
    // The second bundle's line holds an error word, so it ranks first and gets its window early;
    // the window still widens into the room nothing else takes.
    const withError = `${code.slice(0, 2000)}throw Error("bad");${code.slice(2000)}`;
    for (const line of [code, withError])
      for (const budget of [1024, 8192]) {
        const text = `/*! lib v1.0 (c) someone */\n${line}\n//# sourceMappingURL=lib.min.js.map\n`;
        const view = trimmer.trim(text, budget);
        expectHonestView(view, text, budget);
        expect(viewBody(view)).toContain('var a=function(t){return t+1};');
        expect(view.metadata.outputBytes).toBeGreaterThan(0.9 * budget);
      }
  });
});

describe('the level breakdown lists only levels that have lines', () => {
  it('leaves out a raw level value whose only line a stronger level claimed', () => {
    const filler = Array.from(
      { length: 200 },
      (_, i) => `INFO step ${i} finished without trouble, moving on to the next item in the queue`,
    );
    const odd = '{"level":30,"msg":"request failed","exit_code":1}';
    const text = [...filler.slice(0, 100), odd, ...filler.slice(100)].join('\n');
    const view = trimmer.trim(text, 1024);
    expectHonestView(view, text, 1024);
    const breakdown = parseLevelBreakdown(trailingDisclosureNotes(view.text)[0]!.text);
    expect(breakdown?.counts.map((entry) => entry.level)).toEqual(['error', 'info']);
    expect(breakdown?.counts.every((entry) => entry.total > 0)).toBe(true);
  });
});

describe('the level breakdown agrees with what the view kept', () => {
  const line = fc.oneof(
    fc.constantFrom(
      '2024-05-01 INFO ok',
      '2024-05-01 ERROR failed',
      'level=warn slow',
      '[notice] started',
      '  at frame (x.js:1)',
      'E0501 12:00:00.1 1 a.go:1] bad',
      '',
      '{"level":30,"msg":"x"}',
    ),
    fc.string({ unit: 'grapheme', maxLength: 60 }),
  );

  it('counts every line once, and drops as many lines as the metadata says', () => {
    let checked = 0;
    fc.assert(
      fc.property(
        fc.array(line, { minLength: 60, maxLength: 300 }),
        fc.constantFrom('\n', '\r\n'),
        fc.integer({ min: 256, max: 2000 }),
        (lines, eol, budget) => {
          const text = lines.join(eol);
          const view = trimmer.trim(text, budget);
          expectHonestView(view, text, budget);
          const note = trailingDisclosureNotes(view.text)[0]?.text ?? '';
          const breakdown = parseLevelBreakdown(note);
          if (!breakdown || view.metadata.strategy !== 'text') return;
          const sum = (key: 'dropped' | 'total') =>
            breakdown.counts.reduce((total, entry) => total + entry[key], 0);
          expect(sum('total')).toBe(view.metadata.fieldsTotal);
          expect(sum('dropped')).toBe(view.metadata.fieldsDropped);
          checked++;
        },
      ),
      { numRuns: 1500 },
    );
    expect(checked).toBeGreaterThan(300);
  });
});
