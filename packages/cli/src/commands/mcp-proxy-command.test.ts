import { spawnSync } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, readdir, rm, writeFile } from 'node:fs/promises';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArtifactPointerLine } from '@compaction/artifacts';
import { trailingDisclosureNotes, utf8ByteLength } from '@compaction/core';
import { createProviderServer } from '@compaction/distiller/test';
import { createDemoMcpServer } from '@compaction/mcp/test';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import {
  CreateMessageRequestSchema,
  ErrorCode,
  ListRootsRequestSchema,
  McpError,
} from '@modelcontextprotocol/sdk/types.js';
import { describe, expect, it } from 'vitest';
import { BINARY, binaryBuilt, runBinary } from '../test-support/run-binary.js';

// The demo MCP server of @compaction/mcp/test, built, run as its own process.
const DEMO_SERVER = fileURLToPath(
  new URL('../../../mcp/dist/test/demo-mcp-server-main.js', import.meta.url),
);
// Its server whose tools misbehave on the wire (never answer, garbage, wrong id, crash, floods).
const FAULT_SERVER = fileURLToPath(
  new URL('../../../mcp/dist/test/fault-mcp-server-main.js', import.meta.url),
);

/** The built `compaction mcp-proxy` with `flags`, fronting the fault server, and a client on it. */
async function proxyFaults(flags: string[], env: Record<string, string> = {}) {
  expect(existsSync(FAULT_SERVER)).toBe(true);
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [BINARY, 'mcp-proxy', '--dir', tmpdir(), ...flags, '--', process.execPath, FAULT_SERVER],
    env: { PATH: process.env.PATH ?? '', ...env },
    stderr: 'pipe',
  });
  const output = { stderr: '' };
  transport.stderr?.on('data', (chunk) => {
    output.stderr += String(chunk);
  });
  const client = new Client({ name: 'cli-test', version: '1.0.0' });
  let closed = false;
  client.onclose = () => {
    closed = true;
  };
  await client.connect(transport);
  return { client, output, closed: () => closed };
}

