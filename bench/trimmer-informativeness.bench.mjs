// How informative the trimmer's JSON views are when the question does not name what matters:
// record coverage with no query, planted anomalies found with a generic question and with none,
// identity-less fragments, three needles in one question, a record asked for by a value, and
// the keyword needles; side by side in one run with a head cut, head+tail, a keyword line
// filter and the seed's breadth-first selection. With a model configured (OPENAI_BASE_URL,
// OPENAI_API_KEY or ANTHROPIC_API_KEY), the model also answers each question from each
// method's view and is scored against the ground truth; without one that part says it skipped.
import { stripDisclosureNotes } from '@compaction/core';
import { fixturesAvailable, listFixtures, readFixture } from '@compaction/fixtures';
import { jsonNeedles } from './lib/json-needles.mjs';
import { podList, podTable, requestLog, workflowRuns } from './lib/lists.mjs';
import { at, dominantArray, identifierPath, literal, parse } from './lib/records.mjs';
import { markdownTable, writeResult } from './lib/report.mjs';
import { countOf as count } from './lib/text-baselines.mjs';
import { viewMethods } from './lib/view-methods.mjs';

if (!fixturesAvailable()) {
  console.error('fixtures not available: ../shared/fixtures is missing');
  process.exit(1);
}

const SHARES = [0.01, 0.03, 0.1];
const DEPTHS = [0.35, 0.49, 0.63, 0.78, 0.92];
const GENERIC = 'is anything wrong?';

const METHODS = viewMethods();
const TRIMMERS = ['trimmer', 'breadth-first'];
let overBudget = 0;
const budgetOf = (bytes, share) => Math.max(256, Math.floor(bytes * share));
function view(method, text, budget, question) {
  const out = METHODS[method](text, budget, question);
  if (Buffer.byteLength(out) > budget) overBudget++;
  return out;
}

// ---------------------------------------------------------------- the lists
/** A list: its text, its records (parsed), their path and the identifier path. */
function describe(name, text) {
  const root = parse(text);
  const found = dominantArray(root, 5);
  if (!found) return undefined;
  const id = identifierPath(found.array);
  if (!id) return undefined;
  const bytes = Buffer.byteLength(text);
  // A list document: its records hold at least a quarter of it (an OpenAPI spec whose biggest
  // array is one operation's parameters is not a list of those).
  if (Buffer.byteLength(JSON.stringify(found.array)) < 0.25 * JSON.stringify(root).length) {
    return undefined;
  }
  return { name, text, bytes, records: found.array, path: found.path, id };
}

const lists = [];
for (const fixture of listFixtures({ kind: 'json' })) {
  const list = describe(fixture.path, readFixture(fixture.path));
  if (list) lists.push(list);
}
for (const [name, value] of [
  ['generated: pod list (300)', podList(300)],
  ['generated: workflow runs (400)', workflowRuns(400)],
  ['generated: request log (1000)', requestLog(1000)],
  ['generated: pod Table (58)', podTable(58)],
]) {
  lists.push(describe(name, JSON.stringify(value, null, 2)));
}

const idOf = (list, record) => literal(at(record, list.id));
const named = (list, text) => list.records.filter((record) => text.includes(idOf(list, record)));

// ---------------------------------------------------------------- record coverage, no query
// `fits`: the identifiers (as `"key":value,` each) take at most a quarter of the budget.
const coverage = [];
for (const list of lists) {
  const key = String(list.id[list.id.length - 1]);
  const idBytes = list.records.reduce(
    (sum, record) => sum + Buffer.byteLength(idOf(list, record)) + key.length + 4,
    0,
  );
  for (const share of SHARES) {
    const budget = budgetOf(list.bytes, share);
    const row = { list, share, budget, fits: idBytes <= budget / 4, scores: {} };
    for (const method of Object.keys(METHODS)) {
      row.scores[method] =
        named(list, view(method, list.text, budget)).length / list.records.length;
    }
    coverage.push(row);
  }
}

