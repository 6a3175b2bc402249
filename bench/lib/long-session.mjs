// A scripted long agent session with the mix of seed 001's (issue 41): file reads of 2–40 KB,
// terminal output and test logs up to 200 KB (some failing), search matches, issue and PR
// listings, diffs, docs, todo state, and a few results of about 1 MB; then late questions whose
// answers sit in early results. Real payloads from the shared fixtures where one fits (a
// generated stand-in of the same size when they are absent), generated text otherwise.
// Deterministic: the same seed gives the same session, byte for byte.
import { fixturesAvailable, readFixture } from '@compaction/fixtures';
import { seededRandom } from '@compaction/test-runtime';

/**
 * @typedef {object} SessionCall
 * @property {string} toolCallId
 * @property {string} toolName
 * @property {Record<string, unknown>} args
 * @property {string} output The full result text.
 * @property {boolean} isError The tool failed.
 * @property {number} [exitCode] A terminal command's exit code.
 *
 * @typedef {object} SessionTurn One model response asking for tool calls (run in parallel).
 * @property {string} [user] A user message that comes before this model turn.
 * @property {string} say What the model says along with its calls.
 * @property {SessionCall[]} calls
 *
 * @typedef {object} LateQuestion A question asked after the last turn.
 * @property {string} question
 * @property {string} answer A string found only in the result of `toolCallId`.
 * @property {string} toolCallId
 * @property {number} turn The turn (index into `turns`) of that result.
 */

const CHUNK_MAX = 200_000;

/** Cuts `text` to about `size` UTF-16 units starting near `from`, on line boundaries. */
function slice(text, from, size) {
  if (text.length <= size) return text;
  let start = Math.max(0, Math.min(from, text.length - size));
  if (start > 0) start = text.indexOf('\n', start) + 1 || start;
  const end = text.lastIndexOf('\n', start + size);
  return text.slice(start, end > start ? end + 1 : start + size);
}

function fixture(path, next) {
  if (fixturesAvailable()) return readFixture(path);
  // The same size of plain lines, so the session keeps its shape without the fixtures.
  const lines = [];
  for (let n = 0, i = 0; n < 200_000; i++) {
    const line = `${path} line ${i} ${Math.floor(next() * 1e9).toString(36)} lorem ipsum dolor sit amet`;
    lines.push(line);
    n += line.length + 1;
  }
  return lines.join('\n');
}

const WORDS =
  'request session token cache config retry budget handler parser render stream buffer index record queue worker client server route schema model view store event'.split(
    ' ',
  );

/** A seeded random helper: `int(n)`, `pick(list)`, `hex(n)`, `between(a, b)`. */
function helpers(seed) {
  const next = seededRandom(seed);
  const int = (n) => Math.floor(next() * n);
  return {
    next,
    int,
    pick: (list) => list[int(list.length)],
    hex: (n) => Array.from({ length: n }, () => int(16).toString(16)).join(''),
    between: (a, b) => a + int(b - a + 1),
    // Skewed to the small end, as real sizes are: most results small, a few near `b`.
    skewed: (a, b) => a + Math.floor(next() ** 2 * (b - a + 1)),
  };
}

function sourceFile(r, path, size, needle) {
  const lines = [`// ${path}`, "import { strict as assert } from 'node:assert';", ''];
  let n = 0;
  let planted = !needle;
  for (let f = 0; n < size; f++) {
    const name = `${r.pick(WORDS)}${r.pick(WORDS).replace(/^./, (c) => c.toUpperCase())}${f}`;
    const block = [
      `/** Handles the ${r.pick(WORDS)} of one ${r.pick(WORDS)}. */`,
      `export function ${name}(input: ${r.pick(['string', 'Buffer', 'Request', 'Record<string, unknown>'])}, limit = ${r.int(5000)}) {`,
      `  const ${r.pick(WORDS)} = new Map<string, number>();`,
      `  for (let i = 0; i < limit; i++) {`,
      `    if (i % ${r.between(2, 97)} === 0) assert.ok(input, '${r.pick(WORDS)} missing');`,
      '  }',
      `  return { ok: true, size: ${r.int(100000)} };`,
      '}',
      '',
    ];
    if (!planted && n > size / 2) {
      block.unshift(needle, '');
      planted = true;
    }
    for (const line of block) n += line.length + 1;
    lines.push(...block);
  }
  return lines.join('\n');
}

