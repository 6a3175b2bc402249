import { execFileSync } from 'node:child_process';
import { isDeepStrictEqual } from 'node:util';
import {
  BudgetTooSmallError,
  InvalidArgumentError,
  parseRecordCoverage,
  SPAN_NAMES,
  trailingDisclosureNotes,
  utf8ByteLength,
} from '@compaction/core';
import { createRecordingTelemetry } from '@compaction/core/test';
import { describe, expect, it } from 'vitest';
import { createStructuralTrimmer } from './create-structural-trimmer.js';
import { parseCutLineMarker } from './engine/cut-line-marker.js';
import { MIN_TRIM_BUDGET_BYTES } from './structural-trimmer.js';
import { podList, workflowRuns } from './test-support/generated-lists.js';
import {
  expectHonestView,
  expectMarkedLines,
  numberTokens,
  viewBody,
} from './test-support/view-invariants.js';

const trimmer = createStructuralTrimmer();

function records(count: number): Array<Record<string, unknown>> {
  return Array.from({ length: count }, (_, i) => ({
    id: `rec-${String(i).padStart(5, '0')}`,
    owner: `team-${i % 7}`,
    status: i % 3 === 0 ? 'active' : 'idle',
    note: `routine entry number ${i} with nothing special in it`,
  }));
}

describe('createStructuralTrimmer: lossless cases', () => {
  it('returns a result that fits unchanged, with no note', () => {
    const input = '{ "a": 1,\n  "b": [1, 2, 3] }';
    const view = trimmer.trim(input, 1000);
    expect(view.text).toBe(input);
    expect(view.metadata).toEqual({
      contentLost: false,
      originalBytes: utf8ByteLength(input),
      outputBytes: utf8ByteLength(input),
      strategy: 'unchanged',
    });
  });

  it('minifies pretty JSON that then fits, keeping every number byte for byte', () => {
    const input = `{\n  "id": 12345678901234567890,\n  "ratio": 1.0,\n  "huge": 1e400,\n  "neg": -0,\n  "list": [\n    1,\n    2.50\n  ],\n  "text": "a  b"\n}`;
    const view = trimmer.trim(input, 100);
    expect(view.text).toBe(
      '{"id":12345678901234567890,"ratio":1.0,"huge":1e400,"neg":-0,"list":[1,2.50],"text":"a  b"}',
    );
    expect(view.metadata.contentLost).toBe(false);
    expect(view.metadata.strategy).toBe('minified');
    expect(trailingDisclosureNotes(view.text)).toEqual([]);
  });
});