// ---------------------------------------------------------------- what records say, no query
// The list's text field, chosen by the benchmark: a string field (up to two levels down) in
// nine records of ten whose values read as sentences (four words of letters with spaces on
// average, or twelve characters of a script written without spaces; not markup): the shallowest, then the
// one whose values differ most.
const WORD = /\p{L}{2,}/gu;
const UNSPACED = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}]/gu;
function textField(list) {
  let best;
  for (const path of stringFields(list.records[0] ?? {}).concat(
    longStringFields(list.records[0] ?? {}),
  )) {
    const values = list.records
      .map((record) => at(record, path))
      .filter((v) => typeof v === 'string');
    if (values.length < 0.9 * list.records.length) continue;
    // Words of letters, in values with spaces between them (a date has two).
    const words =
      values.reduce((sum, v) => sum + (/\s/.test(v) ? (v.match(WORD)?.length ?? 0) : 0), 0) /
      values.length;
    const unspaced =
      values.reduce((sum, v) => sum + (v.match(UNSPACED)?.length ?? 0), 0) / values.length;
    const markup = values.filter((v) => /<\/?[a-z]/i.test(v)).length;
    if ((words < 4 && unspaced < 12) || markup > values.length / 2) continue;
    const distinct = new Set(values).size;
    // The shallowest such field, then the one whose values differ most.
    if (
      !best ||
      path.length < best.path.length ||
      (path.length === best.path.length && distinct > best.distinct)
    ) {
      best = { path, distinct };
    }
  }
  return best?.path;
}
/** Paths of the long string fields of `record` (over 80 characters), two levels down. */
function longStringFields(record) {
  const found = [];
  const stack = [[record, []]];
  while (stack.length > 0) {
    const [node, path] = stack.pop();
    for (const [key, value] of Object.entries(node)) {
      if (typeof value === 'string' && value.length > 80) found.push([...path, key]);
      else if (value && typeof value === 'object' && !Array.isArray(value) && path.length < 2) {
        stack.push([value, [...path, key]]);
      }
    }
  }
  return found;
}
const said = [];
for (const list of lists) {
  const path = textField(list);
  if (!path) continue;
  // Each distinct text once, found by its shortest prefix of 32 characters or more that no
  // other text starts with (as written in JSON).
  const written = [...new Set(list.records.map((record) => at(record, path)))]
    .filter((v) => typeof v === 'string')
    .map((v) => JSON.stringify(v).slice(1, -1));
  const texts = written.map((text) => {
    let length = Math.min(32, text.length);
    const clash = (other) => other !== text && other.startsWith(text.slice(0, length));
    while (length < text.length && written.some(clash)) length++;
    return text.slice(0, length);
  });
  for (const share of [0.03, 0.1]) {
    const budget = budgetOf(list.bytes, share);
    const scores = {};
    for (const method of Object.keys(METHODS)) {
      const out = view(method, list.text, budget);
      scores[method] = texts.filter((text) => out.includes(text)).length / texts.length;
    }
    said.push({ list, path, share, scores });
  }
}

// ---------------------------------------------------------------- planted anomalies
/** Benign lists with one anomaly planted at `depth`, and the identifier to look for. */
function planted(depth) {
  const cases = [];
  const index = (n) => Math.min(n - 1, Math.floor(n * depth));
  const generated = [
    ['pod list: an Evicted pod', (i) => podList(300, i), 300],
    ['workflow runs: one failure', (i) => workflowRuns(400, i), 400],
    ['request log: one HTTP 500', (i) => requestLog(1000, i), 1000],
    ['pod Table: a crash-looping pod', (i) => podTable(58, i), 58],
  ];
  for (const [name, make, n] of generated) {
    const list = describe(name, JSON.stringify(make(index(n)), null, 2));
    cases.push({ list, record: list.records[index(n)] });
  }
  // Real lists made benign, then one record made to stand out.
  const jenkins = parse(readFixture('ci-logs/jenkins-apache-builds.json'));
  for (const job of jenkins.jobs) job.color = 'blue';
  jenkins.jobs[index(jenkins.jobs.length)].color = 'red';
  const jobs = describe('Jenkins jobs: one red build', JSON.stringify(jenkins, null, 2));
  cases.push({ list: jobs, record: jobs.records[index(jobs.records.length)] });
  const events = parse(readFixture('k8s/k3s-events-kube-system.json'));
  for (const event of events.items) event.type = 'Normal';
  Object.assign(events.items[index(events.items.length)], {
    type: 'Warning',
    reason: 'BackOff',
    message: 'Back-off restarting failed container helm in pod helm-install-traefik',
  });
  const warnings = describe('k3s events: one Warning', JSON.stringify(events, null, 2));
  cases.push({ list: warnings, record: warnings.records[index(warnings.records.length)] });
  return cases;
}
const anomalyCases = DEPTHS.flatMap(planted);
const anomaly = {};
for (const { list, record } of anomalyCases) {
  const id = idOf(list, record);
  for (const share of SHARES) {
    const budget = budgetOf(list.bytes, share);
    for (const question of [undefined, GENERIC]) {
      for (const method of Object.keys(METHODS)) {
        const key = `${method}|${share}|${question ? 'generic' : 'none'}`;
        const hit = view(method, list.text, budget, question).includes(id) ? 1 : 0;
        anomaly[key] = (anomaly[key] ?? 0) + hit;
        if (!hit && method === 'trimmer' && process.env.TRIMMER_BENCH_DEBUG) {
          console.error(`anomaly miss ${list.name} at ${share}: ${id}`);
        }
      }
    }
  }
}

