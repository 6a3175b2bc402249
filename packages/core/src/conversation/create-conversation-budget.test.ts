import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { contentDigest } from '../content-digest.js';
import { cutWithNote } from '../notes/cut-with-note.js';
import { disclosureNoteKind, disclosureNotes } from '../notes/disclosure-notes.js';
import type { ResultProcessor } from '../result-processor.js';
import { createToolResultViews } from '../tool-result-views.js';
import { losslessMetadata } from '../trim-metadata.js';
import { utf8ByteLength } from '../utf8.js';
import {
  type ConversationToolResult,
  createConversationBudget,
} from './create-conversation-budget.js';
import type { ArchivedResult, ResultArchive } from './result-archive.js';

/** A head cut with its note: deterministic, like the structural trimmer. */
const cutter: ResultProcessor = {
  async process(result, maxBytes) {
    if (utf8ByteLength(result) <= maxBytes)
      return { text: result, metadata: losslessMetadata(result, result) };
    const cut = cutWithNote(result, maxBytes, (kept) =>
      disclosureNotes.trimmedBytes({ originalBytes: utf8ByteLength(result), keptBytes: kept }),
    )!;
    return {
      text: cut.text,
      metadata: { ...losslessMetadata(result, cut.text), contentLost: true },
    };
  },
};

/** An archive in memory, as a store beside the transcript would be on disk. */
function memoryArchive(failing: ReadonlySet<string> = new Set()) {
  const stored = new Map<string, string>();
  const calls: string[] = [];
  const archive: ResultArchive = {
    async archive({ toolCallId, toolName, text }): Promise<ArchivedResult | undefined> {
      calls.push(toolCallId);
      if (failing.has(toolCallId)) throw new Error('disk full');
      const sha256 = await contentDigest(text);
      const artifactId = `art_${(await contentDigest(`${toolCallId}/${toolName}/${sha256}`)).slice(0, 24)}`;
      stored.set(artifactId, text);
      return { artifactId, sha256, bytes: utf8ByteLength(text) };
    },
  };
  return { archive, stored, calls };
}

const logs = (i: number, lines: number) =>
  Array.from({ length: lines }, (_, k) =>
    k === lines - 3 ? `ERROR call ${i} failed at line ${k}` : `INFO call ${i} line ${k} ok`,
  ).join('\n');

/** A scripted session: one tool result per model turn, a few failing, some artifact reads. */
function session(count: number): ConversationToolResult[] {
  return Array.from({ length: count }, (_, i) => {
    const artifactRead = i % 23 === 22;
    return {
      toolCallId: `call-${i}`,
      toolName: artifactRead ? 'artifact_read' : i % 2 ? 'terminal' : 'read_file',
      turn: i,
      text: artifactRead ? 'p'.repeat(20_000) : logs(i, 40 + ((i * 37) % 900)),
      failed: i % 11 === 5,
      artifactRead,
      userQuery: 'why did it fail?',
    };
  });
}

const describeLines = (text: string) => `${text.split('\n').length} lines`;