/** The error a call is answered with (it fails the test when the call succeeds). */
async function callError(client: Client, name: string, args: Record<string, unknown> = {}) {
  const error = await client.callTool({ name, arguments: args }).then(
    () => new Error(`${name} answered`),
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(McpError);
  return error as McpError;
}

function textOf(result: unknown): string {
  return (result as { content: Array<{ type: string; text?: string }> }).content
    .filter((part) => part.type === 'text')
    .map((part) => part.text)
    .join('\n');
}

describe.skipIf(!binaryBuilt())('compaction mcp-proxy (the built binary over stdio)', () => {
  it('fronts a real MCP server process for the SDK client: 2 MB in, the budget out, the artifact readable', async () => {
    expect(existsSync(DEMO_SERVER)).toBe(true);
    const root = await mkdtemp(join(tmpdir(), 'cli-mcp-proxy-'));
    const transport = new StdioClientTransport({
      command: process.execPath,
      args: [
        BINARY,
        'mcp-proxy',
        '--dir',
        root,
        '--session',
        's1',
        '--max-bytes',
        '8192',
        '--',
        process.execPath,
        DEMO_SERVER,
      ],
      env: { PATH: process.env.PATH ?? '' },
      stderr: 'pipe',
    });
    let stderr = '';
    transport.stderr?.on('data', (chunk) => {
      stderr += String(chunk);
    });
    const client = new Client({ name: 'cli-test', version: '1.0.0' });
    await client.connect(transport);
    try {
      const names = (await client.listTools()).tools.map((tool) => tool.name);
      expect(names).toContain('list_pods');
      expect(names).toContain('artifact_read');
      const view = textOf(await client.callTool({ name: 'list_pods', arguments: {} }));
      expect(utf8ByteLength(view)).toBeLessThanOrEqual(8192);
      expect(trailingDisclosureNotes(view).length).toBeGreaterThan(0);
      const id = /art_[0-9a-f]{24}/.exec(view)?.[0];
      const read = await client.callTool({
        name: 'artifact_read',
        arguments: { id, limit: 50 },
      });
      expect(textOf(read)).toContain(`[artifact ${id} (`);
      // The shared pointer line, followed with `compaction read` by id and by the file it names.
      const pointer = parseArtifactPointerLine(view.split('\n')[0]!);
      expect(pointer?.id).toBe(id);
      for (const ref of [id!, pointer!.file]) {
        const cli = runBinary(['read', ref, '--session', join(root, 's1.jsonl'), '--limit', '3']);
        expect(cli.status).toBe(0);
        expect(cli.stdout.length).toBeGreaterThan(0);
      }
      expect(textOf(await client.callTool({ name: 'echo', arguments: { text: 'hi' } }))).toBe('hi');
      expect(
        (await readdir(join(root, 's1.artifacts'))).some((file) =>
          /^call-1-list_pods-[0-9a-f]{16}\.txt$/.test(file),
        ),
      ).toBe(true);
      expect(stderr).toMatch(/list_pods: \d+ → \d+ bytes/);
    } finally {
      await client.close();
      await rm(root, { recursive: true, force: true });
    }
  });

  it("relays the server process's sampling and roots requests to the client, and its roots changes back", async () => {
    const transport = new StdioClientTransport({
      command: process.execPath,
      args: [BINARY, 'mcp-proxy', '--dir', tmpdir(), '--', process.execPath, DEMO_SERVER],
      env: { PATH: process.env.PATH ?? '' },
      stderr: 'pipe',
    });
    const client = new Client(
      { name: 'cli-test', version: '1.0.0' },
      { capabilities: { sampling: {}, roots: { listChanged: true } } },
    );
    client.setRequestHandler(CreateMessageRequestSchema, async (request, extra) => {
      const token = request.params._meta?.progressToken;
      if (token !== undefined) {
        await extra.sendNotification({
          method: 'notifications/progress',
          params: { progressToken: token, progress: 1 },
        });
        // The SDK drops a progress notification read in the same chunk as its request's
        // answer (the answer removes the progress handler first), so the model takes a moment.
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
      return { role: 'assistant', model: 'm', content: { type: 'text', text: 'because' } };
    });
    client.setRequestHandler(ListRootsRequestSchema, async () => ({
      roots: [{ uri: 'file:///srv' }],
    }));
    await client.connect(transport);
    try {
      const asked = await client.callTool({ name: 'ask_model', arguments: { question: 'why?' } });
      expect(textOf(asked)).toBe('m: because (progress 1)');
      expect(textOf(await client.callTool({ name: 'list_roots', arguments: {} }))).toBe(
        'file:///srv',
      );
      await client.sendRootsListChanged();
      await expect
        .poll(
          async () =>
            JSON.parse(textOf(await client.callTool({ name: 'stats', arguments: {} })))
              .rootsChanged,
          { timeout: 10_000 },
        )
        .toBe(1);
    } finally {
      await client.close();
    }
  });

  it('exits 2 without a server command, and 1 when the command cannot start', () => {
    const missing = runBinary(['mcp-proxy', '--max-bytes', '4096']);
    expect(missing.status).toBe(2);
    expect(missing.stderr).toContain('the server command goes after --');
    const broken = runBinary(['mcp-proxy', '--', join(tmpdir(), 'no-such-server-binary')], {
      input: '',
    });
    expect(broken.status).toBe(1);
    expect(broken.stderr).toContain('could not start');
  });

  it('answers a call the server never answers, answers garbage to or answers under another id, at the deadline', async () => {
    const { client, output } = await proxyFaults(['--timeout', '300ms']);
    try {
      for (const name of ['never', 'garbage', 'wrong_id']) {
        const error = await callError(client, name);
        expect(error.code).toBe(ErrorCode.RequestTimeout);
        expect(error.message).toContain('did not answer tools/call within 300 ms');
      }
      // The proxy and the server are still there.
      expect(textOf(await client.callTool({ name: 'echo', arguments: { text: 'up' } }))).toBe('up');
      expect(output.stderr).not.toMatch(/exited/);
    } finally {
      await client.close();
    }
  });

  it('takes the deadline from COMPACTION_MCP_PROXY_TIMEOUT', async () => {
    const { client } = await proxyFaults([], { COMPACTION_MCP_PROXY_TIMEOUT: '250ms' });
    try {
      expect((await callError(client, 'never')).message).toContain('within 250 ms');
    } finally {
      await client.close();
    }
  });

  it('answers every waiting call with an error when the server crashes, then exits', async () => {
    const { client, output, closed } = await proxyFaults([]);
    try {
      const waiting = client.callTool({ name: 'never', arguments: {} }).catch((e: unknown) => e);
      const error = await callError(client, 'crash');
      for (const answer of [error, (await waiting) as McpError]) {
        expect(answer.code).toBe(ErrorCode.ConnectionClosed);
        expect(answer.message).toContain('closed the connection before answering tools/call');
      }
      await expect.poll(closed, { timeout: 10_000 }).toBe(true);
      expect(output.stderr).toContain('exited');
    } finally {
      await client.close();
    }
  });

  it('refuses a --timeout that is not a duration', () => {
    const bad = runBinary(['mcp-proxy', '--timeout', 'soon', '--', 'node']);
    expect(bad.status).toBe(2);
    expect(bad.stderr).toContain('--timeout must be a duration');
  });

  it("compacts a 27 MB answer (over the MCP SDK's 10 MiB line limit) and keeps it whole as an artifact", async () => {
    const root = await mkdtemp(join(tmpdir(), 'cli-mcp-proxy-'));
    const { client, output } = await proxyFaults([
      '--dir',
      root,
      '--session',
      's1',
      '--max-bytes',
      '16384',
    ]);
    try {
      const view = textOf(
        await client.callTool({ name: 'big_log', arguments: { bytes: 27_000_000 } }),
      );
      expect(utf8ByteLength(view)).toBeLessThanOrEqual(16_384);
      expect(trailingDisclosureNotes(view).length).toBeGreaterThan(0);
      const id = parseArtifactPointerLine(view.split('\n')[0]!)?.id;
      expect(id).toMatch(/^art_/);
      const found = await client.callTool({
        name: 'artifact_search',
        arguments: { id, pattern: 'OOMKilled' },
      });
      expect(textOf(found)).toContain(': 1 match;');
      expect(output.stderr).toMatch(/big_log: 27\d{6} → \d+ bytes/);
    } finally {
      await client.close();
      await rm(root, { recursive: true, force: true });
    }
  });

  it('answers a call whose answer is over --max-message-bytes with an error, the server and proxy still up', async () => {
    const { client, output, closed } = await proxyFaults(['--max-message-bytes', '1048576']);
    try {
      const error = await callError(client, 'flood', { bytes: 3_000_000 });
      expect(error.code).toBe(ErrorCode.InternalError);
      expect(error.message).toContain(
        "the MCP server's answer to tools/call is larger than 1 MiB, the most the proxy reads",
      );
      expect(textOf(await client.callTool({ name: 'echo', arguments: { text: 'up' } }))).toBe('up');
      // An answer that never ends: the error comes as soon as it passes the limit.
      const endless = await callError(client, 'flood', { bytes: 1, endless: true });
      expect(endless.code).toBe(ErrorCode.InternalError);
      const read = await client.callTool({ name: 'artifact_read', arguments: { id: 'art_x' } });
      expect(read.isError).toBe(true);
      expect(closed()).toBe(false);
      expect(output.stderr).not.toMatch(/exited/);
    } finally {
      await client.close();
    }
  });

  it('takes the message limit from COMPACTION_MCP_PROXY_MAX_MESSAGE_BYTES', async () => {
    const { client } = await proxyFaults([], {
      COMPACTION_MCP_PROXY_MAX_MESSAGE_BYTES: String(2 * 1024 * 1024),
    });
    try {
      const error = await callError(client, 'flood', { bytes: 3_000_000 });
      expect(error.message).toContain('larger than 2 MiB');
    } finally {
      await client.close();
    }
  });

  describe('model distillation is opt-in', () => {
    // Makes `openai` unresolvable in the proxy process, as in an install without the optional peer.
    const WITHOUT_OPENAI = `data:text/javascript,${encodeURIComponent(
      `import { register } from 'node:module';
register('data:text/javascript,' + encodeURIComponent(\`
export async function resolve(specifier, context, next) {
  if (specifier === 'openai' || specifier.startsWith('openai/')) {
    throw Object.assign(new Error("Cannot find package 'openai' imported from " + context.parentURL), { code: 'ERR_MODULE_NOT_FOUND' });
  }
  return next(specifier, context);
}\`));`,
    )}`;

    /** The proxy in front of the demo server, `list_pods` called once, the provider's requests counted. */
    async function listPods(
      flags: string[],
      env: Record<string, string>,
      nodeFlags: string[] = [],
    ) {
      const provider = await createProviderServer();
      const transport = new StdioClientTransport({
        command: process.execPath,
        args: [
          ...nodeFlags,
          BINARY,
          'mcp-proxy',
          '--dir',
          tmpdir(),
          '--max-bytes',
          '8192',
          ...flags,
          '--',
          process.execPath,
          DEMO_SERVER,
        ],
        env: {
          PATH: process.env.PATH ?? '',
          OPENAI_API_KEY: 'sk-test',
          OPENAI_BASE_URL: provider.openaiBaseUrl,
          ...env,
        },
        stderr: 'pipe',
      });
      let stderr = '';
      transport.stderr?.on('data', (chunk) => {
        stderr += String(chunk);
      });
      const client = new Client({ name: 'cli-test', version: '1.0.0' });
      try {
        await client.connect(transport);
        const view = textOf(await client.callTool({ name: 'list_pods', arguments: {} }));
        return { view, requests: provider.requests.length, stderr };
      } finally {
        await client.close();
        await provider.close();
      }
    }

    it('an API key in the environment does not turn it on', async () => {
      const { view, requests } = await listPods([], {});
      expect(requests).toBe(0);
      expect(utf8ByteLength(view)).toBeLessThanOrEqual(8192);
      expect(view).toContain('checkout-7f9c');
    });

    it('--distill and COMPACTION_MCP_PROXY_DISTILL=true turn it on', async () => {
      expect((await listPods(['--distill'], {})).requests).toBeGreaterThan(0);
      expect(
        (await listPods([], { COMPACTION_MCP_PROXY_DISTILL: 'true' })).requests,
      ).toBeGreaterThan(0);
    });

    it('without the optional openai package the proxy starts, and says why views are not distilled', async () => {
      const plain = await listPods([], {}, ['--import', WITHOUT_OPENAI]);
      expect(plain.view).toContain('checkout-7f9c');
      const asked = await listPods(['--distill'], {}, ['--import', WITHOUT_OPENAI]);
      expect(asked.requests).toBe(0);
      expect(asked.view).toContain('checkout-7f9c');
      expect(asked.stderr).toMatch(/warning: .*needs openai.*structural views/);
    });
  });

  it('proxies a remote server over streamable HTTP with --url, headers passed on', async () => {
    const demo = createDemoMcpServer();
    const remote = new StreamableHTTPServerTransport({ sessionIdGenerator: () => randomUUID() });
    await demo.server.connect(remote);
    const authorizations: Array<string | undefined> = [];
    const http = createServer((request, response) => {
      authorizations.push(request.headers.authorization);
      void remote.handleRequest(request, response);
    });
    await new Promise<void>((resolve) => http.listen(0, '127.0.0.1', resolve));
    const { port } = http.address() as AddressInfo;
    const root = await mkdtemp(join(tmpdir(), 'cli-mcp-proxy-'));
    const transport = new StdioClientTransport({
      command: process.execPath,
      args: [
        BINARY,
        'mcp-proxy',
        '--dir',
        root,
        '--max-bytes',
        '8192',
        '--url',
        `http://127.0.0.1:${port}/mcp`,
        '--header',
        'Authorization: Bearer t0ken',
      ],
      env: { PATH: process.env.PATH ?? '' },
      stderr: 'pipe',
    });
    const client = new Client({ name: 'cli-test', version: '1.0.0' });
    try {
      await client.connect(transport);
      expect(client.getServerVersion()?.name).toBe('demo-pods');
      const view = textOf(await client.callTool({ name: 'list_pods', arguments: {} }));
      expect(utf8ByteLength(view)).toBeLessThanOrEqual(8192);
      expect(parseArtifactPointerLine(view.split('\n')[0]!)?.id).toMatch(/^art_/);
      expect(textOf(await client.callTool({ name: 'echo', arguments: { text: 'far' } }))).toBe(
        'far',
      );
      expect(authorizations.length).toBeGreaterThan(0);
      expect(new Set(authorizations)).toEqual(new Set(['Bearer t0ken']));
    } finally {
      await client.close();
      await demo.server.close();
      await new Promise((resolve) => http.close(resolve));
      await rm(root, { recursive: true, force: true });
    }
  });

  it('refuses --url with a server command, neither of them, and a --header without a colon', () => {
    const both = runBinary(['mcp-proxy', '--url', 'http://127.0.0.1:9/mcp', '--', 'node']);
    expect(both.status).toBe(2);
    expect(both.stderr).toContain('either --url or a server command after --');
    const bad = runBinary(['mcp-proxy', '--url', 'not a url']);
    expect(bad.status).toBe(2);
    expect(bad.stderr).toContain('--url must be an http(s) URL');
    const header = runBinary(['mcp-proxy', '--url', 'http://127.0.0.1:9/mcp', '--header', 'x']);
    expect(header.status).toBe(2);
    expect(header.stderr).toContain('--header must be "Name: value"');
  });

  describe.skipIf(!npxAvailable())(
    'the documented line: npx -p @compaction/cli compaction mcp-proxy -- npx -y <server>',
    () => {
      it('starts a server that npx fetches, inside the npx that fetched the proxy', async () => {
        const root = await mkdtemp(join(tmpdir(), 'cli-mcp-proxy-npx-'));
        try {
          // Two local packages stand for the registry: the CLI (a wrapper that runs the built
          // binary) and a small MCP server with no dependencies.
          const cli = await packPackage(join(root, 'cli'), {
            name: '@compaction/cli-under-test',
            bin: { compaction: 'compaction.js' },
            files: {
              'compaction.js': `#!/usr/bin/env node
const { spawnSync } = require('node:child_process');
const run = spawnSync(process.execPath, [${JSON.stringify(BINARY)}, ...process.argv.slice(2)], { stdio: 'inherit' });
process.exit(run.status ?? 1);
`,
            },
          });
          const server = await packPackage(join(root, 'server'), {
            name: 'tiny-mcp-server',
            bin: { 'tiny-mcp-server': 'server.js' },
            files: { 'server.js': TINY_SERVER },
          });
          const transport = new StdioClientTransport({
            // A `file:` spec is a package as a registry name is (npx runs a bare path as a command).
            command: 'npx',
            args: [
              '-y',
              '-p',
              cli,
              'compaction',
              'mcp-proxy',
              '--dir',
              root,
              '--',
              'npx',
              '-y',
              `file:${server}`,
            ],
            env: {
              PATH: process.env.PATH ?? '',
              HOME: process.env.HOME ?? root,
              npm_config_cache: join(root, 'npm-cache'),
              npm_config_update_notifier: 'false',
            },
            cwd: root,
            stderr: 'pipe',
          });
          let stderr = '';
          transport.stderr?.on('data', (chunk) => {
            stderr += String(chunk);
          });
          const client = new Client({ name: 'cli-test', version: '1.0.0' });
          try {
            await client.connect(transport);
            expect(client.getServerVersion()?.name).toBe('tiny');
            expect(
              textOf(await client.callTool({ name: 'echo', arguments: { text: 'via npx' } })),
            ).toBe('via npx');
          } catch (error) {
            throw new Error(`${String(error)}\nproxy stderr:\n${stderr}`);
          } finally {
            await client.close();
          }
        } finally {
          await rm(root, { recursive: true, force: true });
        }
      }, 120_000);
    },
  );
});

