// Growth of time with input size, per entry point and adversarial family (bench/lib/
// hostile-inputs.mjs): each pass timed at 1×, 4× and 16× its base size, and the growth exponent
// is the least-squares slope of log(time) against log(size). 1.0 is linear; the target is at
// most 1.15 for every family. The excerpt follows its budget, not the input, so its exponent is
// near 0. Each family runs in its own child process with a time limit, so a super-linear one
// is reported instead of stalling the run. Times are medians of repeats after a warm-up.
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { JSON_FAMILIES, TEXT_FAMILIES } from './lib/hostile-inputs.mjs';
import { markdownTable, writeResult } from './lib/report.mjs';

const here = fileURLToPath(import.meta.url);
const SCALES = [1, 4, 16];
const BASE_BYTES = 32 * 1024;
const CHILD_TIMEOUT_MS = 240_000;
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
        if (test(text.slice(start, Math.min(end, start + 4096)))) matches++;
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
    'lossless parse': { families: JSON_FAMILIES, prepare: (text) => () => parseJsonLossless(text) },
    'excerpt (16 384 chars)': {
      families: TEXT_FAMILIES,
      prepare: (text) => {
        const d = describeText(text);
        const source = { totalChars: d.chars, totalBytes: d.bytes, digest: d.digest };
        return () => excerpt(text, 16_384, source, { maxBytes: 32_768 });
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

/** Median milliseconds of `fn`, repeated until the repeats take at least `minMs` together. */
function timeMs(fn, minMs = 200) {
  fn();
  const times = [];
  let total = 0;
  while (times.length < 5 || (total < minMs && times.length < 200)) {
    globalThis.gc?.();
    const start = process.hrtime.bigint();
    fn();
    const ms = Number(process.hrtime.bigint() - start) / 1e6;
    times.push(ms);
    total += ms;
  }
  times.sort((a, b) => a - b);
  return times[Math.floor(times.length / 2)];
}

/** Least-squares slope of log(time) on log(size). */
function exponent(points) {
  const xs = points.map((p) => Math.log(p.bytes));
  const ys = points.map((p) => Math.log(Math.max(p.ms, 1e-4)));
  const mx = xs.reduce((a, b) => a + b, 0) / xs.length;
  const my = ys.reduce((a, b) => a + b, 0) / ys.length;
  let num = 0;
  let den = 0;
  for (let i = 0; i < xs.length; i++) {
    num += (xs[i] - mx) * (ys[i] - my);
    den += (xs[i] - mx) ** 2;
  }
  return num / den;
}

if (process.argv[2] === '--child') {
  const [entry, family] = [process.argv[3], process.argv[4]];
  const point = (await entryPoints())[entry];
  const make = point.families[family];
  const points = [];
  for (const scale of SCALES) {
    const text = make(BASE_BYTES * scale);
    const run = point.prepare(text);
    points.push({ bytes: Buffer.byteLength(text), ms: timeMs(run) });
    // Report as we go: a timeout still shows the sizes that finished.
    process.stdout.write(`${JSON.stringify(points.at(-1))}\n`);
  }
  process.exit(0);
}

const filter = process.argv.slice(2);
const rows = [];
let over = 0;
for (const [entry, point] of Object.entries(await entryPoints())) {
  for (const family of Object.keys(point.families)) {
    if (filter.length && !filter.some((f) => `${entry} ${family}`.includes(f))) continue;
    const child = spawnSync(process.execPath, ['--expose-gc', here, '--child', entry, family], {
      encoding: 'utf8',
      timeout: CHILD_TIMEOUT_MS,
      maxBuffer: 1 << 20,
    });
    const points = child.stdout
      .split('\n')
      .filter(Boolean)
      .map((line) => JSON.parse(line));
    const finished = points.length === SCALES.length && child.status === 0;
    const slope = finished ? exponent(points) : undefined;
    const verdict = !finished
      ? `did not finish ${SCALES[points.length]}× in ${CHILD_TIMEOUT_MS / 1000} s`
      : slope <= TARGET
        ? 'linear'
        : 'SUPER-LINEAR';
    if (verdict !== 'linear') over++;
    const cell = (i) => (points[i] ? `${points[i].ms.toFixed(points[i].ms < 10 ? 2 : 1)}` : '—');
    rows.push([
      entry,
      family,
      points[0] ? `${Math.round(points[0].bytes / 1024)} KiB` : '—',
      cell(0),
      cell(1),
      cell(2),
      slope === undefined ? '—' : slope.toFixed(2),
      verdict,
    ]);
    console.error(rows.at(-1).join(' | '));
  }
}

writeResult(
  'complexity',
  'Complexity: growth of time with input size on adversarial inputs',
  `Each pass is timed (median of repeats after a warm-up, in a child process per family) on
inputs of 1×, 4× and 16× the base size; the exponent is the least-squares slope of log(time)
on log(size): 1.0 is linear, and the target is at most ${TARGET} for every family. The excerpt
segments only a window at each end, so its exponent is near 0; describeText (what a caller
without a store runs once) is linear. Families: \`bench/lib/hostile-inputs.mjs\`. Budget 4096
bytes for the trims unless said otherwise. Artifact search runs \`compileSearchPattern\`'s
matcher over every line, as the library does.

${markdownTable(['entry point', 'family', '1× size', '1× ms', '4× ms', '16× ms', 'exponent', 'verdict'], rows)}

${over === 0 ? `Every family within the target of ${TARGET}.` : `${over} of ${rows.length} families over the target of ${TARGET} or unfinished.`}`,
);
