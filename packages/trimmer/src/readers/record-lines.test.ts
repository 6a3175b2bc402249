import { parseRecordCoverage, trailingDisclosureNotes } from '@compaction/core';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { createStructuralTrimmer } from '../create-structural-trimmer.js';
import { seeded } from '../test-support/generated-lists.js';
import { expectHonestView, viewBody } from '../test-support/view-invariants.js';
import { listAsRecordLines, recordLinesAsList, tornEdges } from './record-lines.js';

const trimmer = createStructuralTrimmer();
const budgetAt = (text: string, share: number) => Math.floor(Buffer.byteLength(text) * share);
const noteOf = (text: string) => trailingDisclosureNotes(text)[0]!.text;
/** The view's lines, each parsed: every one must be JSON. */
const parsedLines = (text: string): Record<string, unknown>[] =>
  viewBody({ text } as never)
    .split('\n')
    .map((line) => JSON.parse(line) as Record<string, unknown>);

/** The honest view at 3% of `entries` written one a line: its note's coverage and its lines parsed. */
function linesViewAt3(entries: readonly object[]) {
  const text = entries.map((entry) => JSON.stringify(entry)).join('\n');
  const budget = budgetAt(text, 0.03);
  const view = trimmer.trim(text, budget);
  expectHonestView(view, text, budget);
  const coverage = parseRecordCoverage(noteOf(view.text))!;
  return { text, coverage, lines: parsedLines(view.text) };
}

/**
 * Whether every value of `part` is the value at its place in `whole` (a projection of it), a
 * string cut short (`…` at its end, disclosed in the note) the start of its value.
 */
function isPartOf(part: unknown, whole: unknown): boolean {
  if (typeof part === 'string' && part.endsWith('…') && typeof whole === 'string') {
    return whole.startsWith(part.slice(0, -1));
  }
  if (part === null || typeof part !== 'object') return Object.is(part, whole);
  if (whole === null || typeof whole !== 'object') return false;
  if (Array.isArray(part)) {
    return Array.isArray(whole) && part.every((item) => whole.some((w) => isPartOf(item, w)));
  }
  return Object.entries(part).every(
    ([key, value]) => Object.hasOwn(whole, key) && isPartOf(value, (whole as never)[key]),
  );
}

describe('recordLinesAsList and listAsRecordLines', () => {
  const value = fc.oneof(
    fc.string({ unit: 'grapheme' }),
    fc.constantFrom('a,b', '}],[{', '"quoted"', 'back\\slash', 'line\nbreak', '\u2028'),
    fc.integer(),
    fc.boolean(),
    fc.constant(null),
  );
  const record = fc.dictionary(
    fc.string({ minLength: 1, maxLength: 6 }),
    fc.oneof(value, fc.array(value, { maxLength: 3 }), fc.dictionary(fc.string(), value)),
    { minKeys: 1, maxKeys: 5 },
  );

  it('reads JSON lines (any line ends, blank lines, spaces around) as the array of their records', () => {
    fc.assert(
      fc.property(
        fc.array(record, { minLength: 1, maxLength: 20 }),
        fc.constantFrom('\n', '\r\n', '\n\n', ' \n\t'),
        (records, end) => {
          const text = `${records.map((r) => JSON.stringify(r)).join(end)}${end}`;
          const list = recordLinesAsList(text)!;
          expect(JSON.parse(list)).toEqual(records);
        },
      ),
    );
  });

  it('writes the items of a JSON array back one a line, commas inside them kept', () => {
    fc.assert(
      fc.property(fc.array(record, { maxLength: 20 }), (records) => {
        const lines = listAsRecordLines(JSON.stringify(records));
        const back = lines === '' ? [] : lines.split('\n').map((line) => JSON.parse(line));
        expect(back).toEqual(records);
      }),
    );
  });

  it('is no list where a line opens with anything but an object', () => {
    expect(recordLinesAsList('{"a":1}\n[1,2]')).toBeUndefined();
    expect(recordLinesAsList('{"a":1}\nplain words')).toBeUndefined();
    expect(recordLinesAsList('"x"\n{"a":1}')).toBeUndefined();
    // A line that is not JSON leaves a list that does not parse: its reader tells.
    expect(() => JSON.parse(recordLinesAsList('{"a":1}\n{"a":')!)).toThrow();
  });
});

