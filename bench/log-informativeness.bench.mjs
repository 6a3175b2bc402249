// Text and log informativeness: does a view keep what a reader needs when the question does not
// name it? One realistic anomaly is planted in a real log, CI log or diff from the shared
// fixtures, at 35–92% of its depth, and each method's view at 1%, 3% and 10% of the input is
// checked for the planted line, asked a generic question and no question at all. Keyword needle
// recall on the same files checks that query relevance keeps working on top. Baselines (head
// cut, head+tail, a keyword line filter) run on the same inputs and budgets in the same run.
import { parseLevelBreakdown, trailingDisclosureNotes } from '@compaction/core';
import { fixturesAvailable, listFixtures, readFixture } from '@compaction/fixtures';
import { createStructuralTrimmer } from '@compaction/trimmer';
import { markdownTable, writeResult } from './lib/report.mjs';
import { headCut, headTail, lineFilter, textNeedles } from './lib/text-baselines.mjs';

if (!fixturesAvailable()) {
  console.error('fixtures not available: ../shared/fixtures is missing');
  process.exit(1);
}

const trimmer = createStructuralTrimmer();
const SHARES = [0.01, 0.03, 0.1];
const DEPTHS = [0.35, 0.49, 0.63, 0.78, 0.92];
const FOLDERS = ['logs/', 'ci-logs/', 'diff/'];
const MIN_BYTES = 16_000;

const GENERIC_QUESTIONS = [
  'Is anything wrong?',
  'Are there any problems?',
  'Summarize this output.',
  'What happened here?',
  'Anything I should worry about?',
];

// Each kind of anomaly in several real-world spellings; the one used rotates with the case, so
// no single spelling is what the figures measure. `id` makes the planted line unique.
const ANOMALIES = {
  'ERROR line': [
    (id) =>
      `2024-03-18T09:41:27.302Z ERROR [ledger-sync] write to shard 12 failed: connection reset by peer (job ${id})`,
    (id) =>
      `[Mon Mar 18 09:41:27 2024] [error] [client 10.3.7.21] upstream ${id} returned an invalid response`,
    (id) =>
      `level=error ts=2024-03-18T09:41:27Z caller=sync.go:214 msg="checkpoint upload failed" task=${id}`,
    (id) =>
      `E0318 09:41:27.302114    2231 controller.go:114] failed to sync ${id}: context deadline exceeded`,
    (id) =>
      `{"level":"error","time":"2024-03-18T09:41:27Z","msg":"payment capture failed","order":"${id}"}`,
  ],
  'linter offense (severity: E)': [
    (id) => `src/billing/invoice.py:214:9: severity: E undefined-name "${id}" is not defined`,
    (id) => `- file: lib/export.rb, line: 88, severity: E, rule: Lint/ShadowedException, id: ${id}`,
    (id) => `app/models/refund.rb:41:5: E: Lint/UselessAssignment: useless assignment to ${id}.`,
  ],
  'firing alert (severity="warning")': [
    (id) =>
      `ALERTS{alertname="KubePodCrashLooping", alertstate="firing", namespace="payments", pod="${id}", severity="warning"} 1`,
    (id) => `[FIRING:1] DiskWillFillIn4Hours instance=${id} severity="warning"`,
    (id) => `alert=HighRequestLatency state=firing severity="warning" service=${id}`,
  ],
};
const KINDS = Object.keys(ANOMALIES);

/** A short deterministic identifier for a case. */
function caseId(...parts) {
  let hash = 0x811c9dc5;
  for (const char of parts.join('|')) hash = Math.imul(hash ^ char.charCodeAt(0), 0x01000193);
  return `x${(hash >>> 0).toString(16).padStart(8, '0')}`;
}

/** Index of the first hunk line at or after `from` (a context, added or removed line). */
function hunkLineAt(lines, from) {
  let inHunk = false;
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i];
    if (line.startsWith('diff --git ')) inHunk = false;
    else if (line.startsWith('@@ ')) inHunk = true;
    else if (
      inHunk &&
      i >= from &&
      /^[ +-]/.test(line) &&
      !line.startsWith('+++ ') &&
      !line.startsWith('--- ')
    )
      return i;
  }
  return -1;
}

