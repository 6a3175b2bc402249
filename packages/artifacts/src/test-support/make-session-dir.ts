import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openSessionTranscript } from '../transcript/session-transcript.js';

/** A temp directory with one session whose transcript settled a few oversized outputs. */
export async function makeSessionDir(): Promise<{
  root: string;
  ids: { terminal: string; read: string };
}> {
  const root = await mkdtemp(join(tmpdir(), 'artifact-session-'));
  const session = await openSessionTranscript({
    path: join(root, 'demo-session.jsonl'),
    clock: () => 1_750_000_000_000,
  });
  const log = Array.from({ length: 1200 }, (_, i) =>
    i === 777
      ? 'ERROR: disk quota exceeded on /var/lib/data (needle-777)'
      : `line ${i + 1}: step ${i} ok ✓`,
  ).join('\n');
  const terminal = await session.settleToolResult({
    toolName: 'terminal',
    toolCallId: 'call_term_1',
    args: { command: 'make test' },
    output: log,
    exitCode: 2,
    isError: true,
  });
  const source = Array.from(
    { length: 600 },
    (_, i) => `export const value${i} = ${i}; // 🧪 e\u0301`,
  ).join('\n');
  const read = await session.settleToolResult({
    toolName: 'read_file',
    toolCallId: 'call_read_1',
    args: { path: 'src/values.ts' },
    output: source,
  });
  await session.persist();
  return { root, ids: { terminal: terminal.artifact!.id, read: read.artifact!.id } };
}
