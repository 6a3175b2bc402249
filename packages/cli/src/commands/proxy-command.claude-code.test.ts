import { spawn } from 'node:child_process';
import { mkdir, mkdtemp, readFile, rm } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { type RecordedRequest, startFakeUpstream } from '@compaction/proxy/test';
import { describe, expect, it } from 'vitest';
import { envAssignments, onPort, proxyDocBlock } from '../test-support/proxy-doc.js';
import { binaryBuilt } from '../test-support/run-binary.js';
import { startProxyBinary } from '../test-support/start-proxy-binary.js';

// Claude Code's npm package ships its native binary as an optional dependency, which its
// postinstall copies into place; the workspace does not run that script (pnpm-workspace.yaml),
// so the package's own wrapper finds the binary and runs it.
const CLAUDE = join(
  dirname(createRequire(import.meta.url).resolve('@anthropic-ai/claude-code/package.json')),
  'cli-wrapper.cjs',
);

/** An Anthropic streamed answer that asks for one Bash call. */
function bashCall(id: string, command: string): string {
  const message = {
    id: `msg_${id}`,
    type: 'message',
    role: 'assistant',
    model: 'claude-fake',
    content: [],
    stop_reason: null,
    stop_sequence: null,
    usage: { input_tokens: 10, output_tokens: 1 },
  };
  const events: Array<[string, object]> = [
    ['message_start', { message }],
    [
      'content_block_start',
      { index: 0, content_block: { type: 'tool_use', id, name: 'Bash', input: {} } },
    ],
    [
      'content_block_delta',
      {
        index: 0,
        delta: {
          type: 'input_json_delta',
          partial_json: JSON.stringify({ command, description: 'run it' }),
        },
      },
    ],
    ['content_block_stop', { index: 0 }],
    [
      'message_delta',
      { delta: { stop_reason: 'tool_use', stop_sequence: null }, usage: { output_tokens: 5 } },
    ],
    ['message_stop', {}],
  ];
  return events
    .map(([type, data]) => `event: ${type}\ndata: ${JSON.stringify({ type, ...data })}\n\n`)
    .join('');
}

type Message = { role: string; content: string | Array<Record<string, unknown>> };
const messagesOf = (request: RecordedRequest): Message[] => JSON.parse(request.body).messages ?? [];
const toolResults = (messages: Message[]) =>
  messages
    .flatMap((m) => (Array.isArray(m.content) ? m.content : []))
    .filter((b) => b.type === 'tool_result');
/** The text of a tool result's content. */
const resultText = (block: Record<string, unknown>) =>
  typeof block.content === 'string'
    ? block.content
    : (block.content as Array<{ text?: string }>).map((part) => part.text ?? '').join('\n');

describe('Claude Code through compaction proxy', () => {
  it('runs a Bash call whose output is large; the upstream gets the compacted view, later requests repeat it byte for byte, the agent finishes', async () => {
    if (!binaryBuilt()) return;
    const isMainLoop = (request: RecordedRequest) =>
      request.path.startsWith('/v1/messages') &&
      !request.path.includes('count_tokens') &&
      (JSON.parse(request.body).tools ?? []).some((tool: { name: string }) => tool.name === 'Bash');
    const upstream = await startFakeUpstream((request) => {
      if (!isMainLoop(request)) return undefined;
      const seen = toolResults(messagesOf(request)).length;
      // First a 29 KB output (under Claude Code's own spill-to-file size), then a small one.
      if (seen === 0)
        return {
          status: 200,
          headers: { 'content-type': 'text/event-stream' },
          body: bashCall('toolu_big', 'seq 1 6000'),
        };
      if (seen === 1)
        return {
          status: 200,
          headers: { 'content-type': 'text/event-stream' },
          body: bashCall('toolu_small', 'echo checked'),
        };
      return undefined;
    }, 'The log ends at 6000.');
    const root = await mkdtemp(join(tmpdir(), 'proxy-claude-'));
    const home = join(root, 'home');
    const work = join(root, 'work');
    await mkdir(home);
    await mkdir(work);
    const proxy = await startProxyBinary([
      '--dir',
      join(root, 'proxy'),
      '--upstream-anthropic',
      upstream.url,
      '--max-bytes',
      '4096',
    ]);
    try {
      const run = await new Promise<{ code: number | null; stdout: string; stderr: string }>(
        (done) => {
          const child = spawn(
            process.execPath,
            [
              CLAUDE,
              '-p',
              'Print the numbers and tell me the last one.',
              '--allowedTools',
              'Bash',
              '--model',
              'sonnet',
            ],
            {
              cwd: work,
              env: {
                PATH: process.env.PATH ?? '',
                HOME: home,
                // As docs/proxy.md says, on the port this test's proxy got.
                ANTHROPIC_BASE_URL: onPort(
                  envAssignments(proxyDocBlock('claude-code')[1]!).ANTHROPIC_BASE_URL!,
                  proxy.url,
                ),
                ANTHROPIC_API_KEY: 'sk-ant-dummy',
                CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: '1',
                DISABLE_TELEMETRY: '1',
                DISABLE_AUTOUPDATER: '1',
                DISABLE_ERROR_REPORTING: '1',
              },
              stdio: ['ignore', 'pipe', 'pipe'],
            },
          );
          let stdout = '';
          let stderr = '';
          child.stdout.on('data', (chunk) => {
            stdout += String(chunk);
          });
          child.stderr.on('data', (chunk) => {
            stderr += String(chunk);
          });
          const timer = setTimeout(() => child.kill('SIGKILL'), 120_000);
          child.once('exit', (code) => {
            clearTimeout(timer);
            done({ code, stdout, stderr });
          });
        },
      );
      expect(run.code, run.stderr).toBe(0);
      expect(run.stdout).toContain('The log ends at 6000.');

      const main = upstream.requests.filter(isMainLoop);
      expect(main).toHaveLength(3);
      const [, second, third] = main.map(messagesOf);
      const big = toolResults(second!).find((b) => b.tool_use_id === 'toolu_big')!;
      const view = resultText(big);
      expect(Buffer.byteLength(view)).toBeLessThanOrEqual(4096);
      const path = / in the file (\/\S+) \(/.exec(view)?.[1];
      expect(path, view.slice(0, 300)).toBeDefined();
      expect(await readFile(path!, 'utf8')).toContain('\n5999\n6000');
      expect(view).toMatch(/\[trimmed: [^\n]*omitted content is UNKNOWN, not absent\]/);
      // The third request repeats the view, and every message before it, byte for byte.
      const again = toolResults(third!).find((b) => b.tool_use_id === 'toolu_big')!;
      expect(resultText(again)).toBe(view);
      const index = second!.findIndex((m) => Array.isArray(m.content) && m.content.includes(big));
      for (let i = 0; i < index; i++)
        expect(JSON.stringify(third![i])).toBe(JSON.stringify(second![i]));
      expect(proxy.stderr()).toMatch(
        /anthropic-messages \/v1\/messages c_[0-9a-f]{16}: 2 tool results, 1 rewritten/,
      );
      expect(proxy.stderr()).not.toContain('sk-ant-dummy');
    } finally {
      expect(await proxy.stop()).toBe(0);
      await upstream.close();
      await rm(root, { recursive: true, force: true });
    }
  });
});
