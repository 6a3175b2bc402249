import { createHash } from 'node:crypto';
import { parseRecordCoverage, trailingDisclosureNotes, withJsonTape } from '@compaction/core';
import { fixturesAvailable, listFixtures, readFixture } from '@compaction/fixtures';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { createStructuralTrimmer } from '../create-structural-trimmer.js';
import { inventoryFromTape } from '../json/inventory-from-tape.js';
import { scanJson } from '../json/json-inventory.js';
import { jsonSignatures } from '../json/json-signatures.js';
import { signaturePath } from '../json/signature-path.js';
import { recordColumns } from '../readers/json-records.js';
import { analyzeRecords, type RecordAnalysis } from './analyze-records.js';

/** A list of records whose fields hold nested lists and values of every kind. */
function recordList(minLength: number, maxLength: number) {
  return fc
    .tuple(
      fc.array(fc.jsonValue({ maxDepth: 3 }), { minLength, maxLength }),
      fc.array(fc.string({ maxLength: 6 }), { minLength: 1, maxLength: 6 }),
      fc.boolean(),
    )
    .map(([values, keys, nested]) => {
      const items = values.map((value, i) => ({
        id: i,
        [keys[i % keys.length]!]: value,
        state: i % 7 === 0 ? 'failed' : 'ok',
        parts: nested ? [{ n: i }, [i, value]] : [],
      }));
      return JSON.stringify(nested ? [items, { items }] : { items });
    });
}

/** Every field of `value`, typed arrays and maps included, as one text. */
function digest(value: unknown): string {
  return JSON.stringify(value, (_key, field: unknown) =>
    ArrayBuffer.isView(field)
      ? Array.from(field as Int32Array)
      : field instanceof Map
        ? [...field]
        : field,
  );
}

