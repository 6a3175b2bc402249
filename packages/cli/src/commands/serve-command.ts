import { resolve } from 'node:path';
import { createArtifactServer } from '@compaction/artifacts';
import type { CliCommand } from '../cli-command.js';
import { parseCommandArgs, parseIntegerFlag } from '../parse-command-args.js';
import { UsageError } from '../usage-error.js';

/** `compaction serve`: the artifact API and inspector page over a directory of sessions. */
export const serveCommand: CliCommand = {
  name: 'serve',
  summary: 'serve the artifact API and inspector page for a directory of sessions',
  help: `Usage: compaction serve --dir DIR [--port N] [--host HOST] [--token TOKEN]

Serves the inspector page at / and the JSON API (GET /api/sessions,
/api/sessions/:sessionId/artifacts, /api/artifacts/:ref?offset&limit, …/search?pattern,
…/raw) for the transcripts and <session>.artifacts/ stores in DIR. Prints the URL on standard output and runs
until interrupted (Ctrl-C or SIGTERM).

Options:
  --dir DIR        directory of session transcripts (required)
  --port N         port; default 0 (a free one)
  --host HOST      interface; default 127.0.0.1. Any other is refused without --token
  --token TOKEN    require "Authorization: Bearer TOKEN" on the API (open the page with #token=TOKEN)
  -h, --help       show this help

Examples:
  compaction serve --dir runs --port 8787
  compaction serve --dir runs --host 0.0.0.0 --token "$(openssl rand -hex 16)"`,
  async run(args, io) {
    const { values, positionals } = parseCommandArgs(args, {
      dir: { type: 'string' },
      port: { type: 'string' },
      host: { type: 'string' },
      token: { type: 'string' },
    });
    if (positionals.length > 0) throw new UsageError(`unexpected argument: ${positionals[0]}`);
    const dir = values.dir as string | undefined;
    if (dir === undefined) throw new UsageError('--dir DIR is required');
    const port = parseIntegerFlag('port', values.port as string | undefined, 0) ?? 0;
    if (port > 65_535) throw new UsageError('--port must be at most 65535');
    const token = values.token as string | undefined;
    if (token !== undefined && token.trim() === '')
      throw new UsageError('--token must not be empty');
    const host = (values.host as string | undefined) ?? '127.0.0.1';
    if (!['127.0.0.1', '::1', 'localhost'].includes(host) && !token) {
      throw new UsageError(
        `--host ${host} without --token would expose every stored result: add --token (for example --token "$(openssl rand -hex 16)")`,
      );
    }
    const running = await createArtifactServer({
      dir: resolve(io.cwd, dir),
      host,
      port,
      ...(token ? { token } : {}),
    }).listen();
    io.stdout.write(`${running.url}\n`);
    await new Promise<void>((done) => {
      const stop = () => {
        process.off('SIGINT', stop);
        process.off('SIGTERM', stop);
        void running.close().then(done);
      };
      process.once('SIGINT', stop);
      process.once('SIGTERM', stop);
    });
    return 0;
  },
};
