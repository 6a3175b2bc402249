/** The major version of the Node.js running this process. */
export declare const NODE_MAJOR: number;
/**
 * True when this Node.js is older than `major`, after printing once why `what` is skipped.
 * `.ci/run` runs the suite on the machine's Node and again on Node 24 LTS.
 */
export declare function skipBelowNode(major: number, what: string): boolean;
/** Where the tests find Chromium. */
export declare const CHROMIUM_PATH: string;
/** The flags every headless Chromium of the tests runs with on this kind of machine. */
export declare const CHROMIUM_ARGS: readonly string[];
/** True when the browser tests of `what` should run (Chromium installed, or CI=true). */
export declare function chromiumTestsRun(what: string): boolean;
/** True in `pnpm fuzz` (FUZZ_EXHAUSTIVE=1): exhaustive and wall-clock checks run whole. */
export declare const EXHAUSTIVE: boolean;
/** The test-name suffix of a check that `pnpm test` samples or skips and `pnpm fuzz` runs whole. */
export declare const WHOLE_IN_FUZZ: string;
/**
 * All of `items` under FUZZ_EXHAUSTIVE=1; otherwise those `keep` selects and a seeded `share`
 * (0 to 1) of the rest, the same ones on every run, in their order.
 */
export declare function sampled<T>(
  items: Iterable<T>,
  options: { share: number; seed: number; keep?: (item: T) => boolean },
): T[];

/** A seeded sequence in [0, 1) (mulberry32): the same numbers for a seed on every machine. */
export declare function seededRandom(seed: number): () => number;

/**
 * Node flags and environment that make a child process append the URL of every module it loads
 * to `logFile`, one per line.
 */
export declare function moduleLog(logFile: string): {
  execArgv: string[];
  env: { MODULE_LOG_FILE: string };
};
