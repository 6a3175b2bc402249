// compaction proxy (issue 42): what it adds to a request, against the same request sent straight to
// the same fake upstream in the same run, and what it saves over a long session.
import { mkdtempSync, rmSync } from 'node:fs';
import http from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { estimateTokens } from '@compaction/core';
import { createCompactionProxy } from '@compaction/proxy';
import { startFakeUpstream } from '@compaction/proxy/test';
import { longSession } from './lib/long-session.mjs';
import { markdownTable, writeResult } from './lib/report.mjs';

const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });

/** Sends `body` to `base` + /v1/messages; resolves with ms to the first answer byte and to the end. */
function send(base, body) {
  return new Promise((done, fail) => {
    const start = process.hrtime.bigint();
    const ms = () => Number(process.hrtime.bigint() - start) / 1e6;
    const req = http.request(`${base}/v1/messages`, {
      method: 'POST',
      agent,
      headers: {
        'content-type': 'application/json',
        'content-length': Buffer.byteLength(body),
        'anthropic-version': '2023-06-01',
        'x-api-key': 'bench',
      },
    });
    req.on('response', (res) => {
      let first;
      res.on('data', () => {
        first ??= ms();
      });
      res.on('end', () => done({ first: first ?? ms(), total: ms() }));
      res.on('error', fail);
    });
    req.on('error', fail);
    req.end(body);
  });
}

const added = (ms) => `${ms >= 0 ? '+' : '−'}${Math.abs(ms).toFixed(2)} ms`;

const median = (values) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)];
};

/** Lines of a log, `bytes` long in all. */
function logOf(bytes, tag) {
  const lines = [];
  for (let n = 0, i = 0; n < bytes; i++) {
    const line =
      i % 997 === 500 ? `ERROR ${tag} step ${i}: connection reset` : `INFO ${tag} step ${i} ok`;
    lines.push(line);
    n += line.length + 1;
  }
  return lines.join('\n');
}

/** A request whose one tool result is `bytes` long, in a conversation named by `tag`. */
function toolRequest(bytes, tag, stream = false) {
  return JSON.stringify({
    model: 'claude-bench',
    max_tokens: 64,
    ...(stream ? { stream: true } : {}),
    messages: [
      { role: 'user', content: `Find the failure (${tag}).` },
      {
        role: 'assistant',
        content: [{ type: 'tool_use', id: 'toolu_1', name: 'Bash', input: {} }],
      },
      {
        role: 'user',
        content: [{ type: 'tool_result', tool_use_id: 'toolu_1', content: logOf(bytes, tag) }],
      },
    ],
  });
}

/** A request of plain text, `bytes` long: nothing for the proxy to compact. */
function plainRequest(bytes, stream = false) {
  return JSON.stringify({
    model: 'claude-bench',
    max_tokens: 64,
    ...(stream ? { stream: true } : {}),
    messages: [{ role: 'user', content: 'p'.repeat(bytes) }],
  });
}

const dir = mkdtempSync(join(tmpdir(), 'proxy-bench-'));
const upstream = await startFakeUpstream();
const failedOpen = [];
const proxy = createCompactionProxy({
  port: 0,
  dir,
  upstreamAnthropic: upstream.url,
  env: {},
  onRequest: (stats) => {
    if (stats.failedOpen) failedOpen.push(stats.failedOpen);
  },
});
const proxyUrl = await proxy.listen();

const sizes = [
  ['10 KB', 10_000, 31],
  ['1 MB', 1_000_000, 11],
  ['10 MB', 10_000_000, 9],
];
const latencyRows = [];
for (const [label, bytes, runs] of sizes) {
  const plain = plainRequest(bytes);
  const times = { direct: [], plainProxy: [], toolDirect: [], toolProxy: [] };
  for (let i = 0; i < runs + 2; i++) {
    // Each tool request opens a new conversation, so its view is computed and stored, not reused.
    const tool = toolRequest(bytes, `${label}-${i}`);
    const measured = [
      ['direct', await send(upstream.url, plain)],
      ['plainProxy', await send(proxyUrl, plain)],
      ['toolDirect', await send(upstream.url, tool)],
      ['toolProxy', await send(proxyUrl, tool)],
    ];
    if (i < 2) continue;
    for (const [key, time] of measured) times[key].push(time.total);
  }
  const m = Object.fromEntries(Object.entries(times).map(([key, list]) => [key, median(list)]));
  latencyRows.push([
    label,
    `${m.direct.toFixed(2)} ms`,
    `${m.plainProxy.toFixed(2)} ms`,
    added(m.plainProxy - m.direct),
    `${m.toolDirect.toFixed(2)} ms`,
    `${m.toolProxy.toFixed(2)} ms`,
    added(m.toolProxy - m.toolDirect),
  ]);
}

