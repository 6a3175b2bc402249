// Structural trimmer: throughput against native JSON.parse, and needle retention against three
// baselines (head cut, head+tail, keyword line filter), all measured in the same run on the
// shared fixtures. Needles are generated deterministically from the fixtures.

import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { fixturesAvailable, listFixtures, readFixture } from '@compaction/fixtures';
import { createStructuralTrimmer } from '@compaction/trimmer';
import { jsonNeedles, POSITIONS } from './lib/json-needles.mjs';
import { markdownTable, writeResult } from './lib/report.mjs';
import { headCut, headTail, lineFilter, shows, textNeedles } from './lib/text-baselines.mjs';

if (!fixturesAvailable()) {
  console.error('fixtures not available: ../shared/fixtures is missing');
  process.exit(1);
}

const trimmer = createStructuralTrimmer();
const breadthFirst = createStructuralTrimmer({ selection: 'breadth-first' });
const THROUGHPUT_BUDGET = 65_536;
/** Fresh processes the throughput is measured in (see below). */
const THROUGHPUT_PROCESSES = Math.max(1, Number(process.env.TRIMMER_BENCH_PROCESSES ?? 5));
const SHARES = [0.03, 0.1];

// ---------------------------------------------------------------- throughput
// The baseline and the trims alternate run by run (each after a forced GC, as `medianMs` does),
// so a burst of load on a shared machine hits all alike; medians of each.
function interleavedMedians(fns, { runs = 31, warmup = 20 } = {}) {
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
  return times.map(median);
}

function median(list) {
  return [...list].sort((a, b) => a - b)[Math.floor(list.length / 2)];
}

function measureThroughput() {
  const rows = [];
  for (const fixture of listFixtures({ kind: 'json', minBytes: 500_000 })) {
    const text = readFixture(fixture.path);
    const [parseMs, trimMs, breadthMs] = interleavedMedians([
      () => JSON.parse(text),
      () => trimmer.trim(text, THROUGHPUT_BUDGET),
      () => breadthFirst.trim(text, THROUGHPUT_BUDGET),
    ]);
    rows.push({ path: fixture.path, bytes: fixture.bytes, parseMs, trimMs, breadthMs });
  }
  return rows;
}

// One process's figures move with where its heap and code landed as much as with the code: on
// this machine the same trim reads ±10% from one process to the next. So the throughput is
// measured in several fresh processes, and the table gives the process with the median ratio
// per fixture, and the range over all of them.
if (process.argv.includes('--throughput-once')) {
  console.log(JSON.stringify(measureThroughput()));
  process.exit(0);
}
const perProcess = [];
for (let i = 0; i < THROUGHPUT_PROCESSES; i++) {
  const run = spawnSync(
    process.execPath,
    ['--expose-gc', fileURLToPath(import.meta.url), '--throughput-once'],
    { encoding: 'utf8', maxBuffer: 1 << 24 },
  );
  if (run.status !== 0) throw new Error(`throughput process failed: ${run.stderr}`);
  perProcess.push(JSON.parse(run.stdout.trim().split('\n').pop()));
}
const throughputRows = perProcess[0].map((_, f) => {
  const runs = perProcess
    .map((rows) => rows[f])
    .sort((a, b) => a.trimMs / a.parseMs - b.trimMs / b.parseMs);
  const ratios = runs.map((row) => row.trimMs / row.parseMs);
  return { ...runs[Math.floor(runs.length / 2)], low: ratios[0], high: ratios.at(-1) };
});

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

const throughputTable = markdownTable(
  [
    'fixture',
    'bytes',
    'JSON.parse ms',
    'trim to 64 KiB ms',
    'ratio (target ≤ 2×)',
    `ratio over ${THROUGHPUT_PROCESSES} processes`,
    'breadth-first ms',
    'breadth-first ratio',
  ],
  throughputRows.map((row) => [
    row.path,
    String(row.bytes),
    row.parseMs.toFixed(2),
    row.trimMs.toFixed(2),
    `${(row.trimMs / row.parseMs).toFixed(2)}×`,
    `${row.low.toFixed(2)}–${row.high.toFixed(2)}×`,
    row.breadthMs.toFixed(2),
    `${(row.breadthMs / row.parseMs).toFixed(2)}×`,
  ]),
);
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

writeResult(
  'trimmer',
  'Structural trimmer',
  `## Throughput

Each JSON fixture over 500 KB trimmed to ${THROUGHPUT_BUDGET} bytes (no query), against native
\`JSON.parse\` of the same string; median of 31 runs after 20 warm-ups (steady state: the WebAssembly tape and
the JavaScript are optimised by then), runs alternating with the baseline, each after a forced
garbage collection. Measured in ${THROUGHPUT_PROCESSES} fresh processes, one after another (one
process's figures move by about ±10% with where its heap and code landed): per fixture, the
figures of the process with the median ratio, and the range of the ratio over all of them. The
default (information-first) selection and the \`selection: 'breadth-first'\` option (seed 002 §4)
side by side; the target is the default's.

${throughputTable}

## Retention

Needles generated from the fixtures: for JSON, records at ${POSITIONS.map((p) => `${p * 100}%`).join(', ')}
of the dominant array, asking for one unique string field of a record named by another (a hit
needs both values in the view); for text, the rarest line near the same depths, asked about by
its two rarest words (a hit needs the whole line). Phrasings vary. Budgets are shares of the
input's UTF-8 size (at least 256 bytes). Baselines run on the same input and budget: head cut,
head+tail (half each), and a keyword line filter (lines sharing the most query words, in
original order). Targets: overall ≥ 0.9 at 3% and ≥ 0.95 at 10%.

${retentionTable}

### Trimmer recall per fixture

${fixtureTable}`,
);
