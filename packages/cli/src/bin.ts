import type { CliIo } from './cli-io.js';
import { runCli } from './run-cli.js';

process.stdout.on('error', (error: NodeJS.ErrnoException) => {
  // A closed pipe (`compaction trim big.json | head`) is not a failure of ours.
  if (error.code === 'EPIPE') process.exit(0);
  throw error;
});

const io: CliIo = {
  stdout: process.stdout,
  stderr: process.stderr,
  // A getter: Node builds the stdin stream on first access, a few milliseconds that a command
  // reading a file (`compaction trim result.json`) need not pay.
  get stdin() {
    return process.stdin;
  },
  env: process.env,
  cwd: process.cwd(),
};
process.exitCode = await runCli(process.argv.slice(2), io);
