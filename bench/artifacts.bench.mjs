// Artifacts: the excerpt's cost follows its budget, not its input (400 KB vs 400 MB, ASCII
// and Unicode-heavy), store throughput against writing and hashing the same bytes by hand, the
// peak memory of the streaming store of 1 GB generated on the fly, against a process that
// only generates and hashes the same stream, and search over a 50 MB artifact against `grep -c`
// of the same file. Every figure is a ratio within this run.
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import {
  buildArtifactRecord,
  createArtifactLibrary,
  createArtifactStore,
  describeText,
  excerpt,
  excerptStream,
} from '@compaction/artifacts';
import { markdownTable, medianMs, writeResult } from './lib/report.mjs';

const MB = 1024 * 1024;
const GB = 1024 * MB;
const here = fileURLToPath(import.meta.url);

// ---------------------------------------------------------------- 1 GB child processes
async function* generated(total, ascii = false) {
  // 64 KiB of log lines (with a non-ASCII check mark unless `ascii`), reused with a changing
  // counter prefix.
  const mark = ascii ? 'ok' : '✓';
  const line = (i) =>
    `${String(i).padStart(10, '0')} INFO worker-7 processed batch ${mark} latency=12ms ${'x'.repeat(30)}\n`;
  let block = '';
  for (let i = 0; block.length < 64 * 1024; i++) block += line(i);
  const body = Buffer.from(block);
  let sent = 0;
  let n = 0;
  while (sent < total) {
    const chunk = Buffer.concat([Buffer.from(`#${n++}\n`), body]).subarray(
      0,
      Math.min(total - sent, body.length + 16),
    );
    sent += chunk.byteLength;
    yield chunk;
  }
}

