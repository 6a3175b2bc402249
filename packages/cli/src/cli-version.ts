import { createRequire } from 'node:module';

let version: string | undefined;

/** The version of `@compaction/cli` that is running, read from its own package.json. */
export function cliVersion(): string {
  // By the package's own name (its exports list ./package.json), so the tsc output in dist/ and
  // the bundle in dist/bundle/ find the same file.
  version ??= (
    createRequire(import.meta.url)('@compaction/cli/package.json') as { version: string }
  ).version;
  return version;
}
