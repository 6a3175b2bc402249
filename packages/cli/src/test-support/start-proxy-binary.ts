import { type ChildProcess, spawn } from 'node:child_process';
import { BINARY } from './run-binary.js';

/** A running `compaction proxy` process; see `startProxyBinary`. */
export interface ProxyProcess {
  /** The base URL it printed. */
  url: string;
  /** Its standard error so far (one line per request). */
  stderr(): string;
  /** Sends SIGTERM and resolves with the exit code. */
  stop(): Promise<number | null>;
  child: ChildProcess;
}

/** Starts the built `compaction proxy` with `flags` and waits for the URL it prints. */
export async function startProxyBinary(
  flags: string[],
  env: Record<string, string> = {},
): Promise<ProxyProcess> {
  const clean: Record<string, string> = {};
  for (const [key, value] of Object.entries(process.env)) {
    if (value !== undefined && !key.startsWith('COMPACTION_')) clean[key] = value;
  }
  const child = spawn(process.execPath, [BINARY, 'proxy', '--port', '0', ...flags], {
    env: { ...clean, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stderr!.on('data', (chunk) => {
    stderr += String(chunk);
  });
  const exited = new Promise<number | null>((done) => child.once('exit', (code) => done(code)));
  const url = await new Promise<string>((done, fail) => {
    child.stdout!.on('data', (chunk) => {
      stdout += String(chunk);
      if (stdout.includes('\n')) done(stdout.split('\n')[0]!);
    });
    void exited.then((code) => fail(new Error(`compaction proxy exited ${code}: ${stderr}`)));
  });
  return {
    url,
    child,
    stderr: () => stderr,
    stop: () => {
      child.kill('SIGTERM');
      return exited;
    },
  };
}
