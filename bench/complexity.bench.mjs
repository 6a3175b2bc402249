// Growth of time with input size, per entry point and adversarial family (bench/lib/
// hostile-inputs.mjs): each pass timed at 1× to 64× its base size, beside a linear baseline
// (a plain scan of the same input) timed right before it, in rounds that visit every size, so
// load on a shared machine hits pass and baseline alike. The verdict is the growth exponent
// against that baseline (bench/lib/growth-exponent.mjs): 1.0 is linear, the target at most
// 1.15 for every family. The excerpt follows its budget, not the input, so its exponent is
// near 0. Each family runs in its own child process with a time limit, so a super-linear one
// is reported instead of stalling the run.
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { growthExponent, relativeGrowthExponent } from './lib/growth-exponent.mjs';
import { JSON_FAMILIES, TEXT_FAMILIES } from './lib/hostile-inputs.mjs';
import { markdownTable, writeResult } from './lib/report.mjs';

const here = fileURLToPath(import.meta.url);
const SCALES = [1, 2, 4, 8, 16, 32, 64];
const BASE_BYTES = 16 * 1024;
const ROUNDS = 9;
const BATCH_MS = 4;
/** One call longer than this stops a family's growth: it is reported, not waited for. */
const GROWTH_LIMIT_MS = 10_000;
const CHILD_TIMEOUT_MS = 300_000;
const TARGET = 1.15;

/** Entry points: how to prepare a family's text once and run the pass on it. */
async function entryPoints() {
  const { createStructuralTrimmer } = await import('@compaction/trimmer');
  const { createDigester } = await import('@compaction/digest');
  const { parseJsonLossless } = await import('@compaction/core');
  const { compileSearchPattern, describeText, excerpt } = await import('@compaction/artifacts');
  const trimmer = createStructuralTrimmer();
  const digester = createDigester({ env: {} });
  const search = (pattern, options) => {
    const matcher = compileSearchPattern(pattern, options);
    const test = (line) => matcher.find(line, 0) !== undefined;
    return (text) => {
      let matches = 0;
      for (let start = 0; start < text.length; ) {
        let end = text.indexOf('\n', start);
        if (end < 0) end = text.length;
        if (test(text.slice(start, end))) matches++;
        start = end + 1;
      }
      return matches;
    };
  };
  return {
    'trim (text)': {
      families: TEXT_FAMILIES,
      prepare: (text) => () => trimmer.trim(text, 4096),
    },
    'trim (JSON)': {
      families: JSON_FAMILIES,
      prepare: (text) => () => trimmer.trim(text, 4096),
    },
    'trim (JSON, budget just below the size)': {
      families: JSON_FAMILIES,
      prepare: (text) => {
        const budget = Math.max(256, Buffer.byteLength(text) - 16);
        return () => trimmer.trim(text, budget);
      },
    },
    digest: { families: JSON_FAMILIES, prepare: (text) => () => digester.digest(text) },
    // A parser against the native parser: both build the value (strings, objects), so the
    // allocation and the caches a 1 MiB value outgrows cost both alike.
    'lossless parse': {
      families: JSON_FAMILIES,
      baseline: 'JSON.parse',
      prepare: (text) => () => parseJsonLossless(text),
    },
    // Budget 1 024 chars: every size is past the windows' reach (32 × 1 025 + 16 384 units at
    // most), so the rows show the cost following the budget, not a whole text counted below it.
    'excerpt (1 024 chars, 4 096 bytes)': {
      families: TEXT_FAMILIES,
      prepare: (text) => {
        const d = describeText(text);
        const source = { totalChars: d.chars, totalBytes: d.bytes, digest: d.digest };
        return () => excerpt(text, 1024, source, { maxBytes: 4096 });
      },
    },
    describeText: { families: TEXT_FAMILIES, prepare: (text) => () => describeText(text) },
    'artifact search (literal)': {
      families: TEXT_FAMILIES,
      prepare: (text) => {
        const run = search('needle', {});
        return () => run(text);
      },
    },
    'artifact search (regex)': {
      families: TEXT_FAMILIES,
      prepare: (text) => {
        const run = search('(a|\\.)+x', { regex: true });
        return () => run(text);
      },
    },
  };
}