describe('analyzeRecords', () => {
  it("takes a record's own text, not its author's, for what each record says", () => {
    const words = ['queue', 'drained', 'slowly', 'after', 'the', 'deploy', 'disk', 'latency'];
    const sentence = (i: number, k: number) =>
      Array.from({ length: 8 }, (_, j) => words[(i * (j + k) + j) % words.length]).join(' ');
    const statuses = Array.from({ length: 30 }, (_, i) => ({
      id: 1000 + i,
      text: i % 4 === 0 ? 'RT @ops: the same post, retweeted by many' : `${i}: ${sentence(i, 3)}`,
      user: { name: `user ${i}`, description: `Writes about ${sentence(i, 5)} and more` },
      retweet_count: i % 4 === 0 ? 12 : 0,
    }));
    const says = (json: string) => {
      const inventory = scanJson(json, 100_000)!;
      const analysis = analyzeRecords(inventory);
      const group = analysis.groups.find((g) => g.primary)!;
      return group.says < 0 ? '' : signaturePath(inventory, analysis, group.says, group.sig);
    };
    expect(says(JSON.stringify({ statuses }))).toBe('text');
    // In the real search, retweets make the tweets say less per byte than their authors'
    // descriptions: the record's own text still comes first.
    if (fixturesAvailable()) {
      expect(says(readFixture('bigint/twitter-search-results.json'))).toBe('text');
    }
    // Without a text of its own, the author's; never one every record says alike.
    const noText = statuses.map(({ text: _, ...rest }) => rest);
    expect(says(JSON.stringify({ statuses: noText }))).toBe('user.description');
    const sameText = statuses.map((status) => ({ ...status, text: 'one notice for all' }));
    expect(says(JSON.stringify({ statuses: sameText.map(({ user: _, ...rest }) => rest) }))).toBe(
      '',
    );
  });

  it('takes a line logged as JSON into a string for what a log event says, and names events by it', () => {
    const routes = ['/api/cart', '/api/pay', '/api/user'];
    const events = Array.from({ length: 300 }, (_, i) => ({
      timestamp: 1_765_090_000_000 + i * 1500,
      message: `${JSON.stringify({
        level: i === 211 ? 'error' : 'info',
        msg: i === 211 ? 'payment provider returned 502' : 'request served',
        route: routes[i % 3],
        latency_ms: (i * 37) % 300,
        request_id: `req-${(i * 7919).toString(36)}`,
      })}\n`,
      eventId: `${37_000_000_000 + i * 17}`,
    }));
    const text = JSON.stringify({ events });
    const inventory = scanJson(text, 100_000)!;
    const analysis = analyzeRecords(inventory);
    const group = analysis.groups.find((g) => g.primary)!;
    expect(signaturePath(inventory, analysis, group.says, group.sig)).toBe('message');
    // The view names the events with what they say, not by their numbers alone.
    const view = createStructuralTrimmer().trim(text, Math.floor(text.length * 0.03));
    const note = parseRecordCoverage(trailingDisclosureNotes(view.text)[0]!.text)!;
    expect(note.namedBy).toBe('eventId+message');
    expect(view.text).toContain('payment provider returned 502');
    expect(view.text.split('{\\"level\\":').length).toBeGreaterThan(5);
  });

  it('finds the one record of a short list that differs from all the others', () => {
    const series = (odd: number) =>
      Array.from({ length: 12 }, (_, k) => ({
        metric: { job: 'api', instance: `10.0.0.${k}:9090`, code: k === odd ? '500' : '200' },
        values: Array.from({ length: 60 }, (_, i) => [1_765_090_000 + i * 15, String(1000 + i)]),
      }));
    const text = JSON.stringify({ data: { result: series(7) } });
    const inventory = scanJson(text, 100_000)!;
    const analysis = analyzeRecords(inventory);
    const group = analysis.groups[analysis.main]!;
    expect(analysis.anomalies[0]?.record).toBe(group.records[7]);
    const view = createStructuralTrimmer().trim(text, Math.floor(text.length * 0.05));
    expect(view.text).toContain('"instance":"10.0.0.7:9090","code":"500"');
    // Two of twelve alike are a division, not one that stands out.
    const two = series(7).map((s, k) =>
      k === 3 ? { ...s, metric: { ...s.metric, code: '500' } } : s,
    );
    const twoInventory = scanJson(JSON.stringify({ data: { result: two } }), 100_000)!;
    expect(analyzeRecords(twoInventory).anomalies).toEqual([]);
  });

  it('names records by a title a few of them share when nothing is unique, never beside an id', () => {
    // Poems: 2 of 40 titles repeat (a sequel and a reprint), the section and author do not
    // tell the poems apart at all.
    const poems = Array.from({ length: 40 }, (_, i) => ({
      title: i === 39 ? 'Poem 3' : i === 38 ? 'Poem 7' : `Poem ${i}`,
      section: `Book ${i % 5}`,
      author: i % 2 === 0 ? 'Qu Yuan' : 'Song Yu',
      lines: [`line ${i} one`, `line ${i} two`],
    }));
    const names = (json: string) => {
      const inventory = scanJson(json, 100_000)!;
      const analysis = analyzeRecords(inventory);
      const group = analysis.groups.find((g) => g.primary)!;
      const path = (s: number) => (s < 0 ? '' : signaturePath(inventory, analysis, s, group.sig));
      return [path(group.identity), path(group.alsoIdentity)];
    };
    expect(names(JSON.stringify(poems))).toEqual(['title', '']);
    // A unique identifier wins, and a shared title is not shown beside it as another name.
    const withIds = poems.map((poem, i) => ({ id: `p-${1000 + i}`, ...poem }));
    expect(names(JSON.stringify(withIds))).toEqual(['id', '']);
    // Two thirds distinct names no poem alone; with a few-valued field beside it (the author:
    // two values, the fewest), the pair tells every poem apart.
    const series = poems.map((poem, i) => ({ ...poem, title: `Poem ${i % 27}` }));
    expect(names(JSON.stringify(series))).toEqual(['title', 'author']);
    // With nothing to complete it, the field that tells most records apart still names them.
    const alike = poems.map((poem, i) => ({
      ...poem,
      title: `Poem ${i % 27}`,
      section: 'Book',
      author: 'Qu Yuan',
    }));
    expect(names(JSON.stringify(alike))).toEqual(['title', '']);
    // However few of them tell apart: the rows of a vulnerability report, one per CVE, package
    // and workload (a third as many CVEs as rows; no pair, nor three fields, unique: the same
    // image runs in two clusters), are named by their CVE, not left unnamed.
    const rows = Array.from({ length: 90 }, (_, i) => {
      const cve = (i % 45) % 30;
      return {
        vulnName: `CVE-20${10 + (cve % 13)}-${1000 + cve * 37}`,
        vulnSeverity: cve % 4 === 0 ? 'Critical' : 'High',
        vulnCvssScore: [7.5, 9.8, 8.1][cve % 3],
        packageName: `lib${cve % 20}`,
        clusterName: i < 45 ? 'aks' : 'eks',
        workloadName: `app-${(i % 45) % 3}`,
      };
    });
    expect(names(JSON.stringify({ data: rows }))).toEqual(['vulnName', '']);
    // Not by a hash a third of them share (a commit's), nor by a field of a dozen values or
    // fewer (a state, however the rows divide by it).
    const hashed = rows.map(({ vulnName, ...rest }) => ({
      commit: createHash('sha1').update(vulnName).digest('hex'),
      ...rest,
    }));
    expect(names(JSON.stringify({ data: hashed }))[0]).not.toBe('commit');
    const scoped = Array.from({ length: 15 }, (_, i) => ({
      scope: `io.example.scope-${i % 5}`,
      kind: i % 2 === 0 ? 'client' : 'server',
      durationMs: [12, 40, 7, 9, 3][i % 5],
    }));
    expect(names(JSON.stringify({ data: scoped }))[0]).not.toBe('scope');
    // Of two fields that tell as many apart, the one that reads as a name, not its file's path
    // written first (a scanner's `template` and `template-id`).
    const findings = Array.from({ length: 40 }, (_, i) => ({
      template: `http/checks/check-${i % 27}.yaml`,
      'template-id': `check-${i % 27}`,
      host: 'example.test',
    }));
    expect(names(JSON.stringify(findings))[0]).toBe('template-id');
    // Where nothing short is unique, a file and a line: no few-valued field tells a file's
    // findings apart, their code snippets (unique) are text, not names.
    const issues = Array.from({ length: 40 }, (_, i) => ({
      code: `${10 + i} import module_${i}\n${11 + i} call(module_${i}.load(data))`,
      filename: `src/tools/parser_${i % 15}.py`,
      issue_severity: i % 3 === 0 ? 'LOW' : 'MEDIUM',
      line_number: 10 + ((i * 37) % 400),
      test_id: `B3${i % 3}`,
    }));
    expect(names(JSON.stringify({ results: issues }))).toEqual(['filename', 'line_number']);
    // An id that reads as nothing (a span's hex id, a job's number) is shown with the readable
    // field of most values beside it; one that reads (a pod's name) is not, nor is a state.
    const operations = ['GET /api/orders', 'SELECT orders', 'POST /v1/chat', 'chat model-a'];
    const spans = Array.from({ length: 60 }, (_, i) => ({
      spanID: (0x9e3779b9 * (i + 1)).toString(16).padStart(16, '0').slice(-16),
      operationName: `${operations[i % 4]}-${i % 9}`,
      kind: i % 2 === 0 ? 'client' : 'server',
      duration: 1000 + ((i * 7919) % 5000),
    }));
    expect(names(JSON.stringify({ spans }))).toEqual(['spanID', 'operationName']);
    const jobs = spans.map(({ spanID: _, ...rest }, i) => ({ id: 7_000_123 + i * 13, ...rest }));
    expect(names(JSON.stringify(jobs))).toEqual(['id', 'operationName']);
    const pods = spans.map(({ spanID: _, ...rest }, i) => ({ name: `pod-${i}`, ...rest }));
    expect(names(JSON.stringify(pods))[1]).toBe('');
    const fewOperations = spans.map((span, i) => ({ ...span, operationName: operations[i % 4] }));
    expect(names(JSON.stringify({ spans: fewOperations }))).toEqual(['spanID', '']);
    // A readable field that names every record alone wins over an opaque id, however deep and
    // wordy (a role definition's GUID `name` and its `properties.roleName`).
    const roles = Array.from({ length: 50 }, (_, i) => ({
      name: `${(0x9e3779b9 * (i + 7)).toString(16).padStart(8, '0').slice(-8)}-4f2c-4b1e-9a7d-${(i * 7919).toString(16).padStart(12, '0')}`,
      properties: {
        roleName: `Storage Data ${['Reader', 'Owner', 'Writer'][i % 3]} ${i}`,
        type: 'BuiltInRole',
      },
    }));
    expect(names(JSON.stringify({ value: roles }))[0]).toBe('properties.roleName');
    if (fixturesAvailable()) {
      expect(names(readFixture('unicode/cjk-chuci-crlf.json'))).toEqual(['title', '']);
    }
  });
  it('names records by a short unique field over a message, a time, or a port in order', () => {
    const names = (records: unknown[]) => {
      const inventory = scanJson(JSON.stringify({ items: records }), 1_000_000)!;
      const analysis = analyzeRecords(inventory);
      const group = analysis.groups.find((g) => g.primary)!;
      const path = (s: number) => (s < 0 ? '' : signaturePath(inventory, analysis, s, group.sig));
      return [path(group.identity), path(group.alsoIdentity)];
    };
    const n = 60;
    // Keys in another language: a time in milliseconds and a snowflake of nineteen digits
    // (past what a double holds exactly: an id, not a time in nanoseconds).
    const events = Array.from({ length: n }, (_, i) => ({
      zeitpunkt: 1_772_974_884_491 + i * 2_437,
      nummer: `17900000003534${String(39_589 + i * 7_211).padStart(5, '0')}`,
      zustand: i % 9 === 0 ? 'wartend' : 'aktiv',
    })).map((e) => JSON.parse(JSON.stringify(e).replace(/"nummer":"(\d+)"/, '"nummer":$1')));
    expect(names(events)).toEqual(['nummer', '']);
    // A hash two objects down names a build; its long unique message only says what it did.
    const builds = Array.from({ length: n }, (_, i) => ({
      spec: { source: { ref: createHash('sha1').update(String(i)).digest('hex') } },
      status: i % 11 === 0 ? 'degraded' : 'ok',
      message: `The nightly export was queued on shard ${i}, the usage rollup finished next.`,
    }));
    expect(names(builds)).toEqual(['spec.source.ref', '']);
    // With nothing else unique, the message names them after all.
    expect(names(builds.map(({ spec: _spec, ...rest }) => rest))).toEqual(['message', '']);
    // Ports handed out in order in a nested endpoint do not name spans: the span id, shared by
    // a client and a server half, does with the kind beside it.
    const spans = Array.from({ length: n }, (_, i) => ({
      id: createHash('md5')
        .update(String(i >> 1))
        .digest('hex')
        .slice(0, 16),
      kind: i % 2 === 0 ? 'CLIENT' : 'SERVER',
      endpoint: { service: `svc-${i % 4}`, port: 40_000 + 2 * i },
    }));
    expect(names(spans)).toEqual(['id', 'kind']);
  });
  it('reads a value in a list of one as the field, and pairs no fields over a handful of records', () => {
    // A search engine's fields API writes every field as a list of one value.
    const spans = Array.from({ length: 30 }, (_, i) => ({
      '@timestamp': [new Date(Date.UTC(2026, 2, 1) + i * 7_000).toISOString()],
      'span.id': [createHash('md5').update(String(i)).digest('hex').slice(0, 16)],
      'span.name': [`GET /api/items/${i % 4}`],
      'event.outcome': [i % 10 === 3 ? 'failure' : 'success'],
    }));
    const json = JSON.stringify(spans);
    const view = createStructuralTrimmer().trim(json, 1200);
    const note = parseRecordCoverage(trailingDisclosureNotes(view.text)[0]!.text)!;
    expect(note.namedBy).toBe('"span.id"');
    expect(note.distributions?.find((d) => d.field === '"event.outcome"')?.values).toEqual([
      { value: 'success', count: 27 },
      { value: 'failure', count: 3 },
    ]);
    // A value in a list of one reads by the list's key: microseconds under a time key are a
    // time (a range, not how 30 spans divide by 3 values).
    const timed = spans.map((span, i) => ({
      ...span,
      'timestamp.us': [
        [1532976822281000, 1625572685682272, 1532975583584217][i % 10 === 0 ? 1 : 0],
      ],
    }));
    const timedJson = JSON.stringify(timed);
    const timedView = createStructuralTrimmer().trim(timedJson, 4000);
    const timedNote = parseRecordCoverage(trailingDisclosureNotes(timedView.text)[0]!.text)!;
    expect(timedNote.distributions?.map((d) => d.field)).not.toContain('"timestamp.us"');
    expect(timedNote.ranges?.find((r) => r.field === '"timestamp.us"')).toMatchObject({
      from: '1532976822281000',
      to: '1625572685682272',
    });
    // Four tasks: their minute and memory tell them apart by chance; the ARN names them.
    const tasks = [11, 42, 7, 29].map((minute, i) => ({
      taskArn: `arn:aws:ecs:us-east-1:123456789012:task/prod/${createHash('md5').update(String(i)).digest('hex')}`,
      connectivityAt: { minute, second: (minute * 7) % 60 },
      memory: ['512', '1024', '512', '2048'][i],
      lastStatus: 'RUNNING',
    }));
    const inventory = scanJson(JSON.stringify({ tasks }), 100_000)!;
    const analysis = analyzeRecords(inventory);
    const group = analysis.groups[analysis.main]!;
    expect(signaturePath(inventory, analysis, group.identity, group.sig)).toBe('taskArn');
    expect(group.identityTogether).toBe(false);
  });
  it('names the edges of a graph by their two ends, where neither end tells many apart', () => {
    // 600 calls between 150 services: each end repeats (a fifth as many values as edges), the
    // call count is a measure; the pair is the name.
    const edges = Array.from({ length: 600 }, (_, i) => ({
      parent: `Service${(i * 7) % 150}`,
      child: `Service${(i * 13 + Math.floor(i / 150)) % 130}`,
      callCount: 1 + ((i * 7919) % 90_000),
    }));
    const json = JSON.stringify(edges);
    const inventory = scanJson(json, 100_000)!;
    const analysis = analyzeRecords(inventory);
    const group = analysis.groups[analysis.main]!;
    expect(new Set(edges.map((e) => `${e.parent}>${e.child}`)).size).toBe(600);
    expect(signaturePath(inventory, analysis, group.identity, group.sig)).toBe('parent');
    expect(signaturePath(inventory, analysis, group.alsoIdentity, group.sig)).toBe('child');
    expect(group.identityTogether).toBe(true);
    // The view shows each edge it keeps by both ends, never a bare count.
    const view = createStructuralTrimmer().trim(json, Math.floor(json.length * 0.03)).text;
    const body = JSON.parse(view.slice(0, view.lastIndexOf('\n[')).trim()) as Array<object>;
    for (const record of body) expect(Object.keys(record).slice(0, 2)).toEqual(['parent', 'child']);
  });
  it('names events no field tells apart by the word of most values, not a thread number', () => {
    // 600 trace events: 40 event names, 16 threads, times shared by thirty events each.
    const names = Array.from(
      { length: 40 },
      (_, i) => `Task${'ABCDEFGHIJKLMNOPQRSTUVWXYZ'[i % 26]}${i < 26 ? '' : 'Run'}`,
    );
    const events = Array.from({ length: 600 }, (_, i) => ({
      name: names[(i * 7) % 40],
      cat: ['devtools.timeline', 'v8', 'loading'][i % 3],
      ph: ['X', 'I', 'b', 'e'][i % 4],
      pid: 88_334 + (i % 3),
      tid: 259 + 256 * (i % 16),
      ts: 302_178_810_190 + Math.floor(i / 30) * 7,
    }));
    const inventory = scanJson(JSON.stringify({ traceEvents: events }), 100_000)!;
    const analysis = analyzeRecords(inventory);
    const group = analysis.groups[analysis.main]!;
    expect(signaturePath(inventory, analysis, group.identity, group.sig)).toBe('name');
  });
  it('names events no field tells apart by a CamelCase name of many values, not by their time', () => {
    // A test run's 1 200 events: four packages run the same 60 tests; each test starts, says
    // two lines and ends; every event has a time of its own.
    const tests = Array.from(
      { length: 60 },
      (_, i) =>
        `Test${['Create', 'Update', 'Delete', 'List', 'Get'][i % 5]}${['Order', 'Cart', 'Refund', 'UserProfile'][i % 4]}Handler${i}`,
    );
    const events = Array.from({ length: 1200 }, (_, i) => ({
      Time: new Date(Date.UTC(2026, 10, 20, 8) + i * 3).toISOString(),
      Action: ['run', 'output', 'output', 'pass'][i % 4],
      Package: `github.com/acme/shop/internal/${['cart', 'orders', 'payments', 'users'][Math.floor(i / 300)]}`,
      Test: tests[Math.floor(i / 4) % 60],
    }));
    const inventory = scanJson(JSON.stringify(events), 100_000)!;
    const analysis = analyzeRecords(inventory);
    const group = analysis.groups[analysis.main]!;
    expect(signaturePath(inventory, analysis, group.identity, group.sig)).toBe('Test');
  });
  it('shows what an event says beside its time, where the time names it', () => {
    // A database's log as JSON lines: each event by its time (a float), a session id five
    // events share, and the message nested in the record.
    const events = Array.from({ length: 400 }, (_, i) => ({
      level: 'info',
      ts: 1_669_575_482.0968924 - i * 0.37,
      record: {
        session_id: `6383b${(0x33a - Math.floor(i / 5)).toString(16)}.${258 - Math.floor(i / 5)}`,
        message: [
          'connection received: host=[local]',
          `connection authorized: user=app database=shop application_name=worker-${i % 7}`,
          `duration: ${(i % 13) / 10 + 0.097} ms  statement: select ${i}`,
          `disconnection: session time: 0:00:00.00${i % 9} user=app database=shop`,
        ][i % 4],
      },
    }));
    const inventory = scanJson(JSON.stringify(events), 100_000)!;
    const analysis = analyzeRecords(inventory);
    const group = analysis.groups[analysis.main]!;
    expect(signaturePath(inventory, analysis, group.identity, group.sig)).toBe('ts');
    expect(signaturePath(inventory, analysis, group.label, group.sig)).toBe('record.message');
  });
  it('names releases by their dotted version, not a database id, a checksum or a download path', () => {
    const releases = Array.from({ length: 60 }, (_, i) => {
      const num = `${1 + Math.floor(i / 20)}.${Math.floor(i / 4) % 5}.${i % 4}`;
      return {
        id: 900_000 - i * 4_099 - ((i * 37) % 1000),
        num,
        dl_path: `/api/v1/crates/regex/${num}/download`,
        checksum: createHash('sha256').update(num).digest('hex'),
        downloads: 1000 + ((i * 7919) % 50_000),
        created_at: new Date(Date.UTC(2024, 0, 1) - i * 86_400_000).toISOString(),
      };
    });
    const named = (json: string) => {
      const inventory = scanJson(json, 100_000)!;
      const analysis = analyzeRecords(inventory);
      const group = analysis.groups[analysis.main]!;
      return signaturePath(inventory, analysis, group.identity, group.sig);
    };
    expect(named(JSON.stringify({ versions: releases }))).toBe('num');
    // Digits and one point stay a number (a measure, `1.5`); two points are no number.
    const points = releases.map(({ num, ...rest }) => ({
      ...rest,
      num: num.replace(/\.\d+$/, ''),
    }));
    expect(named(JSON.stringify({ versions: points }))).not.toBe('num');
  });
  it('names an hourly forecast by its time, not by a measure that, beside the hour, is unique by chance', () => {
    const hours = Array.from({ length: 220 }, (_, i) => ({
      time: 1_780_000_000 + i * 3600,
      conditions: ['Clear', 'Cloudy', 'Partly Cloudy'][(i * 7) % 3],
      sea_level_pressure: Number((1008 + ((i * 7919) % 120) / 10).toFixed(1)),
      wind_direction: Math.round(((i * 97) % 360) / 10) * 10,
      air_temperature: Number((14 + ((i * 31) % 80) / 10).toFixed(1)),
      local_hour: i % 24,
    }));
    const inventory = scanJson(JSON.stringify({ forecast: { hourly: hours } }), 100_000)!;
    const analysis = analyzeRecords(inventory);
    const group = analysis.groups[analysis.main]!;
    expect(signaturePath(inventory, analysis, group.identity, group.sig)).toBe('time');
    expect(group.alsoIdentity).toBe(-1);
  });
  it('puts one record of each kind of oddity first: a rare state once, then a far number', () => {
    // 300 services: 9 suspended, 6 pending, one latency fifty times the median. Leading are
    // the strongest of each kind (the note counts the others of a state).
    const records = Array.from({ length: 300 }, (_, i) => ({
      service: `svc-${(i * 7919).toString(36)}`,
      status: i % 33 === 5 ? 'suspended' : i % 50 === 7 ? 'pending' : 'active',
      latency_ms:
        i === 211 ? 1950.5 : Math.round(39 * Math.exp(Math.sin(i * 12.9898) * 0.9) * 10) / 10,
    }));
    const inventory = scanJson(JSON.stringify(records), 100_000)!;
    const analysis = analyzeRecords(inventory);
    const group = analysis.groups[analysis.main]!;
    const leading = analysis.anomalies
      .slice(0, 3)
      .map(({ record }) => group.records.indexOf(record));
    expect(leading).toContain(211);
    const states = leading.filter((i) => i !== 211).map((i) => records[i]!.status);
    expect(new Set(states)).toEqual(new Set(['suspended', 'pending']));
  });
  it('finds the message of a shape said once among messages of a few shapes, their numbers aside', () => {
    // A database's log entries: each connection received, authorized and closed, every message
    // its own by its process, port and time; once, the server was told to shut down.
    const records = Array.from({ length: 600 }, (_, i) => {
      const pid = 24_667 + Math.floor(i / 3);
      const textPayload =
        i === 371
          ? `[${pid}]: [1-1] db=,user= LOG:  received fast shutdown request`
          : [
              `[${pid}]: [1-1] db=[unknown],user=[unknown] LOG:  connection received: host=127.0.0.1 port=${40_000 + i}`,
              `[${pid}]: [2-1] db=postgres,user=cloudsqladmin LOG:  connection authorized: user=cloudsqladmin database=postgres`,
              `[${pid}]: [3-1] db=postgres,user=cloudsqladmin LOG:  disconnection: session time: 0:00:00.0${i % 10} user=cloudsqladmin database=postgres host=127.0.0.1 port=${40_000 + i}`,
            ][i % 3]!;
      return {
        insertId: `s=a4e36fd2;i=${(0x1dbcc + i).toString(16)}`,
        severity: 'INFO',
        textPayload,
        timestamp: new Date(Date.UTC(2020, 4, 2, 13) + i * 5000).toISOString(),
      };
    });
    const inventory = scanJson(JSON.stringify(records), 100_000)!;
    const analysis = analyzeRecords(inventory);
    const group = analysis.groups[analysis.main]!;
    const odd = analysis.anomalies.map(({ record }) => group.records.indexOf(record));
    expect(odd[0]).toBe(371);
  });
  it('finds no oddity in a value of its own where a third of the records each hold one', () => {
    // 600 requests: two in three on one kept-alive connection's port, every other on a port
    // of its own; one answered 500. A port seen once is what a third of the records show: the
    // 500 stands out, the ports do not.
    const records = Array.from({ length: 600 }, (_, i) => ({
      reqId: `req-${i.toString(36)}`,
      url: i % 3 === 0 ? '/health' : '/api/score',
      remotePort: i % 3 === 0 ? 30_000 + ((i * 7919) % 30_000) : 48_964,
      status: i === 437 ? 500 : 200,
    }));
    const inventory = scanJson(JSON.stringify(records), 100_000)!;
    const analysis = analyzeRecords(inventory);
    const group = analysis.groups[analysis.main]!;
    const odd = analysis.anomalies.map(({ record }) => group.records.indexOf(record));
    expect(odd).toEqual([437]);
  });
  it('tells long values apart by their whole text: a message most events say is one value', () => {
    // 200 events, two messages of 66 units that differ only in their middle (a value's hash
    // reads its first 32 and last 16 units), 119 and 80 times, and one that says something else.
    const message = (word: string) =>
      `the service checkout has reached a ${word} state, all tasks healthy`;
    const events = Array.from({ length: 200 }, (_, i) => ({
      id: `ev-${(i * 7919).toString(36)}`,
      message:
        i === 137
          ? 'service checkout has stopped 1 running task: task 80d096c962ae4dce failed its check'
          : message(i % 5 < 3 ? 'steady' : 'stable'),
    }));
    expect(message('steady').length).toBe(message('stable').length);
    const inventory = scanJson(JSON.stringify({ events }), 100_000)!;
    const analysis = analyzeRecords(inventory);
    const group = analysis.groups[analysis.main]!;
    const s = analysis.signatures.of[inventory.next[group.records[0]!]! + 2]!;
    expect(signaturePath(inventory, analysis, s, group.sig)).toBe('message');
    expect([analysis.distinct[s], analysis.top[s]]).toEqual([3, 119]);
    // The one event that says something else stands out, first.
    expect(group.records.indexOf(analysis.anomalies[0]!.record)).toBe(137);
  });

  it('takes for the list the one a reader counts: the events of 2 services, checks inside tests, findings beside counts', () => {
    const event = (i: number) => ({
      id: `ev-${i}`,
      at: new Date(Date.UTC(2024, 2, 1) + i * 3_600_000).toISOString(),
      message: i % 9 === 4 ? 'task stopped' : 'steady state',
    });
    const services = ['checkout', 'search'].map((name, k) => ({
      name,
      status: 'ACTIVE',
      events: Array.from({ length: 60 }, (_, i) => event(100 * k + i)),
    }));
    const mainPath = (json: unknown) => {
      const inventory = scanJson(JSON.stringify(json), 100_000)!;
      const analysis = analyzeRecords(inventory);
      return signaturePath(inventory, analysis, analysis.groups[analysis.main]!.sig, 0);
    };
    expect(mainPath({ services })).toBe('services[].events[]');
    // Policies of a few statements each, nodes of many images each: those lists are details.
    const policies = Array.from({ length: 40 }, (_, i) => ({
      name: `policy-${i}`,
      statements: [0, 1, 2].map((j) => ({
        effect: j === 2 ? 'Deny' : 'Allow',
        action: `s3:Get${j}`,
        resource: `arn:aws:s3:::bucket-${i}/*`,
      })),
    }));
    expect(mainPath({ policies })).toBe('policies[]');
    // A benchmark's checks inside the tests of each of 5 controls hold nearly all their bytes;
    // a policy's statements inside its one version hold less.
    const controls = Array.from({ length: 5 }, (_, c) => ({
      id: c + 1,
      node_type: ['master', 'etcd', 'controlplane', 'node', 'policies'][c],
      total_fail: [3, 3, 5, 3, 5][c],
      tests: Array.from({ length: 3 }, (_, t) => ({
        section: `${c + 1}.${t + 1}`,
        results: Array.from({ length: 8 }, (_, r) => ({
          test_number: `${c + 1}.${t + 1}.${r + 1}`,
          test_desc: `Ensure that the setting number ${r} of section ${t} is configured as required`,
          status: (c + t + r) % 6 === 0 ? 'FAIL' : 'PASS',
        })),
      })),
    }));
    expect(mainPath({ Controls: controls })).toBe('Controls[].tests[].results[]');
    const versioned = policies.map(({ name, statements }) => ({
      name,
      arn: `arn:aws:iam::123456789012:policy/${name}`,
      path: ['/', '/service-role/', '/team/'][name.length % 3],
      versions: [{ id: 'v1', default: true, document: { statements } }],
    }));
    expect(mainPath({ policies: versioned })).toBe('policies[]');
    // A linter's files say nothing but their paths: their offenses, 3 to 11 each, are the list
    // a reader counts (by severity, by rule); a reservation's one instance is not, nor a pod's
    // four conditions (as many in each: parts of it).
    const linted = Array.from({ length: 40 }, (_, f) => ({
      path: `app/models/model_${f}.rb`,
      offenses: Array.from({ length: 3 + (f % 9) }, (_, o) => ({
        severity: (f * 7 + o) % 37 === 0 ? 'warning' : 'convention',
        message: `Offense ${o} of a rule`,
        cop_name: ['Style/StringLiterals', 'Layout/EmptyLine', 'Style/Documentation'][o % 3],
        location: { line: 3 + o * 5, column: 1 + (o % 4) },
      })),
    }));
    expect(mainPath({ files: linted })).toBe('files[].offenses[]');
    const reservations = linted.map(({ path, offenses }) => ({
      path,
      instances: offenses.slice(0, 1),
    }));
    expect(mainPath({ reservations })).toBe('reservations[]');
    const pods = linted.map(({ path, offenses }) => ({
      name: path,
      conditions: offenses.slice(0, 3),
    }));
    expect(mainPath({ pods })).toBe('pods[]');
    // Counts per file (a map of numbers) give way to the findings, each saying far more.
    const files = Object.fromEntries(
      Array.from({ length: 200 }, (_, i) => [
        `src/module_${i}/handler.py`,
        { loc: 40 + (i % 90), nosec: 0, high: i % 50 === 0 ? 1 : 0, low: i % 3 },
      ]),
    );
    const findings = Array.from({ length: 40 }, (_, i) => ({
      filename: `src/module_${i * 5}/handler.py`,
      line_number: 10 + ((i * 37) % 400),
      test_id: ['B303', 'B110', 'B410'][i % 3],
      issue_severity: i % 4 === 0 ? 'LOW' : 'MEDIUM',
      issue_text: [
        'Use of insecure MD2, MD4, MD5, or SHA1 hash function.',
        'Try, Except, Pass detected.',
        'Using lxml.etree.parse to parse untrusted XML data is known to be vulnerable to XML attacks.',
      ][i % 3],
      code: `${i} import ${['hashlib', 'lxml', 'pickle', 'yaml'][i % 4]}\n${i + 1}     value_${i} = load(request.${['args', 'form', 'json'][i % 3]}["item_${i * 7}"])\n`,
    }));
    expect(mainPath({ metrics: files, results: findings })).toBe('results[]');
  });

  it('puts a number far past the rest before the top of a long tail of counts', () => {
    // 400 jobs: retries mostly 0 to 7 with a tail up to 29 (a count), latencies from 8 to
    // 300 ms; one latency of 2 s, seven times the slowest other.
    let seed = 7;
    const next = () => {
      seed = (seed * 48271) % 2147483647;
      return seed / 2147483647;
    };
    const jobs = Array.from({ length: 400 }, (_, i) => ({
      job: `job-${(i * 7919).toString(36)}`,
      retries: next() < 0.9 ? Math.floor(next() * 8) : 8 + Math.floor(next() * 22),
      latency_ms: i === 257 ? 2061.5 : Math.round(8 * Math.exp(next() * 3.6) * 10) / 10,
    }));
    const inventory = scanJson(JSON.stringify({ jobs }), 100_000)!;
    const analysis = analyzeRecords(inventory);
    const group = analysis.groups[analysis.main]!;
    expect(group.records.indexOf(analysis.anomalies[0]!.record)).toBe(257);
  });

  it('puts first what says why a record stands out: a reason, a message, then the flags', () => {
    /** The paths of the fields of the list's strongest anomaly, in their order. */
    const anomalyFields = (items: unknown[]) => {
      const inventory = scanJson(JSON.stringify({ items }), 1_000_000)!;
      const analysis = analyzeRecords(inventory);
      const group = analysis.groups.find((g) => g.primary)!;
      const [anomaly] = analysis.anomalies;
      return anomaly!.fields.map((u) =>
        signaturePath(inventory, analysis, analysis.signatures.of[u]!, group.sig),
      );
    };
    const since = '2026-03-01T06:00:00Z';
    const services = Array.from({ length: 120 }, (_, i) => ({
      name: `svc-${i}`,
      ready: i !== 77,
      restarts: i === 77 ? 31 : 0,
      state:
        i === 77
          ? { waiting: { reason: 'CrashLoopBackOff', message: 'back-off 5m0s restarting svc-77' } }
          : { running: { since } },
    }));
    const fields = anomalyFields(services);
    // `ready: false` stands out most (one in 120, a key that reads as a state), yet says less.
    expect(fields[0]).toBe('state.waiting.reason');
    expect(fields.indexOf('state.waiting.message')).toBeLessThan(fields.indexOf('ready'));
    expect(fields).toContain('ready');
    // The reason inside a container that stands out, where only the container is credited.
    const jobs = Array.from({ length: 120 }, (_, i) => ({
      id: `job-${i}`,
      ok: i !== 40,
      ...(i === 40 ? { failure: { reason: 'Timeout', step: 'integration' } } : {}),
    }));
    expect(anomalyFields(jobs).slice(0, 2)).toEqual(['failure.reason', 'ok']);
    // A rare value that does not read as a state (a region) does not go before a flag that
    // stands out more: nothing is said of why.
    const hosts = Array.from({ length: 120 }, (_, i) => ({
      id: `host-${i}`,
      region: i === 40 ? 'eu-west-3' : i % 10 < 7 ? 'us-east-1' : 'us-west-2',
      archived: i === 40,
    }));
    expect(anomalyFields(hosts)[0]).toBe('archived');
  });

  it('does not depend on what was analysed before it (property)', () => {
    // Its passes keep working columns between calls (`ScratchArray`): what another document
    // left in them must never show.
    fc.assert(
      fc.property(recordList(2, 40), recordList(40, 160), (text, other) => {
        const inventory = scanJson(text, 100_000)!;
        const before = analyzeRecords(inventory);
        analyzeRecords(scanJson(other, 100_000)!);
        // Compared as text: a deep diff of big typed arrays would take minutes to print.
        expect(digest(analyzeRecords(inventory)) === digest(before)).toBe(true);
      }),
      { numRuns: 300 },
    );
  });
});

