import { parseRecordCoverage, trailingDisclosureNotes, utf8ByteLength } from '@compaction/core';
import { fixturesAvailable, readFixture } from '@compaction/fixtures';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { createStructuralTrimmer } from '../create-structural-trimmer.js';
import { analyzeRecords } from '../engine/analyze-records.js';
import { keyHints } from '../engine/key-hints.js';
import { findHits, queryWords, relevanceTerms } from '../engine/relevance.js';
import { podList, recordList, workflowRuns } from '../test-support/generated-lists.js';
import { expectHonestView, viewBody } from '../test-support/view-invariants.js';
import { scanJson } from './json-inventory.js';
import { type InformativeSelection, selectJsonInformative } from './select-json-informative.js';
import { CUT, DROPPED } from './selection-ledger.js';

const trimmer = createStructuralTrimmer();

/** The value at `path` in a parsed view, read loosely (undefined where the view lacks it). */
function pick(value: unknown, ...path: Array<string | number>): unknown {
  return path.reduce<unknown>(
    (at, key) => (at as Record<string | number, unknown> | undefined)?.[key],
    value,
  );
}

/** The selection of `json` at `budget` bytes of body, as the trimmer makes it. */
function select(json: string, budget: number, query?: string): InformativeSelection {
  const inventory = scanJson(json, 1_000_000)!;
  const terms = relevanceTerms({
    words: queryWords(query ? { userQuery: query } : undefined),
    preserveKeys: [],
    json: true,
  });
  const hits = findHits(json, terms, inventory.count, 50_000, undefined, {
    at: inventory.errorAt,
    word: inventory.errorWord,
  });
  return selectJsonInformative(inventory, budget, hits, analyzeRecords(inventory));
}

/** Whether every node kept at the smaller budget is kept at the larger (a cut one no shorter). */
function keptWithin(small: InformativeSelection, large: InformativeSelection): boolean {
  for (let u = 0; u < small.state.length; u++) {
    const kept = small.covered[u] === 1 || small.state[u] !== DROPPED;
    if (!kept) continue;
    if (large.covered[u] === 0 && large.state[u] === DROPPED) return false;
    if (small.state[u] === CUT && large.state[u] === CUT) {
      if (large.cutLength.get(u)! < small.cutLength.get(u)!) return false;
    }
  }
  return true;
}

/**
 * Every record `shown` holds the asked field's true value: its value by `askedOf` is the one
 * the record of the same name (`nameOf`) holds in `records`.
 */
function expectAnswered<T>(
  shown: readonly T[],
  records: readonly T[],
  nameOf: (record: T) => unknown,
  askedOf: (record: T) => unknown,
  message?: string,
): void {
  const truth = new Map(records.map((record) => [nameOf(record), askedOf(record)]));
  for (const record of shown) expect(askedOf(record), message).toBe(truth.get(nameOf(record)));
}