// Time to the first streamed byte of a 10 KB request with nothing to compact.
const firstByte = { direct: [], proxy: [] };
const streamed = plainRequest(10_000, true);
for (let i = 0; i < 53; i++) {
  const direct = await send(upstream.url, streamed);
  const proxied = await send(proxyUrl, streamed);
  if (i < 3) continue;
  firstByte.direct.push(direct.first);
  firstByte.proxy.push(proxied.first);
}
const ttfbDirect = median(firstByte.direct);
const ttfbProxy = median(firstByte.proxy);

// The long-session replay of the conversation-budget issue, one request per model turn, each
// carrying the whole conversation so far: tokens of every request body as the upstream receives
// it, sent through the proxy and sent direct.
const session = longSession({ seed: 1 });
const messages = [];
let directBytes = 0;
let proxiedBytes = 0;
let lastDirect = 0;
let lastProxied = 0;
const received = () => upstream.requests.at(-1).body.length;
upstream.requests.length = 0;
for (const turn of session.turns) {
  if (turn.user) messages.push({ role: 'user', content: turn.user });
  else if (messages.length === 0) messages.push({ role: 'user', content: 'Start.' });
  messages.push({
    role: 'assistant',
    content: [
      { type: 'text', text: turn.say },
      ...turn.calls.map((call) => ({
        type: 'tool_use',
        id: call.toolCallId,
        name: call.toolName,
        input: call.args,
      })),
    ],
  });
  messages.push({
    role: 'user',
    content: turn.calls.map((call) => ({
      type: 'tool_result',
      tool_use_id: call.toolCallId,
      content: call.output,
      ...(call.isError ? { is_error: true } : {}),
    })),
  });
  const body = JSON.stringify({ model: 'claude-bench', max_tokens: 64, messages });
  await send(proxyUrl, body);
  lastProxied = received();
  proxiedBytes += lastProxied;
  lastDirect = Buffer.byteLength(body);
  directBytes += lastDirect;
  upstream.requests.length = 0;
}

await proxy.close();
await upstream.close();
agent.destroy();
rmSync(dir, { recursive: true, force: true });

const tokens = (bytes) => estimateTokens(bytes).toLocaleString('en-US');
writeResult(
  'proxy',
  'compaction proxy: added latency, first streamed byte, tokens over a long session',
  `
Every figure is measured in the same run against the same fake upstream (\`startFakeUpstream\` of
\`@compaction/proxy/test\`, on loopback), once straight to it ("direct") and once through
\`createCompactionProxy\` with its defaults (64 KiB per result, the 128 KiB conversation budget,
pointers to files under a temp dir). Medians, direct and proxied runs interleaved; one keep-alive
connection per side. The machine is shared with other work, so differences of a few ms (and a
negative one) are noise.

## Added latency per request (Anthropic Messages, not streamed)

"Nothing to compact": one user message of that size; it holds no tool result, so the proxy reads
it and forwards its original bytes without parsing it. "One tool result": a \`tool_result\` of
that size in a new conversation each run, so the proxy parses the body, computes the view and
stores the full result (the first sight of a result; later requests of the conversation reuse
the view). A 10 KB result fits the 64 KiB per-result budget and goes on as it is.

${markdownTable(
  [
    'request',
    'direct',
    'proxy, nothing to compact',
    'added',
    'direct, one tool result',
    'proxy, one tool result',
    'added',
  ],
  latencyRows,
)}

## Time to first streamed byte, 10 KB request with nothing to compact (50 runs)

${markdownTable(
  ['direct', 'through the proxy', 'added'],
  [[`${ttfbDirect.toFixed(2)} ms`, `${ttfbProxy.toFixed(2)} ms`, added(ttfbProxy - ttfbDirect)]],
)}

## Tokens sent upstream over the long-session replay

\`longSession({ seed: 1 })\` of \`bench/lib/long-session.mjs\` (issue 41): ${session.stats.calls} tool
calls over ${session.stats.modelTurns} model turns, ${(session.stats.totalBytes / 1e6).toFixed(1)} MB
of tool results. One Anthropic Messages request per model turn, each with the whole conversation so
far; tokens are estimated from the bytes the upstream received (\`estimateTokens\`, bytes / 3.5).
Requests the proxy sent unchanged (failed open) in the whole run: ${failedOpen.length}${failedOpen.length ? ` (${[...new Set(failedOpen)].join('; ')})` : ''}.

${markdownTable(
  ['', 'direct', 'through the proxy', 'proxy / direct'],
  [
    [
      'all requests',
      tokens(directBytes),
      tokens(proxiedBytes),
      `${((proxiedBytes / directBytes) * 100).toFixed(1)}%`,
    ],
    [
      'the last request',
      tokens(lastDirect),
      tokens(lastProxied),
      `${((lastProxied / lastDirect) * 100).toFixed(1)}%`,
    ],
  ],
)}
`,
);
