import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { disclosureNoteKind, trailingDisclosureNotes } from '../notes/disclosure-notes.js';
import { utf8ByteLength } from '../utf8.js';
import type { ConversationResult, ConversationStep } from './conversation-result.js';
import {
  type ConversationFit,
  type FitConversationSettings,
  fitConversation,
  MIN_STEP_DOWN_BYTES,
  noteReserve,
  pointerLine,
  shortPointerLine,
} from './fit-conversation.js';

const RANK: Record<ConversationStep, number> = {
  view: 0,
  small: 1,
  pointer: 2,
  'short-pointer': 3,
};
const hex = (n: number) => fc.stringMatching(new RegExp(`^[0-9a-f]{${n}}$`));

const resultArbitrary = fc
  .record({
    toolName: fc.constantFrom('read_file', 'terminal', 'search', 'artifact_read'),
    viewBytes: fc.nat({ max: 6000 }),
    smallBytes: fc.option(fc.nat({ max: 2000 }), { nil: undefined }),
    extraBytes: fc.nat({ max: 100_000 }),
    failed: fc.boolean(),
    nextTurn: fc.boolean(),
    sha256: hex(64),
    artifactId: fc.option(hex(24), { nil: undefined }),
    digest: fc.option(fc.string({ maxLength: 80 }), { nil: undefined }),
    filler: fc.constantFrom('a', 'é', '日', '🙂'),
  })
  .map((r) => r);

/** A conversation: results in prompt order, turns nondecreasing. */
const conversationArbitrary = fc
  .array(resultArbitrary, { minLength: 1, maxLength: 40 })
  .map((drafts): ConversationResult[] => {
    let turn = 0;
    return drafts.map((d, i) => {
      if (i > 0 && d.nextTurn) turn++;
      const artifactRead = d.toolName === 'artifact_read';
      const view = d.filler.repeat(Math.ceil(d.viewBytes / utf8ByteLength(d.filler)));
      const small =
        !artifactRead && d.smallBytes !== undefined && d.smallBytes < utf8ByteLength(view)
          ? 's'.repeat(d.smallBytes)
          : undefined;
      return {
        toolCallId: `call-${i}`,
        toolName: d.toolName,
        turn,
        view,
        ...(small === undefined ? {} : { smallView: small }),
        failed: d.failed,
        artifactRead,
        bytes: utf8ByteLength(view) + d.extraBytes,
        sha256: d.sha256,
        ...(d.artifactId ? { artifactId: `art_${d.artifactId}` } : {}),
        ...(d.digest === undefined ? {} : { digest: d.digest }),
      };
    });
  });

const settingsArbitrary = fc.record({
  budget: fc.integer({ min: 1, max: 60_000 }),
  clearAtLeast: fc.nat({ max: 20_000 }),
  keepLast: fc.integer({ min: 1, max: 5 }),
});

/** The prompts of a conversation as it grows: every prefix that ends at a turn boundary. */
function prompts(results: readonly ConversationResult[]): ConversationResult[][] {
  const out: ConversationResult[][] = [];
  for (let i = 1; i <= results.length; i++) {
    if (i === results.length || results[i]!.turn !== results[i - 1]!.turn) {
      out.push(results.slice(0, i));
    }
  }
  return out;
}

/** The least cost each result may reach at the end of `results`' replay, by the rules. */
function lowerBound(results: readonly ConversationResult[], settings: FitConversationSettings) {
  const n = results.length;
  const lastTurn = results[n - 1]!.turn;
  const keepLast = settings.keepLast ?? 1;
  let sum = 0;
  let steppable = false;
  results.forEach((result, i) => {
    const view = utf8ByteLength(result.view);
    const isProtected =
      i === n - 1 || (result.artifactRead ? result.turn === lastTurn : i >= n - keepLast);
    const canPoint = result.bytes > MIN_STEP_DOWN_BYTES;
    if (isProtected || !canPoint) {
      sum += view;
      return;
    }
    steppable = true;
    // A pointer line is at most 1 KB here (names and digest are short), so it bounds the floor.
    sum += Math.min(view, 1024);
  });
  return sum + (steppable ? noteReserve(settings) : 0);
}