describe('createConversationBudget', () => {
  it('reports bytes and tokens saved against whole outputs, per call and in total', async () => {
    const results = session(40);
    const views = createToolResultViews({ processor: cutter, maxResultBytes: 4096 });
    const budget = createConversationBudget(views, { maxBytes: 20_000, env: {} });
    const tokens = (text: string) => Math.ceil(utf8ByteLength(text) / 3.5);
    let totalBytes = 0;
    let totalTokens = 0;
    for (const count of [10, 25, 40]) {
      const shown = results.slice(0, count);
      const { texts, report } = await budget.fit(shown);
      const whole = shown.reduce((sum, r) => sum + utf8ByteLength(r.text), 0);
      const sent = texts.reduce((sum, text) => sum + utf8ByteLength(text), 0);
      const wholeTokens = shown.reduce((sum, r) => sum + tokens(r.text), 0);
      const sentTokens = texts.reduce((sum, text) => sum + tokens(text), 0);
      totalBytes += whole - sent;
      totalTokens += wholeTokens - sentTokens;
      expect(report.saved).toEqual({
        bytes: whole - sent,
        tokens: wholeTokens - sentTokens,
        totalBytes,
        totalTokens,
      });
      expect(report.saved.bytes).toBeGreaterThan(0);
    }
  });

  it('holds a 200-call session to its budget at every call, pointers resolving to stored bytes', async () => {
    const results = session(200);
    const { archive, stored } = memoryArchive();
    const views = createToolResultViews({ processor: cutter, maxResultBytes: 16_384 });
    const budget = createConversationBudget(views, {
      archive,
      describe: describeLines,
      maxBytes: 150_000,
      clearAtLeastPercent: 25,
      keepLast: 3,
      env: {},
    });
    let previous: string[] | undefined;
    let breaks = 0;
    for (let n = 1; n <= results.length; n++) {
      const { texts, report } = await budget.fit(results.slice(0, n));
      expect(report.total).toBe(texts.reduce((sum, t) => sum + utf8ByteLength(t), 0));
      expect(report.withinBudget).toBe(true);
      expect(report.total).toBeLessThanOrEqual(150_000);
      if (previous?.some((text, i) => text !== texts[i])) breaks++;
      previous = texts;
    }
    const { texts, report, steps } = await budget.fit(results);
    // Each break leaves a quarter of the budget free (the note it may grow included), so the
    // breaks are bounded by what the views added: here about one per three calls, as each call
    // adds 11 KB on average; a session adding less breaks less often. (Near the floor of one
    // pointer per result a break frees what it can, and breaks come more often.)
    expect(breaks).toBeGreaterThan(0);
    expect(breaks).toBeLessThanOrEqual(Math.ceil(report.viewsTotal / (37_500 - 400)));
    expect(report.stepDowns).toBe(breaks);
    expect(report.pointers).toBeGreaterThan(100);
    // The pointer lines of earlier step-downs are short (no SHA-256), the newest ones long.
    expect(report.shortPointers).toBeGreaterThan(50);
    expect(report.shortPointers).toBe(steps.filter((step) => step === 'short-pointer').length);
    for (const [i, text] of texts.entries()) {
      const line = text.split('\n')[0]!;
      if (disclosureNoteKind(line) !== 'stepped-down') continue;
      const id = /stored as (art_[0-9a-f]{24})/.exec(line)![1]!;
      const bytes = stored.get(id)!;
      expect(bytes).toBe(results[i]!.text);
      if (steps[i] === 'pointer') expect(line).toContain(`sha256 ${await contentDigest(bytes)}`);
      else expect(line).not.toContain('sha256');
      expect(line).toContain(`${results[i]!.text.split('\n').length} lines`);
    }
  });

  it('sends the same bytes from a fresh instance (a restarted process) for the same conversation', async () => {
    const results = session(120);
    const settings = { maxBytes: 40_000, env: {} };
    const a = memoryArchive();
    const first = createConversationBudget(
      createToolResultViews({ processor: cutter, maxResultBytes: 8192 }),
      { ...settings, archive: a.archive, describe: describeLines },
    );
    for (let n = 1; n < results.length; n++) await first.fit(results.slice(0, n));
    const warm = await first.fit(results);
    const b = memoryArchive();
    const fresh = createConversationBudget(
      createToolResultViews({ processor: cutter, maxResultBytes: 8192 }),
      { ...settings, archive: b.archive, describe: describeLines },
    );
    const cold = await fresh.fit(results);
    expect(cold.texts).toEqual(warm.texts);
  });

  it('never re-compacts an artifact read: it is sent whole or as its pointer', async () => {
    const results = session(60);
    const budget = createConversationBudget(
      createToolResultViews({ processor: cutter, maxResultBytes: 16_384 }),
      { archive: memoryArchive().archive, maxBytes: 50_000, env: {} },
    );
    for (let n = 1; n <= results.length; n++) {
      const { texts } = await budget.fit(results.slice(0, n));
      texts.forEach((text, i) => {
        if (!results[i]!.artifactRead) return;
        const whole = text === results[i]!.text;
        expect(whole || disclosureNoteKind(text.split('\n')[0]!) === 'stepped-down').toBe(true);
        if (i === n - 1) expect(whole).toBe(true);
      });
    }
  });

  it('without an archive the last step is a digest line with no pointer, and the note says so', async () => {
    const results = session(80);
    const budget = createConversationBudget(
      createToolResultViews({ processor: cutter, maxResultBytes: 8192 }),
      { describe: describeLines, maxBytes: 30_000, env: {} },
    );
    const { texts } = await budget.fit(results);
    const pointers = texts.filter((t) => disclosureNoteKind(t.split('\n')[0]!) === 'stepped-down');
    expect(pointers.length).toBeGreaterThan(0);
    for (const text of pointers) {
      expect(text).not.toContain('artifact_read(');
      expect(text).toContain('not stored; ');
      expect(text).toContain('not retrievable, what it held is UNKNOWN');
    }
    expect(texts.join('\n')).toContain('they were not stored and cannot be read back');
  });

  it('fails open when the archive or the describer fails: the pointer says not stored', async () => {
    const results = session(40);
    const broken = memoryArchive(new Set(['call-1', 'call-2']));
    const budget = createConversationBudget(
      createToolResultViews({ processor: cutter, maxResultBytes: 8192 }),
      {
        archive: broken.archive,
        describe: () => {
          throw new Error('bad reader');
        },
        maxBytes: 40_000,
        env: {},
      },
    );
    const { texts, report } = await budget.fit(results);
    expect(report.withinBudget).toBe(true);
    expect(texts[1]).toMatch(
      /^\[stepped down: terminal call-1, \d+ bytes, sha256 [0-9a-f]{64}, not stored; not retrievable/,
    );
    expect(texts[3]).toMatch(/^\[stepped down: terminal call-3, .*stored as art_/);
  });

  it('leaves a short conversation as its per-result views, and can be turned off', async () => {
    const results = session(5);
    const views = createToolResultViews({ processor: cutter, maxResultBytes: 4096 });
    const on = await createConversationBudget(views, { env: {} }).fit(results);
    const off = await createConversationBudget(views, {
      env: { COMPACTION_CONVERSATION_ENABLED: 'false' },
      maxBytes: 100,
    }).fit(results);
    expect(on.texts).toEqual(off.texts);
    expect(on.report).toMatchObject({
      stepDowns: 0,
      pointers: 0,
      smallViews: 0,
      withinBudget: true,
    });
    expect(off.report.withinBudget).toBe(false);
    for (const [i, text] of on.texts.entries()) {
      expect(utf8ByteLength(text)).toBeLessThanOrEqual(4096);
      if (utf8ByteLength(results[i]!.text) <= 4096) expect(text).toBe(results[i]!.text);
    }
  });

  it('holds a token budget counted by the token counter', async () => {
    const results = session(100);
    const counter = { name: 'chars/4', countTokens: (text: string) => Math.ceil(text.length / 4) };
    const budget = createConversationBudget(
      createToolResultViews({ processor: cutter, maxResultBytes: 8192 }),
      { maxTokens: 10_000, tokenCounter: counter, archive: memoryArchive().archive, env: {} },
    );
    const { texts, report } = await budget.fit(results);
    expect(report.unit).toBe('tokens');
    expect(texts.reduce((sum, t) => sum + counter.countTokens(t), 0)).toBe(report.total);
    expect(report.total).toBeLessThanOrEqual(10_000);
    expect(texts.join('\n')).toContain('within 10000 tokens');
  });

  it('keeps its invariants on any session shape', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(
          fc.record({
            lines: fc.integer({ min: 1, max: 600 }),
            failed: fc.boolean(),
            read: fc.boolean(),
            sameTurn: fc.boolean(),
          }),
          { minLength: 1, maxLength: 30 },
        ),
        fc.integer({ min: 2000, max: 40_000 }),
        async (drafts, maxBytes) => {
          let turn = 0;
          const results = drafts.map((d, i): ConversationToolResult => {
            if (i > 0 && !d.sameTurn) turn++;
            return {
              toolCallId: `c${i}`,
              toolName: d.read ? 'artifact_read' : 'terminal',
              turn,
              text: logs(i, d.lines),
              failed: d.failed,
              artifactRead: d.read,
            };
          });
          const { archive, stored } = memoryArchive();
          const budget = createConversationBudget(
            createToolResultViews({ processor: cutter, maxResultBytes: 4096 }),
            { archive, maxBytes, env: {} },
          );
          const { texts } = await budget.fit(results);
          expect(texts).toHaveLength(results.length);
          const last = results.length - 1;
          const newest = await createToolResultViews({
            processor: cutter,
            maxResultBytes: 4096,
          }).view({
            toolCallId: `c${last}`,
            text: results[last]!.text,
          });
          expect(texts[last]).toBe(
            results[last]!.artifactRead
              ? results[last]!.text
              : (newest?.processed.text ?? results[last]!.text),
          );
          for (const text of texts) {
            const line = text.split('\n')[0]!;
            const id = /stored as (art_[0-9a-f]{24})/.exec(line)?.[1];
            // Every art_ id resolves; a line that names a SHA-256 names the stored bytes'.
            if (id) expect(stored.has(id)).toBe(true);
            if (id && line.includes('sha256 '))
              expect(line).toContain(`sha256 ${await contentDigest(stored.get(id)!)}`);
          }
        },
      ),
      { numRuns: 40 },
    );
  });
});
