// Plain JavaScript so tests (through Vitest) and scripts (plain Node) share it without a build.
import { existsSync } from 'node:fs';

/** The major version of the Node.js running this process. */
export const NODE_MAJOR = Number(process.versions.node.split('.')[0]);

const warned = new Set();

/**
 * True when this Node.js is older than `major`, after printing once why `what` is skipped.
 * `.ci/run` runs the suite on the machine's Node and again on Node 24 LTS, so a test that
 * needs a newer line still runs in CI, even under CI=true, where a skip is not an error.
 *
 *   describe.skipIf(skipBelowNode(22, 'the openai 7 client tests'))('openai 7', () => { ... })
 */
export function skipBelowNode(major, what) {
  if (NODE_MAJOR >= major) return false;
  if (!warned.has(what)) {
    warned.add(what);
    process.stderr.write(
      `[node ${process.versions.node}] ${what} need Node >= ${major}: skipped here; .ci/run runs them on Node 24\n`,
    );
  }
  return true;
}

/** Where the tests find Chromium (Debian's package; `.ci/run` installs it). */
export const CHROMIUM_PATH = '/usr/bin/chromium';

/** The flags every headless Chromium of the tests runs with on this kind of machine. */
export const CHROMIUM_ARGS = Object.freeze([
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
]);

/**
 * True when the browser tests of `what` should run: Chromium is installed, or CI=true (where its
 * absence must fail the run rather than skip it). Otherwise prints once why they are skipped.
 */
export function chromiumTestsRun(what) {
  if (existsSync(CHROMIUM_PATH) || process.env.CI === 'true') return true;
  if (!warned.has(`chromium:${what}`)) {
    warned.add(`chromium:${what}`);
    process.stderr.write(
      `${CHROMIUM_PATH} not found: skipping ${what} (apt-get install chromium)\n`,
    );
  }
  return false;
}

/**
 * True in `pnpm fuzz`, which runs every test file that uses it with FUZZ_EXHAUSTIVE=1; false in
 * `pnpm test`. An exhaustive check (every code unit, every shape) then runs whole, and a
 * wall-clock check (time growth against a reference pass) runs at all: `pnpm test` runs on
 * shared, loaded machines, where no test may depend on their speed.
 */
export const EXHAUSTIVE = process.env.FUZZ_EXHAUSTIVE === '1';

/** The test-name suffix of a check that `pnpm test` samples or skips and `pnpm fuzz` runs whole. */
export const WHOLE_IN_FUZZ = EXHAUSTIVE ? '(whole)' : '(sampled; whole in pnpm fuzz)';

/**
 * The items an exhaustive check runs on: all of them under FUZZ_EXHAUSTIVE=1; otherwise every
 * item `keep` selects (the cases most likely to break) and a seeded `share` of the rest, the
 * same ones on every run and machine, in their order.
 */
export function sampled(items, { share, seed, keep = () => false }) {
  const all = [...items];
  if (EXHAUSTIVE) return all;
  const next = seededRandom(seed);
  return all.filter((item) => keep(item) || next() < share);
}

/** A seeded sequence in [0, 1) (mulberry32): the same numbers for a seed on every machine. */
export function seededRandom(seed) {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

// A loader hook (run on Node's loader thread) that appends each loaded module's URL to a file.
const MODULE_LOG_HOOKS = `import { appendFileSync } from 'node:fs';
export async function load(url, context, next) {
  appendFileSync(process.env.MODULE_LOG_FILE, url + '\\n');
  return next(url, context);
}`;
const MODULE_LOG_REGISTER = `import { register } from 'node:module';
register(${JSON.stringify(`data:text/javascript,${encodeURIComponent(MODULE_LOG_HOOKS)}`)});`;

/**
 * Node flags and environment that make a child process append the URL of every module it loads
 * (`file:`, `node:`, `data:`) to `logFile`, one per line: a deterministic measure of what a
 * command pulls in, unlike its start time.
 *
 *   spawnSync(process.execPath, [...execArgv, script], { env: { ...process.env, ...env } })
 */
export function moduleLog(logFile) {
  return {
    execArgv: ['--import', `data:text/javascript,${encodeURIComponent(MODULE_LOG_REGISTER)}`],
    env: { MODULE_LOG_FILE: logFile },
  };
}