/** True when `npx` runs here (CI requires it). */
function npxAvailable(): boolean {
  const found = spawnSync('npx', ['--version'], { encoding: 'utf8' }).status === 0;
  if (!found && process.env.CI === 'true') throw new Error('npx is missing: install npm');
  return found;
}

/** Writes a package into `dir`, packs it with npm and returns the tarball's path. */
async function packPackage(
  dir: string,
  spec: { name: string; bin: Record<string, string>; files: Record<string, string> },
): Promise<string> {
  await mkdir(dir, { recursive: true });
  await writeFile(
    join(dir, 'package.json'),
    JSON.stringify({ name: spec.name, version: '1.0.0', bin: spec.bin }),
  );
  for (const [name, text] of Object.entries(spec.files)) {
    await writeFile(join(dir, name), text, { mode: 0o755 });
  }
  const packed = spawnSync('npm', ['pack', '--silent', '--pack-destination', dir], {
    cwd: dir,
    encoding: 'utf8',
    env: { ...process.env, npm_config_update_notifier: 'false' },
  });
  if (packed.status !== 0) throw new Error(`npm pack failed: ${packed.stderr}`);
  return join(dir, packed.stdout.trim().split('\n').pop()!);
}

/** An MCP server over stdio written by hand (no dependencies): `initialize`, `tools/list`, `echo`. */
const TINY_SERVER = `#!/usr/bin/env node
const out = (message) => process.stdout.write(JSON.stringify(message) + '\\n');
let buffer = '';
process.stdin.on('data', (chunk) => {
  buffer += chunk;
  for (let at = buffer.indexOf('\\n'); at >= 0; at = buffer.indexOf('\\n')) {
    const message = JSON.parse(buffer.slice(0, at));
    buffer = buffer.slice(at + 1);
    if (message.id === undefined) continue;
    const answer = (result) => out({ jsonrpc: '2.0', id: message.id, result });
    if (message.method === 'initialize') {
      answer({ protocolVersion: message.params.protocolVersion, capabilities: { tools: {} }, serverInfo: { name: 'tiny', version: '1.0.0' } });
    } else if (message.method === 'tools/list') {
      answer({ tools: [{ name: 'echo', inputSchema: { type: 'object', properties: { text: { type: 'string' } } } }] });
    } else if (message.method === 'tools/call') {
      answer({ content: [{ type: 'text', text: message.params.arguments.text }] });
    } else {
      out({ jsonrpc: '2.0', id: message.id, error: { code: -32601, message: 'Method not found' } });
    }
  }
});
process.stdin.on('end', () => process.exit(0));
`;