function testLog(r, size, failures, needle) {
  const lines = [' RUN  v3.2.4 /work/app', ''];
  let n = 0;
  let planted = !needle;
  let failed = 0;
  while (n < size) {
    const file = `src/${r.pick(WORDS)}/${r.pick(WORDS)}-${r.pick(WORDS)}.test.ts`;
    let block;
    if (failed < failures && r.next() < 0.02) {
      failed++;
      block = [
        ` ❯ ${file} (${r.between(3, 30)} tests | 1 failed) ${r.between(10, 900)}ms`,
        `   × ${r.pick(WORDS)} ${r.pick(WORDS)} > keeps the ${r.pick(WORDS)}`,
        `     → expected ${r.int(1000)} to be ${r.int(1000)} // Object.is equality`,
      ];
    } else {
      block = [` ✓ ${file} (${r.between(1, 40)} tests) ${r.between(2, 400)}ms`];
      if (r.next() < 0.3)
        block.push(`stdout | ${file}: ${r.pick(WORDS)} ${r.pick(WORDS)} ready in ${r.int(90)}ms`);
    }
    if (!planted && n > size / 3) {
      block.push(needle);
      planted = true;
    }
    for (const line of block) n += line.length + 1;
    lines.push(...block);
  }
  lines.push(
    '',
    ` Test Files  ${failed} failed | ${r.between(40, 400)} passed`,
    `      Tests  ${failed} failed | ${r.between(400, 4000)} passed`,
    `   Duration  ${r.between(5, 300)}.${r.int(10)}s`,
  );
  return lines.join('\n');
}

function issueList(r, count, needle) {
  const issues = Array.from({ length: count }, (_, i) => ({
    number: 4000 + count - i,
    title: `${r.pick(WORDS)} ${r.pick(WORDS)} fails when ${r.pick(WORDS)} is ${r.pick(['empty', 'stale', 'huge', 'missing'])}`,
    state: r.next() < 0.7 ? 'open' : 'closed',
    labels: [r.pick(['bug', 'enhancement', 'docs', 'perf'])],
    user: { login: `dev-${r.hex(5)}` },
    comments: r.int(40),
    created_at: new Date(Date.UTC(2026, 0, 1) + r.int(3e10)).toISOString(),
  }));
  if (needle) issues[Math.floor(count / 2)].title = needle;
  return JSON.stringify(issues, null, 2);
}

function diff(r, files, needle) {
  const out = [];
  for (let f = 0; f < files; f++) {
    const path = `src/${r.pick(WORDS)}/${r.pick(WORDS)}.ts`;
    out.push(`diff --git a/${path} b/${path}`, `--- a/${path}`, `+++ b/${path}`);
    for (let h = 0; h < r.between(1, 4); h++) {
      const at = r.between(1, 900);
      out.push(`@@ -${at},7 +${at},8 @@ export function ${r.pick(WORDS)}() {`);
      for (let l = 0; l < 7; l++) out.push(`   const ${r.pick(WORDS)} = ${r.int(1000)};`);
      out.push(`-  return ${r.pick(WORDS)};`, `+  return ${r.pick(WORDS)} ?? ${r.int(99)};`);
    }
    if (needle && f === Math.floor(files / 2)) out.push(`+  ${needle}`);
  }
  return out.join('\n');
}

function terminal(r, command, size, failed) {
  const lines = [`$ ${command}`];
  let n = 0;
  while (n < size) {
    const line = `${r.pick(['info', 'info', 'info', 'warn'])} ${r.pick(WORDS)}/${r.pick(WORDS)}: ${r.pick(WORDS)} ${r.int(1e6)} ${r.pick(WORDS)} done in ${r.int(900)}ms`;
    lines.push(line);
    n += line.length + 1;
  }
  if (failed)
    lines.push(
      `error TS2345: Argument of type 'string' is not assignable to parameter of type 'number'.`,
      `  src/${r.pick(WORDS)}.ts:${r.int(400)}:${r.int(80)}`,
      `ERR_PNPM_RECURSIVE_RUN_FIRST_FAIL  exit code 1`,
    );
  return lines.join('\n');
}