describe('information-first selection: every record named first', () => {
  it('names every pod with its state where the names fit, before any detail', () => {
    const { json, names } = podList(40, 17);
    for (const budget of [4000, 8000, 16_000]) {
      const view = trimmer.trim(json, budget);
      expectHonestView(view, json, budget);
      const body = JSON.parse(viewBody(view));
      const shown = body.items.map((item: { metadata?: { name?: string } }) => item.metadata?.name);
      expect(shown).toEqual(names);
      // The Failed pod shows its phase; the note says how the pods divide by it, so the 39
      // others need not repeat `Running`.
      expect(body.items[17].status.phase).toBe('Failed');
      if (budget > 4000) {
        const records = parseRecordCoverage(trailingDisclosureNotes(view.text)[0]!.text)!;
        expect(records.distributions).toContainEqual({
          field: 'status.phase',
          values: [
            { value: 'Running', count: 39 },
            { value: 'Failed', count: 1 },
          ],
        });
      }
      expect(view.metadata).toMatchObject({ recordsNamed: 40, recordsTotal: 40 });
    }
  });

  it('names a table’s records before the header of rows it has no room to show', () => {
    // A server-side Table: each row's `cells` are read by position under `columnDefinitions`,
    // and the row's pod is named by `object.metadata.name`. The header says nothing of rows
    // the view drops, so at a budget that fits names only it must not take their place.
    const columns = ['Name', 'Ready', 'Status', 'Restarts', 'Age', 'IP', 'Node', 'Nominated Node'];
    const rows = Array.from({ length: 40 }, (_, i) => ({
      cells: [
        `web-${i}`,
        '1/1',
        'Running',
        i % 3,
        `${i}d`,
        `10.0.0.${i}`,
        `node-${i % 4}`,
        '<none>',
      ],
      object: { kind: 'PartialObjectMetadata', metadata: { name: `web-${i}`, uid: `u-${i}` } },
    }));
    const json = JSON.stringify({
      kind: 'Table',
      columnDefinitions: columns.map((name) => ({ name, type: 'string', format: '' })),
      rows,
    });
    const budget = 900;
    const view = trimmer.trim(json, budget);
    expectHonestView(view, json, budget);
    const body = JSON.parse(viewBody(view));
    const named = body.rows.filter((row: { object?: unknown }) => row.object).length;
    if (body.columnDefinitions)
      expect(body.rows.some((r: { cells?: unknown }) => r.cells)).toBe(true);
    expect(named).toBeGreaterThanOrEqual(12);
  });

  it('says which field every record has with one same value', () => {
    const { json } = podList(40);
    const note = trailingDisclosureNotes(trimmer.trim(json, 3000).text)[0]!.text;
    expect(parseRecordCoverage(note)!.constant).toContainEqual({
      field: 'status.phase',
      value: 'Running',
    });
  });

  describe('the records note says what a reader can rely on, at every budget', () => {
    // 300 pods of two fields; every pod is Running, so `phase` is what gets dropped.
    const json = JSON.stringify({
      items: Array.from({ length: 300 }, (_, i) => ({ name: `pod-${i}`, phase: 'Running' })),
    });
    const noteAt = (budget: number) => {
      const view = trimmer.trim(json, budget);
      expectHonestView(view, json, budget);
      const note = trailingDisclosureNotes(view.text)[0]!.text;
      const body = viewBody(view);
      const named = Array.from({ length: 300 }, (_, i) => `"pod-${i}"`).filter((name) =>
        body.includes(name),
      ).length;
      return { note, named, records: parseRecordCoverage(note), body };
    };

    it.each([600, 1200, 3000])(
      'at %i bytes: named of total, whole, and phase=Running dropped',
      (budget) => {
        const { note, named, records, body } = noteAt(budget);
        expect(body).not.toContain('"phase"');
        expect(records).toMatchObject({ named, total: 300, whole: 0 });
        expect(named).toBeGreaterThan(0);
        // The constant field once, with its value, as dropped from every record: never "has"
        // and "lacks" the same field.
        expect(records!.constant).toEqual([{ field: 'phase', value: 'Running' }]);
        expect(records!.droppedFields ?? []).not.toContain('phase');
        expect(note).not.toMatch(/every record (has|lacks)/);
        expect(note.match(/phase=Running/g)!.length).toBeLessThanOrEqual(2);
        // What the left-out pods were: all Running.
        const omitted = records!.omitted ?? [];
        expect(
          omitted.reduce((sum, entry) => sum + entry.count, 0) + (records!.omittedMore ?? 0),
        ).toBe(300 - named);
      },
    );

    it('keeps the segment, shortened rather than dropped, down to the smallest budget', () => {
      for (let budget = 256; budget <= 4000; budget += 97) {
        const { named, records } = noteAt(budget);
        expect(records, `records segment at ${budget}`).toMatchObject({ named, total: 300 });
      }
    });
  });

  it('names as many as fit, in order, and says how many and what was left out', () => {
    const { json, names } = podList(400);
    const view = trimmer.trim(json, 4000);
    expectHonestView(view, json, 4000);
    const body = viewBody(view);
    const named = names.filter((name) => body.includes(`"${name}"`));
    expect(named.length).toBeGreaterThan(20);
    // In order, and the five newest pods (the last started) with them: order is information.
    expect(named).toEqual([...names.slice(0, named.length - 5), ...names.slice(395)]);
    const note = trailingDisclosureNotes(view.text)[0]!.text;
    const records = parseRecordCoverage(note)!;
    expect(records).toMatchObject({ named: named.length, total: 400, path: 'items[]' });
    // How all of them divide by the state they vary in (the node they run on), and what was
    // left out by it where the note has room for that too.
    const nodes = records.distributions!.find((d) => d.field === 'spec.nodeName')!;
    expect(nodes.values.reduce((sum, v) => sum + v.count, 0)).toBe(400);
    const omitted = records.omitted ?? [];
    expect(omitted.every((entry) => entry.field === 'spec.nodeName')).toBe(true);
    expect(omitted.reduce((sum, entry) => sum + entry.count, 0)).toBeLessThanOrEqual(400);
  });

  it('shows a name several records share with what its record says, or not at all', () => {
    // A test run's events by the test's name, each output event with its line beside it: a
    // name shown alone would name the test's run or result event as well (an item names one
    // record: the note counts as many as the view shows).
    const words =
      'refund order payment service settled queue retry cart stock warehouse invoice customer address shipping label courier timeout ledger balance currency'.split(
        ' ',
      );
    const tests = Array.from(
      { length: 60 },
      (_, i) => `Test${words[i % 20]![0]!.toUpperCase()}${words[i % 20]!.slice(1)}Handler${i}`,
    );
    const events = Array.from({ length: 300 }, (_, i) => {
      const test = tests[Math.floor(i / 5)]!;
      const k = i % 5;
      const says = Array.from({ length: 16 }, (_, j) => words[(i * 7 + j * 13) % 20]).join(' ');
      return {
        Time: new Date(Date.UTC(2026, 10, 20, 8) + i * 3).toISOString(),
        Action: ['run', 'output', 'output', 'output', 'pass'][k]!,
        Package: 'github.com/acme/shop/orders',
        Test: test,
        ...(k === 1 || k === 2
          ? { Output: `    order_test.go:${100 + i}: ${says}${k === 1 ? ' again' : ''}\n` }
          : k === 3
            ? { Output: `--- PASS: ${test} (0.0${i % 9}s)\n` }
            : {}),
      } as { Test: string; Output?: string };
    });
    const json = JSON.stringify(events);
    let checked = 0;
    for (let budget = 500; budget <= 5000; budget += 150) {
      const view = trimmer.trim(json, budget);
      const records = parseRecordCoverage(trailingDisclosureNotes(view.text)[0]!.text);
      if (records?.namedBy !== 'Test+Output') continue;
      checked++;
      const items = JSON.parse(viewBody(view)) as Array<{ Test?: string; Output?: string }>;
      // Each shown name matched to one record it can be: a bare name to one without output.
      const left = events.map((event) => ({ ...event }));
      let named = 0;
      for (const item of items) {
        if (item.Test === undefined) continue;
        const at = left.findIndex(
          (event) =>
            event.Test === item.Test &&
            (event.Output === undefined
              ? item.Output === undefined
              : item.Output !== undefined &&
                event.Output.startsWith(item.Output.replace(/…$/, ''))),
        );
        if (at < 0) continue;
        left.splice(at, 1);
        named++;
      }
      expect(records.named, `at ${budget} bytes`).toBe(named);
    }
    expect(checked).toBeGreaterThan(20);
  });
  it('does not take a long name every record shares for an identity', () => {
    // Values longer than the hash reads were counted distinct unseen: all 60 deliveries share
    // one 50-character name, and the view named them by it, none told apart, the 500 without id.
    const name = 'org-platform/deployments-svc: push to refs/heads/m';
    expect(name.length).toBeGreaterThan(48);
    const deliveries = Array.from({ length: 60 }, (_, i) => ({
      id: 884100 + i * 13,
      name,
      status: i === 41 ? 500 : 200,
      duration_ms: 120 + ((i * 37) % 90),
    }));
    const json = JSON.stringify({ deliveries });
    const view = trimmer.trim(json, 2048, { userQuery: 'Which delivery failed?' });
    expectHonestView(view, json, 2048);
    const shown = (JSON.parse(viewBody(view)) as { deliveries: Array<Record<string, unknown>> })
      .deliveries;
    expect(shown.every((delivery) => typeof delivery.id === 'number')).toBe(true);
    expect(new Set(shown.map((delivery) => delivery.id)).size).toBe(shown.length);
    expect(shown.find((delivery) => delivery.status === 500)?.id).toBe(884100 + 41 * 13);
  });

  it('says by which field it names the records when the note has no room for their path', () => {
    const results = Array.from({ length: 50 }, (_, i) => ({
      numero: 1000 + i * 10,
      gravite: ['NOTICE', 'WARN', 'INFO'][i % 3],
      texte: `entree ${i} du journal, rien a signaler sur le noeud ${i % 7}`,
    }));
    const json = JSON.stringify({ donnees: { resultats_du_journal: results } });
    for (const budget of [300, 400, 500]) {
      const view = trimmer.trim(json, budget);
      expectHonestView(view, json, budget);
      const note = parseRecordCoverage(trailingDisclosureNotes(view.text)[0]!.text)!;
      expect(note.named).toBeGreaterThan(0);
      // Numbers that read as nothing, with what each entry says where not all can be named.
      expect(note.namedBy).toBe('numero+texte');
    }
    // Where every number fits, they name the entries alone.
    const view = trimmer.trim(json, 2000);
    expect(parseRecordCoverage(trailingDisclosureNotes(view.text)[0]!.text)?.namedBy).toBe(
      'numero',
    );
  });

  it('counts a record lacking the naming field neither named by it nor left out', () => {
    // A channel's messages, named by their text; one (a file share) has no text at all.
    const messages = Array.from({ length: 12 }, (_, i) => ({
      ...(i === 8 ? {} : { text: `message number ${i} of the channel` }),
      ts: `${1736478514 + i * 911}.${String(100_000 + i).slice(1)}`,
      blocks: [{ block_id: `b${i}`, elements: [{ type: 'rich_text_section' }] }],
    }));
    const json = JSON.stringify({ channel: 'C01', messages });
    const budget = Math.floor(json.length * 0.8);
    const view = trimmer.trim(json, budget);
    expectHonestView(view, json, budget);
    const note = parseRecordCoverage(trailingDisclosureNotes(view.text)[0]!.text)!;
    expect(note.namedBy).toBe('text');
    const shown = (JSON.parse(viewBody(view)) as { messages: Array<{ text?: string }> }).messages;
    expect(shown).toHaveLength(12);
    expect(note.named).toBe(shown.filter((message) => message.text !== undefined).length);
    expect(note.named).toBe(11);
    expect(note.omittedMore ?? 0).toBe(0);
  });

  it('drops constant and bookkeeping fields before informative ones', () => {
    const { json } = podList(30);
    const body = JSON.parse(viewBody(trimmer.trim(json, 12_000)));
    const first = body.items[0];
    expect(first.status.podIP).toBeDefined();
    expect(first.metadata.managedFields).toBeUndefined();
    expect(first.kind).toBeUndefined();
  });

  it('keeps the identity of CI runs over their URLs, and tells how they concluded', () => {
    const { json, ids } = workflowRuns(300, 150);
    const view = trimmer.trim(json, Math.floor(json.length * 0.1));
    const body = JSON.parse(viewBody(view));
    const runs = body.workflow_runs as Array<Record<string, unknown>>;
    expect(runs.map((run) => run.id)).toEqual(ids.slice(0, runs.length));
    expect(runs.length).toBeGreaterThan(250);
    expect(runs.find((run) => run.id === ids[150])?.conclusion).toBe('failure');
    const records = parseRecordCoverage(trailingDisclosureNotes(view.text)[0]!.text)!;
    expect(records.distributions).toContainEqual({
      field: 'conclusion',
      values: [
        { value: 'success', count: 299 },
        { value: 'failure', count: 1 },
      ],
    });
    expect(runs[0]!.logs_url).toBeUndefined();
  });

  it('shows the one record of many that holds a key none of the others has, with a glimpse of it', () => {
    // 79 zones warn of no results; one holds an instance (too big to show whole).
    const instance = {
      kind: 'compute#instance',
      name: 'distinct-lab',
      status: 'RUNNING',
      disks: Array.from({ length: 6 }, (_, d) => ({
        deviceName: `disk-${d}`,
        licenses: ['x'.repeat(90)],
      })),
    };
    const zones = Object.fromEntries(
      Array.from({ length: 80 }, (_, i) => [
        `zones/region-${i}`,
        i === 47
          ? { instances: [instance] }
          : {
              warning: { code: 'NO_RESULTS_ON_PAGE', message: `No results for zones/region-${i}.` },
            },
      ]),
    );
    const text = JSON.stringify({ kind: 'compute#instanceAggregatedList', items: zones });
    const body = JSON.parse(viewBody(trimmer.trim(text, Math.floor(text.length * 0.05))));
    expect(body.items['zones/region-47']?.instances?.[0]).toMatchObject({ status: 'RUNNING' });
  });

  it('glimpses what makes a record with no name to show stand out, when it is too big to show whole', () => {
    // Members of a map, named by their keys beside their `code`; one has no code but a list.
    const zones = Object.fromEntries(
      Array.from({ length: 80 }, (_, i) => [
        `zones/region-${i}`,
        i === 31
          ? { incidents: [{ retries: 17, share: 0.25, log: 'line of output '.repeat(60) }] }
          : { warning: { code: 'NO_RESULTS', message: `No results for zones/region-${i}.` } },
      ]),
    );
    const text = JSON.stringify({ items: zones });
    const body = JSON.parse(viewBody(trimmer.trim(text, 700)));
    expect(body.items['zones/region-31']?.incidents?.[0]).toMatchObject({
      retries: 17,
      share: 0.25,
    });
  });

  it("keeps an envelope's status and counts, then every record's name, before its long URLs", () => {
    const base = 'https://api.example.com/repos/acme/ledger/compare/v1.10.0...feature-rubocop';
    const files = Array.from({ length: 7 }, (_, i) => ({
      filename: `lib/ledger/part-${i}.rb`,
      status: i === 0 ? 'added' : 'modified',
      patch: `@@ -1,4 +1,6 @@\n${'+ line of code\n'.repeat(40)}`,
    }));
    const text = JSON.stringify({
      url: base,
      html_url: `${base}.html`,
      permalink_url: `${base}/permalink/d31e445...ace90dc`,
      diff_url: `${base}.diff`,
      patch_url: `${base}.patch`,
      status: 'diverged',
      ahead_by: 3,
      behind_by: 10,
      files,
    });
    const body = JSON.parse(viewBody(trimmer.trim(text, 800)));
    expect(body).toMatchObject({ status: 'diverged', ahead_by: 3, behind_by: 10 });
    expect(body.files.map((file: { filename: string }) => file.filename)).toEqual(
      files.map((file) => file.filename),
    );
  });

  it('keeps when an envelope says its records ran with its counts, before the records are named', () => {
    // A test report: its counts, when the run started and ended, then 800 tests.
    const report = {
      stats: {
        suites: 590,
        tests: 800,
        passes: 794,
        pending: 6,
        failures: 0,
        start: '2021-04-01T07:58:46.190Z',
        end: '2021-04-01T07:58:52.155Z',
        duration: 5965,
      },
      tests: Array.from({ length: 800 }, (_, i) => ({
        title: `should handle case ${i}`,
        fullTitle: `Suite ${i % 40} should handle case ${i}`,
        file: `test/unit/suite-${i % 40}.spec.js`,
        duration: (i * 7) % 13,
        speed: 'fast',
      })),
    };
    const json = JSON.stringify(report, null, 2);
    for (const share of [0.01, 0.03]) {
      const text = viewBody(trimmer.trim(json, Math.floor(json.length * share)));
      expect(text).toContain('"failures":0');
      expect(text).toContain('"start":"2021-04-01T07:58:46.190Z"');
      expect(text).toContain('"end":"2021-04-01T07:58:52.155Z"');
    }
  });
  it('keeps the state of the few records that hold the list, beside their items', () => {
    // Two services, each with its deployment events: the events are the document's list, and
    // each service's name and counts say what state it is in (one runs no task at all).
    // (Its creation time written as an object of parts: its own fields come first.)
    const services = ['checkout', 'search'].map((name, s) => ({
      arn: `arn:cloud:svc:region-1:000000000001:service/prod/${name}-${'a'.repeat(30)}`,
      created: { year: 2024, month: 3, day: 5 + s, hour: 10 },
      name,
      status: 'ACTIVE',
      desired: 2,
      running: s === 0 ? 0 : 2,
      policy: 'rolling-update-with-circuit-breaker-and-rollback',
      events: Array.from({ length: 60 }, (_, i) => ({
        id: `ev-${s}-${String(i).padStart(4, '0')}`,
        at: new Date(Date.UTC(2024, 2, 5, 12) - i * 600_000).toISOString(),
        message: `(service ${name}) ${['has reached a steady state', 'has started 1 tasks', 'has stopped 1 running tasks'][i % 3]}.`,
      })),
    }));
    const json = JSON.stringify({ services }, null, 2);
    for (const share of [0.03, 0.1]) {
      const budget = Math.floor(json.length * share);
      const view = trimmer.trim(json, budget);
      expectHonestView(view, json, budget);
      const body = JSON.parse(viewBody(view));
      for (const [s, service] of services.entries()) {
        expect(pick(body, 'services', s)).toMatchObject({
          name: service.name,
          running: service.running,
          desired: 2,
        });
      }
      // Their events are named still: the newest and oldest of each at least.
      for (const s of [0, 1]) {
        expect((pick(body, 'services', s, 'events') as unknown[]).length).toBeGreaterThan(1);
      }
    }
  });
  it('tells the events of one name as one thing: how each ended, and why the one that failed did', () => {
    // A runner's event stream: each job's start, its log lines and its end share the job's
    // name; one job fails, its reason in a log line before the end.
    const events: object[] = [];
    const t0 = Date.UTC(2024, 4, 1, 10);
    const at = () => new Date(t0 + 37 * events.length).toISOString();
    for (const area of ['cart', 'payment']) {
      for (let i = 0; i < 90; i++) {
        const job = `check-${['create', 'update', 'delete'][i % 3]}-${i}`;
        const failed = area === 'payment' && i === 33;
        events.push({ at: at(), event: 'run', area, job });
        events.push({ at: at(), event: 'log', area, job, log: `starting ${job}` });
        if (failed) {
          events.push({
            at: at(),
            event: 'log',
            area,
            job,
            log: 'want 200, got 502 (ledger timeout)',
          });
        }
        events.push({
          at: at(),
          event: failed ? 'fail' : 'pass',
          area,
          job,
          seconds: failed ? 30 : 0.1,
        });
      }
    }
    const json = events.map((event) => JSON.stringify(event)).join('\n');
    const budget = Math.floor(json.length * 0.03);
    const view = trimmer.trim(json, budget);
    expectHonestView(view, json, budget);
    const shown = viewBody(view)
      .split('\n')
      .map((line) => JSON.parse(line) as { job?: string; event?: string; log?: string });
    expect(shown.some((event) => event.log === 'want 200, got 502 (ledger timeout)')).toBe(true);
    // Each job named is shown with how it ended, and more than a few are.
    const jobs = new Set(shown.flatMap((event) => (event.job ? [event.job] : [])));
    expect(jobs.size).toBeGreaterThan(10);
    for (const job of jobs) {
      expect(
        shown.some((event) => event.job === job && ['pass', 'fail'].includes(event.event!)),
      ).toBe(true);
    }
  });
  it('calls records that nothing tells apart by their first state, with what each says', () => {
    // A scanner's results: a rule, its index, a level, a message, a place; no field tells two
    // results apart. Each shown result says which rule it is of, and the rule found once
    // stands out.
    const rules = ['R17', 'R17', 'R06', 'R17', 'R05', 'R09', 'R17', 'R13'];
    const results = Array.from({ length: 63 }, (_, i) => ({
      ruleId: rules[i % 8],
      ruleIndex: rules.indexOf(rules[i % 8]!),
      level: 'warning',
      message: {
        text: `Rule ${rules[i % 8]}: the value of 'arg${i % 5}' may be tainted by input.`,
      },
      locations: [
        {
          physicalLocation: {
            artifactLocation: { uri: 'src/App.cs' },
            region: { startLine: 10 + (i % 9) },
          },
        },
      ],
      properties: { warningLevel: 1 },
    }));
    results.splice(30, 0, {
      ...results[0]!,
      ruleId: 'R27',
      ruleIndex: 8,
      message: { text: 'Open redirect.' },
    });
    const json = JSON.stringify({ version: '2.1.0', runs: [{ results }] }, null, 2);
    const budget = Math.floor(json.length * 0.05);
    const view = trimmer.trim(json, budget);
    expectHonestView(view, json, budget);
    const shown = pick(JSON.parse(viewBody(view)), 'runs', 0, 'results') as Array<{
      ruleId?: string;
    }>;
    expect(shown.length).toBeGreaterThan(3);
    for (const result of shown) expect(result.ruleId).toMatch(/^R\d\d$/);
    expect(shown.some((result) => result.ruleId === 'R27')).toBe(true);
  });
  it('shows an id that reads as nothing with the word its records divide by into many', () => {
    // A trace: the client span and two server spans of each of 100 calls share a hex id (no
    // pair of fields tells them apart); 30 operations over 600 spans divide them (a state),
    // and an operation is what a reader knows a span by.
    const hex = (n: number) => ((n * 2654435761) >>> 0).toString(16).padStart(8, 'a');
    const spans = Array.from({ length: 600 }, (_, i) => {
      const call = i < 300 ? Math.floor(i / 3) : i;
      return {
        traceId: '14b60fd9ae504820',
        id: `${hex(call)}${hex(call + 7)}`,
        kind: i % 3 === 0 ? 'CLIENT' : 'SERVER',
        name: `${['get', 'post', 'put'][call % 3]} /api/op-${call % 30}`,
        timestamp: 1543549824000000 + Math.floor(i / 2) * 1000,
        duration: 500 + (call % 40) * 10,
        localEndpoint: { serviceName: `svc-${call % 7}`, port: 8000 + (i % 2) },
      };
    });
    const json = JSON.stringify(spans, null, 2);
    const budget = Math.floor(json.length * 0.03);
    const view = trimmer.trim(json, budget);
    expectHonestView(view, json, budget);
    const shown = JSON.parse(viewBody(view)) as Array<{ id?: string; name?: string }>;
    const named = shown.filter((span) => span.id !== undefined);
    expect(named.length).toBeGreaterThan(20);
    for (const span of named) expect(span.name).toMatch(/^(get|post|put) \/api\/op-\d+$/);
  });
  it('names the records before more than a few of an envelope’s short fields', () => {
    // A recorded HTTP response: ten short headers around a list of zones.
    const headers = Object.fromEntries(
      ['server', 'vary', 'date', 'status', 'x-frame', 'x-xss', 'x-type', 'te', 'length', 'enc'].map(
        (key, i) => [key, `value-${i}-${'h'.repeat(20)}`],
      ),
    );
    const zones = Array.from({ length: 40 }, (_, i) => ({
      zone: `zones/region-${i}`,
      warning: { code: 'NO_RESULTS_ON_PAGE', message: `No results for zones/region-${i}.` },
    }));
    const json = JSON.stringify({ headers, body: { items: zones } });
    const view = trimmer.trim(json, 900);
    expectHonestView(view, json, 900);
    const body = JSON.parse(viewBody(view));
    expect(Object.keys(body.headers ?? {}).length).toBeLessThanOrEqual(6);
    expect(body.body.items.length).toBeGreaterThanOrEqual(12);
  });
  it('fills past the first 500 items of a nested array while room remains, in head order', () => {
    const rows = Array.from({ length: 5000 }, (_, i) => ({ id: i, v: `v${i % 7}` }));
    const json = JSON.stringify({ rows });
    const view = trimmer.trim(json, 65_536);
    expectHonestView(view, json, 65_536);
    expect(view.metadata.outputBytes).toBeGreaterThan(0.95 * 65_536);
    const kept = JSON.parse(viewBody(view)).rows as Array<{ id: number }>;
    expect(kept.length).toBeGreaterThan(2000);
    expect(kept.map((row) => row.id)).toEqual(rows.slice(0, kept.length).map((row) => row.id));
  });
});