describe('tornEdges', () => {
  it('sets apart a first or last line that is no JSON object, cut to a glimpse', () => {
    const whole = ['{"a":1}', '{"a":2}', '{"a":3}'];
    expect(tornEdges(whole.join('\n'))).toBeUndefined();
    expect(tornEdges(`":1}\n${whole.join('\n')}\n{"a":`)).toEqual({
      head: '":1}',
      records: whole.join('\n'),
      tail: '{"a":',
    });
    const long = `{"text":"${'é'.repeat(300)}`;
    const cut = tornEdges(`${whole.join('\n')}\n${long}`)!;
    // Cut to 160 bytes of UTF-8 (`{"text":"` and 75 two-byte letters).
    expect(cut.tail).toBe(`${long.slice(0, 84)}…`);
    expect(cut.head).toBe('');
    // A cut never leaves half a surrogate pair.
    const emoji = tornEdges(`${'😀'.repeat(200)}"}\n${whole.join('\n')}`)!;
    expect(emoji.head.startsWith('…😀')).toBe(true);
    expect(tornEdges('{"a":\n{"a":1}')).toBeUndefined();
  });
});

describe('JSON lines: judged as one list, written back a record a line', () => {
  it('reads a text cut at any size or read from any offset as its whole lines, the torn ones kept', () => {
    const records = Array.from({ length: 300 }, (_, i) =>
      JSON.stringify({
        id: `job-${i}`,
        state: i === 150 ? 'failed' : 'ok',
        at: new Date(Date.UTC(2026, 0, 1) + i * 1000).toISOString(),
        note: `ran step ${i % 7} of the nightly batch`,
      }),
    );
    const text = records.join('\n');
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: 2000 }),
        fc.integer({ min: 0, max: 2000 }),
        fc.integer({ min: 1500, max: 6000 }),
        (from, cut, budget) => {
          const part = text.slice(from, text.length - cut);
          const view = trimmer.trim(part, budget);
          expectHonestView(view, part, budget);
          expect(view.metadata.strategy).toBe('ndjson');
          const lines = viewBody(view).split('\n');
          const torn = (line: string) => !records.some((r) => r.includes(line.replace('…', '')));
          // Every line but the torn edges is a record's part.
          for (const line of lines.slice(1, -1)) expect(() => JSON.parse(line)).not.toThrow();
          const whole = part.split('\n').filter((line) => records.includes(line)).length;
          expect(parseRecordCoverage(noteOf(view.text))?.total).toBe(whole);
          const first = part.split('\n')[0]!;
          if (first !== '' && !records.includes(first)) expect(torn(lines[0]!)).toBe(false);
        },
      ),
      { numRuns: 40 },
    );
  });

  it('names the records in lines that each parse, each line a part of one record', () => {
    const next = seeded(11);
    const records = Array.from({ length: 400 }, (_, i) => ({
      name: `worker-${i}`,
      state: next() < 0.05 ? 'failed' : 'ok',
      started: new Date(Date.UTC(2026, 0, 1) + i * 60_000).toISOString(),
      detail: { region: ['eu', 'us', 'ap'][i % 3], attempts: 1 + (i % 4) },
      log: `step ${i}, output: ${'x'.repeat(40 + (i % 60))}`,
    }));
    const text = records.map((record) => JSON.stringify(record)).join('\n');
    fc.assert(
      fc.property(fc.double({ min: 0.01, max: 0.6, noNaN: true }), (share) => {
        const budget = Math.max(256, budgetAt(text, share));
        const view = trimmer.trim(text, budget);
        expectHonestView(view, text, budget);
        expect(view.metadata.strategy).toBe('ndjson');
        const lines = parsedLines(view.text);
        for (const line of lines) {
          expect(records.some((r) => isPartOf(line, r))).toBe(true);
        }
        const coverage = parseRecordCoverage(noteOf(view.text));
        if (coverage) {
          expect(coverage.total).toBe(400);
          expect(coverage.named).toBe(lines.filter((line) => 'name' in line).length);
        }
      }),
      { numRuns: 40 },
    );
    // At 3% the view names far more workers than whole lines would show.
    const view = trimmer.trim(text, budgetAt(text, 0.03));
    const lines = parsedLines(view.text);
    expect(lines.length).toBeGreaterThan(50);
    const coverage = parseRecordCoverage(noteOf(view.text))!;
    expect(coverage).toMatchObject({ total: 400, namedBy: 'name' });
    const failed = records.filter((r) => r.state === 'failed').length;
    expect(coverage.distributions?.find((d) => d.field === 'state')?.values).toEqual([
      { value: 'ok', count: 400 - failed },
      { value: 'failed', count: failed },
    ]);
  });

  it('shows the one error record of a JSON log whole and tells how the records divide by level', () => {
    const records = Array.from({ length: 3000 }, (_, i) =>
      JSON.stringify({
        level: 30,
        time: 1742214812400 + i,
        reqId: `req-${i}`,
        msg: 'request completed',
      }),
    );
    const failure = JSON.stringify({
      level: 50,
      time: 1742214999999,
      reqId: 'req-x9',
      msg: 'upstream timed out',
    });
    records.splice(2100, 0, failure);
    const text = records.join('\n');
    const budget = budgetAt(text, 0.03);
    const view = trimmer.trim(text, budget);
    expectHonestView(view, text, budget);
    expect(view.metadata.strategy).toBe('ndjson');
    expect(viewBody(view).split('\n')).toContain(failure);
    const coverage = parseRecordCoverage(noteOf(view.text))!;
    expect(coverage.distributions?.find((d) => d.field === 'level')?.values).toEqual([
      { value: '30', count: 3000 },
      { value: '50', count: 1 },
    ]);
  });

  it('shows the one failed, slow request of a JSON log whole, asked or not', () => {
    const record = (i: number, status: number, ms: number) =>
      JSON.stringify({
        level: 30,
        time: 1742214812400 + i,
        reqId: `req-${i}`,
        req: { method: i % 5 === 0 ? 'POST' : 'GET', url: `/orders/${i}` },
        res: { statusCode: status },
        responseTime: ms,
        msg: 'request completed',
      });
    const records = Array.from({ length: 3000 }, (_, i) =>
      record(i, i % 7 === 0 ? 304 : 200, 8 + ((i * 37) % 40)),
    );
    const failure = record(2222, 503, 7196);
    records[2222] = failure;
    const text = records.join('\n');
    for (const share of [0.03, 0.1]) {
      for (const userQuery of [undefined, 'which requests failed or were slow?']) {
        const budget = budgetAt(text, share);
        const view = trimmer.trim(text, budget, userQuery ? { userQuery } : undefined);
        expectHonestView(view, text, budget);
        expect(view.metadata.strategy).toBe('ndjson');
        expect(viewBody(view).split('\n')).toContain(failure);
      }
    }
  });

  it('tells in its note how all the records divide, and counts the records it names', () => {
    const records = Array.from({ length: 3000 }, (_, i) => ({
      ts: new Date(Date.UTC(2026, 0, 1) + i * 1000).toISOString(),
      level: i % 97 === 0 ? 'error' : 'info',
      status: i % 53 === 0 ? 500 : 200,
      method: i % 5 === 0 ? 'POST' : 'GET',
      ms: (i * 7919) % 300,
      requestId: `req-${((i * 2654435761) % 4294967296).toString(16)}`,
    }));
    const text = records.map((record) => JSON.stringify(record)).join('\n');
    for (const share of [0.01, 0.03, 0.1]) {
      const budget = budgetAt(text, share);
      const view = trimmer.trim(text, budget);
      expectHonestView(view, text, budget);
      expect(view.metadata.strategy).toBe('ndjson');
      const coverage = parseRecordCoverage(noteOf(view.text))!;
      const lines = parsedLines(view.text);
      expect(coverage).toMatchObject({
        total: 3000,
        namedBy: 'requestId',
        named: lines.filter((line) => 'requestId' in line).length,
        whole: lines.filter((line) => Object.keys(line).length === 6).length,
      });
      const told = new Map(coverage.distributions?.map((d) => [d.field, d.values]));
      expect(told.get('status')).toEqual([
        { value: '200', count: 2943 },
        { value: '500', count: 57 },
      ]);
      expect(told.get('level')).toEqual([
        { value: 'info', count: 2969 },
        { value: 'error', count: 31 },
      ]);
      expect(coverage.ranges?.find((range) => range.field === 'ts')).toMatchObject({
        from: '2026-01-01T00:00:00.000Z',
        to: '2026-01-01T00:49:59.000Z',
      });
    }
  });

  it('names the newest and the oldest record with their time, and the last five asked for, in any line order', () => {
    const next = seeded(7);
    const records = Array.from({ length: 2000 }, (_, i) => ({
      at: new Date(Date.UTC(2026, 2, 1) + i * 61_000).toISOString(),
      job: `job-${(i * 7919) % 100_003}`,
      state: i % 11 === 0 ? 'retry' : 'done',
      ms: 20 + ((i * 37) % 200),
    }));
    // Written in no time order (several writers, or sorted by another field).
    const lines = records.map((record) => JSON.stringify(record));
    for (let i = lines.length - 1; i > 0; i--) {
      const j = Math.floor(next() * (i + 1));
      [lines[i], lines[j]] = [lines[j]!, lines[i]!];
    }
    const text = lines.join('\n');
    const budget = budgetAt(text, 0.03);
    const shownWithTime = (view: string, i: number) =>
      parsedLines(view).some((line) => line.job === records[i]!.job && line.at === records[i]!.at);
    const plain = trimmer.trim(text, budget).text;
    expect(shownWithTime(plain, 0)).toBe(true);
    expect(shownWithTime(plain, records.length - 1)).toBe(true);
    const view = trimmer.trim(text, budget, { userQuery: 'what were the last 5 jobs?' });
    expectHonestView(view, text, budget);
    for (let i = records.length - 5; i < records.length; i++) {
      expect(shownWithTime(view.text, i)).toBe(true);
    }
  });

  it('names the newest record and the ones that stand out, where a few whole lines would fit', () => {
    // 120 records of about 250 bytes with three oddities of three kinds (a failed one, one
    // 200 times slower, one with an error): at 3% three whole lines or so would fit.
    const records = Array.from({ length: 120 }, (_, i) => ({
      at: new Date(Date.UTC(2026, 2, 1) + ((i * 37) % 120) * 61_000).toISOString(),
      job: `job-${(i * 7919) % 100_003}`,
      state: i === 5 ? 'failed' : 'done',
      ms: i === 40 ? 9_000_000 : 40 + ((i * 13) % 17),
      ...(i === 77 && { error: 'upstream connect error or disconnect/reset before headers' }),
      runner: `runner-${'r'.repeat(120)}-${i % 7}`,
    }));
    const text = records.map((record) => JSON.stringify(record)).join('\n');
    const newest = records.reduce((a, b) => (b.at > a.at ? b : a));
    expect([5, 40, 77]).not.toContain(records.indexOf(newest));
    const lines = parsedLines(trimmer.trim(text, budgetAt(text, 0.03)).text);
    expect(lines).toContainEqual({ at: newest.at, job: newest.job });
    expect(lines).toContainEqual(
      expect.objectContaining({ job: records[5]!.job, state: 'failed' }),
    );
    expect(lines).toContainEqual(expect.objectContaining({ job: records[40]!.job, ms: 9_000_000 }));
    expect(lines).toContainEqual(
      expect.objectContaining({ job: records[77]!.job, error: records[77]!.error }),
    );
  });

  it('names journal entries with their messages where their numbers alone cannot all be named', () => {
    const units = ['nginx', 'sshd', 'cron', 'kubelet'];
    const entries = Array.from({ length: 3000 }, (_, i) => ({
      __CURSOR: `s=7f3a9c1e2b4d4f6a;i=${(0x1a2b3 + i).toString(16)};x=${((i * 2654435761) >>> 0).toString(16)}`,
      __REALTIME_TIMESTAMP: String(1765101600000000 + i * 250000),
      __MONOTONIC_TIMESTAMP: String(86400000000 + i * 250000),
      PRIORITY: i === 2222 ? '3' : '6',
      SYSLOG_IDENTIFIER: units[i % 4],
      MESSAGE:
        i === 2222
          ? 'Out of memory: Killed process 4123 (java)'
          : `${units[i % 4]} handled job ${i % 300} for host-${i % 40}`,
    }));
    const { text, coverage, lines } = linesViewAt3(entries);
    expect(coverage.namedBy).toBe('__MONOTONIC_TIMESTAMP+MESSAGE');
    const labelled = lines.filter((line) => 'MESSAGE' in line && '__MONOTONIC_TIMESTAMP' in line);
    expect(labelled.length).toBe(coverage.named);
    expect(coverage.named).toBeGreaterThan(100);
    expect(lines).toContainEqual(
      expect.objectContaining({ PRIORITY: '3', MESSAGE: entries[2222]!.MESSAGE }),
    );
    // With room to name every entry by its number, the numbers name them and messages follow.
    const wide = trimmer.trim(text, budgetAt(text, 0.3));
    expect(parseRecordCoverage(noteOf(wide.text))).toMatchObject({
      namedBy: '__MONOTONIC_TIMESTAMP',
      named: 3000,
    });
  });

  it("names an agent session's entries by what each says inside its message's parts, its start where long", () => {
    // A transcript as agents write it: one entry a line, named by a UUID, what it says a level
    // down in its message's list of parts (a text, a tool call, the tool's output), the
    // outputs long, and the first entry a tool's output.
    const uuid = (i: number) =>
      `${((i * 2654435761) >>> 0).toString(16).padStart(8, '0')}-4e1f-4a2b-9c3d-${String(i).padStart(12, '0')}`;
    const commands = ['npm test', 'git status', 'npx tsc --noEmit', 'git diff src/queue.ts'];
    const entries = Array.from({ length: 240 }, (_, i) => {
      const at = new Date(Date.UTC(2026, 10, 30, 14) + i * 4000).toISOString();
      const common = {
        sessionId: 'feedbeef-0000-4000-8000-1234567890ab',
        uuid: uuid(i),
        timestamp: at,
      };
      if (i === 100) {
        return {
          ...common,
          type: 'user',
          message: { role: 'user', content: 'why does the retry queue drop jobs on restart?' },
        };
      }
      if (i % 3 === 0) {
        const output = Array.from(
          { length: 10 + (i % 40) },
          (_, k) => `  ${k + 1}  line ${k} of src/file-${i % 9}.ts`,
        ).join('\n');
        return {
          ...common,
          type: 'user',
          message: {
            role: 'user',
            content: [{ tool_use_id: `toolu_${i}`, type: 'tool_result', content: output }],
          },
        };
      }
      const part =
        i % 3 === 1
          ? {
              type: 'text',
              text: `Step ${i}: the worker acknowledges job ${i % 17} before its handler runs.`,
            }
          : {
              type: 'tool_use',
              id: `toolu_${i + 1}`,
              name: 'Bash',
              input: { command: `${commands[i % 4]} # run ${i}` },
            };
      return {
        ...common,
        type: 'assistant',
        message: { role: 'assistant', content: [part], stop_reason: null },
      };
    });
    const { coverage, lines } = linesViewAt3(entries);
    expect(coverage.namedBy).toBe('uuid+message.content');
    const saying = (line: Record<string, unknown>) =>
      JSON.stringify(line.message ?? '').length > 40;
    const labelled = lines.filter((line) => 'uuid' in line && saying(line));
    expect(labelled.length).toBeGreaterThanOrEqual(coverage.named);
    expect(coverage.named).toBeGreaterThanOrEqual(10);
    for (const line of lines) {
      const entry = entries.find((e) => e.uuid === line.uuid)!;
      expect(isPartOf(line, entry)).toBe(true);
    }
    // A tool's long output names its entry by its start.
    expect(lines.some((line) => JSON.stringify(line).includes('…'))).toBe(true);
  });

  it("keeps whole lines under the seed's breadth-first selection, and reads a log with a plain line as text", () => {
    const records = Array.from({ length: 300 }, (_, i) =>
      JSON.stringify({ id: `item-${i}`, state: i === 150 ? 'failed' : 'ok', note: 'x'.repeat(80) }),
    );
    const text = records.join('\n');
    const budget = budgetAt(text, 0.05);
    const breadthFirst = createStructuralTrimmer({ selection: 'breadth-first' }).trim(text, budget);
    expectHonestView(breadthFirst, text, budget);
    for (const line of viewBody(breadthFirst).split('\n')) expect(records).toContain(line);
    const mixed = [...records.slice(0, 150), 'starting the second half', ...records.slice(150)];
    const view = trimmer.trim(mixed.join('\n'), budget);
    expect(view.metadata.strategy).toBe('text');
  });
});
