import { runCli } from './run-cli.js';

process.stdout.on('error', (error: NodeJS.ErrnoException) => {
  // A closed pipe (`compaction trim big.json | head`) is not a failure of ours.
  if (error.code === 'EPIPE') process.exit(0);
  throw error;
});

process.exitCode = await runCli(process.argv.slice(2), {
  stdout: process.stdout,
  stderr: process.stderr,
  stdin: process.stdin,
  env: process.env,
  cwd: process.cwd(),
});
