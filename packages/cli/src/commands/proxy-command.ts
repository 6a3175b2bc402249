import type { ProxyRequestStats } from '@compaction/proxy';
import type { CliCommand } from '../cli-command.js';
import { parseCommandArgs, parseDurationFlag, parseIntegerFlag } from '../parse-command-args.js';
import { UsageError } from '../usage-error.js';

/** The log line of one request: what was rewritten and what it weighed before and after. */
export function proxyLogLine(stats: ProxyRequestStats): string {
  const conversation = stats.conversationId ? ` ${stats.conversationId}` : '';
  const sizes = `${stats.bytesIn} → ${stats.bytesOut} bytes (~${stats.tokensIn} → ~${stats.tokensOut} tokens)`;
  if (stats.failedOpen !== undefined)
    return `compaction proxy: ${stats.format} ${stats.path}${conversation}: sent unchanged (${stats.failedOpen}); ${stats.bytesIn} bytes\n`;
  const answered =
    stats.artifactToolCalls === undefined
      ? ''
      : `; artifact tools added, ${stats.artifactToolCalls} calls answered`;
  return `compaction proxy: ${stats.format} ${stats.path}${conversation}: ${stats.toolResults} tool results, ${stats.rewritten} rewritten; ${sizes} in ${stats.compactMs} ms${answered}\n`;
}

