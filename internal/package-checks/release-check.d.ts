/**
 * What keeps `pnpm release` from publishing the repository at `root` (default: this one) as it
 * is; empty when it is ready.
 */
export declare function releaseProblems(root?: string): string[];
