// `pnpm fuzz`: the long fuzz run. Per entry point of bench/lib/fuzz-harness.mjs, CASES seeded
// cases (default 100 000; `pnpm fuzz 5000` for fewer; entry names after the count run only
// those) checked against every invariant, 1% of them large hostile inputs (16-64 KB), and
// every case of 16 KB or more timed against a linear pass over the same input (JSON.parse, or
// a scan of its lines) in the same process: a case whose pass costs more than MULTIPLE times
// that plus SLACK_MS is reported as super-linear. Each entry point runs in its own process;
// the summary goes to bench/results/fuzz.md.
import { spawnSync } from 'node:child_process';
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

${violations === 0 && superLinear === 0 ? 'No invariant violation and no super-linear case.' : `${violations} invariant violations and ${superLinear} super-linear cases:\n\n${findings.join('\n')}`}`,
);
process.exit(violations + superLinear === 0 ? 0 : 1);
