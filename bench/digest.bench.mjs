// Digest speed as a ratio to native JSON.parse of the same input, and digest size, for every
// JSON fixture plus a generated 500 KB Loki response. core's withJsonTape (the validating
// WebAssembly index every digest is read from) is timed too, so the cost of the digest walk
// itself can be told apart from the cost of validating and indexing the text; and
// parseJsonLossless, the path taken where WebAssembly is unavailable.
import { numberScanBackend, parseJsonLossless, withJsonTape } from '@compaction/core';
import { createDigester } from '@compaction/digest';
import { fixturesAvailable, listFixtures, lokiResponse, readFixture } from '@compaction/fixtures';
import { markdownTable, medianMs, writeResult } from './lib/report.mjs';

const inputs = [{ name: '(generated) Loki query_range, 200 streams', text: lokiResponse() }];
if (fixturesAvailable()) {
  for (const fixture of listFixtures({ kind: 'json' })) {
    inputs.push({ name: fixture.path, text: readFixture(fixture.path) });
  }
} else {
  console.warn('fixtures not available: only the generated input is measured');
}

const digester = createDigester({ env: {} });
const options = { runs: 15, warmup: 20 };
const rows = [];
const ratios = [];
const tapeRatios = [];
const parseRatios = [];
for (const { name, text } of inputs) {
  const outcome = digester.digest(text);
  if (!outcome.ok) throw new Error(`${name}: ${outcome.error.message}`);
  // Interleave the three timings so machine load hits them alike.
  const native = medianMs(() => JSON.parse(text), options);
  const tape = medianMs(() => withJsonTape(text, () => 0), options);
  const digest = medianMs(() => digester.digest(text), options);
  const lossless = medianMs(() => parseJsonLossless(text), options);
  const native2 = medianMs(() => JSON.parse(text), options);
  const baseline = Math.min(native, native2);
  const ratio = digest / baseline;
  ratios.push(ratio);
  tapeRatios.push(tape / baseline);
  parseRatios.push(lossless / baseline);
  rows.push([
    name,
    outcome.originalBytes.toLocaleString('en-US'),
    outcome.digestBytes.toLocaleString('en-US'),
    `${((outcome.digestBytes / outcome.originalBytes) * 100).toFixed(2)}%`,
    outcome.losslessNumbers.toLocaleString('en-US'),
    baseline.toFixed(2),
    `${(tape / baseline).toFixed(2)}×`,
    `${ratio.toFixed(2)}×`,
    ratio <= 1.5 ? 'yes' : 'no',
    `${(lossless / baseline).toFixed(2)}×`,
  ]);
}

const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];
const body = `Default caps (array sample 3, scalar cap 200 chars, key cap 50, depth cap 64). Times are
medians of ${options.runs} runs after ${options.warmup} warm-ups (steady state: the digest walk is JIT-compiled code, JSON.parse is native); "JSON.parse ms" is the smaller of two
baseline medians taken before and after. Target: digest ≤ 1.5× JSON.parse.

${markdownTable(
  [
    'input',
    'bytes',
    'digest bytes',
    'digest / input',
    'exact-text numbers kept',
    'JSON.parse ms',
    'tape ×',
    'digest ×',
    '≤ 1.5×',
    'parseJsonLossless ×',
  ],
  rows,
)}

Median digest ratio: ${median(ratios).toFixed(2)}× (${ratios.filter((r) => r <= 1.5).length} of ${ratios.length} inputs within 1.5×).
Median tape ratio alone (withJsonTape with an empty reader): ${median(tapeRatios).toFixed(2)}×: validating and indexing the text, the floor of the
digest. Median parseJsonLossless ratio: ${median(parseRatios).toFixed(2)}×: the floor of the fallback path (a full parse with exact
numbers, then a walk of the parsed value), taken where WebAssembly is unavailable
(\`numberScanBackend()\` is ${numberScanBackend()} here).`;

writeResult('digest', 'Digest: time vs JSON.parse, and size per fixture', body);