/**
 * Fields of every kind the value statistics read: numbers with fractions and exponents beside
 * integers (one signature's sums then come from JavaScript), ids past 15 digits, negative zero,
 * literals, strings past 48 units (some alike but in their middle), repeated and near-repeated
 * values, escapes.
 */
const fieldValue = fc.oneof(
  fc.integer({ min: -1000, max: 1000 }),
  fc.constantFrom(0.5, -2.25, 1e21, 1.5e-7, 123456789012345, -0, 9007199254740993n),
  fc.constantFrom(true, false, null, '', 'Running', 'Failed', 'a\\"b', 'é😀'),
  fc.string({ maxLength: 60 }),
  fc.integer({ min: 0, max: 3 }).map((i) => `https://example.com/items/${i}/${'x'.repeat(40)}`),
  // Past 48 units and alike but in their middle, which their hash does not read.
  fc.integer({ min: 0, max: 3 }).map((i) => `${'p'.repeat(36)}${i}${'q'.repeat(24)}`),
);

/** A list whose records hold `fieldValue`s under a few keys, some nested. */
const valueList = fc
  .tuple(
    fc.array(
      fc.dictionary(fc.constantFrom('id', 'state', 'n', 'url', 'note'), fieldValue, { maxKeys: 5 }),
      { minLength: 2, maxLength: 48, size: 'max' },
    ),
    fc.boolean(),
  )
  .map(([items, nested]) => {
    const records = items.map((item, i) => ({ i, ...item, sub: nested ? [{ v: item.n }] : [] }));
    return JSON.stringify({ items: records }, (_key, value: unknown) =>
      typeof value === 'bigint' ? Number.parseFloat(value.toString()) : value,
    ).replaceAll('9007199254740992', '9007199254740993');
  });

