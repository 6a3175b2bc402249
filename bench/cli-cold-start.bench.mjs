// CLI cold start: the wall-clock time of one `compaction <command>` process on a small input,
// against `node -e 0` measured in the same run, interleaved round by round so a busy machine
// slows both alike. Every hook-style call (`compaction trim` in a pipe) pays this start. The
// ES modules each command loads are counted in a separate run, with a loader hook.
// `node bench/cli-cold-start.bench.mjs [runs] [--bin path/to/compaction.js]` (default 21 runs).
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { moduleLog } from '@compaction/test-runtime';
import { markdownTable, writeResult } from './lib/report.mjs';

const args = process.argv.slice(2);
const binAt = args.indexOf('--bin');
const bin =
  binAt >= 0
    ? args[binAt + 1]
    : fileURLToPath(new URL('../packages/cli/bin/compaction.js', import.meta.url));
const runs = Number(args.find((arg) => /^\d+$/.test(arg)) ?? 21);

const dir = mkdtempSync(join(tmpdir(), 'cli-cold-start-'));
const input = join(dir, 'result.json');
const session = join(dir, 'session.jsonl');
writeFileSync(
  input,
  JSON.stringify({ items: Array.from({ length: 40 }, (_, i) => ({ id: i, status: 'ok' })) }),
);
writeFileSync(session, '');

function runCli(argv) {
  const run = spawnSync(process.execPath, [bin, ...argv], { encoding: 'utf8' });
  if (run.status !== 0) throw new Error(`compaction ${argv.join(' ')}: ${run.stderr}`);
  return run.stdout;
}

// The stored artifact `read` pages through.
const stored = JSON.parse(runCli(['store', '--session', session, '--id', 'bench', input]));

const COMMANDS = {
  trim: ['trim', '--budget', '512', input],
  store: ['store', '--session', session, '--id', 'bench', input],
  read: ['read', stored.id, '--session', session, '--limit', '5'],
  excerpt: ['excerpt', '--budget', '200', input],
  digest: ['digest', input],
  config: ['config', '--json'],
  'mcp --help': ['mcp', '--help'],
};
const TARGETS = new Set(['trim', 'store', 'read', 'excerpt']);

function wallMs(argv) {
  const start = process.hrtime.bigint();
  const run = spawnSync(process.execPath, argv, { stdio: 'ignore' });
  const ms = Number(process.hrtime.bigint() - start) / 1e6;
  if (run.status !== 0) throw new Error(`${argv.join(' ')} exited ${run.status}`);
  return ms;
}

const median = (values) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)];
};

function modulesLoaded(argv) {
  const log = join(dir, 'modules.log');
  writeFileSync(log, '');
  const { execArgv, env } = moduleLog(log);
  const run = spawnSync(process.execPath, [...execArgv, bin, ...argv], {
    env: { ...process.env, ...env },
    stdio: 'ignore',
  });
  if (run.status !== 0) throw new Error(`module count of ${argv.join(' ')} failed`);
  return readFileSync(log, 'utf8')
    .split('\n')
    .filter((url) => url.startsWith('file:')).length;
}

const names = Object.keys(COMMANDS);
const times = { node: [] };
for (const name of names) times[name] = [];
for (let round = 0; round < runs + 2; round++) {
  // Two warm-up rounds fill the page cache; the order rotates so no command always follows Node.
  const order = ['node', ...names];
  const shifted = [...order.slice(round % order.length), ...order.slice(0, round % order.length)];
  for (const name of shifted) {
    const ms = name === 'node' ? wallMs(['-e', '0']) : wallMs([bin, ...COMMANDS[name]]);
    if (round >= 2) times[name].push(ms);
  }
}
const base = median(times.node);
const rows = names.map((name) => {
  const ms = median(times[name]);
  const ratio = ms / base;
  const target = TARGETS.has(name) ? (ratio <= 2 ? 'within 2×' : 'over 2×') : '';
  return [
    `\`compaction ${name}\``,
    modulesLoaded(COMMANDS[name]),
    ms.toFixed(0),
    `${ratio.toFixed(2)}×`,
    target,
  ];
});
rmSync(dir, { recursive: true, force: true });

writeResult(
  'cli-cold-start',
  'CLI cold start: one command against `node -e 0`',
  `Each figure is the median wall-clock time of ${runs} runs of one process on a 1 KB input,
interleaved round by round with \`node -e 0\` (median **${base.toFixed(0)} ms** in this run), so a
loaded machine slows both alike; the ratio is what to compare across machines. ES modules are
counted in a separate run with a loader hook (\`file:\` URLs: the CLI's bundle files, which hold
its own packages, and the dependencies it imports). The issue-44 target is \`trim\`, \`store\`,
\`read\` and \`excerpt\` within 2× of \`node -e 0\`; the binary runs one esbuild bundle per command
(\`packages/cli/scripts/bundle-bin.mjs\`), loaded only when that command runs.

${markdownTable(['command', 'ES modules', 'median ms', 'vs `node -e 0`', 'target'], rows)}
`,
);
