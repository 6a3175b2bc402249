import { resolve } from 'node:path';
import { createArtifactMcpServer } from '@compaction/mcp';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import type { CliCommand } from '../cli-command.js';
import { parseCommandArgs } from '../parse-command-args.js';
import { UsageError } from '../usage-error.js';

/** `compaction mcp`: the artifact tools as an MCP server over stdio. */
export const mcpCommand: CliCommand = {
  name: 'mcp',
  summary: 'serve artifact_list, artifact_read and artifact_search to MCP clients over stdio',
  help: `Usage: compaction mcp --dir DIR [--session ID]

Runs a Model Context Protocol server on standard input and output with three read-only tools
over the stored artifacts of the transcripts in DIR: artifact_list (sessions, or one session's
artifacts), artifact_read (a page of lines counted from 1) and artifact_search (matching lines with
their numbers). It stops when standard input closes. Nothing is written to standard output
but protocol messages.

Options:
  --dir DIR       directory of session transcripts and their .artifacts/ stores (required)
  --session ID    serve only this session's artifacts
  -h, --help      show this help

Examples:
  compaction mcp --dir runs
  # in an MCP client configuration:
  #   {"command": "npx", "args": ["compaction", "mcp", "--dir", "/srv/agent/runs"]}`,
  async run(args, io) {
    const { values, positionals } = parseCommandArgs(args, {
      dir: { type: 'string' },
      session: { type: 'string' },
    });
    if (positionals.length > 0) throw new UsageError(`unexpected argument: ${positionals[0]}`);
    const dir = values.dir as string | undefined;
    if (dir === undefined) throw new UsageError('--dir DIR is required');
    const session = values.session as string | undefined;
    const server = createArtifactMcpServer({
      dir: resolve(io.cwd, dir),
      ...(session === undefined ? {} : { sessionId: session }),
    });
    const transport = new StdioServerTransport();
    await new Promise<void>((done) => {
      let closed = false;
      const finish = () => {
        if (closed) return;
        closed = true;
        void server.close().finally(done);
      };
      server.server.onclose = finish;
      process.stdin.once('end', finish);
      process.once('SIGTERM', finish);
      void server.connect(transport);
    });
    return 0;
  },
};