/** The text with `line` planted at `depth` of its lines (an added line inside a hunk for diffs). */
function plant(text, line, depth, isDiff) {
  const lines = text.split('\n');
  const crlf = lines.filter((l) => l.endsWith('\r')).length > lines.length / 2;
  let at = Math.floor(lines.length * depth);
  let planted = line;
  if (isDiff) {
    at = hunkLineAt(lines, at);
    if (at < 0) return undefined;
    planted = `+${line}`;
  }
  lines.splice(at, 0, crlf ? `${planted}\r` : planted);
  return { text: lines.join('\n'), line: planted };
}

const fixtures = listFixtures({ kind: 'text', minBytes: MIN_BYTES }).filter((fixture) =>
  FOLDERS.some((folder) => fixture.path.startsWith(folder)),
);

const METHODS = {
  'trimmer, generic question': (text, budget, question) =>
    trimmer.trim(text, budget, { userQuery: question }).text,
  'trimmer, no query': (text, budget) => trimmer.trim(text, budget).text,
  'head cut': headCut,
  'head+tail': headTail,
  'line filter, generic question': lineFilter,
};
const methodNames = Object.keys(METHODS);

// hits[`${kind}|${method}|${share}`]
const hits = new Map();
const add = (key, ok) => hits.set(key, (hits.get(key) ?? 0) + (ok ? 1 : 0));
const totals = new Map();
const perFixture = new Map();
let overBudget = 0;
let views = 0;
let breakdowns = 0;
let caseIndex = 0;
for (const [fixtureIndex, fixture] of fixtures.entries()) {
  const original = readFixture(fixture.path);
  const isDiff = fixture.path.startsWith('diff/');
  for (const [depthIndex, depth] of DEPTHS.entries()) {
    for (const kind of KINDS) {
      const variants = ANOMALIES[kind];
      const variant = variants[(fixtureIndex + depthIndex) % variants.length];
      const planted = plant(original, variant(caseId(fixture.path, depth, kind)), depth, isDiff);
      if (!planted) continue;
      const question = GENERIC_QUESTIONS[caseIndex++ % GENERIC_QUESTIONS.length];
      const bytes = Buffer.byteLength(planted.text);
      totals.set(kind, (totals.get(kind) ?? 0) + 1);
      for (const share of SHARES) {
        const budget = Math.max(256, Math.floor(bytes * share));
        for (const method of methodNames) {
          const view = METHODS[method](planted.text, budget, question);
          views++;
          if (Buffer.byteLength(view) > budget) overBudget++;
          const ok = view.includes(planted.line);
          add(`${kind}|${method}|${share}`, ok);
          if (
            method === 'trimmer, no query' ||
            (process.env.LOG_BENCH_DEBUG && method.startsWith('trimmer'))
          ) {
            const note = trailingDisclosureNotes(view).at(-1)?.text ?? '';
            if (parseLevelBreakdown(note)) breakdowns++;
            const row = perFixture.get(fixture.path) ?? { cases: 0 };
            if (share === SHARES[0]) row.cases++;
            row[share] = (row[share] ?? 0) + (ok ? 1 : 0);
            perFixture.set(fixture.path, row);
            if (!ok && share === 0.03 && process.env.LOG_BENCH_DEBUG) {
              console.error(
                `miss ${method} ${fixture.path} at ${depth} (${kind}) [${question}]: ${planted.line}`,
              );
            }
          }
        }
      }
    }
  }
}