/**
 * A long agent session, the same for the same `seed`: `calls` tool calls (at least 200 by
 * default) over model turns of one to three calls, seven user messages along the way, and late
 * questions whose answers sit in results of the first quarter of the session.
 * @param {{ seed?: number, calls?: number }} [options]
 * @returns {{ seed: number, turns: SessionTurn[], questions: LateQuestion[], stats: { calls: number, modelTurns: number, userMessages: number, totalBytes: number, largestBytes: number } }}
 */
export function longSession({ seed = 1, calls = 220 } = {}) {
  if (!Number.isSafeInteger(calls) || calls < 1)
    throw new RangeError(`calls must be a positive integer, got ${calls}`);
  const r = helpers(seed);
  const fixtures = new Map();
  const text = (path) => {
    if (!fixtures.has(path)) fixtures.set(path, fixture(path, r.next));
    return fixtures.get(path);
  };
  const big = [
    ['terminal', 'ci-logs/buildkite-docker-compose-pull.log', 'docker compose pull'],
    ['read_file', 'diff/troubleshoot-deps-bump.patch', 'patches/deps-bump.patch'],
    ['kubectl', 'k3s/../k8s/k3s-custom-resource-definitions.json', 'kubectl get crd -o json'],
  ];
  const bigAt = new Set([
    Math.floor(calls * 0.3),
    Math.floor(calls * 0.55),
    Math.floor(calls * 0.8),
  ]);
  // Late questions: a needle in each of a few early results, placed mid-result where a
  // head-and-tail view leaves it out.
  const needleAt = new Map(
    [3, 9, 17, 26, 38, 47].filter((i) => i < calls).map((i) => [i, `needle-${r.hex(12)}`]),
  );
  const questions = [];
  const all = [];
  let bigIndex = 0;

  const makeCall = (i) => {
    const id = `call_${String(i).padStart(4, '0')}_${r.hex(6)}`;
    const needle = needleAt.get(i);
    if (bigAt.has(i)) {
      const [toolName, path, what] = big[bigIndex++ % big.length];
      const output = text(path.replace('k3s/../', ''));
      return { toolCallId: id, toolName, args: { command: what }, output, isError: false };
    }
    const roll = needle ? r.pick([0.1, 0.45, 0.62, 0.78]) : r.next();
    if (roll < 0.32) {
      const path = `src/${r.pick(WORDS)}/${r.pick(WORDS)}-${r.pick(WORDS)}.ts`;
      const size = r.skewed(2_000, 40_000);
      const plant = needle && `export const BUILD_MARKER = '${needle}';`;
      return {
        toolCallId: id,
        toolName: 'read_file',
        args: { path, offset: 1, limit: 2000 },
        output: sourceFile(r, path, size, plant),
        isError: false,
      };
    }
    if (roll < 0.4) {
      const lines = Array.from(
        { length: r.between(5, 30) },
        () =>
          `src/${r.pick(WORDS)}/${r.pick(WORDS)}.ts:${r.int(900)}:  const ${r.pick(WORDS)} = ${r.pick(WORDS)}(${r.int(99)});`,
      );
      return {
        toolCallId: id,
        toolName: 'search_files',
        args: { pattern: r.pick(WORDS) },
        output: lines.join('\n'),
        isError: false,
      };
    }
    if (roll < 0.55) {
      const failed = r.next() < 0.25;
      const size = r.next() < 0.15 ? r.skewed(20_000, 60_000) : r.skewed(300, 6_000);
      const command = r.pick([
        'pnpm build',
        'pnpm typecheck',
        'git status',
        'ls -la src',
        'pnpm lint',
      ]);
      let output = terminal(r, command, size, failed);
      if (needle) output = `${output}\nrelease tag: ${needle}`;
      return {
        toolCallId: id,
        toolName: 'terminal',
        args: { command },
        output,
        isError: failed,
        exitCode: failed ? 1 : 0,
      };
    }
    if (roll < 0.67) {
      const size = r.next() < 0.15 ? r.skewed(60_000, CHUNK_MAX) : r.skewed(5_000, 40_000);
      const failures = r.next() < 0.4 ? r.between(1, 4) : 0;
      const plant = needle && ` ❯ flaky seed reported by the runner: ${needle}`;
      return {
        toolCallId: id,
        toolName: 'run_tests',
        args: { command: 'pnpm test' },
        output: testLog(r, size, failures, plant),
        isError: failures > 0,
        exitCode: failures > 0 ? 1 : 0,
      };
    }
    if (roll < 0.75) {
      const source = r.pick([
        'github-api/octokit-paginate-issues-recorded.json',
        'github-api/github-events.json',
        'gitlab-api/go-gitlab-list-merge-requests.json',
        null,
        null,
      ]);
      const output =
        source && !needle
          ? text(source)
          : issueList(r, r.between(20, 120), needle && `${needle} regression in the session cache`);
      return {
        toolCallId: id,
        toolName: r.pick(['list_issues', 'list_pull_requests']),
        args: { repo: 'acme/app', state: 'open' },
        output,
        isError: false,
      };
    }
    if (roll < 0.85) {
      const fromFixture = !needle && r.next() < 0.3;
      const output = fromFixture
        ? slice(
            text('diff/electron-chromium-mas-private-api.patch'),
            r.int(90_000),
            r.skewed(3_000, 40_000),
          )
        : diff(r, r.between(2, 25), needle && `const ROLLBACK_TOKEN = '${needle}';`);
      return {
        toolCallId: id,
        toolName: 'git_diff',
        args: { ref: 'HEAD~1' },
        output,
        isError: false,
      };
    }
    if (roll < 0.93) {
      const doc = r.pick([
        'docs/public-apis-readme.md',
        'docs/free-programming-books-zh.md',
        'unicode/contributing-malayalam.md',
        'logs/loghub-OpenSSH_2k.log',
        'logs/loghub-HDFS_2k.log',
      ]);
      const source = text(doc);
      const output = slice(
        source,
        r.int(source.length),
        r.skewed(5_000, doc.includes('log') ? 120_000 : 60_000),
      );
      return {
        toolCallId: id,
        toolName: doc.includes('log') ? 'read_logs' : 'skill_view',
        args: { name: doc.split('/').pop() },
        output,
        isError: false,
      };
    }
    const todo = Array.from({ length: r.between(2, 8) }, (_, k) => ({
      id: k + 1,
      content: `${r.pick(WORDS)} the ${r.pick(WORDS)} ${r.pick(WORDS)}`,
      status: r.pick(['pending', 'in_progress', 'completed']),
    }));
    return {
      toolCallId: id,
      toolName: 'todo',
      args: {},
      output: JSON.stringify(todo),
      isError: false,
    };
  };

  const turns = [];
  const userAt = new Set(
    [0, 0.14, 0.29, 0.43, 0.57, 0.71, 0.86].map((share) => Math.floor(calls * share)),
  );
  for (let i = 0; i < calls; ) {
    const width = Math.min(calls - i, r.next() < 0.8 ? 1 : r.between(2, 3));
    const turnCalls = [];
    let user;
    for (let k = 0; k < width; k++, i++) {
      // A user message starts a model turn: one due mid-turn ends the turn before it.
      if (userAt.has(i)) {
        if (k > 0) break;
        user = `Task ${turns.length + 1}: ${r.pick(['fix', 'investigate', 'refactor', 'review'])} the ${r.pick(WORDS)} ${r.pick(WORDS)} and run the tests.`;
      }
      const call = makeCall(i);
      const needle = needleAt.get(i);
      if (needle) {
        questions.push({
          question: `Earlier, the ${call.toolName} result of call ${call.toolCallId} contained an identifier starting with "needle-". Which one?`,
          answer: needle,
          toolCallId: call.toolCallId,
          turn: turns.length,
        });
      }
      turnCalls.push(call);
      all.push(call);
    }
    turns.push({
      ...(user ? { user } : {}),
      say: `Step ${turns.length + 1}: calling ${turnCalls.map((call) => call.toolName).join(', ')}.`,
      calls: turnCalls,
    });
  }
  let totalBytes = 0;
  let largestBytes = 0;
  for (const call of all) {
    const bytes = Buffer.byteLength(call.output);
    totalBytes += bytes;
    largestBytes = Math.max(largestBytes, bytes);
  }
  return {
    seed,
    turns,
    questions,
    stats: {
      calls: all.length,
      modelTurns: turns.length,
      userMessages: turns.filter((turn) => turn.user).length,
      totalBytes,
      largestBytes,
    },
  };
}
