import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

/** The built `compaction` binary (run `pnpm build` first; `pnpm test` does). */
export const BINARY = fileURLToPath(new URL('../../bin/compaction.js', import.meta.url));
/** The same program as tsc emits it, unbundled: each module a file, each package imported. */
export const UNBUNDLED = fileURLToPath(new URL('../../dist/bin.js', import.meta.url));
const BUILT = fileURLToPath(new URL('../../dist/bundle/compaction.js', import.meta.url));

/** True when the CLI has been built. */
export function binaryBuilt(): boolean {
  if (existsSync(BUILT)) return true;
  if (process.env.CI === 'true')
    throw new Error(`${BUILT} is missing: build before testing the binary`);
  return false;
}

/** Runs the built binary synchronously with an environment that carries no COMPACTION_* values. */
export function runBinary(
  args: string[],
  options: {
    input?: string | Buffer;
    env?: Record<string, string>;
    cwd?: string;
    timeoutMs?: number;
    /** Node flags before the binary's path. */
    execArgv?: string[];
    /** The script to run. Default: the binary. */
    script?: string;
  } = {},
) {
  const env: Record<string, string> = {};
  for (const [key, value] of Object.entries(process.env)) {
    if (value !== undefined && !key.startsWith('COMPACTION_')) env[key] = value;
  }
  const result = spawnSync(
    process.execPath,
    [...(options.execArgv ?? []), options.script ?? BINARY, ...args],
    {
      input: options.input ?? '',
      env: { ...env, ...options.env },
      cwd: options.cwd,
      encoding: 'utf8',
      maxBuffer: 512 * 1024 * 1024,
      timeout: options.timeoutMs ?? 60_000,
    },
  );
  return { status: result.status, stdout: result.stdout, stderr: result.stderr };
}