/** Whether the rules let any result of `out` step further down and free something. */
function canStepFurther(
  results: readonly ConversationResult[],
  out: ConversationFit,
  settings: FitConversationSettings,
): boolean {
  const n = results.length;
  const lastTurn = results[n - 1]!.turn;
  const keepLast = settings.keepLast ?? 1;
  return results.some((result, i) => {
    if (i === n - 1 || result.bytes <= MIN_STEP_DOWN_BYTES) return false;
    if (result.artifactRead ? result.turn === lastTurn : i >= n - keepLast) return false;
    const step = out.results[i]!.step;
    const cost = (s: ConversationStep) =>
      s === 'view'
        ? utf8ByteLength(result.view)
        : s === 'small'
          ? utf8ByteLength(result.smallView!)
          : s === 'pointer'
            ? utf8ByteLength(pointerLine(result))
            : utf8ByteLength(shortPointerLine(result) ?? pointerLine(result));
    if (step === 'view' && result.smallView !== undefined && !result.artifactRead)
      if (cost('small') < cost('view')) return true;
    // A pointer line only takes its short form at a later step-down, which is a further step.
    if (step === 'pointer') return false;
    return step !== 'short-pointer' && cost('pointer') < cost(step);
  });
}

const fit = (results: readonly ConversationResult[], settings: FitConversationSettings) =>
  fitConversation(results, settings);

