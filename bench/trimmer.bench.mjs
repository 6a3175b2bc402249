// Structural trimmer: throughput against a baseline measured in the same run (native JSON.parse
// of the same string for JSON, one line split plus one regex test per line for logs and text),
// with and without a question, on the shared fixtures and on generated lists and logs of 0.25 to
// 40 MB; and needle retention against three baselines (head cut, head+tail, keyword line
// filter). Needles are generated deterministically from the fixtures.
//
// The throughput is measured in fresh child processes of the Node binary that runs this script,
// or of `TRIMMER_BENCH_NODE` when set; the result goes to bench/results/trimmer.md on Node 20
// (with the retention tables) and to trimmer-node<major>.md on any other line (throughput only:
// the views, and so the retention, are the same on every line). `TRIMMER_BENCH_PROCESSES` sets
// how many processes (default 3); `TRIMMER_BENCH_PARTS` (`json`, `text`, `retention`, comma
// separated) runs only some parts, printed and not written.

import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { fixturesAvailable, listFixtures, readFixture } from '@compaction/fixtures';
import { createStructuralTrimmer } from '@compaction/trimmer';
import { generatedLog, LOG_SHAPES } from './lib/generated-logs.mjs';
import { jsonNeedles, POSITIONS } from './lib/json-needles.mjs';
import { dominantArray, identifierPath } from './lib/records.mjs';
import { markdownTable, writeResult } from './lib/report.mjs';
import { fieldQuestion, LIST_SHAPES, sizedList } from './lib/sized-lists.mjs';
import { headCut, headTail, lineFilter, shows, textNeedles } from './lib/text-baselines.mjs';

if (!fixturesAvailable()) {
  console.error('fixtures not available: ../shared/fixtures is missing');
  process.exit(1);
}

const trimmer = createStructuralTrimmer();
const breadthFirst = createStructuralTrimmer({ selection: 'breadth-first' });
const THROUGHPUT_BUDGET = 65_536;
/** Fresh processes the throughput is measured in (see below). */
const THROUGHPUT_PROCESSES = Math.max(1, Number(process.env.TRIMMER_BENCH_PROCESSES ?? 3));
const NODE = process.env.TRIMMER_BENCH_NODE || process.execPath;
const PARTS = new Set((process.env.TRIMMER_BENCH_PARTS ?? 'json,text,retention').split(','));
const ALL_PARTS = ['json', 'text', 'retention'].every((part) => PARTS.has(part));
const SHARES = [0.03, 0.1];
const MB = 1e6;
/** Sizes of the generated JSON lists and logs, in MB. */
const LIST_SIZES = [0.25, 1, 4, 10, 40];
const LOG_SIZES = [1, 10, 40];
/** Text fixtures from this size are timed (smaller ones time the trim's fixed costs). */
const TEXT_MIN_BYTES = 100_000;
/** The question the adapters and the distiller pass when the caller gives none. */
const GENERIC_QUESTION = 'is anything wrong?';
/** The text baseline's one test per line. */
const BASELINE_PATTERN = /\b(?:error|fail|fatal|exception|panic)/i;

// ---------------------------------------------------------------- throughput
// The baseline and the trims alternate run by run, each after a forced GC, so a burst of load on
// a shared machine hits all alike; medians of each. Runs and warm-ups follow the input's size:
// as many as fit in about `ROUND_MS` (31 and 20 at most, 3 and 1 at least), so a 40 MB input
// costs seconds, not minutes.
const ROUND_MS = 2000;

function interleavedMedians(fns) {
  const first = fns.map((fn) => {
    const start = process.hrtime.bigint();
    fn();
    return Number(process.hrtime.bigint() - start) / 1e6;
  });
  const round = first.reduce((sum, ms) => sum + ms, 0);
  const runs = Math.max(3, Math.min(31, Math.floor((0.6 * ROUND_MS) / round)));
  const warmup = Math.max(1, Math.min(20, Math.floor((0.4 * ROUND_MS) / round)));
  for (let i = 0; i < warmup; i++) {
    for (const fn of fns) fn();
  }
  const times = fns.map(() => []);
  for (let i = 0; i < runs; i++) {
    fns.forEach((fn, which) => {
      globalThis.gc?.();
      const start = process.hrtime.bigint();
      fn();
      times[which].push(Number(process.hrtime.bigint() - start) / 1e6);
    });
  }
  return { ms: times.map(median), runs };
}

function median(list) {
  return [...list].sort((a, b) => a - b)[Math.floor(list.length / 2)];
}

const isScalar = (value) => value === null || typeof value !== 'object';

