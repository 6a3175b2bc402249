// Exact-number JSON on the running engine, as ratios to the native JSON.parse / JSON.stringify
// of the same document: parseJsonLossless, stringifyJsonLossless on each path the engine offers
// (JSON.rawJSON on Node 21+, the marker fallback everywhere), and, where the engine has it, a
// reviver reading `context.source`: the other exact parse, measured to show why it is not used.
// Run on each Node line; the result file is named after the line.
import {
  LosslessNumber,
  losslessJsonFeatures,
  parseJsonLossless,
  stringifyJsonLossless,
} from '@compaction/core';
import { withLosslessJsonFeatures } from '@compaction/core/test';
import { fixturesAvailable, readFixture } from '@compaction/fixtures';
import { markdownTable, medianMs, writeResult } from './lib/report.mjs';

function generated(count, indexKeys) {
  const items = [];
  for (let i = 0; i < count; i++) {
    const key = indexKeys ? `"${i % 10}":${i},` : '';
    items.push(
      `{${key}"id":${12_345_678_901_234_567_890n + BigInt(i)},"parent":${9_007_199_254_740_993n + BigInt(i)},"score":1.50,"name":"item ${i}","n":${i}}`,
    );
  }
  return `[${items.join(',')}]`;
}

const inputs = [
  ['(generated) 20 000 records, two 64-bit ids each', generated(20_000, false)],
  ['(generated) the same with index-like keys (tree order ≠ text order)', generated(20_000, true)],
];
if (fixturesAvailable()) {
  for (const path of [
    'bigint/twitter-search-results.json',
    'geojson/canada.json',
    'k8s/k3s-pods-kube-system.json',
  ]) {
    inputs.push([path, readFixture(path)]);
  }
} else {
  console.warn('fixtures not available: only the generated inputs are measured');
}

function sourceReviver(text) {
  return JSON.parse(text, (_key, value, context) =>
    typeof value === 'number' && LosslessNumber.isNeededFor(context.source)
      ? new LosslessNumber(context.source)
      : value,
  );
}

const features = losslessJsonFeatures();
const reviverOffered = (() => {
  let source;
  JSON.parse('[1.0]', (_key, value, context) => {
    if (typeof value === 'number') source = context?.source;
    return value;
  });
  return source === '1.0';
})();
const options = { runs: 11, warmup: 5 };
const x = (value, baseline) =>
  Number.isFinite(value) ? `${(value / baseline).toFixed(2)}×` : 'n/a';
const rows = [];
for (const [name, text] of inputs) {
  const parsed = parseJsonLossless(text);
  if (!parsed.ok) throw parsed.error;
  const plain = JSON.parse(text);
  const expected = withLosslessJsonFeatures({ rawJson: false }, () =>
    stringifyJsonLossless(parsed.value),
  );
  if (features.rawJson && stringifyJsonLossless(parsed.value) !== expected) {
    throw new Error(`${name}: the two serializer paths disagree`);
  }
  const parseBase = medianMs(() => JSON.parse(text), options);
  const lossless = medianMs(() => parseJsonLossless(text), options);
  const reviver = reviverOffered ? medianMs(() => sourceReviver(text), options) : Number.NaN;
  const stringifyBase = medianMs(() => JSON.stringify(plain), options);
  const raw = features.rawJson
    ? medianMs(() => stringifyJsonLossless(parsed.value), options)
    : Number.NaN;
  const marks = medianMs(
    () => withLosslessJsonFeatures({ rawJson: false }, () => stringifyJsonLossless(parsed.value)),
    options,
  );
  rows.push([
    name,
    text.length.toLocaleString('en-US'),
    parsed.losslessNumbers.toLocaleString('en-US'),
    parseBase.toFixed(2),
    x(lossless, parseBase),
    x(reviver, parseBase),
    stringifyBase.toFixed(2),
    x(raw, stringifyBase),
    x(marks, stringifyBase),
  ]);
}

const major = process.versions.node.split('.')[0];
writeResult(
  `lossless-json-node${major}`,
  `Lossless JSON on Node ${major}: exact numbers against native JSON`,
  `
Engine features: \`JSON.rawJSON\` ${features.rawJson ? 'present (used by stringifyJsonLossless and by JSON.stringify of a LosslessNumber)' : 'absent (the marker fallback is used; JSON.stringify writes a LosslessNumber as a string of its digits)'}; reviver \`context.source\` ${reviverOffered ? 'present' : 'absent'}.
Medians of ${options.runs} runs after ${options.warmup} warm-ups; each × is against the native call on the same document in the same run.

${markdownTable(
  [
    'input',
    'chars',
    'LosslessNumbers',
    'JSON.parse ms',
    'parseJsonLossless ×',
    'reviver with context.source ×',
    'JSON.stringify ms',
    'stringifyJsonLossless, rawJSON ×',
    'stringifyJsonLossless, markers ×',
  ],
  rows,
)}

parseJsonLossless is one native parse and a WebAssembly scan for lossy number tokens, then a walk
that swaps in the exact numbers in text order (or, when the tree's order cannot follow the text,
one more parse with those tokens marked). A reviver reading \`context.source\` is exact too, but it
is called for every value of the document, which costs more than both of those paths, so it is
not used; the column is here to keep that decision checked on each engine. The two serializer
paths write the same bytes (checked on every input above); \`JSON.rawJSON\` is used where present.
`,
);