describe('information-first selection: what records say before what tells them apart', () => {
  const WORDS = ['disk', 'latency', 'rose', 'after', 'the', 'deploy', 'queue', 'drained', 'slowly'];
  /** Posts (each over the size kept as one unit): an id, counters, a date, a URL, an author, a sentence. */
  function posts(count: number, sentence: (i: number) => string) {
    return JSON.stringify({
      posts: Array.from({ length: count }, (_, i) => ({
        id: 9000 + i,
        likes: (i * 37) % 101,
        shares: (i * 13) % 47,
        replies: (i * 7) % 19,
        created: `2024-03-${String(1 + (i % 28)).padStart(2, '0')}T10:00:00Z`,
        url: `https://social.example.com/api/v2/posts/${9000 + i}/thread?expand=author,media`,
        author: { id: 500 + (i % 9), handle: `user_${i % 9}`, followers: (i * 53) % 997 },
        text: sentence(i),
      })),
    });
  }
  const distinct = (i: number) =>
    `Post ${i}: ${Array.from({ length: 9 }, (_, k) => WORDS[(i * (k + 3) + k) % WORDS.length]).join(' ')}`;

  it("keeps every post's text before its dates and URLs", () => {
    const json = posts(40, distinct);
    const view = trimmer.trim(json, 6_000);
    expectHonestView(view, json, 6_000);
    const shown = JSON.parse(viewBody(view)).posts as Array<Record<string, unknown>>;
    expect(shown.map((post) => post.id)).toEqual(Array.from({ length: 40 }, (_, i) => 9000 + i));
    expect(shown.every((post, i) => post.text === distinct(i))).toBe(true);
    // The budget binds: dates and URLs, which tell posts apart, are left out of every record
    // but the five newest and the oldest post, named with their date.
    expect(shown.some((post) => 'url' in post)).toBe(false);
    expect(shown.filter((post) => 'created' in post).length).toBeLessThanOrEqual(6);
  });

  it('shows the five newest records with their time before naming every record', () => {
    // 300 deploys in no order of time; at 2 KB not every one can be named.
    const deploys = Array.from({ length: 300 }, (_, i) => ({
      deploy: `web-${(i * 7919) % 100_003}`,
      finished: new Date(Date.UTC(2026, 0, 1) + ((i * 37) % 300) * 3_600_000).toISOString(),
      status: i % 11 === 0 ? 'failed' : 'ok',
      log: `step ${i} `.repeat(8),
    }));
    const json = JSON.stringify({ deploys });
    const view = trimmer.trim(json, 2_048);
    expectHonestView(view, json, 2_048);
    const shown = JSON.parse(viewBody(view)).deploys as Array<Record<string, unknown>>;
    const newest = [...deploys].sort((a, b) => b.finished.localeCompare(a.finished)).slice(0, 5);
    for (const deploy of newest) {
      expect(shown).toContainEqual(
        expect.objectContaining({ deploy: deploy.deploy, finished: deploy.finished }),
      );
    }
  });

  it("takes a question word inside every record's values as naming a field, not the records", () => {
    // Every pod runs on a `node-N` of 150: "node" is in every record, yet it is no record's
    // whole value (as `Pod` is of `kind`), so it names `spec.nodeName`.
    const items = Array.from({ length: 200 }, (_, i) => ({
      kind: 'Pod',
      metadata: { name: `web-${(i * 7919).toString(36)}`, uid: `uid-${(i * 104729).toString(16)}` },
      spec: { nodeName: `node-${(i * 7) % 150}`, image: 'registry.local/web:1.4.2' },
      status: { phase: 'Running', podIP: `10.1.${i >> 8}.${i & 255}` },
    }));
    const json = JSON.stringify({ kind: 'PodList', items });
    const budget = Math.floor(json.length * 0.25);
    const view = trimmer.trim(json, budget, { userQuery: 'which node is each pod on?' });
    expectHonestView(view, json, budget);
    const shown = JSON.parse(viewBody(view)).items as typeof items;
    expect(shown.length).toBeGreaterThan(20);
    const name = (pod: (typeof items)[number]) => pod.metadata?.name;
    const node = (pod: (typeof items)[number]) => pod.spec?.nodeName;
    expectAnswered(shown, items, name, node);
    // At any budget, no pod is named without the node asked for.
    for (let small = 600; small < budget; small += 97) {
      const pods = JSON.parse(
        viewBody(trimmer.trim(json, small, { userQuery: 'which node is each pod on?' })),
      ).items as typeof items;
      expectAnswered(pods, items, name, node, `at ${small}`);
    }
  });

  it('names ten spans by an id two of them share, not by a duration unique by chance', () => {
    const ids = ['1234567890aaaade', 'abcde56a89012345', '0123456a89012345', '1234abcdef567895'];
    ids.push('abcdef01234567', 'fdc4567890aaaade', '00xxx12312312312', 'abcdef01234567');
    ids.push('ljf4567890aaaade', 'ute4567890aaaade');
    const durations = [3781, 13980, 3564, 32592, 378191, 3781, 141581, 141581, 988, 3781];
    const spans = ids.map((id, i) => ({
      'span.id': [id],
      'span.duration.us': [durations[i]],
      'span.name': [['SELECT FROM product_types', 'GET /api/types', 'Request'][i % 3]],
      'agent.name': [i % 3 === 0 ? 'elastic-ruby' : 'elastic-node'],
      'service.node.name': [`node-${'x'.repeat(40)}-${i % 2}`],
    }));
    const json = JSON.stringify(spans);
    const budget = Math.floor(json.length * 0.3);
    const view = trimmer.trim(json, budget);
    expectHonestView(view, json, budget);
    const note = parseRecordCoverage(trailingDisclosureNotes(view.text)[0]!.text)!;
    expect(note.namedBy).toBe('"span.id"');
  });

  it('answers for every record a field named by a two-letter key, or holding a list', () => {
    const records = Array.from({ length: 120 }, (_, i) => ({
      address: `aws_instance.web[${i}]`,
      ts: new Date(Date.UTC(2026, 2, 1) + i * 61_000).toISOString(),
      change: { actions: i % 7 === 0 ? ['delete', 'create'] : [i % 2 ? 'create' : 'no-op'] },
      detail: `plan line ${i} `.repeat(6),
    }));
    const json = JSON.stringify({ resource_changes: records });
    const budget = Math.floor(json.length * 0.45);
    for (const [question, pick] of [
      ['What is the ts of each record?', (r: (typeof records)[number]) => r.ts],
      ['What are the actions of each change?', (r: (typeof records)[number]) => r.change.actions],
    ] as const) {
      const view = trimmer.trim(json, budget, { userQuery: question });
      expectHonestView(view, json, budget);
      const shown = JSON.parse(viewBody(view)).resource_changes as typeof records;
      expect(shown).toHaveLength(records.length);
      const values = (list: typeof records) => list.map((item): unknown => pick(item));
      expect(values(shown)).toEqual(values(records));
    }
  });

  it('answers the field a question names before what stands out unasked, at a tight budget', () => {
    // Questions with two high scores and their times: asked whether each is answered, a view of
    // 600 bytes named six by their outliers and ends, and said nothing of `is_answered`.
    const questions = Array.from({ length: 20 }, (_, i) => ({
      tags: ['angularjs', i % 3 ? 'javascript' : 'routing'],
      owner: { reputation: 100 + i * 37, user_id: 9000 + i, user_type: 'registered' },
      is_answered: i % 5 !== 0,
      view_count: 200 + ((i * 7919) % 1000),
      score: i === 3 || i === 11 ? 240 + i : i % 4,
      last_activity_date: 1_356_886_762 - i * 86_400 * 3,
      creation_date: 1_309_528_296 + ((i * 7919) % 20) * 2_600_000,
      question_id: 12_874_045 - i * 31_337,
      link: `https://stackoverflow.com/questions/${12_874_045 - i * 31_337}/some-title-${i}`,
      title: `How do I make directive ${i} work with a controller?`,
    }));
    const json = JSON.stringify({ items: questions, has_more: true, quota_max: 300 });
    const budget = 600;
    const view = trimmer.trim(json, budget, {
      userQuery: 'What is the is_answered of each record?',
    });
    expectHonestView(view, json, budget);
    const shown = JSON.parse(viewBody(view)).items as typeof questions;
    const truth = new Map(questions.map((q) => [q.question_id, q.is_answered]));
    const answered = shown.filter((q) => q.is_answered === truth.get(q.question_id));
    expect(answered.length).toBeGreaterThanOrEqual(5);
  });

  it('answers for every record a field the question names by its path', () => {
    // Events have a `kind` of their own and one of the object they are about: asked for
    // `involvedObject.kind`, the view shows that one, not the record's constant `kind`.
    const records = Array.from({ length: 90 }, (_, i) => ({
      kind: 'Event',
      metadata: { name: `evt-${(i * 7919).toString(36)}`, uid: `u-${i}` },
      involvedObject: { kind: ['Pod', 'ReplicaSet', 'Deployment'][i % 3], name: `obj-${i % 11}` },
      reason: ['Pulled', 'Created', 'Started', 'Killing'][i % 4],
      message: `container ${i} of the deployment was started on its node after pulling`,
    }));
    const json = JSON.stringify({ kind: 'EventList', items: records });
    const budget = Math.floor(json.length * 0.3);
    for (const question of [
      'What is the involvedObject.kind of each record?',
      'list every event’s involvedobject.kind',
    ]) {
      const view = trimmer.trim(json, budget, { userQuery: question });
      expectHonestView(view, json, budget);
      const shown = JSON.parse(viewBody(view)).items as typeof records;
      expect(shown.length).toBeGreaterThan(records.length / 2);
      expectAnswered(
        shown,
        records,
        (event) => event.metadata?.name,
        (event) => event.involvedObject?.kind,
        question,
      );
    }
  });
  it('answers for every record a field whose key most records also hold as a value', () => {
    // Chat messages: each holds its `text`, and blocks whose elements are `"type": "text"`.
    const messages = Array.from({ length: 30 }, (_, i) => ({
      id: `m-${i}`,
      user: `U${(i * 31) % 7}`,
      text: `the deploy of service ${i % 4} finished`,
      blocks: [{ type: 'rich_text', elements: [{ type: 'text', text: `service ${i % 4}` }] }],
    }));
    const json = JSON.stringify({ channel: 'C1', messages });
    const budget = Math.floor(json.length * 0.4);
    const view = trimmer.trim(json, budget, { userQuery: 'What is the text of each message?' });
    expectHonestView(view, json, budget);
    const shown = JSON.parse(viewBody(view)).messages as typeof messages;
    expect(shown.length).toBeGreaterThan(20);
    expectAnswered(
      shown,
      messages,
      (message) => message.id,
      (message) => message.text,
    );
  });

  it('tells of the hits of a search, not of a bigger histogram of empty buckets beside them', () => {
    // Spans found, and a date histogram of 300 buckets that all count 0: each bucket says
    // nothing but its key. Named by their long integer durations, the spans were named by a
    // measurement; their id is the name.
    const hits = Array.from({ length: 40 }, (_, i) => ({
      _id: `${(0x9082d67808fc8870n + BigInt(i) * 7919n).toString(16)}`,
      _source: {
        durationInNanos: i % 5 === 0 ? 870_879_000 + i * 7_919 : 9_658_000 + i * 1_234_567,
        kind: ['SPAN_KIND_CLIENT', 'SPAN_KIND_SERVER'][i % 2],
        serviceName: ['frontend', 'redis', 'route'][i % 3],
        'status.code': i % 13 === 0 ? 2 : 0,
        startTime: new Date(Date.UTC(2023, 9, 18, 7, 58, 37) + i * 1_537).toISOString(),
        traceGroup: ['HTTP GET /dispatch', 'HTTP GET /customer'][i % 2],
      },
    }));
    const buckets = Array.from({ length: 300 }, (_, i) => ({
      key_as_string: String(1_697_612_230_000 + i * 10_000),
      key: 1_697_612_230_000 + i * 10_000,
      doc_count: 0,
    }));
    const json = JSON.stringify({
      took: 58,
      responses: [{ hits: { hits }, aggregations: { 2: { buckets } } }],
    });
    const budget = Math.floor(json.length * 0.1);
    const view = trimmer.trim(json, budget);
    expectHonestView(view, json, budget);
    const note = parseRecordCoverage(trailingDisclosureNotes(view.text)[0]!.text)!;
    expect(note.path).toBe('responses[].hits.hits[]');
    expect(note.namedBy).toBe('_id');
  });

  it('answers about the list whose fields the question names, not the biggest one', () => {
    // A compare: a few commits beside many changed files with their patches. The files are the
    // most bytes; a question about the authors' dates is about the commits.
    const commits = Array.from({ length: 12 }, (_, i) => ({
      sha: `c0ffee${(i * 7919).toString(16).padStart(8, '0')}`,
      commit: {
        author: {
          name: `dev ${i % 3}`,
          date: new Date(Date.UTC(2026, 0, 1) + i * 3e6).toISOString(),
        },
        message: `change ${i}`,
      },
    }));
    const files = Array.from({ length: 40 }, (_, i) => ({
      filename: `src/module-${i}.ts`,
      status: i % 9 === 0 ? 'added' : 'modified',
      patch: `@@ -1,3 +1,4 @@\n line ${i}\n+added ${i}\n`.repeat(8),
    }));
    const json = JSON.stringify({ status: 'ahead', commits, files });
    const budget = Math.floor(json.length * 0.1);
    const view = trimmer.trim(json, budget, {
      userQuery: 'What is the author.date of each commit?',
    });
    expectHonestView(view, json, budget);
    const note = parseRecordCoverage(trailingDisclosureNotes(view.text)[0]!.text)!;
    expect(note.path).toBe('commits[]');
    const shown = JSON.parse(viewBody(view)).commits as typeof commits;
    expect(shown.map((c) => c.commit?.author?.date)).toEqual(
      commits.map((c) => c.commit.author.date),
    );
    // With no question the note tells of the biggest list.
    const unasked = trimmer.trim(json, budget);
    expect(parseRecordCoverage(trailingDisclosureNotes(unasked.text)[0]!.text)!.path).toBe(
      'files[]',
    );
  });

  it('orders records by their time, leaving out the records that have none', () => {
    // Events whose `lastTimestamp` is null for some (they carry an `eventTime` instead): read
    // as text, `null` sorted after every date and was shown as the newest.
    const records = Array.from({ length: 140 }, (_, i) => ({
      name: `evt-${(i * 7919).toString(36)}`,
      reason: ['Pulled', 'Created', 'Started'][i % 3],
      lastTimestamp:
        i % 15 === 4 ? null : new Date(Date.UTC(2025, 8, 11) + i * 13_000).toISOString(),
      message: `container ${i} of the deployment was started on its node after pulling`,
    }));
    const json = JSON.stringify({ items: records });
    const newest = records.findLast((r) => r.lastTimestamp !== null)!;
    const oldest = records.find((r) => r.lastTimestamp !== null)!;
    for (const question of [undefined, 'Which record has the latest lastTimestamp?']) {
      const view = trimmer.trim(json, 2_000, question ? { userQuery: question } : undefined);
      const shown = JSON.parse(viewBody(view)).items as Array<Record<string, unknown>>;
      for (const end of [newest, oldest]) {
        expect(shown).toContainEqual(
          expect.objectContaining({ name: end.name, lastTimestamp: end.lastTimestamp }),
        );
      }
    }
  });

  it('shows the newest and oldest record by each of the records’ times, with that time', () => {
    // Releases created in one order and published in another: which time a reader orders by
    // is theirs to say, so the ends of both are shown.
    const releases = Array.from({ length: 120 }, (_, i) => ({
      id: 9_000_000 - i * 7919,
      tag_name: `v${Math.floor(i / 10)}.${i % 10}.0`,
      created_at: new Date(Date.UTC(2024, 0, 1) + i * 86_400_000).toISOString(),
      published_at: new Date(Date.UTC(2024, 0, 1) + ((i * 37) % 120) * 90_000_000).toISOString(),
      body: `release notes for ${i}: fixes and features `.repeat(4),
    }));
    const json = JSON.stringify(releases);
    const view = trimmer.trim(json, Math.floor(json.length * 0.03));
    const shown = JSON.parse(viewBody(view)) as typeof releases;
    for (const field of ['created_at', 'published_at'] as const) {
      const sorted = [...releases].sort((a, b) => a[field].localeCompare(b[field]));
      for (const end of [sorted[0]!, sorted.at(-1)!]) {
        expect(shown, `${field} of ${end.tag_name}`).toContainEqual(
          expect.objectContaining({ tag_name: end.tag_name, [field]: end[field] }),
        );
      }
    }
  });

  it('orders records by a time every record holds over one some lack', () => {
    // Newer events carry an `eventTime` and a null `lastTimestamp`: ordered by `lastTimestamp`,
    // the newest event (one of those) had no place in the order and was never shown.
    const records = Array.from({ length: 140 }, (_, i) => ({
      metadata: {
        name: `evt-${(i * 7919).toString(36)}`,
        creationTimestamp: new Date(Date.UTC(2025, 8, 11) + i * 13_000).toISOString(),
      },
      reason: ['Pulled', 'Created', 'Started'][i % 3],
      lastTimestamp:
        i % 15 === 4 || i > 130 ? null : new Date(Date.UTC(2025, 8, 11) + i * 13_500).toISOString(),
      message: `container ${i} of the deployment was started on its node after pulling`,
    }));
    const json = JSON.stringify({ items: records });
    const view = trimmer.trim(json, 2_000);
    const shown = JSON.parse(viewBody(view)).items as typeof records;
    for (const end of [records[0]!, records.at(-1)!]) {
      expect(shown).toContainEqual(
        expect.objectContaining({
          metadata: expect.objectContaining({
            name: end.metadata.name,
            creationTimestamp: end.metadata.creationTimestamp,
          }),
        }),
      );
    }
  });

  it('shows the records a question asks for between two times, ISO or epoch', () => {
    const start = Date.UTC(2026, 2, 11, 16, 0, 0, 149);
    const records = Array.from({ length: 300 }, (_, i) => ({
      service: `svc-${(i * 7919).toString(36)}`,
      created_at: new Date(start + i * 47_311).toISOString(),
      // Microseconds since 1970, as a span's timestamp is written.
      timestamp: (start + i * 47_311) * 1000 + (i % 997),
      status: i % 31 === 0 ? 'suspended' : 'active',
      message: `the nightly export ${i} finished on shard ${i % 17}`,
    }));
    const json = JSON.stringify(records);
    const budget = Math.floor(json.length * 0.03);
    const inside = records.slice(150, 158);
    const from = inside[0]!;
    const to = inside.at(-1)!;
    for (const [field, a, b] of [
      ['created_at', from.created_at, to.created_at],
      ['timestamp', from.timestamp, to.timestamp],
    ] as const) {
      const view = trimmer.trim(json, budget, {
        userQuery: `Which records have ${field} between ${a} and ${b}?`,
      });
      expectHonestView(view, json, budget);
      const shown = JSON.parse(viewBody(view)) as Array<Record<string, unknown>>;
      for (const record of inside) {
        expect(shown.find((item) => item.service === record.service)?.[field]).toBe(record[field]);
      }
    }
  });

  it('shows every record of a wide time window the budget can name', () => {
    const start = Date.UTC(2026, 2, 11, 16, 0, 0, 0);
    const records = Array.from({ length: 2000 }, (_, i) => ({
      id: 1_790_000_000_000_000_000n + BigInt(i * 4_527_311),
      ts: start + i * 1_913,
      state: i % 41 === 0 ? 'locked' : 'active',
      note: `record ${i} written by the importer on shard ${i % 17}`,
    }));
    const json = JSON.stringify(records, (_, v) => (typeof v === 'bigint' ? `${v}` : v));
    const inside = records.slice(1200, 1280);
    const view = trimmer.trim(json, 20_000, {
      userQuery: `Which records have ts between ${inside[0]!.ts} and ${inside.at(-1)!.ts}?`,
    });
    const shown = JSON.parse(viewBody(view)) as Array<Record<string, unknown>>;
    for (const record of inside) {
      expect(shown.find((item) => item.id === `${record.id}`)?.ts).toBe(record.ts);
    }
  });

  it('ranks a text that repeats across records with the fields that tell them apart', () => {
    const json = posts(40, () => 'Scheduled maintenance window starts at noon today');
    const view = trimmer.trim(json, 6_000);
    const shown = JSON.parse(viewBody(view)).posts as Array<Record<string, unknown>>;
    expect(shown.filter((post) => 'text' in post).length).toBeLessThan(
      shown.filter((post) => 'likes' in post).length,
    );
  });

  it('shows what every post says before a post that stands out only by its look is kept whole', () => {
    const records = JSON.parse(posts(40, distinct)).posts as Array<Record<string, unknown>>;
    // One author with a custom theme: several rare values in one record, a strong anomaly,
    // and a record too big to be kept whole as a small one.
    records[23]!.author = {
      ...(records[23]!.author as object),
      theme: 'neon',
      font: 'serif',
      banner: `https://img.example.com/banners/${'b'.repeat(1500)}.png`,
    };
    for (const [i, record] of records.entries()) {
      if (i !== 23) record.author = { ...(record.author as object), theme: 'plain', font: 'sans' };
    }
    const json = JSON.stringify({ posts: records });
    const view = trimmer.trim(json, 6_000);
    expectHonestView(view, json, 6_000);
    const shown = JSON.parse(viewBody(view)).posts as Array<Record<string, unknown>>;
    expect(shown.map((post) => post.text)).toEqual(records.map((post) => post.text));
    expect(pick(shown[23], 'author', 'theme')).toBe('neon');
  });

  it('shows a text many records repeat once before the texts said once', () => {
    const shared = 'RT @news: the queue drained slowly after the deploy, disk latency rose';
    const json = posts(40, (i) => (i % 3 === 0 ? shared : distinct(i)));
    // The note takes its share for what holds over all posts (their authors, likes, dates).
    const view = trimmer.trim(json, 4_800);
    expectHonestView(view, json, 4_800);
    const shown = JSON.parse(viewBody(view)).posts as Array<Record<string, unknown>>;
    expect(shown.map((post) => post.id)).toEqual(Array.from({ length: 40 }, (_, i) => 9000 + i));
    expect(shown[0]!.text).toBe(shared);
    for (let i = 0; i < 40; i++) if (i % 3 !== 0) expect(shown[i]!.text).toBe(distinct(i));
    expect(shown.filter((post) => post.text === shared).length).toBeLessThan(14);
  });

  it.each([
    ['status', true],
    ['exitCode', true],
    ['health_status', true],
    ['status_code', true],
    ['return_code', true],
    ['code', true],
    ['in_reply_to_status_id', false],
    ['iso_language_code', false],
    ['readyReplicas', false],
    ['failureThreshold', false],
  ])('reads the key %j as a state: %s', (key, state) => {
    expect(keyHints(key).state).toBe(state);
  });
});