/** A plain linear pass over `text`: every UTF-16 unit read once (the same-run baseline). */
function scan(text) {
  let sum = 0;
  for (let i = 0; i < text.length; i++) sum = (sum + text.charCodeAt(i)) | 0;
  return sum;
}

/** Milliseconds per call of `fn`, over a batch of `calls` calls. */
function batchMs(fn, calls) {
  const start = process.hrtime.bigint();
  for (let i = 0; i < calls; i++) fn();
  return Number(process.hrtime.bigint() - start) / 1e6 / calls;
}

/** How many calls of `fn` (that took `ms` once) make a batch of at least BATCH_MS. */
const batchSize = (ms) => Math.max(1, Math.min(10_000, Math.ceil(BATCH_MS / Math.max(ms, 1e-3))));

if (process.argv[2] === '--child') {
  const [entry, family] = [process.argv[3], process.argv[4]];
  const point = (await entryPoints())[entry];
  const make = point.families[family];
  // Calibrate in growing size, reporting as it goes: a size that takes too long stops the
  // growth (and a timeout still shows the sizes that finished).
  const sizes = [];
  for (const scale of SCALES) {
    const text = make(BASE_BYTES * scale);
    const run = point.prepare(text);
    const base = point.baseline === 'JSON.parse' ? () => JSON.parse(text) : () => scan(text);
    base();
    run();
    const once = batchMs(run, 1);
    const baseOnce = batchMs(base, 1);
    sizes.push({
      scale,
      bytes: Buffer.byteLength(text),
      run,
      base,
      calls: batchSize(once),
      baseCalls: batchSize(baseOnce),
      ms: [],
      baselineMs: [],
      ratios: [],
    });
    process.stdout.write(
      `${JSON.stringify({ calibrated: scale, bytes: sizes.at(-1).bytes, ms: once })}\n`,
    );
    if (once > GROWTH_LIMIT_MS) break;
  }
  // Rounds over every size, in a rotated order, each pass timed right after its baseline on
  // the same input, so load that comes and goes hits pass and baseline alike.
  for (let round = 0; round < ROUNDS; round++) {
    for (let k = 0; k < sizes.length; k++) {
      const size = sizes[(k + round * 3) % sizes.length];
      globalThis.gc?.();
      const b = batchMs(size.base, size.baseCalls);
      const ms = batchMs(size.run, size.calls);
      size.baselineMs.push(b);
      size.ms.push(ms);
      size.ratios.push(ms / b);
    }
  }
  const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];
  const points = sizes.map((size) => ({
    scale: size.scale,
    bytes: size.bytes,
    ms: Math.min(...size.ms),
    baselineMs: Math.min(...size.baselineMs),
    ratio: median(size.ratios),
  }));
  process.stdout.write(`${JSON.stringify({ points })}\n`);
  process.exit(0);
}