// ---------------------------------------------------------------- fragments without identity
/** Records of the list shown in part without their identifier, in a trimmer's JSON view. */
function fragments(list, text) {
  let body;
  try {
    body = parse(stripDisclosureNotes(text));
  } catch {
    return 0;
  }
  const shown = at(body, list.path);
  if (!Array.isArray(shown)) return 0;
  let without = 0;
  for (const record of shown) {
    if (!record || typeof record !== 'object' || Object.keys(record).length === 0) continue;
    if (at(record, list.id) === undefined) without++;
  }
  return without;
}
const fragmentCounts = { trimmer: 0, 'breadth-first': 0 };
for (const list of lists) {
  for (const share of SHARES) {
    const budget = budgetOf(list.bytes, share);
    for (const method of TRIMMERS) {
      const found = fragments(list, view(method, list.text, budget));
      fragmentCounts[method] += found;
      if (found > 0 && method === 'trimmer' && process.env.TRIMMER_BENCH_DEBUG) {
        console.error(`fragments ${list.name} at ${share}: ${found}`);
      }
    }
  }
}

// ---------------------------------------------------------------- three needles, by value
/** Paths of the short string fields of `record` (objects up to two levels down), shallow first. */
function stringFields(record) {
  const stack = [[record, []]];
  const found = [];
  while (stack.length > 0) {
    const [node, path] = stack.pop();
    for (const [key, value] of Object.entries(node)) {
      if (typeof value === 'string' && value.length >= 3 && value.length <= 80) {
        found.push([...path, key]);
      } else if (value && typeof value === 'object' && !Array.isArray(value) && path.length < 2) {
        stack.push([value, [...path, key]]);
      }
    }
  }
  return found.sort((a, b) => a.length - b.length || (a.join('.') < b.join('.') ? -1 : 1));
}

/** A field (path) other than the identifier whose value is unique in the text for every record. */
function askedField(list, records) {
  const identifier = JSON.stringify(list.id);
  return stringFields(records[0]).find(
    (path) =>
      JSON.stringify(path) !== identifier &&
      records.every((record) => {
        const value = at(record, path);
        return typeof value === 'string' && count(list.text, JSON.stringify(value)) === 1;
      }),
  );
}
const multi = {};
const byValue = {};
let multiTotal = 0;
let byValueTotal = 0;
for (const list of lists) {
  if (list.records.length < 8) continue;
  const picks = [0.35, 0.63, 0.92].map((p) => list.records[Math.floor(list.records.length * p)]);
  const asked = askedField(list, picks);
  if (asked) {
    multiTotal++;
    const ask = String(asked[asked.length - 1]);
    const question = `What are the ${ask} of ${picks.map((r) => String(at(r, list.id).text ?? at(r, list.id))).join(', ')}?`;
    const answers = picks.map((record) => JSON.stringify(at(record, asked)));
    for (const share of SHARES) {
      const budget = budgetOf(list.bytes, share);
      for (const method of Object.keys(METHODS)) {
        const out = view(method, list.text, budget, question);
        const key = `${method}|${share}`;
        const hit = answers.every((answer) => out.includes(answer));
        multi[key] = (multi[key] ?? 0) + (hit ? 1 : 0);
        if (!hit && method === 'trimmer' && process.env.TRIMMER_BENCH_DEBUG) {
          console.error(`multi miss ${list.name} at ${share}: ${question} -> ${answers.join(' ')}`);
        }
      }
    }
  }
  const target = list.records[Math.floor(list.records.length * 0.6)];
  const field = askedField(list, [target]);
  if (field) {
    byValueTotal++;
    const question = `Which record has ${field[field.length - 1]} ${at(target, field)}?`;
    for (const share of SHARES) {
      const budget = budgetOf(list.bytes, share);
      for (const method of Object.keys(METHODS)) {
        const out = view(method, list.text, budget, question);
        const key = `${method}|${share}`;
        byValue[key] = (byValue[key] ?? 0) + (out.includes(idOf(list, target)) ? 1 : 0);
      }
    }
  }
}