describe('information-first selection: anomalies without a query', () => {
  it.each([0.35, 0.6, 0.92])('keeps a Failed pod at %s of a list of Running ones', (depth) => {
    const index = Math.floor(200 * depth);
    const { json, names } = podList(200, index);
    const budget = Math.floor(utf8ByteLength(json) * 0.03);
    for (const context of [undefined, { userQuery: 'is anything wrong?' }]) {
      const view = trimmer.trim(json, budget, context);
      expectHonestView(view, json, budget);
      const pod = (JSON.parse(viewBody(view)).items as unknown[]).find(
        (item) => pick(item, 'metadata', 'name') === names[index],
      );
      expect(pick(pod, 'status')).toMatchObject({ phase: 'Failed', reason: 'Evicted' });
    }
  });

  it('keeps the one failed run and the record with an OutOfMemoryError', () => {
    const { json, ids } = workflowRuns(400, 250);
    const runs = JSON.parse(viewBody(trimmer.trim(json, 6000))).workflow_runs;
    expect(runs.find((run: { id: number }) => run.id === ids[250])?.conclusion).toBe('failure');
    const jobs = Array.from({ length: 300 }, (_, i) => ({
      job: `job-${i}`,
      result: i === 211 ? 'java.lang.OutOfMemoryError: Java heap space' : 'done',
      took: 10 + (i % 5),
    }));
    const view = trimmer.trim(JSON.stringify(jobs), 1500);
    expect(viewBody(view)).toContain('"job-211"');
    expect(viewBody(view)).toContain('OutOfMemoryError');
  });

  it('shows a fourth rare conclusion once every run is named, past the leading three', () => {
    const odd: Record<number, string> = {
      17: 'failure',
      58: 'failure',
      83: 'timed_out',
      90: 'cancelled',
    };
    const runs = Array.from({ length: 100 }, (_, i) => ({
      id: 9100000000 + i * 311,
      name: ['CI', 'Release', 'Lint'][i % 3],
      status: 'completed',
      conclusion: odd[i] ?? 'success',
      padding: 'x'.repeat(2000),
    }));
    const json = JSON.stringify({ total_count: 100, workflow_runs: runs });
    for (const context of [undefined, { userQuery: 'What failed?' }]) {
      const view = trimmer.trim(json, 4096, context);
      expectHonestView(view, json, 4096);
      const shown = JSON.parse(viewBody(view)).workflow_runs as Array<Record<string, unknown>>;
      expect(shown).toHaveLength(100);
      for (const [index, conclusion] of Object.entries(odd)) {
        expect(shown[Number(index)]).toMatchObject({ id: runs[Number(index)]!.id, conclusion });
      }
    }
  });

  describe('says why a record stands out before the flags that it does', () => {
    /** `podList(300)` with one pod crash-looping at `index`: a reason, a message, flags, a count. */
    const crashLooping = (index: number) => {
      const { json, names } = podList(300);
      const list = JSON.parse(json);
      const status = list.items[index].status.containerStatuses[0];
      status.state = {
        waiting: {
          reason: 'CrashLoopBackOff',
          message: `back-off 5m0s restarting failed container=web pod=${names[index]}_shop`,
        },
      };
      status.lastState = { terminated: { exitCode: 137, reason: 'OOMKilled' } };
      Object.assign(status, { ready: false, restartCount: 42, started: false });
      return { json: JSON.stringify(list, null, 2), name: names[index]! };
    };

    // `ready: false` (one in 300) stands out most; it came first, and the reason only with the
    // whole pod (past 20 KB). The pod's name and its reason fit in half a kilobyte.
    it.each([0.35, 0.63, 0.92])('names a crash-looping pod at %s with its reason', (depth) => {
      const { json, name } = crashLooping(Math.floor(300 * depth));
      for (const budget of [512, 1000, 2000, 3000]) {
        for (const context of [undefined, { userQuery: 'is anything wrong?' }]) {
          const view = trimmer.trim(json, budget, context);
          expectHonestView(view, json, budget);
          const pod = (JSON.parse(viewBody(view)).items as unknown[]).find(
            (item) => pick(item, 'metadata', 'name') === name,
          );
          const reason = pick(pod, 'status', 'containerStatuses', 0, 'state', 'waiting', 'reason');
          expect(reason, `at ${budget} bytes`).toBe('CrashLoopBackOff');
        }
      }
    });

    it('in any list: a failed job with its reason, inside a key the others lack', () => {
      // Not a pod list: one CI job of 200 is `ok: false` and has a `failure` object.
      const jobs = Array.from({ length: 200 }, (_, i) => {
        const job: Record<string, unknown> = {
          id: `job-${(40_000 + i * 7).toString(36)}`,
          pipeline: `build-${1000 + Math.floor(i / 4)}`,
          stage: ['lint', 'test', 'build', 'deploy'][i % 4],
          ok: true,
          attempts: 1,
          durationSeconds: 60 + ((i * 37) % 240),
          artifacts: [{ path: `dist/out-${i}.tar.gz`, sizeBytes: 1000 + ((i * 7919) % 99_000) }],
        };
        if (i === 126) {
          Object.assign(job, {
            ok: false,
            attempts: 3,
            failure: { reason: 'Timeout', detail: 'step "integration" ran past its 30 minutes' },
          });
        }
        return job;
      });
      const json = JSON.stringify({ pipeline: 'shop', jobs }, null, 2);
      for (const budget of [512, 1000, 2000, 3000]) {
        for (const context of [undefined, { userQuery: 'is anything wrong?' }]) {
          const view = trimmer.trim(json, budget, context);
          expectHonestView(view, json, budget);
          const job = (JSON.parse(viewBody(view)).jobs as unknown[]).find(
            (item) => pick(item, 'id') === jobs[126]!.id,
          );
          expect(job, `at ${budget} bytes`).toMatchObject({
            ok: false,
            failure: { reason: 'Timeout' },
          });
        }
      }
    });
  });

  it('does not take probe settings or restart policies for errors', () => {
    const { json } = podList(50);
    const view = trimmer.trim(json, 3000, { userQuery: 'did anything restart?' });
    expect(viewBody(view)).not.toContain('failureThreshold');
    expect(viewBody(view)).not.toContain('restartPolicy');
  });
});

