import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  appendDisclosureNotes,
  DISCLOSURE_NOTE_PREFIXES,
  type DisclosureNoteKind,
  disclosureNoteKind,
  disclosureNotes,
  disclosureNotesByteLength,
  ESCAPES_REMOVED_SEGMENT,
  formatPercent,
  neutralizeNoteLines,
  stripDisclosureNotes,
  trailingDisclosureNotes,
} from './disclosure-notes.js';
import { parseLevelBreakdown } from './level-breakdown.js';

const everyNote: Array<[DisclosureNoteKind, string]> = [
  ['distilled', disclosureNotes.distilled({ originalBytes: 293_000, model: 'gpt-5-mini' })],
  [
    'trimmed',
    disclosureNotes.trimmedUnits({ kept: 12, total: 340, unit: 'fields', budgetBytes: 65536 }),
  ],
  ['trimmed', disclosureNotes.trimmedBytes({ originalBytes: 1_000_000, keptBytes: 4096 })],
  [
    'severely-reduced',
    disclosureNotes.severelyReduced({ keptBytes: 3012, originalBytes: 1_080_013 }),
  ],
  ['partial-source', disclosureNotes.partialSource({ coverageRatio: 0.28 })],
  ['partial', disclosureNotes.partial({ analyzed: 5, total: 7, reason: 'deadline' })],
  [
    'findings-truncated',
    disclosureNotes.findingsTruncated({ reason: 'over_context', budgetBytes: 4096 }),
  ],
  [
    'findings-unreduced',
    disclosureNotes.findingsUnreduced({ extracts: 4, reason: 'reduce_failed' }),
  ],
  [
    'reduced-without-model-analysis',
    disclosureNotes.reducedWithoutModelAnalysis({ originalBytes: 90_000, keptBytes: 8000 }),
  ],
  ['result-left-out', disclosureNotes.resultLeftOut({ originalBytes: 5_000_000 })],
  [
    'stepped-down',
    disclosureNotes.steppedDown({
      toolName: 'getLogs',
      toolCallId: 'call-17',
      bytes: 812_345,
      sha256: 'ab'.repeat(32),
      artifactId: 'art_0123456789abcdef01234567',
      digest: 'log lines: error=3 warn=12 info=1870; last error: ERROR pool exhausted',
    }),
  ],
  [
    'stepped-down',
    disclosureNotes.steppedDown({ toolName: 'getLogs', toolCallId: 'call-17', bytes: 9000 }),
  ],
  [
    'conversation-budget',
    disclosureNotes.conversationBudget({
      pointers: 37,
      smallViews: 12,
      budget: 131_072,
      unit: 'bytes',
      retrievable: true,
    }),
  ],
  [
    'conversation-budget',
    disclosureNotes.conversationBudget({
      pointers: 1,
      smallViews: 0,
      budget: 30_000,
      unit: 'tokens',
      retrievable: false,
    }),
  ],
  [
    'stepped-down',
    disclosureNotes.steppedDown({
      toolName: 'Bash',
      toolCallId: 'toolu_1',
      bytes: 9000,
      artifactId: 'art_0123456789abcdef01234567',
      path: '/tmp/proxy/c_1.artifacts/toolu_1-0123456789abcdef.txt',
    }),
  ],
  [
    'conversation-budget',
    disclosureNotes.conversationBudget({
      pointers: 2,
      smallViews: 1,
      budget: 131_072,
      unit: 'bytes',
      retrievable: true,
      byFile: true,
    }),
  ],
];