/**
 * `analysis` as one text, its signatures' columns cut to their count (the pass in JavaScript
 * grows them by doubling: the entries past the count are spare room).
 */
function analysisDigest(analysis: RecordAnalysis): string {
  const { signatures } = analysis;
  const columns = Object.entries(signatures)
    .sort(([a], [b]) => a.localeCompare(b))
    .map(([name, column]) =>
      ArrayBuffer.isView(column) && name !== 'of' && name !== 'nextSame'
        ? [name, (column as Int32Array).subarray(0, signatures.count)]
        : [name, column],
    );
  return digest({
    ...analysis,
    columns: columnsDigest(analysis.columns),
    signatures: Object.fromEntries(columns),
  });
}

/** `gathered` as one text, its entry columns cut to their count (the rest is spare room). */
function columnsDigest(gathered: ReturnType<typeof recordColumns>): string {
  const { entries } = gathered;
  return digest({
    ...gathered,
    entrySig: gathered.entrySig.subarray(0, entries),
    entryCount: gathered.entryCount.subarray(0, entries),
  });
}

/**
 * The record columns and analysis of `text` over a borrowed inventory (its signatures and value
 * statistics computed by the lent tape's passes in WebAssembly) and over the same inventory
 * without its reader (in JavaScript), each as one text; undefined when the tape could not be
 * lent.
 */