describe('information-first selection: the query', () => {
  it('keeps three asked-for records, each with its identity and the asked field', () => {
    const { json, ids } = workflowRuns(600);
    const asked = [ids[120]!, ids[333]!, ids[555]!];
    const budget = Math.floor(utf8ByteLength(json) * 0.03);
    const view = trimmer.trim(json, budget, {
      userQuery: `What are the head_sha of runs ${asked.join(', ')}?`,
    });
    expectHonestView(view, json, budget);
    const runs = JSON.parse(viewBody(view)).workflow_runs as Array<Record<string, unknown>>;
    for (const id of asked) expect(runs.find((run) => run.id === id)?.head_sha).toBeDefined();
  });

  it('keeps a record that fits whole, whole', () => {
    const { json, ids } = workflowRuns(600);
    const view = trimmer.trim(json, 4000, { userQuery: `show run ${ids[480]}` });
    const runs = JSON.parse(viewBody(view)).workflow_runs as Array<Record<string, unknown>>;
    const original = JSON.parse(json).workflow_runs[480];
    expect(runs.find((run) => run.id === ids[480])).toEqual(original);
  });

  it('keeps every asked-for record that fits whole, whole, though naming opened it first', () => {
    // The first pass names every record (opening each); the query's records that fit whole
    // are then completed whole, not left as fragments (issue 14, item 4).
    const { json } = podList(300);
    const items = JSON.parse(json).items as Array<{ metadata: { name: string } }>;
    const asked = [60, 165, 270].map((i) => items[i]!);
    for (const budget of [4000, 8000, Math.floor(utf8ByteLength(json) * 0.03)]) {
      const view = trimmer.trim(json, budget, {
        userQuery: `show ${asked.map((pod) => pod.metadata.name).join(', ')}`,
      });
      expectHonestView(view, json, budget);
      const shown = JSON.parse(viewBody(view)).items as Array<{ metadata?: { name?: string } }>;
      for (const pod of asked) {
        expect(shown.find((item) => item.metadata?.name === pod.metadata.name)).toEqual(pod);
      }
    }
  });

  it('keeps an asked-for record whole with the breadth-first option too, where it fits', () => {
    const breadthFirst = createStructuralTrimmer({ selection: 'breadth-first' });
    const { json, ids } = workflowRuns(600);
    const original = JSON.parse(json).workflow_runs[480];
    for (const budget of [4000, 8000]) {
      const view = breadthFirst.trim(json, budget, { userQuery: `show run ${ids[480]}` });
      const runs = JSON.parse(viewBody(view)).workflow_runs as Array<Record<string, unknown>>;
      expect(runs.find((run) => run.id === ids[480])).toEqual(original);
    }
  });

  it('treats the innermost repeated objects as the records of an envelope', () => {
    const hits = Array.from({ length: 400 }, (_, i) => ({
      _id: `doc-${i}`,
      _score: 1,
      _source: { service: `svc-${i % 9}`, latency_ms: 20 + (i % 13), trace: 'z'.repeat(120) },
    }));
    const json = JSON.stringify({ responses: [{ took: 3, hits: { total: 400, hits } }] });
    const view = trimmer.trim(json, 3000, { userQuery: 'what is the latency of svc-4 and svc-7?' });
    const body = JSON.parse(viewBody(view));
    const shown = pick(body, 'responses', 0, 'hits', 'hits') as unknown[];
    const matched = shown.filter((hit) => pick(hit, '_source', 'service') !== undefined);
    expect(matched.length).toBeGreaterThan(3);
    for (const hit of matched) expect(pick(hit, '_id')).toMatch(/^doc-\d+$/);
  });

  it('shows an envelope field once where the envelope repeats it deeper down', () => {
    const changes = Array.from({ length: 12 }, (_, i) => ({
      address: `module.github["repo-${i}"].github_branch.demo`,
      type: 'github_branch',
      change: { actions: ['create'], after: { branch: `feature-${i}`, note: 'n'.repeat(900) } },
    }));
    const version = { format_version: '1.0', terraform_version: '1.1.4' };
    const json = JSON.stringify({ ...version, resource_changes: changes, prior_state: version });
    // (Past naming every record, what budget is left fills in the rest, the copy too.)
    for (const budget of [500, 600, 700]) {
      const view = trimmer.trim(json, budget);
      expect(viewBody(view).split('"terraform_version":"1.1.4"')).toHaveLength(2);
    }
  });

  it("tells in the note of the hits inside a multi-search's responses, not of the responses", () => {
    const responses = Array.from({ length: 4 }, (_, r) => ({
      took: 12 + r,
      timed_out: false,
      hits: {
        total: { value: 60 },
        hits: Array.from({ length: 60 }, (_, h) => ({
          _id: `doc-${r}-${h}`,
          _source: {
            level: r === 2 && h === 57 ? 'ERROR' : 'INFO',
            message: `handled request ${r * 60 + h} in ${(h * 13) % 200}ms`,
          },
        })),
      },
      status: 200,
    }));
    const json = JSON.stringify({ took: 51, responses });
    for (const budget of [2048, 8192]) {
      const view = trimmer.trim(json, budget);
      expectHonestView(view, json, budget);
      const records = parseRecordCoverage(trailingDisclosureNotes(view.text)[0]!.text);
      expect(records).toMatchObject({ total: 240 });
      expect(['responses[].hits.hits[]', '']).toContain(records!.path);
    }
  });

  it('names the record of a value asked for by value', () => {
    const { json, names } = podList(300);
    const started = JSON.parse(json).items[217].status.startTime as string;
    const view = trimmer.trim(json, 5000, { userQuery: `which pod started at ${started}?` });
    const pod = (JSON.parse(viewBody(view)).items as unknown[]).find(
      (item) => pick(item, 'status', 'startTime') === started,
    );
    expect(pick(pod, 'metadata', 'name')).toBe(names[217]);
  });
});