describe('disclosure note builders', () => {
  it.each(everyNote)('builds a one-line %s note the registry recognises', (kind, note) => {
    expect(note).not.toMatch(/[\r\n]/);
    expect(note.startsWith(DISCLOSURE_NOTE_PREFIXES[kind])).toBe(true);
    expect(note.endsWith(']')).toBe(true);
    expect(note).toContain('UNKNOWN');
    expect(disclosureNoteKind(note)).toBe(kind);
  });

  it('states the exact counts', () => {
    expect(everyNote[1]![1]).toContain('12/340 fields kept, 328 dropped');
    expect(everyNote[3]![1]).toContain('kept 3012 of ~1080013 bytes (0.3%)');
    expect(everyNote[4]![1]).toContain('~28% of the source by bytes');
    expect(everyNote[5]![1]).toContain('5 of 7 segments analyzed');
    expect(everyNote[7]![1]).toBe(
      '[findings unreduced: 4 segment extracts shown unmerged (reduce_failed); they may repeat or conflict, what they omit is UNKNOWN]',
    );
    expect(disclosureNotes.findingsUnreduced({ extracts: 1, reason: 'deadline' })).toContain(
      '1 segment extract shown unmerged (deadline)',
    );
  });

  it('says what a stepped-down result was, where it is stored and how to read it', () => {
    expect(everyNote[10]![1]).toBe(
      `[stepped down: getLogs call-17, 812345 bytes, sha256 ${'ab'.repeat(32)}, stored as art_0123456789abcdef01234567; log lines: error=3 warn=12 info=1870; last error: ERROR pool exhausted; what it held is UNKNOWN until read with artifact_read]`,
    );
    expect(everyNote[11]![1]).toBe(
      '[stepped down: getLogs call-17, 9000 bytes, not stored; not retrievable, what it held is UNKNOWN]',
    );
    expect(everyNote[12]![1]).toBe(
      '[conversation budget: 37 older tool results are shown as one pointer line each and 12 as a small view, to keep tool results within 131072 bytes; read a stored one with artifact_read(id, offset, limit), id being the art_ id its line names (lines count from 1); what they held is UNKNOWN until read]',
    );
    expect(everyNote[13]![1]).toContain(
      '1 older tool results are shown as one pointer line each and 0 as a small view, to keep tool results within 30000 tokens; they were not stored and cannot be read back',
    );
    const [byFile, budgetByFile] = everyNote.slice(-2).map(([, note]) => note);
    expect(byFile).toBe(
      '[stepped down: Bash toolu_1, 9000 bytes, stored as art_0123456789abcdef01234567 in the file /tmp/proxy/c_1.artifacts/toolu_1-0123456789abcdef.txt; what it held is UNKNOWN until that file is read]',
    );
    expect(budgetByFile).toContain(
      'read a stored one by opening the file its line names with your file tools; what they held is UNKNOWN until read]',
    );
  });

  it('keeps a stepped-down line to one line and a bounded length whatever the names and digest hold', () => {
    const note = disclosureNotes.steppedDown({
      toolName: 'a\nb]',
      toolCallId: `c\r\n${'x'.repeat(5000)}`,
      bytes: 1,
      digest: `d\n${'y'.repeat(5000)}`,
    });
    expect(note).not.toMatch(/[\r\n]/);
    expect(disclosureNoteKind(note)).toBe('stepped-down');
    expect(note.length).toBeLessThan(500);
  });

  it('keeps a note on one line even when a caller passes newlines', () => {
    const note = disclosureNotes.trimmedUnits({
      kept: 1,
      total: 2,
      unit: 'lines\nand more',
      budgetBytes: 10,
    });
    expect(note).not.toContain('\n');
    expect(disclosureNoteKind(note)).toBe('trimmed');
  });

  it('says when the lines shown lost their terminal escape codes, after the level counts', () => {
    const byLevel = { unit: 'lines', counts: [{ level: 'error', dropped: 1, total: 3 }] };
    const trimmed = disclosureNotes.trimmedUnits({
      kept: 5,
      total: 9,
      unit: 'lines',
      budgetBytes: 900,
      byLevel,
      escapesRemoved: true,
    });
    expect(trimmed).toBe(
      '[trimmed: 5/9 lines kept, 4 dropped to fit 900 bytes; lines dropped by level: error=1/3; terminal escape codes removed; omitted content is UNKNOWN, not absent]',
    );
    expect(parseLevelBreakdown(trimmed)).toEqual(byLevel);
    const reduced = disclosureNotes.severelyReduced({
      keptBytes: 10,
      originalBytes: 1000,
      escapesRemoved: true,
    });
    expect(reduced).toContain(`(1%)${ESCAPES_REMOVED_SEGMENT}; not representative`);
    expect(
      disclosureNotes.trimmedUnits({ kept: 1, total: 2, unit: 'lines', budgetBytes: 9 }),
    ).not.toContain(ESCAPES_REMOVED_SEGMENT);
  });

  it('formats percentages without claiming 0% or 100% falsely', () => {
    expect(formatPercent(0)).toBe('0');
    expect(formatPercent(1)).toBe('100');
    expect(formatPercent(0.0001)).toBe('0.1');
    expect(formatPercent(0.9999)).toBe('99');
    expect(formatPercent(0.045)).toBe('4.5');
    expect(formatPercent(0.5)).toBe('50');
  });
});

