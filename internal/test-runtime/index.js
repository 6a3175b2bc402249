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
