import type { CliIo } from '../cli-io.js';

/** An in-memory `CliIo` for in-process command tests. */
export function createMemoryIo(
  input: {
    stdin?: string;
    env?: Record<string, string | undefined>;
    cwd?: string;
    stdinIsTTY?: boolean;
  } = {},
) {
  const out: string[] = [];
  const err: string[] = [];
  const stdinText = input.stdin ?? '';
  const io: CliIo = {
    stdout: { write: (chunk) => out.push(String(chunk)) },
    stderr: { write: (chunk) => err.push(String(chunk)), isTTY: false },
    stdin: Object.assign(
      (async function* () {
        if (stdinText) yield stdinText;
      })(),
      { isTTY: input.stdinIsTTY ?? false },
    ),
    env: input.env ?? {},
    cwd: input.cwd ?? process.cwd(),
  };
  return { io, stdout: () => out.join(''), stderr: () => err.join('') };
}