if (process.argv[2] === '--child') {
  const mode = process.argv[3];
  let peak = process.memoryUsage().rss;
  const timer = setInterval(() => {
    peak = Math.max(peak, process.memoryUsage().rss);
  }, 5);
  const start = process.hrtime.bigint();
  let bytes = 0;
  if (mode === 'baseline') {
    const hash = createHash('sha256');
    for await (const chunk of generated(GB)) {
      hash.update(chunk);
      bytes += chunk.byteLength;
    }
    hash.digest('hex');
  } else if (mode === 'excerpt' || mode === 'excerpt-ascii') {
    const result = await excerptStream(generated(GB, mode === 'excerpt-ascii'), {
      budgetChars: 16_384,
    });
    bytes = result.description.bytes;
  } else {
    const dir = mkdtempSync(join(tmpdir(), 'artifacts-bench-'));
    try {
      const store = createArtifactStore({ dir });
      const result = await store.storeStream('call_1gb', generated(GB), { budgetChars: 16_384 });
      bytes = result.stored.bytes;
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }
  const seconds = Number(process.hrtime.bigint() - start) / 1e9;
  clearInterval(timer);
  peak = Math.max(peak, process.memoryUsage().rss, process.resourceUsage().maxRSS * 1024);
  console.log(JSON.stringify({ mode, bytes, seconds, peakRss: peak }));
  process.exit(0);
}

function child(mode) {
  const run = spawnSync(process.execPath, [here, '--child', mode], { encoding: 'utf8' });
  if (run.status !== 0) throw new Error(`${mode} child failed: ${run.stderr}`);
  return JSON.parse(run.stdout.trim().split('\n').at(-1));
}

/** Excerpt, store and streaming figures: `bench/results/artifacts.md`. */
async function excerptStoreAndStream() {
  // ---------------------------------------------------------------- excerpt: flat in the input
  const BUDGET = 16_384;
  const asciiLine =
    '2026-11-30T08:00:00Z INFO request handled path=/api/v1/items status=200 ms=12\n';
  const unicodeLine = '日志 ✓ 处理完成 👩🏽‍💻 café e\u0301 🇯🇵 — 状态=成功\r\n';
  const excerptRows = [];
  for (const [label, line] of [
    ['ASCII log', asciiLine],
    ['CJK + emoji + CRLF', unicodeLine],
  ]) {
    const small = line.repeat(Math.ceil((400 * 1024) / Buffer.byteLength(line)));
    const big = line.repeat(Math.ceil((400 * MB) / Buffer.byteLength(line)));
    big.slice(0, 1).charCodeAt(0); // flatten the repeat's rope before timing
    const facts = (text) => ({
      totalChars: text.length,
      totalBytes: Buffer.byteLength(text),
      digest: '0'.repeat(64),
    });
    const smallFacts = facts(small);
    const bigFacts = facts(big);
    excerpt(big, BUDGET, bigFacts);
    const smallMs = medianMs(() => excerpt(small, BUDGET, smallFacts), { runs: 15, warmup: 3 });
    const bigMs = medianMs(() => excerpt(big, BUDGET, bigFacts), { runs: 15, warmup: 3 });
    const describeSmallMs = medianMs(() => describeText(small), { runs: 5, warmup: 1 });
    const describeBigMs = medianMs(() => describeText(big), { runs: 1, warmup: 0 });
    excerptRows.push([
      label,
      `${smallMs.toFixed(2)} ms`,
      `${bigMs.toFixed(2)} ms`,
      `${(bigMs / smallMs).toFixed(2)}×`,
      `${describeSmallMs.toFixed(1)} ms → ${describeBigMs.toFixed(0)} ms (${(describeBigMs / describeSmallMs).toFixed(0)}×)`,
    ]);
  }

  // ---------------------------------------------------------------- store throughput
  const storeRows = [];
  const storeDir = mkdtempSync(join(tmpdir(), 'artifacts-store-bench-'));
  try {
    for (const [label, line] of [
      ['ASCII log', asciiLine],
      ['CJK + emoji + CRLF', unicodeLine],
    ]) {
      const text = line.repeat(Math.ceil((64 * MB) / Buffer.byteLength(line)));
      const bytes = Buffer.byteLength(text);
      const store = createArtifactStore({ dir: storeDir });
      let n = 0;
      const baselineMs = medianMs(
        () => {
          const data = Buffer.from(text);
          createHash('sha256').update(data).digest('hex');
          writeFileSync(join(storeDir, 'baseline.txt'), data);
        },
        { runs: 5, warmup: 1 },
      );
      // store() is async; time it with a small synchronous-looking wrapper over hrtime.
      const times = [];
      for (let i = 0; i < 6; i++) {
        const start = process.hrtime.bigint();
        await store.store(`op-${n++}`, text);
        if (i > 0) times.push(Number(process.hrtime.bigint() - start) / 1e6);
      }
      times.sort((a, b) => a - b);
      const storeMs = times[Math.floor(times.length / 2)];
      storeRows.push([
        label,
        `${(bytes / MB).toFixed(0)} MB`,
        `${(bytes / MB / (storeMs / 1000)).toFixed(0)} MB/s`,
        `${(bytes / MB / (baselineMs / 1000)).toFixed(0)} MB/s`,
        `${(storeMs / baselineMs).toFixed(2)}×`,
      ]);
    }
  } finally {
    rmSync(storeDir, { recursive: true, force: true });
  }

  // ---------------------------------------------------------------- streaming 1 GB
  const baseline = child('baseline');
  const streamed = child('excerpt');
  const streamedAscii = child('excerpt-ascii');
  const stored = child('store');
  const streamRows = [baseline, streamed, streamedAscii, stored].map((run) => [
    {
      baseline: 'generate + sha256 only (baseline)',
      excerpt: 'excerptStream (no store)',
      'excerpt-ascii': 'excerptStream, pure-ASCII lines',
      store: 'storeStream to disk',
    }[run.mode],
    `${(run.bytes / GB).toFixed(2)} GiB`,
    `${(run.peakRss / MB).toFixed(0)} MB`,
    `${((run.peakRss - baseline.peakRss) / MB).toFixed(0)} MB`,
    `${(run.bytes / MB / run.seconds).toFixed(0)} MB/s`,
  ]);

  writeResult(
    'artifacts',
    'Artifacts: excerpt cost, store throughput, streaming memory',
    `
## Excerpt of ${BUDGET} chars: 400 KB vs 400 MB input

The excerpt segments only a window at each end, so its time should not move with the input.
\`describeText\` (bytes, grapheme count and SHA-256, which a caller without a store computes once)
is linear, shown for contrast.

${markdownTable(['input', '400 KB', '400 MB', '400 MB / 400 KB', 'describeText 400 KB → 400 MB'], excerptRows)}

## Store throughput (64 MB string, temp file + rename, SHA-256 and grapheme count)

Baseline: \`Buffer.from\` + SHA-256 + \`writeFileSync\` of the same bytes, no grapheme count.

${markdownTable(['input', 'size', 'store()', 'baseline', 'store / baseline time'], storeRows)}

## Streaming 1 GiB generated on the fly (budget ${BUDGET} chars)

Each row is a fresh process; peak RSS sampled every 5 ms and from \`maxRSS\`. The baseline
process generates and hashes the same stream and keeps nothing.

${markdownTable(['process', 'streamed', 'peak RSS', 'over baseline', 'throughput'], streamRows)}

`,
  );
}

/** Search against `grep -c`: `bench/results/artifacts-search.md`. */
async function searchAgainstGrep() {
  // ---------------------------------------------------------------- search vs grep -c
  const searchRows = [];
  const searchRoot = mkdtempSync(join(tmpdir(), 'artifacts-search-bench-'));
  try {
    const lines = [];
    let bytes = 0;
    for (let i = 0; bytes < 50 * MB; i++) {
      const line = `2026-11-30T08:00:${String(i % 60).padStart(2, '0')}Z INFO worker-${i % 7} request handled path=/api/v1/items/${i} status=200 ms=${i % 97}`;
      lines.push(line);
      bytes += line.length + 1;
    }
    lines.push('2026-11-30T08:59:59Z ERROR worker-3 needle-in-the-haystack found here');
    const text = `${lines.join('\n')}\n`;
    const store = createArtifactStore({ dir: join(searchRoot, 'run.artifacts') });
    const stored = await store.store('big_log', text);
    await store.index.add(
      buildArtifactRecord({ sessionId: 'run', stored, toolCallId: 'big_log', preview: 'log' }),
    );
    const path = join(store.dir, stored.file);
    const grepMs = (args) => {
      const start = process.hrtime.bigint();
      const run = spawnSync('grep', [...args, path], { encoding: 'utf8' });
      if (run.error) throw run.error;
      return Number(process.hrtime.bigint() - start) / 1e6;
    };
    const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];
    const cases = [
      [
        'literal, match case, 1 match at the end',
        'needle-in-the-haystack',
        { caseSensitive: true },
        ['-c', '-F'],
      ],
      [
        'literal, any case (the default), 1 match',
        'NEEDLE-in-the-haystack',
        {},
        ['-c', '-F', '-i'],
      ],
      ['literal, match case, absent', 'zzzqqq', { caseSensitive: true }, ['-c', '-F']],
      ['literal, any case, absent', 'zzzqqq', {}, ['-c', '-F', '-i']],
      ['literal, any case, on every line (stops at 50)', 'STATUS=200', {}, ['-c', '-F', '-i']],
      ['regex (RE2), 1 match', 'needle-[a-z-]+-haystack', { regex: true }, ['-c', '-E']],
      ['regex (RE2), absent', 'zz+q{3}', { regex: true }, ['-c', '-E']],
    ];
    const hasGrep = !spawnSync('grep', ['--version']).error;
    for (const [label, pattern, options, grepArgs] of cases) {
      const regex = options.regex === true;
      const runs = regex ? 3 : 7;
      const fresh = [];
      const warm = [];
      let matches = 0;
      // One unmeasured round first: the JIT compiles the paths this case takes.
      for (let i = -1; i < runs; i++) {
        // A fresh library: resolving the id and building the file's line index are included,
        // as in a process that makes one search.
        const library = createArtifactLibrary({ root: searchRoot, searchTimeMs: 600_000 });
        let start = process.hrtime.bigint();
        const result = await library.search('big_log', pattern, options);
        const freshMs = Number(process.hrtime.bigint() - start) / 1e6;
        matches = result.matches.length;
        start = process.hrtime.bigint();
        await library.search('big_log', pattern, options);
        const warmMs = Number(process.hrtime.bigint() - start) / 1e6;
        if (i < 0) continue;
        fresh.push(freshMs);
        warm.push(warmMs);
      }
      const grep = hasGrep
        ? median(Array.from({ length: 7 }, () => grepMs([...grepArgs, pattern])))
        : NaN;
      searchRows.push([
        label,
        `\`${pattern}\``,
        String(matches),
        `${median(fresh).toFixed(0)} ms`,
        `${median(warm).toFixed(0)} ms`,
        hasGrep ? `${grep.toFixed(0)} ms (\`grep ${grepArgs.join(' ')}\`)` : 'no grep',
        hasGrep ? `${(median(fresh) / grep).toFixed(1)}×` : '',
        hasGrep ? `${(median(warm) / grep).toFixed(1)}×` : '',
      ]);
    }
  } finally {
    rmSync(searchRoot, { recursive: true, force: true });
  }

  writeResult(
    'artifacts-search',
    'Artifacts: search over a 50 MB log artifact against grep -c of the same file',
    `
\`library.search\` of an indexed 50 MB ASCII log (≈ 460 000 lines), median of 7 runs (3 for a
regex). Fresh = a new library each time: resolving the id and reading the file once to build
its line index are included, as in a process that makes one search; warm = the same search
again, the line index cached. \`grep\` is a process of its own (startup included) that counts
every matching line; a search stops at 50 matches. A literal is looked for in the raw bytes and
only the lines holding it are decoded; a regex is tested on every line. Before (issue 43): a
search ran 13–42× \`grep -c\`.

${markdownTable(['search', 'pattern', 'matches', 'fresh', 'warm', 'grep -c', 'fresh / grep', 'warm / grep'], searchRows)}
`,
  );
}

// `node artifacts.bench.mjs search` runs the search part only (it takes seconds, the rest minutes).
const parts = process.argv.slice(2);
if (parts.length === 0 || parts.includes('search')) await searchAgainstGrep();
if (parts.length === 0 || parts.includes('main')) await excerptStoreAndStream();
