// Plain JavaScript so tests (through Vitest) and scripts (plain Node) share it without a build.

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
