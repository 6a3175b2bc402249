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
import { headCut, headTail, lineFilter, shows, textNeedles } from './lib/text-baselines.mjs';

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

const LEVEL_WORDS = new Set([
  'info',
  'debug',
  'warn',
  'warning',
  'error',
  'notice',
  'fatal',
  'trace',
]);
const ANOMALY_WORDS = new Set(
  Object.values(ANOMALIES)
    .flat()
    .flatMap(
      (variant) =>
        variant('x')
          .toLowerCase()
          .match(/[a-z]+/g) ?? [],
    ),
);

/**
 * A question naming what many of the file's lines are about: its commonest word (four letters
 * or more, no level word, none of the planted lines' words) among those on at most half of the
 * lines. Its matches are far more than any budget here holds, as when a user asks about the
 * service a log comes from.
 */
function pointedQuestion(text) {
  const lines = text.split('\n');
  const counts = new Map();
  for (const line of lines) {
    for (const word of new Set(line.toLowerCase().match(/[a-z]{4,}/g) ?? [])) {
      if (!LEVEL_WORDS.has(word) && !ANOMALY_WORDS.has(word)) {
        counts.set(word, (counts.get(word) ?? 0) + 1);
      }
    }
  }
  // The commonest word on at most half of the lines; where every word is on more (a log of one
  // line repeated), the commonest word.
  let best = '';
  let bestCount = 0;
  for (const half of [lines.length / 2, Number.POSITIVE_INFINITY]) {
    for (const [word, count] of counts) {
      if (count <= half && (count > bestCount || (count === bestCount && word < best))) {
        best = word;
        bestCount = count;
      }
    }
    if (best) break;
  }
  return `What happened with ${best}?`;
}

const fixtures = listFixtures({ kind: 'text', minBytes: MIN_BYTES }).filter((fixture) =>
  FOLDERS.some((folder) => fixture.path.startsWith(folder)),
);

const METHODS = {
  'trimmer, generic question': (text, budget, question) =>
    trimmer.trim(text, budget, { userQuery: question }).text,
  'trimmer, no query': (text, budget) => trimmer.trim(text, budget).text,
  'trimmer, pointed question': (text, budget, _question, pointed) =>
    trimmer.trim(text, budget, { userQuery: pointed }).text,
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
const pointedQuestions = [];
let overBudget = 0;
let views = 0;
let breakdowns = 0;
let caseIndex = 0;
for (const [fixtureIndex, fixture] of fixtures.entries()) {
  const original = readFixture(fixture.path);
  const isDiff = fixture.path.startsWith('diff/');
  const pointed = pointedQuestion(original);
  pointedQuestions.push([fixture.path, pointed]);
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
          const view = METHODS[method](planted.text, budget, question, pointed);
          views++;
          if (Buffer.byteLength(view) > budget) overBudget++;
          const ok = shows(view, planted.line);
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
            if (!ok && share >= 0.03 && process.env.LOG_BENCH_DEBUG) {
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
        const ok = needle.mustContain.every((part) => shows(view, part));
        needleHits.set(key, (needleHits.get(key) ?? 0) + (ok ? 1 : 0));
      }
    }
  }
}

// ---------------------------------------------------------------- a question and many errors
// The five logs/*.log fixtures one after another: thousands of error and warning lines of a
// few shapes, and a question whose words match hundreds of routine lines (sshd's "Failed
// password"). What the view keeps of each level comes from its own note; the question's matches
// and the copies of the commonest line shape are counted in the view.
const mixedParts = fixtures.filter(
  (fixture) => fixture.path.startsWith('logs/') && fixture.path.endsWith('.log'),
);
const mixed = mixedParts.map((fixture) => readFixture(fixture.path)).join('');
const MIXED_QUESTIONS = [undefined, 'Is anything wrong?', 'Which pod failed, and why?'];
const mixedRows = [];
for (const share of [0.01, 0.03]) {
  const budget = Math.floor(Buffer.byteLength(mixed) * share);
  for (const question of MIXED_QUESTIONS) {
    const view = trimmer.trim(mixed, budget, question ? { userQuery: question } : undefined).text;
    views++;
    if (Buffer.byteLength(view) > budget) overBudget++;
    const counts = parseLevelBreakdown(trailingDisclosureNotes(view).at(-1)?.text ?? '')?.counts;
    const kept = (level) => {
      const entry = counts?.find((count) => count.level === level);
      return entry ? `${entry.total - entry.dropped} of ${entry.total}` : '–';
    };
    // The view's own lines: its note and its omitted-lines markers left out.
    const lines = view
      .split('\n')
      .slice(0, -1)
      .filter((line) => !/^\[lines? \d+(?:-\d+)? omitted\]\r?$/.test(line));
    const shapes = new Map();
    for (const line of lines) {
      const shape = line.replace(/\d+/g, '#');
      shapes.set(shape, (shapes.get(shape) ?? 0) + 1);
    }
    mixedRows.push([
      `${share * 100}%`,
      question ? `"${question}"` : 'none',
      kept('error'),
      kept('warn'),
      String(lines.filter((line) => /\bfailed\b/i.test(line)).length),
      String(Math.max(...shapes.values())),
      String(lines.length),
      String(new Set(lines).size),
    ]);
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

A pointed question names what many lines of the file are about (the commonest word of four
letters or more among those on at most half of its lines, or of all where every word is on
more; never a level word or a word of a planted line), so its matches outnumber what any
budget here holds; what stands out must still get room:

${markdownTable(
  ['fixture', 'pointed question'],
  pointedQuestions.map(([path, question]) => [path, question]),
)}

## Anomaly recall

${anomalyTable}

### Trimmer with no query, per fixture (all kinds)

${fixtureTable}

## Keyword needle recall on the same files

The rarest line near each of the same depths, asked about by its two rarest words (as in
\`bench/results/trimmer.md\`); ${needleCount} needles.

${needleTable}

## A question that matches hundreds of routine lines

The ${mixedParts.length} \`logs/*.log\` fixtures one after another (${Math.round(Buffer.byteLength(mixed) / 1024)} KiB). Error and warning lines kept come from
the view's own note; "failed" lines are the question's matches (mostly sshd's \`Failed
password\`); the last columns count copies of the commonest line shape (digits folded), all
lines the view keeps (its \`[lines A-B omitted]\` markers left out) and the distinct ones among
them. The note counts every copy of a line: a line repeated word for word is shown once before
other lines get the room, so fewer error lines can mean as many different ones.

${markdownTable(
  [
    'budget',
    'question',
    'error lines kept',
    'warn lines kept',
    '"failed" lines',
    'copies of one shape',
    'lines',
    'distinct lines',
  ],
  mixedRows,
)}

## Checks

- Views over budget: ${overBudget} of ${views}.
- Trimmer views with no query whose note carries the per-level breakdown (\`lines dropped by
  level: …\`): ${breakdowns} of ${[...totals.values()].reduce((a, b) => a + b, 0) * SHARES.length}.`,
);