/**
 * A question naming one field of the records of a fixture's dominant array: the field (a key
 * of three letters or more) present in at least 90% of them that is not their identifier and
 * has the fewest distinct values above one, as "which node is each pod on?" names a state
 * column.
 */
function fixtureFieldQuestion(text) {
  const records = dominantArray(JSON.parse(text))?.array;
  if (!records) return 'what is the type of each item?';
  const identity = JSON.stringify(identifierPath(records) ?? []);
  const fields = new Map();
  for (const record of records) {
    if (!record || typeof record !== 'object' || Array.isArray(record)) continue;
    for (const [key, value] of Object.entries(record)) {
      if (!isScalar(value) || !/^[A-Za-z_]{3,}$/.test(key) || JSON.stringify([key]) === identity) {
        continue;
      }
      const field = fields.get(key) ?? { present: 0, values: new Set() };
      field.present++;
      field.values.add(JSON.stringify(value));
      fields.set(key, field);
    }
  }
  const candidates = [...fields]
    .filter(([, field]) => field.present >= 0.9 * records.length && field.values.size > 1)
    .sort((a, b) => a[1].values.size - b[1].values.size || (a[0] < b[0] ? -1 : 1));
  return `what is the ${candidates[0]?.[0] ?? 'type'} of each item?`;
}

function* jsonInputs() {
  for (const fixture of listFixtures({ kind: 'json', minBytes: 500_000 })) {
    const text = readFixture(fixture.path);
    yield { name: fixture.path, text, question: fixtureFieldQuestion(text) };
  }
  for (const shape of LIST_SHAPES) {
    for (const size of LIST_SIZES) {
      yield {
        name: `(generated) ${shape}, ${size} MB`,
        text: sizedList(shape, size * MB),
        question: fieldQuestion(shape),
      };
    }
  }
}

function* textInputs() {
  for (const fixture of listFixtures({ kind: 'text', minBytes: TEXT_MIN_BYTES })) {
    yield { name: fixture.path, text: readFixture(fixture.path) };
  }
  for (const shape of LOG_SHAPES) {
    for (const size of LOG_SIZES) {
      yield { name: `(generated) ${shape}, ${size} MB`, text: generatedLog(shape, size * MB) };
    }
  }
}

function splitAndTest(text) {
  let matches = 0;
  for (const line of text.split('\n')) if (BASELINE_PATTERN.test(line)) matches++;
  return matches;
}

function measureThroughput() {
  const json = [];
  if (PARTS.has('json')) {
    for (const { name, text, question } of jsonInputs()) {
      const { ms, runs } = interleavedMedians([
        () => JSON.parse(text),
        () => trimmer.trim(text, THROUGHPUT_BUDGET),
        () => trimmer.trim(text, THROUGHPUT_BUDGET, { userQuery: GENERIC_QUESTION }),
        () => trimmer.trim(text, THROUGHPUT_BUDGET, { userQuery: question }),
        () => breadthFirst.trim(text, THROUGHPUT_BUDGET),
      ]);
      json.push({ name, bytes: Buffer.byteLength(text), question, runs, ms });
    }
  }
  const text = [];
  if (PARTS.has('text')) {
    for (const input of textInputs()) {
      const { ms, runs } = interleavedMedians([
        () => splitAndTest(input.text),
        () => trimmer.trim(input.text, THROUGHPUT_BUDGET),
        () => trimmer.trim(input.text, THROUGHPUT_BUDGET, { userQuery: GENERIC_QUESTION }),
      ]);
      text.push({ name: input.name, bytes: Buffer.byteLength(input.text), runs, ms });
    }
  }
  return { node: process.version, json, text };
}

// One process's figures move with where its heap and code landed as much as with the code: on
// this machine the same trim reads ±10% from one process to the next. So the throughput is
// measured in several fresh processes, one after another, and the tables give per input the
// median over them and the range.
if (process.argv.includes('--throughput-once')) {
  console.log(JSON.stringify(measureThroughput()));
  process.exit(0);
}
const perProcess = [];
if (PARTS.has('json') || PARTS.has('text')) {
  for (let i = 0; i < THROUGHPUT_PROCESSES; i++) {
    const run = spawnSync(
      NODE,
      ['--expose-gc', fileURLToPath(import.meta.url), '--throughput-once'],
      { encoding: 'utf8', maxBuffer: 1 << 24, env: process.env },
    );
    if (run.status !== 0) throw new Error(`throughput process failed: ${run.stderr}`);
    perProcess.push(JSON.parse(run.stdout.trim().split('\n').pop()));
    console.error(`throughput process ${i + 1} of ${THROUGHPUT_PROCESSES} done`);
  }
}
const nodeVersion = perProcess[0]?.node ?? process.version;
const nodeMajor = Number(nodeVersion.slice(1).split('.')[0]);