const filter = process.argv.slice(2);
const rows = [];
let over = 0;
const started = performance.now();
for (const [entry, point] of Object.entries(await entryPoints())) {
  for (const family of Object.keys(point.families)) {
    if (filter.length && !filter.some((f) => `${entry} ${family}`.includes(f))) continue;
    const child = spawnSync(process.execPath, ['--expose-gc', here, '--child', entry, family], {
      encoding: 'utf8',
      timeout: CHILD_TIMEOUT_MS,
      maxBuffer: 1 << 20,
    });
    const lines = child.stdout
      .split('\n')
      .filter(Boolean)
      .map((line) => JSON.parse(line));
    const calibrated = lines.filter((line) => line.calibrated !== undefined);
    const points = lines.find((line) => line.points)?.points ?? [];
    const finished = points.length === SCALES.length && child.status === 0;
    const relative = finished ? relativeGrowthExponent(points) : undefined;
    const own = finished ? growthExponent(points) : undefined;
    const baseline = finished
      ? growthExponent(points.map((p) => ({ bytes: p.bytes, ms: p.baselineMs })))
      : undefined;
    const reached = calibrated.at(-1);
    const verdict = finished
      ? relative <= TARGET
        ? 'linear'
        : 'SUPER-LINEAR'
      : child.status === 0
        ? `SUPER-LINEAR: one call at ${reached.calibrated}× took ${(reached.ms / 1000).toFixed(1)} s`
        : `did not finish in ${CHILD_TIMEOUT_MS / 1000} s (reached ${reached ? `${reached.calibrated}×` : 'no size'}): ${child.stderr.trim().split('\n').at(-1) ?? ''}`;
    if (verdict !== 'linear') over++;
    const ms = (value) => value.toFixed(value < 1 ? 3 : value < 10 ? 2 : 1);
    const at = (scale) => points.find((p) => p.scale === scale);
    rows.push([
      entry,
      family,
      points.length ? `${ms(at(1).ms)} / ${ms(at(1).baselineMs)}` : '—',
      points.length ? `${ms(at(8).ms)} / ${ms(at(8).baselineMs)}` : '—',
      points.length ? `${ms(at(64).ms)} / ${ms(at(64).baselineMs)}` : '—',
      own === undefined ? '—' : own.toFixed(2),
      baseline === undefined ? '—' : baseline.toFixed(2),
      relative === undefined ? '—' : `**${relative.toFixed(2)}**`,
      verdict,
    ]);
    console.error(rows.at(-1).join(' | '));
  }
}
const minutes = ((performance.now() - started) / 60_000).toFixed(0);

writeResult(
  'complexity',
  'Complexity: growth of time with input size on adversarial inputs',
  `\`pnpm bench complexity\` (bench/complexity.bench.mjs), ${minutes} min, run under
\`flock /work/coordination/bench.lock\` on a machine shared with other work. Each pass runs on
inputs of ${SCALES.map((k) => `${k}×`).join(', ')} the base size of ${BASE_BYTES / 1024} KiB (a
${SCALES.at(-1)}× range, up to ${(BASE_BYTES * SCALES.at(-1)) / 2 ** 20} MiB), in a child process
per family. Beside the pass, at each size, the same run times a linear baseline over the same
input: a plain scan reading every UTF-16 unit once (for the lossless parse, \`JSON.parse\`,
which builds the same value). The sizes are measured in ${ROUNDS} rounds,
each round visiting every size (in a rotated order) and timing the pass right after its
baseline, in batches of at least ${BATCH_MS} ms.

- **exponent vs baseline** (the verdict): 1 plus the least-squares slope of
  log(median over rounds of pass ÷ baseline) on log(size). Load that comes and goes slows the
  pass and its baseline alike and cancels. 1.0 is linear; the target is at most ${TARGET} for
  every family.
- **own exponent** and **baseline exponent**: the slopes of log(best time) on log(size) of the
  pass and of the baseline alone, for reference. A busy machine moves them; where the scan's
  own exponent is above 1 (caches: the large inputs no longer fit), the verdict measures the
  pass against a scan that pays the same, i.e. it is the pass's exponent minus the scan's plus 1.
- The ms columns are best pass time / best baseline time at 1×, 8× and 64×. Some families
  grow in whole units (the long lines are 100 KB each), so their first sizes are the same input.

The excerpt segments only a window at each end (at most 32 × budget + 16 384 units each), so
past that reach its time is flat: at 1 024 chars every size here but the first is past it, and
its exponent is well below 1 (a text under the budget is counted whole, which is linear; the
one-cluster family, a single cluster whatever its size, is that case). describeText (what a
caller without a store runs once) is linear. Families: \`bench/lib/hostile-inputs.mjs\`. Budget
4096 bytes for the trims unless said otherwise. Artifact search runs \`compileSearchPattern\`'s
matcher over every line, as the library does.

${markdownTable(['entry point', 'family', '1× ms (pass / baseline)', '8× ms', '64× ms', 'own exponent', 'baseline exponent', 'exponent vs baseline', 'verdict'], rows)}

${over === 0 ? `Every family within the target of ${TARGET}.` : `${over} of ${rows.length} families over the target of ${TARGET} or unfinished.`}`,
);