describe('createStructuralTrimmer: JSON path', () => {
  it('keeps whole units, valid JSON, one trimmed note with exact counts', () => {
    const input = JSON.stringify({ summary: { total: 400, failed: 2 }, items: records(400) });
    const view = trimmer.trim(input, 4096);
    expectHonestView(view, input, 4096);
    const body = JSON.parse(viewBody(view));
    expect(body.summary).toEqual({ total: 400, failed: 2 });
    const notes = trailingDisclosureNotes(view.text);
    expect(notes[0]!.kind).toBe('trimmed');
    const { fieldsKept, fieldsTotal, fieldsDropped } = view.metadata;
    expect(notes[0]!.text).toContain(
      `${fieldsKept}/${fieldsTotal} fields kept, ${fieldsDropped} dropped`,
    );
    expect(fieldsTotal).toBe(2 + 2 + 400 * 5);
    for (const item of body.items) expect(Object.keys(item).length).toBeGreaterThan(0);
  });

  it('writes records kept whole from pretty JSON exactly as their minified source', () => {
    const items = Array.from({ length: 80 }, (_, i) => ({
      name: `job ${i}`,
      state: i === 57 ? 'failed' : 'ok',
      raw: i,
      empty: {},
      none: [],
      nested: { tags: ['a b', 'c\t"d"'], deep: [{ x: [] }, {}] },
      note: ' spaced  out : text , here ',
    }));
    // A number text that JSON.stringify would not write: it must come out as written.
    const pretty = JSON.stringify({ items }, null, 2).replace('"raw": 57,', '"raw": 57.0,');
    const minified = (i: number) => {
      const text = JSON.stringify(items[i]);
      return i === 57 ? text.replace('"raw":57,', '"raw":57.0,') : text;
    };
    for (const budget of [3000, 6000]) {
      const view = trimmer.trim(pretty, budget, { userQuery: 'which job failed?' });
      expectHonestView(view, pretty, budget);
      const body = viewBody(view);
      expect(body).toContain(minified(57));
      const kept = JSON.parse(body).items as Array<{ name: string }>;
      const whole = kept
        .map((record) => Number(record.name.slice(4)))
        .filter((i, k) => isDeepStrictEqual(kept[k], JSON.parse(minified(i))));
      for (const i of whole) expect(body).toContain(minified(i));
      if (budget === 6000) expect(whole.length).toBeGreaterThan(10);
    }
  });

  it('breadth-first (seed 002 §4): fills a top-level array from its head', () => {
    const input = JSON.stringify(records(300));
    const view = createStructuralTrimmer({ selection: 'breadth-first' }).trim(input, 3000);
    expectHonestView(view, input, 3000);
    const body = JSON.parse(viewBody(view)) as Array<{ id: string }>;
    const wholeIds = body.filter((item) => Object.keys(item).length === 4).map((item) => item.id);
    expect(wholeIds.length).toBeGreaterThan(5);
    expect(wholeIds).toEqual(records(wholeIds.length).map((item) => item.id));
  });

  it('breadth-first (seed 002 §4): caps a nested array to its first 500 items', () => {
    const input = JSON.stringify({ values: Array.from({ length: 5000 }, (_, i) => i % 10) });
    const view = createStructuralTrimmer({ selection: 'breadth-first' }).trim(input, 2000);
    expectHonestView(view, input, 2000);
    const body = JSON.parse(viewBody(view)) as { values: number[] };
    expect(body.values.length).toBeLessThanOrEqual(500);
    expect(view.metadata.fieldsTotal).toBe(5001);
  });

  it('writes a container kept whole in full when it runs past maxJsonNodes', () => {
    const list = Array.from({ length: 200 }, (_, i) => i);
    const doc = { meta: { list }, pad: 'x'.repeat(4000), more: list.map((i) => ({ i })) };
    for (const input of [JSON.stringify(doc), JSON.stringify(doc, null, 2)]) {
      for (const maxJsonNodes of [5, 20, 150]) {
        const view = createStructuralTrimmer({ maxJsonNodes, selection: 'breadth-first' }).trim(
          input,
          3000,
        );
        expectHonestView(view, input, 3000);
        // Breadth-first keeps the list whole: all of it, not the items the inventory recorded.
        expect(JSON.parse(viewBody(view)).meta.list).toEqual(list);
      }
    }
  });

  it('past maxJsonNodes, claims nothing of the records it did not analyse and says what it did', () => {
    const items = Array.from({ length: 1000 }, (_, i) => ({
      id: `rec-${i}`,
      state: i === 900 ? 'FAILED: oom' : 'ok',
      msg: `hello there ${i % 7}`,
    }));
    const input = JSON.stringify({ items });
    const capped = createStructuralTrimmer({ maxJsonNodes: 2000 });
    const view = capped.trim(input, 4096, { userQuery: 'rec-900 failed' });
    expectHonestView(view, input, 4096);
    const note = trailingDisclosureNotes(view.text)[0]!.text;
    // 500 of the 1000 records were analysed, every one with `state: ok`: neither the count nor
    // that value holds for the list.
    expect(note).toContain('; records ');
    expect(note).toMatch(/\/500\+ named/);
    expect(note).not.toContain('state=ok');
    expect(note).toContain(
      '; only the first 1999 of 4001 fields analysed, 2 query matches past them',
    );
    expect(view.metadata).toMatchObject({
      fieldsAnalysed: 1999,
      fieldsTotal: 4001,
      recordsTotal: 500,
    });
    // Without the question, no matches are claimed; analysed in full, no segment at all.
    expect(trailingDisclosureNotes(capped.trim(input, 4096).text)[0]!.text).toMatch(
      /; only the first 1999 of 4001 fields analysed; /,
    );
    const whole = trimmer.trim(input, 4096, { userQuery: 'rec-900 failed' });
    expect(whole.text).toContain('FAILED: oom');
    expect(whole.text).not.toContain('analysed');
    expect(whole.metadata.fieldsAnalysed).toBeUndefined();
  });

  it('reports a severe reduction below 5% kept', () => {
    const input = JSON.stringify(records(3000));
    const view = trimmer.trim(input, 2048);
    expectHonestView(view, input, 2048);
    expect(view.metadata.degenerate).toBe(true);
    expect(trailingDisclosureNotes(view.text)[0]!.text).toMatch(
      /^\[severely reduced: kept \d+ of ~\d+ bytes \(\d+(\.\d)?%\)/,
    );
  });

  it('keeps a record the query asks about from deep inside a large array, with its path', () => {
    const data = records(5000);
    data[3700]!.note = 'rotated credentials after the incident';
    const input = JSON.stringify({ page: 1, results: { items: data } });
    const plain = trimmer.trim(input, 8192);
    expect(plain.text).not.toContain('rec-03700');
    const view = trimmer.trim(input, 8192, { userQuery: 'Who owns rec-03700?' });
    expectHonestView(view, input, 8192);
    const body = JSON.parse(viewBody(view));
    const found = body.results.items.find((item: { id: string }) => item.id === 'rec-03700');
    expect(found).toEqual(data[3700]);
  });

  it('keeps the asked field of a record too big to keep whole', () => {
    const data = records(2000).map((item, i) => ({ ...item, blob: 'x'.repeat(3000 + i) }));
    (data[1400] as Record<string, unknown>).owner = 'team-needle';
    const input = JSON.stringify(data);
    const view = trimmer.trim(input, 4096, { userQuery: 'what is the owner of rec-01400' });
    expectHonestView(view, input, 4096);
    const body = JSON.parse(viewBody(view)) as Array<Record<string, unknown>>;
    expect(body.find((item) => item.id === 'rec-01400')?.owner).toBe('team-needle');
  });

  it('favours error-like records without a query: identity and the failing field first', () => {
    const data = records(3000);
    data[2100]!.status = 'Failed: container OOMKilled, exit code 137';
    const input = JSON.stringify({ items: data });
    const view = trimmer.trim(input, 8192);
    expectHonestView(view, input, 8192);
    const body = JSON.parse(viewBody(view));
    expect(body.items.find((item: { id: string }) => item.id === 'rec-02100')).toMatchObject({
      status: data[2100]!.status,
    });
    // Whole once every record is named.
    const small = JSON.stringify({ items: data.slice(2050, 2150) });
    const whole = JSON.parse(viewBody(trimmer.trim(small, 12_000)));
    expect(whole.items.find((item: { id: string }) => item.id === 'rec-02100')).toEqual(data[2100]);
  });

  it('surfaces preserved keys first, case-insensitively', () => {
    const input = JSON.stringify(
      Array.from({ length: 50 }, (_, i) => ({
        alpha: 'a'.repeat(200),
        beta: i,
        TraceID: `trace-${i}`,
      })),
    );
    const view = createStructuralTrimmer({ preserveKeys: ['traceid'] }).trim(input, 1024);
    expectHonestView(view, input, 1024);
    const body = JSON.parse(viewBody(view)) as Array<Record<string, unknown>>;
    const partial = body.filter((item) => Object.keys(item).length < 3 && 'TraceID' in item);
    expect(partial.length).toBeGreaterThan(0);
    for (const item of partial) expect(Object.keys(item)[0]).toBe('TraceID');
  });

  it('cuts a single string bigger than the budget inside, never an empty view', () => {
    const input = JSON.stringify({ log: 'line of output '.repeat(200) });
    const view = trimmer.trim(input, 1000);
    expectHonestView(view, input, 1000);
    const body = JSON.parse(viewBody(view));
    expect(body.log.length).toBeGreaterThan(500);
    expect(body.log.endsWith('…')).toBe(true);
    expect(trailingDisclosureNotes(view.text)[0]!.text).toContain('cut short');
  });

  it('cuts a root string inside and says so', () => {
    const input = JSON.stringify('é'.repeat(1000));
    const view = trimmer.trim(input, 600);
    expectHonestView(view, input, 600);
    expect(JSON.parse(viewBody(view))).toMatch(/^é+…$/);
    expect(trailingDisclosureNotes(view.text)[0]!.text).toContain('string value cut inside');
  });

  it('keeps numbers verbatim in a lossy view', () => {
    const input = `[${Array.from({ length: 400 }, (_, i) => `{"id":${9007199254740993n + BigInt(i)},"v":1.50,"e":-0}`).join(',')}]`;
    const view = trimmer.trim(input, 1024);
    expectHonestView(view, input, 1024);
    const sourceNumbers = new Set(numberTokens(input));
    const kept = numberTokens(viewBody(view));
    expect(kept.length).toBeGreaterThan(10);
    for (const token of kept) expect(sourceNumbers.has(token)).toBe(true);
    expect(kept).toContain('9007199254740993');
  });
});

describe('createStructuralTrimmer: text paths', () => {
  const log = Array.from({ length: 400 }, (_, i) =>
    i === 234
      ? '2024-01-01T00:39:05Z worker-7 ERROR disk quota exceeded on /var/data'
      : `2024-01-01T00:${String(i % 60).padStart(2, '0')}:00Z worker-${i % 9} INFO processed batch ${i}`,
  );
  log.push('SUMMARY: 399 batches ok, 1 failed');
  const input = log.join('\n');

  it('keeps error lines and the tail of a log, in original order', () => {
    const view = trimmer.trim(input, 4096);
    expectHonestView(view, input, 4096);
    expect(view.metadata.strategy).toBe('text');
    const body = viewBody(view);
    expect(body).toContain('ERROR disk quota exceeded');
    expect(body).toContain('SUMMARY: 399 batches ok, 1 failed');
    // In original order, each where the omitted-lines markers say it is.
    expect(expectMarkedLines(view, input).length).toBe(view.metadata.fieldsKept);
    expect(body).toMatch(/^\[lines \d+-\d+ omitted\]$/m);
    expect(trailingDisclosureNotes(view.text)[0]!.text).toMatch(/^\[trimmed: \d+\/401 lines kept/);
  });

  it('shows a coloured log without its escape codes, reads its levels, and says so', () => {
    const esc = '\u001b';
    const colour = (code: number, text: string) => `${esc}[${code}m${text}${esc}[0m`;
    const coloured = log.map((line) =>
      line.replace(
        / (INFO|ERROR) /,
        (_, level: string) => ` ${colour(level === 'ERROR' ? 31 : 32, level)} `,
      ),
    );
    // One line too long for the budget holding the question's answer, coloured throughout.
    const long = `${colour(33, 'WARN')} ${Array.from({ length: 900 }, (_, i) => colour(36, `k${i}`)).join(' ')} ${colour(31, 'checksum mismatch in shard-42')} ${'x'.repeat(3000)}`;
    coloured.splice(300, 0, long);
    const text = coloured.join('\n');
    for (const context of [undefined, { userQuery: 'which shard had a checksum mismatch?' }]) {
      const view = trimmer.trim(text, 6000, context);
      expectHonestView(view, text, 6000);
      const body = viewBody(view);
      expect(body).not.toContain(esc);
      // The coloured error line is kept and counted as an error.
      expect(body).toContain('worker-7 ERROR disk quota exceeded');
      const note = trailingDisclosureNotes(view.text)[0]!.text;
      expect(note).toContain('; terminal escape codes removed');
      expect(note).toMatch(/error=0\/1/);
      // Every kept line, and the window's columns, checked against the coloured original.
      expectMarkedLines(view, text);
      if (context) {
        const cut = body.split('\n').map(parseCutLineMarker).find(Boolean);
        expect(cut).toMatchObject({ line: 301, length: long.length });
        expect(body).toContain('checksum mismatch in shard-42');
      }
    }
  });

  it('keeps the lines the query asks about', () => {
    const view = trimmer.trim(input, 4096, { userQuery: 'what happened in batch 123?' });
    expect(viewBody(view)).toContain('processed batch 123');
  });

  it('falls back to a head byte cut for prose with no usable keywords', () => {
    const prose = 'Plain words follow one another without any signal at all. '.repeat(60);
    const view = trimmer.trim(prose, 1000);
    expectHonestView(view, prose, 1000);
    expect(view.metadata.strategy).toBe('bytes');
    expect(prose.startsWith(viewBody(view))).toBe(true);
    expect(trailingDisclosureNotes(view.text)[0]!.text).toMatch(
      /^\[trimmed: \d+ → \d+ bytes kept by byte cut/,
    );
  });

  it('selects sentences of prose that match the query', () => {
    const sentences = Array.from(
      { length: 300 },
      (_, i) => `Sentence ${i} talks about routine matters.`,
    );
    sentences[211] = 'The vault combination is kept by the quartermaster.';
    const prose = sentences.join(' ');
    const view = trimmer.trim(prose, 800, { userQuery: 'who keeps the vault combination' });
    expectHonestView(view, prose, 800);
    expect(viewBody(view)).toContain('The vault combination is kept by the quartermaster.');
    expect(trailingDisclosureNotes(view.text)[0]!.text).toMatch(/sentences kept/);
  });

  it('trims NDJSON record-wise: every kept line is JSON, the asked record among them', () => {
    const ndjson = records(200)
      .map((item) => JSON.stringify(item))
      .join('\n');
    const view = trimmer.trim(ndjson, 4096, { userQuery: 'rec-00177' });
    expectHonestView(view, ndjson, 4096);
    expect(view.metadata.strategy).toBe('ndjson');
    const lines = viewBody(view).split('\n');
    for (const line of lines) expect(() => JSON.parse(line)).not.toThrow();
    expect(viewBody(view)).toContain('rec-00177');
    expect(parseRecordCoverage(trailingDisclosureNotes(view.text)[0]!.text)?.total).toBe(200);
  });
});

describe('createStructuralTrimmer: budget and settings', () => {
  it('refuses a budget below the minimum when the result must be cut', () => {
    const input = 'x'.repeat(1000);
    expect(() => trimmer.trim(input, MIN_TRIM_BUDGET_BYTES - 1)).toThrowError(BudgetTooSmallError);
    expect(trimmer.trim('small', 10).text).toBe('small');
    expect(trimmer.trim(input, Number.POSITIVE_INFINITY).text).toBe(input);
    const view = trimmer.trim(input, MIN_TRIM_BUDGET_BYTES);
    expectHonestView(view, input, MIN_TRIM_BUDGET_BYTES);
  });

  it('refuses a budget that is NaN, negative, fractional or not a number, even for a small result', async () => {
    for (const budget of [Number.NaN, -5, 300.5, '4096' as unknown as number, undefined as never]) {
      expect(() => trimmer.trim('small', budget)).toThrowError(InvalidArgumentError);
      await expect(trimmer.process('small', budget)).rejects.toThrowError(InvalidArgumentError);
    }
  });

  it('refuses a result that is not a string instead of trimming `[object Object]`', async () => {
    const notText = [{ items: [1, 2, 3] }, [1, 2, 3], null, undefined, 42, new Uint8Array(4)];
    for (const result of notText as unknown as string[]) {
      expect(() => trimmer.trim(result, 4096)).toThrowError(/result must be a string/);
      await expect(trimmer.process(result, 4096)).rejects.toThrowError(InvalidArgumentError);
    }
  });

  it('validates settings at construction', () => {
    expect(() =>
      createStructuralTrimmer({ selection: 'largest-first' as 'breadth-first' }),
    ).toThrowError(InvalidArgumentError);
    expect(() => createStructuralTrimmer({ nestedArrayCap: 0 })).toThrowError(InvalidArgumentError);
    expect(() => createStructuralTrimmer({ relevanceShare: 2 })).toThrowError(InvalidArgumentError);
    expect(() => createStructuralTrimmer({ preserveKeys: [1 as unknown as string] })).toThrowError(
      InvalidArgumentError,
    );
  });

  it('process() gives the same result, reports a span, and honours an aborted signal', async () => {
    const telemetry = createRecordingTelemetry();
    const traced = createStructuralTrimmer({ telemetry });
    const input = JSON.stringify(records(200));
    const view = await traced.process(input, 2048, { stepId: 's1' });
    expect(view).toEqual(traced.trim(input, 2048));
    expect(telemetry.spans.map((span) => span.name)).toEqual([SPAN_NAMES.resultTrimCompleted]);
    expect(telemetry.spans[0]!.attributes['compaction.content_lost']).toBe(true);
    await traced.process('fits', 2048);
    expect(telemetry.spans).toHaveLength(1);
    const controller = new AbortController();
    controller.abort(new Error('stop'));
    await expect(traced.process(input, 2048, { signal: controller.signal })).rejects.toThrow(
      'stop',
    );
  });
  it('trims the same where WebAssembly is unavailable (node --jitless)', () => {
    const dist = new URL('../dist/index.js', import.meta.url);
    const inputs = [
      [JSON.stringify(records(300), null, 2), 3000],
      ['{"error":"OOMKilled: exit code 137","ids":[12345678901234567890,1.0],"s":"é\ud800"}', 300],
      [`{"items":${JSON.stringify(records(50))},"tail":"${'ü'.repeat(500)}"}`, 1200],
      ['{"broken":', 300],
      [podList(60, 41).json, 6000],
      [workflowRuns(200, 77).json, 5000],
      // Text: its line scan (templates, levels, codes, measures) runs in JavaScript there.
      [
        Array.from(
          { length: 400 },
          (_, i) =>
            `2026-03-01T06:00:${String(i % 60).padStart(2, '0')}Z ${i % 7 === 0 ? 'ERROR' : i % 3 === 0 ? 'WARN' : 'INFO'} [w-${i % 4}] request ${i} took ${(i * 37) % 900}ms${i % 50 === 0 ? ' exit code 137' : ''}`,
        ).join('\n'),
        2000,
      ],
      [
        Array.from(
          { length: 200 },
          (_, i) =>
            `${i % 9 === 0 ? 'E: ' : ''}Line ${i} of prose, a reader's; level=${i % 4 === 0 ? 'warn' : 'x'} \u001b[31mwarning\u001b[0m [error] ${i % 5 === 0 ? 'firing' : 'quiet'}`,
        ).join('\n'),
        1500,
      ],
      [
        Array.from(
          { length: 30 },
          (_, f) =>
            `diff --git a/f${f}.go b/f${f}.go\n--- a/f${f}.go\n+++ b/f${f}.go\n@@ -1,4 +1,4 @@\n context ${f}\n-ERROR: exit code ${f % 3}\n+log.Error("failed", "took", "${f * 37}ms")\n \tif (level == FATAL) {`,
        ).join('\n'),
        1500,
      ],
    ] as const;
    const script = `
      const { createStructuralTrimmer } = await import(${JSON.stringify(dist.href)});
      const trimmer = createStructuralTrimmer();
      const { readFileSync } = await import('node:fs');
      const inputs = JSON.parse(readFileSync(0, 'utf8'));
      console.log(JSON.stringify([typeof WebAssembly, ...inputs.map(([text, budget]) => trimmer.trim(text, budget))]));
    `;
    const output = execFileSync(
      process.execPath,
      ['--jitless', '--input-type=module', '-e', script],
      { encoding: 'utf8', maxBuffer: 64 * 2 ** 20, input: JSON.stringify(inputs) },
    );
    const trimmer = createStructuralTrimmer();
    const here = inputs.map(([text, budget]) => trimmer.trim(text, budget));
    expect(JSON.parse(output)).toEqual(['undefined', ...JSON.parse(JSON.stringify(here))]);
  });
});