/** Per input row: each column's median over the processes, and for `column` its range. */
function acrossProcesses(part, value) {
  return perProcess[0][part].map((first, row) => {
    const values = perProcess.map((run) => value(run[part][row])).sort((a, b) => a - b);
    return {
      ...first,
      median: values[Math.floor(values.length / 2)],
      low: values[0],
      high: values[values.length - 1],
    };
  });
}
const range = (row, digits = 2) =>
  row.low === row.high ? '' : ` (${row.low.toFixed(digits)}–${row.high.toFixed(digits)})`;
const medianOf = (part, row, column) => median(perProcess.map((run) => run[part][row].ms[column]));

let jsonTable = '';
if (perProcess.length > 0 && perProcess[0].json.length > 0) {
  const columns = [1, 2, 3, 4].map((column) =>
    acrossProcesses('json', (row) => row.ms[column] / row.ms[0]),
  );
  jsonTable = markdownTable(
    [
      'input',
      'MB',
      'JSON.parse ms',
      'no question: trim ms',
      'ratio (target ≤ 2×)',
      `“${GENERIC_QUESTION}”: ratio`,
      'naming a field: ratio',
      'the question naming a field',
      'breadth-first ratio',
    ],
    perProcess[0].json.map((row, r) => [
      row.name,
      (row.bytes / MB).toFixed(2),
      medianOf('json', r, 0).toFixed(2),
      medianOf('json', r, 1).toFixed(2),
      ...columns.slice(0, 3).map((column) => {
        const cell = column[r];
        return `${cell.median.toFixed(2)}×${range(cell)}`;
      }),
      `“${row.question}”`,
      `${columns[3][r].median.toFixed(2)}×`,
    ]),
  );
}

let textTable = '';
if (perProcess.length > 0 && perProcess[0].text.length > 0) {
  const speed = (row, column) => row.bytes / MB / (row.ms[column] / 1000);
  const columns = [0, 1, 2].map((column) => acrossProcesses('text', (row) => speed(row, column)));
  const ratios = [1, 2].map((column) =>
    acrossProcesses('text', (row) => row.ms[column] / row.ms[0]),
  );
  textTable = markdownTable(
    [
      'input',
      'MB',
      'baseline MB/s',
      'no question: MB/s (target ≥ 100)',
      '× baseline time',
      `“${GENERIC_QUESTION}”: MB/s`,
      '× baseline time',
    ],
    perProcess[0].text.map((row, r) => [
      row.name,
      (row.bytes / MB).toFixed(2),
      columns[0][r].median.toFixed(0),
      `${columns[1][r].median.toFixed(0)}${range(columns[1][r], 0)}`,
      `${ratios[0][r].median.toFixed(1)}×`,
      `${columns[2][r].median.toFixed(0)}${range(columns[2][r], 0)}`,
      `${ratios[1][r].median.toFixed(1)}×`,
    ]),
  );
}

const throughputSection = `## Throughput

Measured on ${nodeVersion} in ${perProcess.length} fresh processes, one after another (one
process's figures move by about ±10% with where its heap and code landed): per input, the
median over them and, for the trims, the range. In each process the baseline and the trims
alternate run by run, each run after a forced garbage collection; medians of up to 31 runs after
up to 20 warm-ups (steady state: the WebAssembly tape and the JavaScript are optimised by then),
fewer on large inputs (as many as fit in about ${ROUND_MS / 1000} s of rounds, at least 3 after 1).
Every trim is to ${THROUGHPUT_BUDGET} bytes.

### JSON

Each JSON fixture over 500 KB, and generated lists (\`bench/lib/sized-lists.mjs\`: a
pretty-printed pod list, workflow runs in an envelope, a top-level array of requests, minified)
at ${LIST_SIZES.join(', ')} MB, against native \`JSON.parse\` of the same string: with no
question, with the question the adapters pass by default (“${GENERIC_QUESTION}”), and with one
naming a field of the records (for a fixture: the field nearly every record has, not its
identifier, with the fewest distinct values). The target (≤ 2×) is for every question column; the
\`selection: 'breadth-first'\` option (seed 002 §4, no question) is shown beside.

${jsonTable || '(not measured in this run)'}

### Logs and text

Each text fixture of at least ${TEXT_MIN_BYTES / 1000} KB (logs, CI logs, diffs, prose,
metrics) and generated logs (\`bench/lib/generated-logs.mjs\`: a service's plain log with levels
and a rare stack trace, the same service's JSON lines, a coloured CI log) at
${LOG_SIZES.join(', ')} MB, in MB/s of input (10^6 bytes of UTF-8), beside a baseline run on the
same text: one \`split('\\n')\` and one \`${BASELINE_PATTERN}\` test per line. Target: at least 100 MB/s.

${textTable || '(not measured in this run)'}`;