describe('information-first selection: properties', () => {
  it("tells of a chat transcript's messages, not the blocks a few hold, each long one by its start", () => {
    // 90 messages of a chat API transcript: a token count, the role, the content as a text or
    // (a tool's, the first among them) a list of one block; tool outputs, most of the bytes,
    // and the prompt long.
    const messages = Array.from({ length: 90 }, (_, i) => {
      const role = i === 1 ? 'user' : i % 2 === 0 ? 'tool' : 'assistant';
      const said =
        role === 'user'
          ? `Check the pods in namespace shop-${i} and find out why they are not healthy. ${'Context: '.repeat(60)}`
          : role === 'tool'
            ? `kubectl describe pod web-${i}\n${`Events: pulled image ${i}, started container\n`.repeat(40)}`
            : `Pod web-${i} restarts because its probe times out after ${i} seconds.`;
      return {
        role,
        total: 1000 + ((i * 7919) % 50_000),
        content: role === 'tool' ? [{ type: 'text', text: said }] : said,
      };
    });
    const json = JSON.stringify(messages);
    const budget = Math.floor(utf8ByteLength(json) * 0.03);
    const view = trimmer.trim(json, budget);
    expectHonestView(view, json, budget);
    const coverage = parseRecordCoverage(trailingDisclosureNotes(view.text)[0]!.text)!;
    expect(coverage.path).toBe('[]');
    expect(coverage.total).toBe(90);
    // The prompt is shown by its start, cut short: not left out for being long.
    const shown = JSON.parse(viewBody(view)) as Array<{ role: string; content?: unknown }>;
    const prompt = shown.find((message) => message.role === 'user');
    expect(prompt?.content).toMatch(/^Check the pods in namespace shop-1 and find out why .*…$/);
    // A token count unique by chance names nothing: each message is named with what it says.
    expect(coverage.namedBy).toBe('total+content');
    expect(shown.filter((message) => message.content !== undefined).length).toBe(coverage.named);
    expect(coverage.named).toBeGreaterThanOrEqual(15);
  });

  it('is monotone in the budget: a larger one keeps every node a smaller one kept', () => {
    fc.assert(
      fc.property(
        recordList,
        fc.double({ min: 0.01, max: 0.9, noNaN: true }),
        fc.double({ min: 1, max: 3, noNaN: true }),
        fc.constantFrom(undefined, 'item-0007 failed', 'state'),
        (json, share, factor, query) => {
          const small = Math.max(64, Math.floor(json.length * share));
          const large = Math.floor(small * factor);
          expect(keptWithin(select(json, small, query), select(json, large, query))).toBe(true);
        },
      ),
      { numRuns: 300 },
    );
  });

  it('never shows part of a record without its identity', () => {
    fc.assert(
      fc.property(recordList, fc.integer({ min: 256, max: 6000 }), (json, budget) => {
        const view = trimmer.trim(json, budget);
        expectHonestView(view, json, budget);
        if (view.metadata.strategy !== 'json') return;
        const body = JSON.parse(viewBody(view));
        const records = Array.isArray(body) ? body : (body.items ?? []);
        for (const record of records as Array<Record<string, unknown>>) {
          const fields = (record.spec ?? record) as Record<string, unknown>;
          if (Object.keys(fields).length > 0) expect(fields.id).toMatch(/^item-\d{4}$/);
        }
      }),
      { numRuns: 400 },
    );
  });

  it("names a nested list's items within their list: a pod's containers by name, its conditions by type", () => {
    const containers = ['app', 'log-sidecar', 'envoy'];
    const items = Array.from({ length: 100 }, (_, i) => ({
      metadata: { name: `checkout-${(1000 + i * 7).toString(36)}`, namespace: 'shop' },
      spec: {
        containers: containers.map((name) => ({ name, image: `registry.local/${name}:1.4` })),
      },
      status: {
        phase: 'Running',
        conditions: ['Initialized', 'Ready', 'ContainersReady', 'PodScheduled'].map((type) => ({
          type,
          status: i === 63 && type.includes('Ready') ? 'False' : 'True',
        })),
        containerStatuses: containers.map((name, c) => ({
          name,
          ready: !(i === 63 && c === 1),
          restartCount: i === 63 && c === 1 ? 9 : 0,
        })),
      },
    }));
    const json = JSON.stringify({ kind: 'PodList', items });
    for (const budget of [2048, 4096]) {
      const view = trimmer.trim(json, budget, { userQuery: 'Which pods are not running?' });
      expectHonestView(view, json, budget);
      const pod = (JSON.parse(viewBody(view)).items as unknown[]).find(
        (item) => pick(item, 'metadata', 'name') === items[63]!.metadata.name,
      );
      const statuses = pick(pod, 'status', 'containerStatuses') as Array<Record<string, unknown>>;
      // The container that stands out, by its name, with what makes it stand out.
      const sidecar = statuses.find((status) => status.name === 'log-sidecar');
      expect(sidecar?.ready === false || sidecar?.restartCount === 9).toBe(true);
      for (const status of statuses) expect(containers).toContain(status.name);
      const conditions = (pick(pod, 'status', 'conditions') ?? []) as Array<
        Record<string, unknown>
      >;
      for (const condition of conditions) expect(typeof condition.type).toBe('string');
    }
  });

  it('names no fewer records at a larger budget (real fixtures)', () => {
    if (!fixturesAvailable()) return;
    for (const path of [
      'k8s/k3s-pods-kube-system.json',
      'k8s/k3s-events-kube-system.json',
      'ci-logs/jenkins-apache-builds.json',
      'github-api/github-events.json',
    ]) {
      const json = readFixture(path);
      let previous = -1;
      let last: InformativeSelection | undefined;
      for (const share of [0.01, 0.02, 0.03, 0.05, 0.1, 0.2]) {
        const selection = select(json, Math.floor(json.length * share));
        expect(selection.records!.named).toBeGreaterThanOrEqual(previous);
        if (last) expect(keptWithin(last, selection)).toBe(true);
        previous = selection.records!.named;
        last = selection;
      }
    }
  });
});

describe('information-first selection: linear work', () => {
  // Work counted by the selection itself (plan steps and containers walked over), never time.
  const chain = (depth: number, leaf: string) => `${'['.repeat(depth)}${leaf}${']'.repeat(depth)}`;
  it.each([
    ['a chain of arrays', (d: number) => chain(d, '')],
    ['a chain with a value at the bottom', (d: number) => chain(d, `1,"${'s'.repeat(40)}"`)],
    ['a chain of objects', (d: number) => `${'{"k":'.repeat(d)}1${'}'.repeat(d)}`],
  ])('%s trimmed just below its size', (_name, build) => {
    const work = [2500, 5000, 10_000, 20_000].map((depth) => {
      const json = build(depth);
      const selection = select(json, json.length - 1);
      expect(selection.bodyBytes).toBeLessThanOrEqual(json.length - 1);
      return selection.work / depth;
    });
    expect(Math.max(...work)).toBeLessThanOrEqual(2 * Math.min(...work) + 4);
  });
});