// ---------------------------------------------------------------- keyword needles (JSON)
const needles = listFixtures({ kind: 'json' }).flatMap((fixture) =>
  jsonNeedles(fixture.path, readFixture(fixture.path)),
);
const needleHits = {};
for (const needle of needles) {
  const text = readFixture(needle.fixture);
  for (const share of SHARES) {
    const budget = budgetOf(Buffer.byteLength(text), share);
    for (const method of Object.keys(METHODS)) {
      const out = view(method, text, budget, needle.question);
      const key = `${method}|${share}`;
      needleHits[key] =
        (needleHits[key] ?? 0) + (needle.mustContain.every((part) => out.includes(part)) ? 1 : 0);
    }
  }
}

// ---------------------------------------------------------------- the model, when configured
const modelPart = await askModel();

async function askModel() {
  const env = process.env;
  if (!env.OPENAI_BASE_URL && !env.OPENAI_API_KEY && !env.ANTHROPIC_API_KEY) {
    return 'Skipped: no model is configured (set OPENAI_BASE_URL, OPENAI_API_KEY or ANTHROPIC_API_KEY to have a model answer each question from each view and be scored against the ground truth).';
  }
  const client =
    env.OPENAI_BASE_URL || env.OPENAI_API_KEY
      ? (await import('@compaction/distiller/openai')).createOpenAIClient({
          env,
          apiKey: env.OPENAI_API_KEY || 'not-needed-by-local-servers',
        })
      : (await import('@compaction/distiller/anthropic')).createAnthropicClient({ env });
  const tasks = [];
  for (const { list, record } of anomalyCases.filter((_, i) => i % 3 === 0)) {
    tasks.push({
      kind: 'anomaly',
      text: list.text,
      bytes: list.bytes,
      question: `${GENERIC} If so, give the identifier (${list.id.join('.')}) of the affected record.`,
      truth: [String(at(record, list.id).text ?? at(record, list.id))],
    });
  }
  const scores = {};
  for (const task of tasks) {
    const budget = budgetOf(task.bytes, 0.03);
    for (const method of Object.keys(METHODS)) {
      const shown = view(method, task.text, budget, task.question);
      let answer = '';
      try {
        const reply = await client.complete({
          model: 'fast',
          system:
            'Answer from the tool result only. Lines in [brackets] say what the view leaves out: that content is UNKNOWN, not absent.',
          prompt: `Tool result:\n${shown}\n\nQuestion: ${task.question}`,
          maxTokens: 200,
        });
        answer = reply.text;
      } catch (error) {
        answer = `(failed: ${error instanceof Error ? error.message : String(error)})`;
      }
      const key = `${task.kind}|${method}`;
      scores[key] =
        (scores[key] ?? 0) + (task.truth.every((part) => answer.includes(part)) ? 1 : 0);
    }
  }
  return markdownTable(
    ['question', 'cases', ...Object.keys(METHODS)],
    [
      [
        'anomaly, generic question, 3%',
        String(tasks.length),
        ...Object.keys(METHODS).map((method) =>
          ((scores[`anomaly|${method}`] ?? 0) / tasks.length).toFixed(2),
        ),
      ],
    ],
  );
}

// ---------------------------------------------------------------- report
const mean = (values) =>
  values.length === 0 ? '–' : (values.reduce((a, b) => a + b, 0) / values.length).toFixed(2);