// Node 20 is the line the project's engines field starts at: its file holds the retention too.
if (nodeMajor !== 20) {
  const body = `${throughputSection}

The retention tables are in \`trimmer.md\` (Node 20): views are the same on every line.`;
  if (PARTS.has('json') && PARTS.has('text')) {
    writeResult(`trimmer-node${nodeMajor}`, `Structural trimmer on Node ${nodeMajor}`, body);
  } else console.log(body);
  process.exit(0);
}
if (!PARTS.has('retention')) {
  console.log(throughputSection);
  process.exit(0);
}

// ---------------------------------------------------------------- needles

const METHODS = {
  trimmer: (text, budget, question) => trimmer.trim(text, budget, { userQuery: question }).text,
  'head cut': headCut,
  'head+tail': headTail,
  'line filter': lineFilter,
};

const needles = [];
for (const fixture of listFixtures()) {
  const text = readFixture(fixture.path);
  needles.push(
    ...(fixture.kind === 'json'
      ? jsonNeedles(fixture.path, text)
      : textNeedles(fixture.path, text, POSITIONS)),
  );
}

// results[kind][method][share] = hits
const hits = {};
const totals = { json: 0, text: 0 };
const perFixture = new Map();
for (const needle of needles) {
  const text = readFixture(needle.fixture);
  const bytes = Buffer.byteLength(text);
  totals[needle.kind]++;
  for (const share of SHARES) {
    const budget = Math.max(256, Math.floor(bytes * share));
    for (const [method, run] of Object.entries(METHODS)) {
      const view = run(text, budget, needle.question);
      if (Buffer.byteLength(view) > budget)
        throw new Error(`${method} over budget on ${needle.fixture}`);
      const ok = needle.mustContain.every((part) => shows(view, part));
      if (!ok && method === 'trimmer' && process.env.TRIMMER_BENCH_DEBUG) {
        console.error(
          `miss ${needle.fixture} at ${share}: ${needle.question} -> ${needle.mustContain.join(' + ')}`,
        );
      }
      const key = `${needle.kind}|${method}|${share}`;
      hits[key] = (hits[key] ?? 0) + (ok ? 1 : 0);
      if (method === 'trimmer') {
        const row = perFixture.get(needle.fixture) ?? { needles: 0, 0.03: 0, 0.1: 0 };
        if (share === SHARES[0]) row.needles++;
        row[share] += ok ? 1 : 0;
        perFixture.set(needle.fixture, row);
      }
    }
  }
}

const recall = (kinds, method, share) => {
  const hit = kinds.reduce((sum, kind) => sum + (hits[`${kind}|${method}|${share}`] ?? 0), 0);
  const total = kinds.reduce((sum, kind) => sum + totals[kind], 0);
  return total === 0 ? '–' : (hit / total).toFixed(2);
};

const groups = [
  ['JSON', ['json']],
  ['text', ['text']],
  ['overall', ['json', 'text']],
];
const retentionTable = markdownTable(
  ['needles', 'budget', ...Object.keys(METHODS)],
  SHARES.flatMap((share) =>
    groups.map(([label, kinds]) => [
      `${label} (${kinds.reduce((sum, kind) => sum + totals[kind], 0)})`,
      `${share * 100}% of input`,
      ...Object.keys(METHODS).map((method) => recall(kinds, method, share)),
    ]),
  ),
);
const fixtureTable = markdownTable(
  ['fixture', 'needles', 'trimmer recall at 3%', 'trimmer recall at 10%'],
  [...perFixture.entries()].map(([path, row]) => [
    path,
    String(row.needles),
    (row[0.03] / row.needles).toFixed(2),
    (row[0.1] / row.needles).toFixed(2),
  ]),
);

const retentionSection = `## Retention

Needles generated from the fixtures: for JSON, records at ${POSITIONS.map((p) => `${p * 100}%`).join(', ')}
of the dominant array, asking for one unique string field of a record named by another (a hit
needs both values in the view); for text, the rarest line near the same depths, asked about by
its two rarest words (a hit needs the whole line). Phrasings vary. Budgets are shares of the
input's UTF-8 size (at least 256 bytes). Baselines run on the same input and budget: head cut,
head+tail (half each), and a keyword line filter (lines sharing the most query words, in
original order). Targets: overall ≥ 0.9 at 3% and ≥ 0.95 at 10%.

${retentionTable}

### Trimmer recall per fixture

${fixtureTable}`;

if (ALL_PARTS) {
  writeResult('trimmer', 'Structural trimmer', `${throughputSection}\n\n${retentionSection}`);
} else console.log(retentionSection);
