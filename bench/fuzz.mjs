// `pnpm fuzz`: the long fuzz run. Per entry point of bench/lib/fuzz-harness.mjs, CASES seeded
// cases (default 100 000; `pnpm fuzz 5000` for fewer; entry names after the count run only
// those) checked against every invariant, 1% of them large hostile inputs (16-64 KB), and
// every case of 16 KB or more timed against a linear pass over the same input (JSON.parse, or
// a scan of its lines) in the same process: a case whose pass costs more than MULTIPLE times
// that plus SLACK_MS is reported as super-linear. Each entry point runs in its own process;
// the summary goes to bench/results/fuzz.md. Then the test files whose exhaustive or wall-clock
// checks `pnpm test` samples or skips run whole (FUZZ_EXHAUSTIVE=1).
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { FUZZ_ENTRIES, fuzzEntry } from './lib/fuzz-harness.mjs';
import { markdownTable, writeResult } from './lib/report.mjs';

const MULTIPLE = 200;
const SLACK_MS = 20;
const SEED = 20_261_201;
const here = fileURLToPath(import.meta.url);

if (process.argv[2] === '--child') {
  const report = fuzzEntry(process.argv[3], {
    cases: Number(process.argv[4]),
    seed: SEED,
    cost: { multiple: MULTIPLE, slackMs: SLACK_MS, largeShare: 0.01 },
  });
  process.stdout.write(JSON.stringify(report));
  process.exit(0);
}

const cases = Number(process.argv[2] ?? 100_000);
// `pnpm fuzz 100000 excerpt` runs only the entry points named after the count.
const only = process.argv.slice(3);
const rows = [];
const findings = [];
let violations = 0;
let superLinear = 0;
for (const name of Object.keys(FUZZ_ENTRIES)) {
  if (only.length > 0 && !only.includes(name)) continue;
  const started = performance.now();
  const child = spawnSync(process.execPath, [here, '--child', name, String(cases)], {
    encoding: 'utf8',
    maxBuffer: 64 << 20,
  });
  if (child.status !== 0) {
    rows.push([name, String(cases), 'crashed', '', '', '', '']);
    findings.push(`- ${name}: the run crashed: ${child.stderr.split('\n').slice(-5).join(' ')}`);
    violations++;
    continue;
  }
  const report = JSON.parse(child.stdout);
  violations += report.violations.length;
  superLinear += report.superLinear.length;
  rows.push([
    name,
    String(report.cases),
    String(report.violations.length),
    String(report.timedCases),
    String(report.superLinear.length),
    report.maxRatio.toFixed(1),
    `${((performance.now() - started) / 1000).toFixed(0)} s`,
  ]);
  for (const v of report.violations.slice(0, 5))
    findings.push(`- ${name}, case seed ${v.caseSeed}: ${v.message} — ${v.input}`);
  for (const s of report.superLinear.slice(0, 5)) {
    findings.push(
      `- ${name}, case seed ${s.caseSeed}: ${s.bytes} bytes took ${s.passMs.toFixed(1)} ms against ${s.baselineMs.toFixed(2)} ms for the linear pass — ${s.input}`,
    );
  }
  console.error(rows.at(-1).join(' | '));
}

// The test files whose exhaustive or wall-clock checks `pnpm test` samples or skips
// (FUZZ_EXHAUSTIVE from @compaction/test-runtime) run here whole; `pnpm fuzz 1000 exhaustive`
// runs only them.
const root = fileURLToPath(new URL('..', import.meta.url));
let exhaustiveNote = '';
if (only.length === 0 || only.includes('exhaustive')) {
  const files = exhaustiveTestFiles(root);
  const started = performance.now();
  const scratch = mkdtempSync(join(tmpdir(), 'fuzz-exhaustive-'));
  const report = join(scratch, 'report.json');
  spawnSync(
    process.execPath,
    [
      join(root, 'node_modules/vitest/vitest.mjs'),
      'run',
      ...files,
      '--reporter=json',
      `--outputFile=${report}`,
    ],
    {
      cwd: root,
      env: { ...process.env, FUZZ_EXHAUSTIVE: '1' },
      stdio: ['ignore', 'ignore', 'inherit'],
    },
  );
  let result;
  try {
    result = JSON.parse(readFileSync(report, 'utf8'));
  } catch {
    result = undefined;
  }
  rmSync(scratch, { recursive: true, force: true });
  const failedTests = result
    ? result.testResults.flatMap((file) =>
        file.assertionResults
          .filter((test) => test.status === 'failed')
          .map((test) => `${relative(root, file.name)} > ${test.fullName}`),
      )
    : ['the Vitest run crashed'];
  violations += failedTests.length;
  rows.push([
    `exhaustive and wall-clock tests (${files.length} files)`,
    result ? String(result.numTotalTests) : '?',
    String(failedTests.length),
    '',
    '',
    '',
    `${((performance.now() - started) / 1000).toFixed(0)} s`,
  ]);
  for (const name of failedTests.slice(0, 10)) findings.push(`- failed: ${name}`);
  exhaustiveNote = `\n\nThe test files that sample an exhaustive check or skip a wall-clock one in \`pnpm test\`
(${files.map((file) => `\`${file}\``).join(', ')}) run here with FUZZ_EXHAUSTIVE=1: every case, and
every timing.`;
  console.error(rows.at(-1).join(' | '));
}

/** Test files that read FUZZ_EXHAUSTIVE through @compaction/test-runtime. */
function exhaustiveTestFiles(dir) {
  const found = [];
  const walk = (at) => {
    for (const entry of readdirSync(at, { withFileTypes: true })) {
      if (entry.name === 'node_modules' || entry.name === 'dist' || entry.name.startsWith('.'))
        continue;
      const path = join(at, entry.name);
      if (entry.isDirectory()) walk(path);
      else if (entry.name.endsWith('.test.ts')) {
        const text = readFileSync(path, 'utf8');
        if (
          text.includes("from '@compaction/test-runtime'") &&
          /\b(EXHAUSTIVE|WHOLE_IN_FUZZ|sampled)\b/.test(text)
        )
          found.push(relative(dir, path));
      }
    }
  };
  for (const top of ['packages', 'examples', 'internal', 'bench']) walk(join(dir, top));
  return found.sort();
}

writeResult(
  'fuzz',
  'Fuzz: invariants and cost on generated, hostile and mutated inputs',
  `\`pnpm fuzz\` (bench/fuzz.mjs over bench/lib/fuzz-harness.mjs), seed ${SEED}: per entry point,
${cases.toLocaleString('en-US')} cases checked against every invariant (budget, valid JSON body,
a note exactly when content was lost, exact numbers, determinism, no throw but documented
errors); 1% are large hostile inputs (16–64 KB). Every case of 16 KB or more is also timed
(least of three tries) against a linear pass over the same input (JSON.parse for JSON, reading
the text as a JSON string for text): it is super-linear when it costs more than ${MULTIPLE}× that plus
${SLACK_MS} ms. "max ratio" is the largest pass/baseline ratio seen.

${markdownTable(['entry point', 'cases', 'invariant violations', 'timed cases', 'super-linear', 'max ratio', 'run time'], rows)}

${violations === 0 && superLinear === 0 ? 'No invariant violation and no super-linear case.' : `${violations} invariant violations and ${superLinear} super-linear cases:\n\n${findings.join('\n')}`}${exhaustiveNote}`,
);
process.exit(violations + superLinear === 0 ? 0 : 1);