// ---------------------------------------------------------------- keyword needles
const NEEDLE_METHODS = {
  trimmer: (text, budget, question) => trimmer.trim(text, budget, { userQuery: question }).text,
  'head cut': headCut,
  'head+tail': headTail,
  'line filter': lineFilter,
};
const needleHits = new Map();
let needleCount = 0;
for (const fixture of fixtures) {
  const text = readFixture(fixture.path);
  const bytes = Buffer.byteLength(text);
  for (const needle of textNeedles(fixture.path, text, DEPTHS)) {
    needleCount++;
    for (const share of SHARES) {
      const budget = Math.max(256, Math.floor(bytes * share));
      for (const [method, run] of Object.entries(NEEDLE_METHODS)) {
        const view = run(text, budget, needle.question);
        views++;
        if (Buffer.byteLength(view) > budget) overBudget++;
        const key = `${method}|${share}`;
        const ok = needle.mustContain.every((part) => view.includes(part));
        needleHits.set(key, (needleHits.get(key) ?? 0) + (ok ? 1 : 0));
      }
    }
  }
}

const ratio = (hit, total) => (total === 0 ? '–' : (hit / total).toFixed(2));
const anomalyRows = [];
for (const share of SHARES) {
  for (const kind of [...KINDS, 'all']) {
    const kinds = kind === 'all' ? KINDS : [kind];
    const total = kinds.reduce((sum, k) => sum + totals.get(k), 0);
    anomalyRows.push([
      `${kind} (${total})`,
      `${share * 100}%`,
      ...methodNames.map((method) =>
        ratio(
          kinds.reduce((sum, k) => sum + (hits.get(`${k}|${method}|${share}`) ?? 0), 0),
          total,
        ),
      ),
    ]);
  }
}
const anomalyTable = markdownTable(['planted anomaly', 'budget', ...methodNames], anomalyRows);
const fixtureTable = markdownTable(
  ['fixture', 'cases', 'no query at 1%', 'at 3%', 'at 10%'],
  [...perFixture.entries()].map(([path, row]) => [
    path,
    String(row.cases),
    ...SHARES.map((share) => ratio(row[share] ?? 0, row.cases)),
  ]),
);
const needleTable = markdownTable(
  ['budget', ...Object.keys(NEEDLE_METHODS)],
  SHARES.map((share) => [
    `${share * 100}%`,
    ...Object.keys(NEEDLE_METHODS).map((method) =>
      ratio(needleHits.get(`${method}|${share}`) ?? 0, needleCount),
    ),
  ]),
);

writeResult(
  'log-informativeness',
  'Text and log informativeness',
  `Inputs: the ${fixtures.length} logs, CI logs and diffs of at least ${MIN_BYTES} bytes under ${FOLDERS.join(', ')}
in the shared fixtures. Into each, one anomaly is planted at ${DEPTHS.map((d) => `${d * 100}%`).join(', ')} of its
lines (in a diff, as an added line inside a hunk), in the file's own line endings: an ERROR line,
a linter offense with \`severity: E\`, or a firing alert with \`severity="warning"\`, each in
several real-world spellings (timestamped \`ERROR\`, Apache \`[error]\`, logfmt \`level=error\`,
klog \`E0318\`, JSON \`"level":"error"\`; \`severity: E\`, \`file:1:2: E:\`; Prometheus
\`ALERTS{…alertstate="firing"…}\`, Alertmanager \`[FIRING:1]\`, logfmt \`state=firing\`), none of
them named by the question. A hit needs the whole planted line in the view. Budgets are shares of
the input's UTF-8 size (at least 256 bytes). The generic questions rotate through
${GENERIC_QUESTIONS.map((q) => `"${q}"`).join(', ')}. Target: ≥ 0.9 at 3% with a generic
question and with none.

## Anomaly recall

${anomalyTable}

### Trimmer with no query, per fixture (all kinds)

${fixtureTable}

## Keyword needle recall on the same files

The rarest line near each of the same depths, asked about by its two rarest words (as in
\`bench/results/trimmer.md\`); ${needleCount} needles.

${needleTable}

## Checks

- Views over budget: ${overBudget} of ${views}.
- Trimmer views with no query whose note carries the per-level breakdown (\`lines dropped by
  level: …\`): ${breakdowns} of ${[...totals.values()].reduce((a, b) => a + b, 0) * SHARES.length}.`,
);
