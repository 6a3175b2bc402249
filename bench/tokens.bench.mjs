// Token counts: the default estimate (UTF-8 bytes / 3.5) against o200k_base (gpt-tokenizer) on
// every shared fixture, grouped by kind, and how fast gpt-tokenizer counts.
import { byteEstimateTokenCounter, utf8ByteLength } from '@compaction/core';
import { createGptTokenCounter } from '@compaction/core/gpt-tokenizer';
import { fixturesAvailable, listFixtures, readFixture } from '@compaction/fixtures';
import { markdownTable, writeResult } from './lib/report.mjs';

if (!fixturesAvailable()) {
  console.error('fixtures not available: ../shared/fixtures is missing');
  process.exit(1);
}

const o200k = createGptTokenCounter();
// Loads the encoding's tables before anything is timed.
o200k.countTokens(readFixture(listFixtures()[0].path));
const groups = new Map();
const rows = [];
for (const fixture of listFixtures()) {
  const text = readFixture(fixture.path);
  const bytes = utf8ByteLength(text);
  const estimate = byteEstimateTokenCounter.countTokens(text);
  const start = process.hrtime.bigint();
  const real = o200k.countTokens(text);
  const ms = Number(process.hrtime.bigint() - start) / 1e6;
  const group = fixture.path.split('/')[0];
  const entry = groups.get(group) ?? { bytes: 0, estimate: 0, real: 0, ms: 0 };
  entry.bytes += bytes;
  entry.estimate += estimate;
  entry.real += real;
  entry.ms += ms;
  groups.set(group, entry);
  rows.push([fixture.path, bytes, estimate, real, `${((estimate / real - 1) * 100).toFixed(0)}%`]);
}

const percent = (entry) => `${((entry.estimate / entry.real - 1) * 100).toFixed(0)}%`;
const groupRows = [...groups.entries()]
  .sort(([a], [b]) => a.localeCompare(b))
  .map(([group, entry]) => [
    group,
    entry.bytes,
    entry.estimate,
    entry.real,
    (entry.bytes / entry.real).toFixed(2),
    percent(entry),
    (entry.bytes / 1e3 / entry.ms).toFixed(1),
  ]);

writeResult(
  'tokens',
  'Token counting: bytes / 3.5 against o200k',
  `The default \`byteEstimateTokenCounter\` divides UTF-8 bytes by 3.5; \`createGptTokenCounter()\`
(\`@compaction/core/gpt-tokenizer\`) counts o200k_base tokens with gpt-tokenizer. A negative
error means the estimate undercounts: routing then sends a result to one model call that does
not fit the context. Every shared fixture, one count each after the tables are loaded.

## By kind

${markdownTable(['kind', 'bytes', 'estimate', 'o200k', 'bytes per o200k token', 'estimate error', 'o200k MB/s'], groupRows)}

## Per fixture

${markdownTable(['fixture', 'bytes', 'estimate', 'o200k', 'estimate error'], rows)}
`,
);