describe('fitConversation', () => {
  it('holds the total within the budget whenever the rules allow it, at every call', () => {
    fc.assert(
      fc.property(conversationArbitrary, settingsArbitrary, (results, settings) => {
        for (const prompt of prompts(results)) {
          const out = fit(prompt, settings);
          const total = out.results.reduce((sum, r) => sum + utf8ByteLength(r.text), 0);
          expect(out.total).toBe(total);
          expect(out.withinBudget).toBe(total <= settings.budget);
          if (lowerBound(prompt, settings) <= settings.budget)
            expect(total).toBeLessThanOrEqual(settings.budget);
        }
      }),
      { numRuns: 150 },
    );
  });

  it('keeps the newest result at its view, never gives an artifact read a small view, and pairs one output with each result', () => {
    fc.assert(
      fc.property(conversationArbitrary, settingsArbitrary, (results, settings) => {
        const out = fit(results, settings);
        expect(out.results).toHaveLength(results.length);
        const last = out.results[results.length - 1]!;
        expect(last.step).toBe('view');
        expect(last.text).toBe(results[results.length - 1]!.view);
        out.results.forEach((r, i) => {
          if (results[i]!.artifactRead) expect(r.step).not.toBe('small');
          if (results[i]!.bytes <= MIN_STEP_DOWN_BYTES) expect(r.step).toBe('view');
        });
      }),
      { numRuns: 150 },
    );
  });

  it('changes an earlier result only when the budget is crossed, and then leaves clearAtLeast free or frees all it can', () => {
    fc.assert(
      fc.property(conversationArbitrary, settingsArbitrary, (results, settings) => {
        let previous: { prompt: ConversationResult[]; out: ConversationFit } | undefined;
        for (const prompt of prompts(results)) {
          const out = fit(prompt, settings);
          if (previous) {
            const before = previous.out.results;
            const steppedDown = out.stepDowns > previous.out.stepDowns;
            expect(out.stepDowns - previous.out.stepDowns).toBeLessThanOrEqual(1);
            before.forEach((r, i) => {
              // Steps only go down, so a prompt never grows back what it dropped.
              expect(RANK[out.results[i]!.step]).toBeGreaterThanOrEqual(RANK[r.step]);
              // A pointer line is sent in its long form before it is shortened.
              if (out.results[i]!.step === 'short-pointer')
                expect(RANK[r.step]).toBeGreaterThanOrEqual(2);
              if (!steppedDown) expect(out.results[i]!.text).toBe(r.text);
            });
            const added = prompt.slice(before.length);
            const grown =
              previous.out.total + added.reduce((sum, r) => sum + utf8ByteLength(r.view), 0);
            if (grown <= settings.budget) expect(steppedDown).toBe(false);
            if (steppedDown) {
              // The next break is at least clearAtLeast of growth away: a step-down that landed
              // just under the budget would break the prefix again on the next result.
              expect(
                out.total <= settings.budget - settings.clearAtLeast ||
                  !canStepFurther(prompt, out, settings),
              ).toBe(true);
            }
          }
          previous = { prompt, out };
        }
      }),
      { numRuns: 150 },
    );
  });

  it('depends only on the conversation: a copy gives the same bytes', () => {
    fc.assert(
      fc.property(conversationArbitrary, settingsArbitrary, (results, settings) => {
        expect(fit(structuredClone(results), { ...settings })).toEqual(fit(results, settings));
      }),
      { numRuns: 60 },
    );
  });

  it('says so: each stepped-down result is a registered note or a small view, and the first one carries the count note', () => {
    fc.assert(
      fc.property(conversationArbitrary, settingsArbitrary, (results, settings) => {
        const out = fit(results, settings);
        const stepped = out.results.flatMap((r, i) => (r.step === 'view' ? [] : [i]));
        expect(out.pointers + out.smallViews).toBe(stepped.length);
        out.results.forEach((r, i) => {
          const note = trailingDisclosureNotes(r.text).at(-1);
          if (i === stepped[0]) {
            expect(note?.kind).toBe('conversation-budget');
            expect(note?.text).toContain(
              `${out.pointers} older tool results are shown as one pointer line each and ${out.smallViews} as a small view`,
            );
          } else if (r.step !== 'view') {
            expect(note?.kind).not.toBe('conversation-budget');
          }
          if (r.step === 'pointer') {
            const line = r.text.split('\n')[0]!;
            expect(disclosureNoteKind(line)).toBe('stepped-down');
            expect(line).toContain(
              `${results[i]!.toolName} ${results[i]!.toolCallId}, ${results[i]!.bytes} bytes, sha256 ${results[i]!.sha256}`,
            );
            const id = results[i]!.artifactId;
            expect(line).toContain(id ? `stored as ${id}` : 'not stored');
          }
          if (r.step === 'short-pointer') {
            // Only a stored result has the short form: its art_ id still names one artifact.
            const line = r.text.split('\n')[0]!;
            const id = results[i]!.artifactId;
            expect(id).toBeDefined();
            expect(disclosureNoteKind(line)).toBe('stepped-down');
            expect(line).toContain(
              `${results[i]!.toolName} ${results[i]!.toolCallId}, ${results[i]!.bytes} bytes, stored as ${id}`,
            );
            expect(line).not.toContain('sha256');
          }
          if (r.step === 'small') expect(r.text.startsWith(results[i]!.smallView!)).toBe(true);
        });
      }),
      { numRuns: 150 },
    );
  });

  it('steps down older results first and failed ones last', () => {
    const big = (i: number, extra: Partial<ConversationResult> = {}): ConversationResult => ({
      toolCallId: `c${i}`,
      toolName: 'terminal',
      turn: i,
      view: 'x'.repeat(4000),
      smallView: 'y'.repeat(1000),
      bytes: 50_000,
      sha256: 'f'.repeat(64),
      artifactId: `art_${String(i).padStart(24, '0')}`,
      ...extra,
    });
    const results = [big(0), big(1, { failed: true }), big(2), big(3), big(4)];
    const out = fit(results, { budget: 10_000, clearAtLeast: 0, keepLast: 1 });
    // c0 stepped down at an earlier turn, so its line is short by now.
    expect(out.results.map((r) => r.step)).toEqual([
      'short-pointer',
      'view',
      'pointer',
      'small',
      'view',
    ]);
    const tighter = fit(results, { budget: 6500, clearAtLeast: 0, keepLast: 1 });
    expect(tighter.results.map((r) => r.step)).toEqual([
      'short-pointer',
      'small',
      'pointer',
      'pointer',
      'view',
    ]);
    expect(tighter.withinBudget).toBe(true);
  });

  it('leaves clearAtLeast free after a turn that went over by more, so the next result does not break again', () => {
    const result = (i: number, turn: number, size: number): ConversationResult => ({
      toolCallId: `c${i}`,
      toolName: 'read_file',
      turn,
      view: `${i}:`.padEnd(size, 'x'),
      bytes: size,
      sha256: 'c'.repeat(64),
      artifactId: `art_${String(i).padStart(24, '0')}`,
    });
    // Four turns of 2 KB, then one turn of three 3 KB reads (7 KB over a 10 KB budget), then a
    // 3 KB result.
    const results = [
      ...[0, 1, 2, 3].map((i) => result(i, i, 2000)),
      ...[4, 5, 6].map((i) => result(i, 4, 3000)),
      result(7, 5, 3000),
    ];
    const settings = { budget: 10_000, clearAtLeast: 4000, keepLast: 1 };
    const crossing = fit(results.slice(0, 7), settings);
    expect(crossing.stepDowns).toBe(1);
    expect(crossing.total).toBeLessThanOrEqual(6000);
    const next = fit(results, settings);
    expect(next.stepDowns).toBe(1);
    expect(next.results.slice(0, 7).map((r) => r.text)).toEqual(
      crossing.results.map((r) => r.text),
    );
  });

  it('shortens a pointer line at a later step-down, not the one that made it, and only when stored', () => {
    const result = (i: number, stored: boolean): ConversationResult => ({
      toolCallId: `call-${i}`,
      toolName: 'terminal',
      turn: i,
      view: `${i}:`.padEnd(3000, 'z'),
      bytes: 30_000,
      sha256: String(i % 10).repeat(64),
      ...(stored ? { artifactId: `art_${String(i).padStart(24, '0')}` } : {}),
    });
    const results = Array.from({ length: 40 }, (_, i) => result(i, i % 4 !== 1));
    const settings = { budget: 30_000, clearAtLeast: 12_000, keepLast: 2 };
    let previous: ConversationFit | undefined;
    let shortened = 0;
    for (const prompt of prompts(results)) {
      const out = fit(prompt, settings);
      out.results.forEach((r, i) => {
        if (r.step === 'short-pointer') {
          expect(results[i]!.artifactId).toBeDefined();
          expect(r.text.split('\n')[0]).toBe(shortPointerLine(results[i]!));
          // It was a long pointer line in an earlier prompt, made by an earlier step-down.
          expect(previous?.results[i]?.step).toMatch(/pointer$/);
        }
        if (r.step === 'pointer' && previous?.results[i]?.step === 'pointer')
          // Still long: no step-down since the one that made it, or not stored.
          expect(out.stepDowns === previous.stepDowns || results[i]!.artifactId === undefined).toBe(
            true,
          );
      });
      shortened = out.shortPointers;
      expect(out.shortPointers).toBe(out.results.filter((r) => r.step === 'short-pointer').length);
      previous = out;
    }
    expect(shortened).toBeGreaterThan(0);
    const last = previous!;
    // Unstored results keep their long line: without an art_ id only the SHA-256 names the bytes.
    last.results.forEach((r, i) => {
      if (results[i]!.artifactId === undefined && r.step !== 'view') {
        expect(r.step).toBe('pointer');
        expect(r.text).toContain(`sha256 ${results[i]!.sha256}`);
      }
    });
    // The newest pointer lines, made by the last step-down, are still long.
    const newestPointer = last.results.findLastIndex((r) => r.step.endsWith('pointer'));
    expect(last.results[newestPointer]!.step).toBe('pointer');
    expect(shortPointerLine(results[0]!)!.length).toBeLessThan(pointerLine(results[0]!).length);
    expect(shortPointerLine(results[1]!)).toBeUndefined();
  });

  it('steps an artifact read down first once a later turn saw it, straight to its pointer', () => {
    const results: ConversationResult[] = [
      {
        toolCallId: 'a',
        toolName: 'terminal',
        turn: 0,
        view: 'x'.repeat(3000),
        smallView: 's'.repeat(500),
        bytes: 3000,
      },
      {
        toolCallId: 'b',
        toolName: 'artifact_read',
        turn: 1,
        view: 'p'.repeat(20_000),
        bytes: 20_000,
        artifactRead: true,
        sha256: 'e'.repeat(64),
        artifactId: 'art_page',
      },
      { toolCallId: 'c', toolName: 'terminal', turn: 2, view: 'y'.repeat(3000), bytes: 3000 },
    ];
    const settings = { budget: 24_000, clearAtLeast: 0, keepLast: 1 };
    expect(fit(results.slice(0, 2), settings).results.map((r) => r.step)).toEqual(['view', 'view']);
    expect(fit(results, settings).results.map((r) => r.step)).toEqual(['view', 'pointer', 'view']);
  });

  it('sends the same bytes between step-downs and names the step-downs it took', () => {
    const results: ConversationResult[] = Array.from({ length: 200 }, (_, i) => ({
      toolCallId: `call-${i}`,
      toolName: i % 3 === 0 ? 'read_file' : 'terminal',
      turn: i,
      view: `${i}:`.padEnd(4000 + (i % 7) * 500, 'z'),
      smallView: `${i}:`.padEnd(800, 's'),
      failed: i % 17 === 0,
      bytes: 40_000,
      sha256: 'a'.repeat(64),
      artifactId: `art_${String(i).padStart(24, '0')}`,
    }));
    const settings = { budget: 100_000, clearAtLeast: 40_000, keepLast: 3 };
    let breaks = 0;
    let added = 0;
    let previous: ConversationFit | undefined;
    for (const prompt of prompts(results)) {
      const out = fit(prompt, settings);
      added += utf8ByteLength(prompt.at(-1)!.view);
      expect(out.withinBudget).toBe(true);
      if (previous) {
        const same = previous.results.every((r, i) => r.text === out.results[i]!.text);
        if (!same) breaks++;
        expect(same).toBe(out.stepDowns === previous.stepDowns);
      }
      previous = out;
    }
    expect(breaks).toBe(previous!.stepDowns);
    // Each step-down leaves clearAtLeast free (the note it may grow included), so there are at
    // most as many as the bytes the session added allow.
    expect(breaks).toBeGreaterThan(0);
    expect(breaks).toBeLessThanOrEqual(
      Math.ceil(added / (settings.clearAtLeast - noteReserve(settings))),
    );
  });

  it('refuses what it cannot read with a clear error', () => {
    const ok: ConversationResult = { toolCallId: 'a', toolName: 't', turn: 0, view: 'v', bytes: 1 };
    expect(() => fit([ok], { budget: 0 })).toThrow(/budget/);
    expect(() => fit([ok], { budget: 10, keepLast: 0 })).toThrow(/keepLast/);
    expect(() => fit([ok], { budget: 10, clearAtLeast: -1 })).toThrow(/clearAtLeast/);
    expect(() =>
      fit(
        [
          { ...ok, turn: 1 },
          { ...ok, turn: 0 },
        ],
        { budget: 10 },
      ),
    ).toThrow(/turn/);
    expect(() => fit([{ ...ok, view: 3 as never }], { budget: 10 })).toThrow(/view/);
    expect(() => fit([ok], { budget: 10, measure: () => Number.NaN })).toThrow(/measure/);
    expect(fit([], { budget: 10 })).toMatchObject({ results: [], total: 0, withinBudget: true });
  });

  it('names the stored file, not artifact_read, in pointers and the note when results carry their path', () => {
    const result = (i: number, path: boolean): ConversationResult => ({
      toolCallId: `toolu_${i}`,
      toolName: 'Bash',
      turn: i,
      view: 'x'.repeat(4000),
      bytes: 90_000,
      sha256: 'ab'.repeat(32),
      artifactId: `art_${String(i).padStart(24, '0')}`,
      ...(path ? { artifactPath: `/tmp/p/c.artifacts/toolu_${i}.txt` } : {}),
    });
    const byFile = fitConversation(
      [0, 1, 2, 3].map((i) => result(i, true)),
      { budget: 9000 },
    );
    expect(byFile.results.map((r) => r.step)).toEqual(['short-pointer', 'pointer', 'view', 'view']);
    const first = byFile.results[0]!.text;
    expect(first).toMatch(
      /^\[stepped down: Bash toolu_0, 90000 bytes, stored as art_0{24} in the file \/tmp\/p\/c\.artifacts\/toolu_0\.txt; what it held is UNKNOWN until that file is read\]\n\[conversation budget: .*opening the file its line names with your file tools/,
    );
    expect(byFile.results[1]!.text).toMatch(
      /^\[stepped down: Bash toolu_1, 90000 bytes, sha256 (ab){32}, stored as art_0{23}1 in the file \/tmp\/p\/c\.artifacts\/toolu_1\.txt; what it held is UNKNOWN until that file is read\]$/,
    );
    expect(byFile.results.map((r) => r.text).join('\n')).not.toContain('artifact_read');
    expect(byFile.total).toBeLessThanOrEqual(9000);
    const mixed = fitConversation(
      [0, 1, 2, 3].map((i) => result(i, i !== 0)),
      { budget: 9000 },
    );
    expect(mixed.results[0]!.text).toContain('artifact_read(id, offset, limit)');
  });
});
