import { readFileSync } from 'node:fs';

let version: string | undefined;

/** The version of `@compaction/cli` that is running, read from its own package.json. */
export function cliVersion(): string {
  version ??= (
    JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as {
      version: string;
    }
  ).version;
  return version;
}