const coverageSummary = markdownTable(
  ['lists', 'budget', ...Object.keys(METHODS)],
  SHARES.flatMap((share) => {
    const rows = coverage.filter((row) => row.share === share);
    const fitting = rows.filter((row) => row.fits);
    return [
      [
        `identities fit a quarter of the budget (${fitting.length})`,
        `${share * 100}%`,
        ...Object.keys(METHODS).map((method) => mean(fitting.map((row) => row.scores[method]))),
      ],
      [
        `all lists (${rows.length})`,
        `${share * 100}%`,
        ...Object.keys(METHODS).map((method) => mean(rows.map((row) => row.scores[method]))),
      ],
    ];
  }),
);
const coverageDetail = markdownTable(
  ['list', 'records', 'identifier', ...SHARES.map((share) => `${share * 100}%`)],
  lists.map((list) => [
    list.name,
    String(list.records.length),
    list.id.join('.'),
    ...SHARES.map((share) => {
      const row = coverage.find((r) => r.list === list && r.share === share);
      const cell = `${row.scores.trimmer.toFixed(2)} (bf ${row.scores['breadth-first'].toFixed(2)}, head ${row.scores['head cut'].toFixed(2)})`;
      return row.fits ? `**${cell}**` : cell;
    }),
  ]),
);
const rate = (table, key, total) => ((table[key] ?? 0) / total).toFixed(2);
const anomalyTable = markdownTable(
  ['question', 'budget', ...Object.keys(METHODS)],
  ['none', 'generic'].flatMap((question) =>
    SHARES.map((share) => [
      question === 'none' ? 'no query' : `"${GENERIC}"`,
      `${share * 100}%`,
      ...Object.keys(METHODS).map((method) =>
        rate(anomaly, `${method}|${share}|${question}`, anomalyCases.length),
      ),
    ]),
  ),
);
const questionTable = markdownTable(
  ['task', 'budget', ...Object.keys(METHODS)],
  [
    ...SHARES.map((share) => [
      `three needles in one question (${multiTotal} lists)`,
      `${share * 100}%`,
      ...Object.keys(METHODS).map((method) => rate(multi, `${method}|${share}`, multiTotal)),
    ]),
    ...SHARES.map((share) => [
      `a record asked for by a value (${byValueTotal} lists)`,
      `${share * 100}%`,
      ...Object.keys(METHODS).map((method) => rate(byValue, `${method}|${share}`, byValueTotal)),
    ]),
    ...SHARES.map((share) => [
      `keyword needles (${needles.length})`,
      `${share * 100}%`,
      ...Object.keys(METHODS).map((method) =>
        rate(needleHits, `${method}|${share}`, needles.length),
      ),
    ]),
  ],
);

const saidTable = markdownTable(
  ['list', 'text field', 'budget', ...Object.keys(METHODS)],
  said.map((row) => [
    row.list.name,
    row.path.join('.'),
    `${row.share * 100}%`,
    ...Object.keys(METHODS).map((method) => row.scores[method].toFixed(2)),
  ]),
);

writeResult(
  'trimmer-informativeness',
  'Structural trimmer: informativeness of JSON views',
  `Every JSON list in \`../shared/fixtures\` (the array holding the most bytes of at least 5
objects, where it holds at least a quarter of the document) and four generated ones, trimmed to 1%, 3% and 10% of their UTF-8 size (at least 256
bytes) by the trimmer (information-first, the default), its \`selection: 'breadth-first'\`
option (seed 002 §4), a head cut, head+tail and a keyword line filter, all in this run. A
record's identifier is chosen by the benchmark itself (a unique short field present in nine
records of ten, named like an identifier where one is), never by the trimmer. Views over
budget: **${overBudget}**.

## Record coverage with no query

Share of the list's records whose identifier is in the view. Targets at 3%: ≥ 0.9 (≥ 0.95 at
10%) where the identifiers take at most a quarter of the budget.

${coverageSummary}

Per list, the trimmer's coverage (the breadth-first option's and a head cut's in brackets);
bold where the identifiers fit a quarter of the budget:

${coverageDetail}

## What records say, with no query

Share of the distinct texts of a list (a message, a post, a description: the string field in
nine records of ten that reads as sentences, shallowest first, chosen by the benchmark) that are
in the view, each found by its shortest prefix of 32 characters or more that no other text
starts with, as written in JSON. No target in the issue; it shows whether the bytes
after the names go to what a reader reads the list for.

${saidTable}

## Planted anomalies

One record made to stand out in a benign list (an Evicted pod among Running ones, one failed
run, one HTTP 500 with an error, a crash-looping row of a pod Table, one red Jenkins build, one
Warning among Normal k3s events), at ${DEPTHS.map((d) => `${d * 100}%`).join(', ')} of the list:
${anomalyCases.length} cases. A hit needs the record's identifier in the view. Target at 3%:
≥ 0.9, with the generic question and with none.

${anomalyTable}

## Fragments without identity

Records shown in part without their identifier, over every list and budget above: trimmer
**${fragmentCounts.trimmer}**, breadth-first ${fragmentCounts['breadth-first']} (target 0).

## Questions that name records

Three records at 35%, 63% and 92% of a list, named by their identifiers in one question asking
for a unique field of each (a hit needs all three values); a record at 60% asked for by one of
its unique values (a hit needs its identifier); and the keyword needles of \`pnpm bench
trimmer\` (target ≥ 0.98 at 3%). Targets at 3% for the first two: ≥ 0.9.

${questionTable}

## Answers of a model

${modelPart}`,
);