/** `compaction proxy`: a local Anthropic / OpenAI proxy that compacts the tool results of each request. */
export const proxyCommand: CliCommand = {
  name: 'proxy',
  summary: 'an Anthropic / OpenAI API proxy: tool results in each request compacted',
  help: `Usage: compaction proxy [--port N] [--host H] [--dir DIR] [--upstream-anthropic URL]
       [--upstream-openai URL] [--max-bytes N] [--deadline D] [--token T|auto] [--artifact-pointers]
       [--artifact-tools]

Serves the Anthropic Messages API (POST /v1/messages, streamed and not, and count_tokens) and
the OpenAI Chat Completions and Responses APIs on http://HOST:PORT, and prints that base URL.
Point an agent at it with ANTHROPIC_BASE_URL=<url> or OPENAI_BASE_URL=<url>/v1. Before each
request goes upstream, its tool results (tool_result blocks, role "tool" messages,
function_call_output items) over --max-bytes are stored whole under --dir and replaced by a line
naming the stored file (which the agent can read or grep with its own tools) and a structural
view with its disclosure note; all of a request's tool results are held to the conversation
budget (COMPACTION_CONVERSATION_*). The rewrite depends on the conversation alone, so earlier
messages stay the same bytes and the provider's prompt cache keeps hitting. Every other path is
forwarded untouched; headers (keys included) pass through and are never logged; status codes,
rate-limit headers, error bodies and streamed answers reach the client unchanged. When
compaction fails or passes --deadline, the original request goes upstream. One line per
rewritable request goes to standard error; GET <url>/compaction/stats gives the totals per
conversation as JSON.

Options:
  --port N                 port to listen on; 0 picks a free one (default: 8787)
  --host H                 interface to listen on (default: 127.0.0.1); any other than loopback
                           needs --token
  --token T|auto           a secret clients must send: the printed base URL ends in /t/<token>
                           (or send it as an x-compaction-proxy-token header); auto makes one
  --dir DIR                where full tool results are stored, one folder per conversation
                           (default: <tmp>/compaction-proxy)
  --upstream-anthropic URL the Anthropic API (default: https://api.anthropic.com)
  --upstream-openai URL    the OpenAI-compatible API, without /v1 (default: https://api.openai.com)
  --max-bytes N            budget of one tool result as sent upstream, in UTF-8 bytes
                           (default: COMPACTION_RESULT_TRIM_MAX_BYTES, 65536)
  --deadline D             how long compacting one request may take, such as 10s (default: 10s)
  --artifact-pointers      pointer lines name artifact_read/artifact_search instead of a file
                           path, for a client that offers those tools itself
  --artifact-tools         for a client without file tools: add artifact_read/artifact_search
                           to each request that carries a stored result (and to every later one
                           of its conversation) and answer their calls in the proxy, calling the
                           upstream again, so the client sees only the final answer (a streamed
                           one is held until it ends); implies --artifact-pointers
                           (default: off)
  -h, --help               show this help

Examples:
  compaction proxy
  ANTHROPIC_BASE_URL=http://127.0.0.1:8787 claude -p "why did the nightly job fail?"
  compaction proxy --host 0.0.0.0 --token auto --dir /srv/agent/proxy`,
  async run(args, io) {
    const { values, positionals } = parseCommandArgs(args, {
      port: { type: 'string' },
      host: { type: 'string' },
      token: { type: 'string' },
      dir: { type: 'string' },
      'upstream-anthropic': { type: 'string' },
      'upstream-openai': { type: 'string' },
      'max-bytes': { type: 'string' },
      deadline: { type: 'string' },
      'artifact-pointers': { type: 'boolean' },
      'artifact-tools': { type: 'boolean' },
    });
    if (positionals.length > 0) throw new UsageError(`unexpected argument: ${positionals[0]}`);
    const port = parseIntegerFlag('port', values.port as string | undefined, 0);
    if (port !== undefined && port > 65_535) throw new UsageError('--port must be at most 65535');
    const maxBytes = parseIntegerFlag('max-bytes', values['max-bytes'] as string | undefined, 512);
    const deadlineMs = parseDurationFlag('deadline', values.deadline as string | undefined);
    if (deadlineMs === 0) throw new UsageError('--deadline must be more than 0');
    // Loaded here, not at the top: `compaction --help` and every other command start without it.
    const [{ resolve }, { loadConfig, InvalidArgumentError }, { createCompactionProxy }] =
      await Promise.all([
        import('node:path'),
        import('@compaction/core'),
        import('@compaction/proxy'),
      ]);
    const { randomBytes } = await import('node:crypto');
    const { config, warnings } = loadConfig({ env: io.env });
    for (const warning of warnings) io.stderr.write(`warning: ${warning.message}\n`);
    const tokenFlag = values.token as string | undefined;
    const token = tokenFlag === 'auto' ? randomBytes(18).toString('base64url') : tokenFlag;
    let proxy: ReturnType<typeof createCompactionProxy>;
    try {
      proxy = createCompactionProxy({
        ...(port === undefined ? {} : { port }),
        ...(values.host === undefined ? {} : { host: values.host as string }),
        ...(token === undefined ? {} : { token }),
        ...(values.dir === undefined ? {} : { dir: resolve(io.cwd, values.dir as string) }),
        ...(values['upstream-anthropic'] === undefined
          ? {}
          : { upstreamAnthropic: values['upstream-anthropic'] as string }),
        ...(values['upstream-openai'] === undefined
          ? {}
          : { upstreamOpenai: values['upstream-openai'] as string }),
        maxResultBytes: maxBytes ?? config.trim.maxResultBytes,
        ...(deadlineMs === undefined ? {} : { deadlineMs }),
        pointTo:
          values['artifact-pointers'] === true || values['artifact-tools'] === true
            ? 'artifact-tools'
            : 'file',
        artifactTools: values['artifact-tools'] === true,
        env: io.env,
        onRequest: (stats) => io.stderr.write(proxyLogLine(stats)),
      });
    } catch (error) {
      if (InvalidArgumentError.isInstance(error))
        throw new UsageError(error.message.replace(/^createCompactionProxy: /, ''));
      throw error;
    }
    let url: string;
    try {
      url = await proxy.listen();
    } catch (error) {
      io.stderr.write(
        `compaction proxy: could not listen: ${error instanceof Error ? error.message : String(error)}\n`,
      );
      return 1;
    }
    io.stdout.write(`${url}\n`);
    await new Promise<void>((done) => {
      process.once('SIGINT', done);
      process.once('SIGTERM', done);
    });
    await proxy.close();
    return 0;
  },
};
