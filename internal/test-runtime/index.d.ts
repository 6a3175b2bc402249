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