describe('stripDisclosureNotes', () => {
  const body = fc
    .string({ unit: 'grapheme', maxLength: 200 })
    .filter(
      (text) =>
        trailingDisclosureNotes(text).length === 0 && disclosureNoteKind(text) === undefined,
    );
  const notes = fc.subarray(everyNote.map(([, note]) => note));

  it('round-trips: strip(append(x, notes)) === x', () => {
    fc.assert(
      fc.property(body, notes, (text, chosen) => {
        const withNotes = appendDisclosureNotes(text, chosen);
        expect(stripDisclosureNotes(withNotes)).toBe(
          chosen.length ? neutralizeNoteLines(text) : text,
        );
        expect(trailingDisclosureNotes(withNotes).map((note) => note.text)).toEqual(chosen);
        expect(Buffer.byteLength(withNotes) - Buffer.byteLength(text)).toBe(
          disclosureNotesByteLength(chosen),
        );
      }),
      { numRuns: 2000 },
    );
  });

  // Source text (a model's answer, a tool's output) that tries to pass for framework notes.
  const forgedLine = fc
    .tuple(
      fc.constantFrom('', ' ', '\t', '\u200b', '\ufeff '),
      fc.constantFrom(...everyNote.map(([, note]) => note)),
      fc.constantFrom('', '\r'),
      fc.boolean(),
    )
    .map(([lead, note, end, upper]) => `${lead}${upper ? note.toUpperCase() : note}${end}`);
  const forgedBody = fc
    .array(fc.oneof(fc.string({ unit: 'grapheme', maxLength: 40 }), forgedLine), { maxLength: 8 })
    .map((lines) => lines.join('\n'));

  it('ends every view with exactly the framework notes, whatever note-shaped lines its body has (property)', () => {
    fc.assert(
      fc.property(
        forgedBody,
        notes.filter((chosen) => chosen.length > 0),
        (text, chosen) => {
          const view = appendDisclosureNotes(text, chosen);
          expect(trailingDisclosureNotes(view).map((note) => note.text)).toEqual(chosen);
          expect(Buffer.byteLength(view)).toBe(
            Buffer.byteLength(text) + disclosureNotesByteLength(chosen),
          );
          const body = stripDisclosureNotes(view);
          expect(body).toBe(neutralizeNoteLines(text));
          for (const line of body.split(/\r?\n|\r/)) {
            expect(disclosureNoteKind(line.trim())).toBeUndefined();
            expect(
              /^[\s\u200b\ufeff]*\[(distilled|trimmed|severely|partial|findings|reduced|result)/i.test(
                line,
              ),
            ).toBe(false);
          }
        },
      ),
      { numRuns: 500 },
    );
  });

  it('neutralises a forged note visibly and without changing sizes', () => {
    const forged = `summary\n${everyNote[1]![1]}\n  [Distilled: by someone else]`;
    const neutral = neutralizeNoteLines(forged);
    expect(neutral).toBe(`summary\n(${everyNote[1]![1].slice(1)}\n  (Distilled: by someone else]`);
    expect(neutral.length).toBe(forged.length);
    expect(neutralizeNoteLines('[truncated: 5 more lines] and [x]')).toBe(
      '[truncated: 5 more lines] and [x]',
    );
  });

  it('neutralises a one-line text at its start only, and every line after any line break', () => {
    const note = everyNote[1]![1];
    expect(neutralizeNoteLines(note)).toBe(`(${note.slice(1)}`);
    expect(neutralizeNoteLines(`\u00a0 ${note} [x]`)).toBe(`\u00a0 (${note.slice(1)} [x]`);
    expect(neutralizeNoteLines(`{"a":"${note}"}`)).toBe(`{"a":"${note}"}`);
    for (const lineBreak of ['\n', '\r', '\u2028', '\u2029']) {
      expect(neutralizeNoteLines(`[x]${lineBreak}${note}`)).toBe(
        `[x]${lineBreak}(${note.slice(1)}`,
      );
    }
  });

  it('strips a processed view only when it is lossy: a lossless view is the source itself', () => {
    const source = `data\n${everyNote[1]![1]}`;
    expect(stripDisclosureNotes({ text: source, metadata: { contentLost: false } })).toBe(source);
    const lossy = appendDisclosureNotes(source, [everyNote[0]![1]]);
    expect(stripDisclosureNotes({ text: lossy, metadata: { contentLost: true } })).toBe(
      neutralizeNoteLines(source),
    );
  });

  it("never removes a tool's own [truncated: …] trailer", () => {
    const toolOutput = 'line 1\nline 2\n[truncated: 5000 additional lines omitted]';
    expect(stripDisclosureNotes(toolOutput)).toBe(toolOutput);
    const both = appendDisclosureNotes(toolOutput, [everyNote[2]![1]]);
    expect(stripDisclosureNotes(both)).toBe(toolOutput);
  });

  it('leaves note-like lines that are not at the end alone', () => {
    const text = `${everyNote[1]![1]}\nreal data after it`;
    expect(stripDisclosureNotes(text)).toBe(text);
  });

  it('does not treat a bracketed line with an unknown label as a note', () => {
    expect(disclosureNoteKind('[partially: 1 of 2]')).toBeUndefined();
    expect(disclosureNoteKind('[trimmed: unterminated')).toBeUndefined();
    expect(stripDisclosureNotes('x\n[info: hello]')).toBe('x\n[info: hello]');
  });
});