function analysedBothWays(text: string): { inWasm: string; inJs: string } | undefined {
  const read = withJsonTape(text, (tape, reader) => {
    const inventory = inventoryFromTape(tape, 1_000_000, reader, undefined, true)!;
    const inJavaScript = { ...inventory, tapeReader: undefined };
    const signatures = jsonSignatures(inventory);
    const columns = [
      columnsDigest(recordColumns(inventory, signatures, undefined)),
      analysisDigest(analyzeRecords(inventory)),
    ].join('\n');
    const expected = [
      columnsDigest(recordColumns(inJavaScript, signatures, undefined)),
      analysisDigest(analyzeRecords(inJavaScript)),
    ].join('\n');
    return { inWasm: columns, inJs: expected, borrowed: inventory.tapeReader !== undefined };
  });
  if (!read.ok || !read.value.borrowed) return undefined;
  return read.value;
}

describe('analyzeRecords over a lent tape (its passes in WebAssembly)', () => {
  it('gathers what the passes in JavaScript gather (property)', () => {
    fc.assert(
      fc.property(fc.oneof(valueList, recordList(2, 40)), (text) => {
        const both = analysedBothWays(text);
        expect(both).toBeDefined();
        expect(both!.inWasm === both!.inJs).toBe(true);
      }),
      { numRuns: 300 },
    );
  });

  it.skipIf(!fixturesAvailable())('gathers it on every JSON fixture', () => {
    for (const fixture of listFixtures({ kind: 'json' })) {
      const both = analysedBothWays(readFixture(fixture.path));
      expect(both, fixture.path).toBeDefined();
      expect(both!.inWasm === both!.inJs, fixture.path).toBe(true);
    }
  });
});
