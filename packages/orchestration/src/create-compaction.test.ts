import {
  type ContinuationDistiller,
  disclosureNoteKind,
  type ResultProcessor,
  type StepRecord,
  stripDisclosureNotes,
  trailingDisclosureNotes,
  utf8ByteLength,
} from '@compaction/core';
import { createMemoryDistillCache, createRecordingTelemetry } from '@compaction/core/test';
import { distilledViewBytes } from '@compaction/distiller';
import { createOpenAIClient } from '@compaction/distiller/openai';
import { createRedisDistillCache } from '@compaction/distiller/redis';
import {
  createProviderServer,
  type ProviderServer,
  redisServerAvailable,
  startRedisServer,
} from '@compaction/distiller/test';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createCompaction } from './create-compaction.js';

function podList(count: number, failingIndex: number): string {
  const items = Array.from({ length: count }, (_, i) => ({
    metadata: {
      name: `api-${i.toString(36).padStart(4, '0')}`,
      uid: `uid-${i}`,
      labels: { app: 'api', team: 'core' },
    },
    status: {
      phase: i === failingIndex ? 'Failed' : 'Running',
      reason: i === failingIndex ? 'OOMKilled' : undefined,
      restartCount: i === failingIndex ? 47 : 0,
      hostIP: `10.0.${i % 250}.${i % 7}`,
    },
    spec: {
      nodeName: `node-${i % 12}`,
      containers: [{ name: 'api', image: 'registry/api:1.2.3', args: ['--port', '8080'] }],
    },
  }));
  return JSON.stringify({ kind: 'PodList', items }, null, 2);
}

function logText(lines: number, needleAt: number): string {
  const out: string[] = [];
  for (let i = 0; i < lines; i++) {
    out.push(
      i === needleAt
        ? `2026-11-30T06:${String(i % 60).padStart(2, '0')}:00Z ERROR payments connection pool exhausted txn=txn_0042`
        : `2026-11-30T06:${String(i % 60).padStart(2, '0')}:00Z INFO request ok route=/api/v2/items latency=${i % 90}ms`,
    );
  }
  return out.join('\n');
}

const bigPods = podList(3000, 1800);
const bigLogs = logText(20_000, 11_000);
const smallJson = JSON.stringify({ ok: true, count: 3, id: 12345678901234567890n.toString() });

let server: ProviderServer;

beforeAll(async () => {
  server = await createProviderServer({
    handler: (request) => ({
      text: `summary of ${request.prompt.length} chars: pool exhausted txn_0042`,
    }),
  });
});

afterAll(async () => {
  await server.close();
});

function openai() {
  return createOpenAIClient({
    env: { OPENAI_API_KEY: 'test-key', OPENAI_BASE_URL: server.openaiBaseUrl },
    maxRetries: 0,
  });
}

const steps: StepRecord[] = [
  { id: 'step-1', status: 'succeeded', toolName: 'kubectl_get_pods', result: bigPods },
  { id: 'step-2', status: 'succeeded', toolName: 'fetch_logs', result: bigLogs },
  { id: 'step-3', status: 'succeeded', toolName: 'small', result: smallJson },
  {
    id: 'step-4',
    status: 'failed',
    toolName: 'prometheus_query',
    error: { code: 'timeout', message: 'query timed out after 30s' },
    inputs: { query: 'sum(rate(http_requests_total[5m]))', range: '30m' },
  },
  {
    id: 'step-5',
    status: 'rejected',
    toolName: 'restart_pod',
    error: { code: 'binding', message: 'missing param pod' },
  },
];

describe('createCompaction: synthesis', () => {
  it('without a model client: structural floor, every result within the total, honest notes', async () => {
    const compaction = createCompaction({
      env: {},
      config: { trim: { maxTotalBytes: 60_000, maxResultBytes: 30_000 } },
    });
    expect(compaction.distillationActive).toBe(false);
    const assembly = await compaction.assembleSynthesis(steps, {
      userQuery: 'why are payments failing?',
    });
    expect(assembly.successBytes).toBeLessThanOrEqual(60_000);
    const [pods, logs, small, failed, rejected] = assembly.sections;
    expect(pods!.metadata!.contentLost).toBe(true);
    expect(trailingDisclosureNotes(pods!.text).length).toBe(1);
    expect(logs!.text).toContain('connection pool exhausted txn=txn_0042');
    expect(small!.text).toContain('"id":"12345678901234567890"');
    expect(small!.metadata!.contentLost).toBe(false);
    expect(failed!.text).toContain('[FAILED: timeout — query timed out after 30s]');
    expect(failed!.text).toContain('sum(rate(http_requests_total[5m]))');
    expect(failed!.evidence).toBe('complete');
    expect(rejected!.text).toContain('REJECTED before dispatch');
    expect(rejected!.text).not.toContain('[FAILED');
    expect(assembly.contentLost).toBe(true);
  });

  it('with a real OpenAI SDK client against the local server: distills the big results, trims none of the small', async () => {
    server.resetStats();
    const compaction = createCompaction({ env: {}, aiClient: openai() });
    expect(compaction.distillationActive).toBe(true);
    expect(compaction.willDistill(utf8ByteLength(bigPods))).toBe(true);
    expect(compaction.willDistill(utf8ByteLength(smallJson))).toBe(false);
    const assembly = await compaction.assembleSynthesis(steps, {
      userQuery: 'why are payments failing?',
    });
    expect(server.requests.length).toBeGreaterThanOrEqual(2);
    const [pods, logs, small] = assembly.sections;
    expect(pods!.metadata!.strategy).toMatch(/distilled|map-reduce/);
    expect(logs!.text).toContain('txn_0042');
    expect(small!.metadata!.contentLost).toBe(false);
    expect(assembly.successBytes).toBeLessThanOrEqual(compaction.synthesisBudgets.totalBytes);
    // The distilled results were sized at their post-distill footprint, leaving room for the rest.
    expect(pods!.budgetBytes).toBeLessThanOrEqual(
      distilledViewBytes(compaction.config.distill.targetBytes),
    );
  });

  it('falls open to the floor when the model server fails every call', async () => {
    server.setHandler(() => ({ status: 500 }));
    try {
      const compaction = createCompaction({ env: {}, aiClient: openai() });
      const assembly = await compaction.assembleSynthesis(steps.slice(0, 2), {
        userQuery: 'payments',
      });
      for (const section of assembly.sections) {
        expect(section.metadata!.contentLost).toBe(true);
        expect(trailingDisclosureNotes(section.text).length).toBeGreaterThan(0);
      }
      expect(assembly.sections[1]!.text).toContain('txn_0042');
    } finally {
      server.setHandler((request) => ({
        text: `summary of ${request.prompt.length} chars: pool exhausted txn_0042`,
      }));
    }
  });

  it('shares a Redis distill cache between two factories (second run makes no model call)', async () => {
    if (!redisServerAvailable()) {
      if (process.env.CI === 'true') throw new Error('redis-server is required under CI=true');
      console.warn('redis-server is not installed: skipping the shared-cache test');
      return;
    }
    const redisServer = await startRedisServer();
    const clients = [
      new Redis(redisServer.port, '127.0.0.1'),
      new Redis(redisServer.port, '127.0.0.1'),
    ];
    try {
      const build = (client: Redis) =>
        createCompaction({
          env: {},
          aiClient: openai(),
          deps: { distillCache: createRedisDistillCache({ client }) },
        });
      const input = [steps[1]!];
      server.resetStats();
      const first = await build(clients[0]!).assembleSynthesis(input, { userQuery: 'payments' });
      const calls = server.requests.length;
      expect(calls).toBeGreaterThan(0);
      const second = await build(clients[1]!).assembleSynthesis(input, { userQuery: 'payments' });
      expect(server.requests.length).toBe(calls);
      expect(second.text).toBe(first.text);
      expect(second.sections[0]!.metadata).toEqual(first.sections[0]!.metadata);
    } finally {
      for (const client of clients) client.disconnect();
      await redisServer.stop();
    }
  });
});

describe('createCompaction: other paths', () => {
  it('passes agent inputs through raw by default, and caps them only when configured', async () => {
    const raw = createCompaction({ env: {} });
    const params = { logs: bigLogs, filter: { level: 'error' } };
    const passed = await raw.agentInputProcessor.process(params);
    expect(passed.params.logs).toBe(bigLogs);
    expect(passed.changes).toEqual([]);

    const capped = createCompaction({
      env: { COMPACTION_RESULT_TRIM_MAX_AGENT_INPUT_BYTES: '4096' },
    });
    const trimmed = await capped.agentInputProcessor.process(params);
    expect(utf8ByteLength(trimmed.params.logs as string)).toBeLessThanOrEqual(4096);
    expect(trimmed.changes).toEqual([expect.objectContaining({ name: 'logs', contentLost: true })]);
    expect(trimmed.params.filter).toEqual({ level: 'error' });
  });

  it('trims resolution sources structurally at the micro budget and never calls a model', async () => {
    server.resetStats();
    const compaction = createCompaction({ env: {}, aiClient: openai() });
    const source = await compaction.compactSource(bigPods);
    expect(server.requests.length).toBe(0);
    expect(source.metadata.outputBytes).toBeLessThanOrEqual(compaction.config.trim.maxMicroBytes);
    expect(compaction.usesSchemaMapping(utf8ByteLength(bigPods))).toBe(true);
    expect(compaction.usesSchemaMapping(1000)).toBe(false);
    expect(
      createCompaction({
        env: { COMPACTION_RESULT_TRIM_SCHEMA_MAPPING_THRESHOLD: '0' },
      }).usesSchemaMapping(10 ** 9),
    ).toBe(false);
  });

  it('renders continuation over a mixed fan-out with failures, and resolves templates against full values', async () => {
    const compaction = createCompaction({
      env: { COMPACTION_CONTINUATION_RESULT_MAX_TOTAL_CHARS: '8192' },
    });
    const section = await compaction.renderContinuation(steps, { userQuery: 'payments' });
    expect(section.text).toContain('[FAILED: ');
    expect(section.text).toMatch(/\[showing \d+ of \d+ completed steps\]/);
    expect(section.views.find((view) => view.stepId === 'step-4')!.view).toBe('failed');
    const resolver = compaction.resolver(steps);
    const bound = resolver.resolve('{{step-3.id}}');
    expect(JSON.stringify(bound)).toContain('12345678901234567890');
  });

  it('builds the model continuation distiller from the client, even with trimming disabled', async () => {
    server.resetStats();
    const compaction = createCompaction({
      env: { COMPACTION_RESULT_TRIM_ENABLED: 'false' },
      aiClient: openai(),
    });
    const section = await compaction.renderContinuation(steps, { userQuery: 'payments' });
    expect(section.escalatedStepIds).toEqual(['step-2']);
    expect(
      server.requests.filter((r) => r.system.includes('planner that decides the next step')),
    ).toHaveLength(1);
    expect(section.text).toContain('[distilled: ');
  });

  it('escalates non-JSON continuation steps to the continuation distiller only when distillation is enabled', async () => {
    const calls: string[] = [];
    const distiller: ContinuationDistiller = {
      async distill(input) {
        calls.push(input.stepId);
        return `summary of ${input.stepId}: connection pool exhausted`;
      },
    };
    const on = createCompaction({ env: {}, deps: { continuationDistiller: distiller } });
    const section = await on.renderContinuation(steps);
    expect(calls).toEqual(['step-2']);
    expect(section.text).toContain('summary of step-2');
    calls.length = 0;
    const off = createCompaction({
      env: { COMPACTION_RESULT_DISTILL_ENABLED: 'false' },
      deps: { continuationDistiller: distiller },
    });
    await off.renderContinuation(steps);
    expect(calls).toEqual([]);
    const zero = createCompaction({
      env: { COMPACTION_CONTINUATION_MAX_ESCALATIONS: '0' },
      deps: { continuationDistiller: distiller },
    });
    await zero.renderContinuation(steps);
    expect(calls).toEqual([]);
  });
});

describe('createCompaction: seams and environment', () => {
  it('honours every replaced seam', async () => {
    const used: string[] = [];
    const tag = (name: string): ResultProcessor => ({
      async process(result) {
        used.push(name);
        return {
          text: result.slice(0, 10),
          metadata: { contentLost: true, originalBytes: 0, outputBytes: 0 },
        };
      },
    });
    const cache = createMemoryDistillCache();
    const compaction = createCompaction({
      env: {},
      aiClient: openai(),
      deps: {
        resultProcessor: tag('synthesis'),
        sourceResultProcessor: tag('source'),
        agentInputProcessor: {
          async process(params) {
            used.push('agent-input');
            return { params: { ...params, redacted: true }, changes: [] };
          },
        },
        distillCache: cache,
      },
    });
    const assembly = await compaction.assembleSynthesis([steps[1]!]);
    // The custom processor said contentLost without a note: the guard added one.
    expect(disclosureNoteKind(assembly.sections[0]!.text.split('\n').pop()!)).toBe('trimmed');
    await compaction.compactSource(bigLogs);
    expect((await compaction.agentInputProcessor.process({ a: 1 })).params).toEqual({
      a: 1,
      redacted: true,
    });
    expect(used).toEqual(['synthesis', 'source', 'agent-input']);
    expect(compaction.distillationActive).toBe(false);
  });

  it('changes behaviour from COMPACTION_* variables alone', async () => {
    const tight = createCompaction({
      env: {
        COMPACTION_RESULT_TRIM_MAX_TOTAL_BYTES: '20000',
        COMPACTION_RESULT_TRIM_MAX_BYTES: '8000',
      },
    });
    const assembly = await tight.assembleSynthesis(steps.slice(0, 3));
    expect(assembly.successBytes).toBeLessThanOrEqual(20_000);
    for (const section of assembly.sections) expect(section.budgetBytes!).toBeLessThanOrEqual(8000);

    server.resetStats();
    const disabled = createCompaction({
      env: { COMPACTION_RESULT_DISTILL_ENABLED: 'false' },
      aiClient: openai(),
    });
    expect(disabled.distillationActive).toBe(false);
    await disabled.assembleSynthesis(steps.slice(0, 2));
    expect(server.requests.length).toBe(0);

    const untrimmed = createCompaction({
      env: { COMPACTION_RESULT_TRIM_ENABLED: 'false' },
      aiClient: openai(),
    });
    expect(untrimmed.distillationActive).toBe(false);
    const cut = await untrimmed.assembleSynthesis([steps[1]!]);
    expect(trailingDisclosureNotes(cut.sections[0]!.text).map((note) => note.kind)).toEqual([
      'reduced-without-model-analysis',
    ]);
    expect(
      bigLogs.startsWith(
        stripDisclosureNotes(cut.sections[0]!.text).split('\n').slice(1).join('\n'),
      ),
    ).toBe(true);
  });

  it('reports each configuration warning once', () => {
    const messages: string[] = [];
    const compaction = createCompaction({
      env: {
        COMPACTION_RESULT_DISTILL_MAPREDUCE_THRESHOLD: '65536',
        COMPACTION_RESULT_TRIM_MAX_AGENT_INPUT_BYTES: '200',
      },
      aiClient: openai(),
      onWarning: (message) => messages.push(message),
    });
    expect(messages.filter((m) => m.includes('below the pre-filter budget'))).toHaveLength(1);
    expect(messages.filter((m) => m.includes('MAX_AGENT_INPUT_BYTES'))).toHaveLength(1);
    expect(compaction.config.trim.maxAgentInputBytes).toBe(256);
  });

  it('caps tool-to-tool strings at the raised minimum instead of rejecting them', async () => {
    const compaction = createCompaction({
      env: { COMPACTION_RESULT_TRIM_MAX_AGENT_INPUT_BYTES: '200' },
      onWarning: () => {},
    });
    const { params, changes } = await compaction.agentInputProcessor.process({
      logs: bigLogs,
      small: 'ok',
    });
    expect(utf8ByteLength(params.logs as string)).toBeLessThanOrEqual(256);
    expect(changes).toEqual([expect.objectContaining({ name: 'logs', contentLost: true })]);
    expect(params.small).toBe('ok');
    const programmatic = createCompaction({ env: {}, config: { trim: { maxAgentInputBytes: 0 } } });
    expect((await programmatic.agentInputProcessor.process({ logs: bigLogs })).params.logs).toBe(
      bigLogs,
    );
  });

  it('reports telemetry through the seam', async () => {
    const telemetry = createRecordingTelemetry();
    const compaction = createCompaction({ env: {}, aiClient: openai(), telemetry });
    await compaction.assembleSynthesis([steps[1]!]);
    await compaction.renderContinuation(steps);
    expect(telemetry.total('compaction.result_distill.triggered')).toBeGreaterThan(0);
    expect(telemetry.spans.some((span) => span.name === 'compaction.continuation_budget')).toBe(
      true,
    );
  });

  it('sizes synthesis budgets from a context window when asked', () => {
    const compaction = createCompaction({ env: {}, contextWindowTokens: 32_000 });
    expect(compaction.synthesisBudgets).toEqual({ totalBytes: 28_000, perResultBytes: 9333 });
  });
});

describe('createCompaction: the deadline reaches synchronous work', () => {
  /** A processor that records the poll each call carries. */
  function recording() {
    const polls: Array<(() => boolean) | undefined> = [];
    const processor: ResultProcessor = {
      async process(result, maxBytes, context) {
        polls.push(context?.shouldStop);
        return {
          text: result.slice(0, maxBytes),
          metadata: {
            contentLost: result.length > maxBytes,
            originalBytes: result.length,
            outputBytes: Math.min(result.length, maxBytes),
            strategy: 'bytes',
          },
        };
      },
    };
    return { processor, polls };
  }

  it('gives synthesis, source and continuation calls a poll of the deadline on the injected clock', async () => {
    const clock = { now: 0 };
    const synthesis = recording();
    const source = recording();
    const compaction = createCompaction({
      env: {},
      config: { distill: { deadlineMs: 2000 } },
      now: () => clock.now,
      deps: { resultProcessor: synthesis.processor, sourceResultProcessor: source.processor },
    });
    const big = 'log line\n'.repeat(20_000);
    await compaction.assembleSynthesis([{ id: 'step-1', status: 'succeeded', result: big }]);
    await compaction.compactSource(big);
    const controller = new AbortController();
    const section = await compaction.renderContinuation(
      [{ id: 'step-2', status: 'succeeded', result: big }],
      { signal: controller.signal },
    );
    expect(section.views[0]!.view).toBe('preview');
    const [synthesisPoll] = synthesis.polls;
    const [sourcePoll] = source.polls;
    expect(synthesisPoll!()).toBe(false);
    expect(sourcePoll!()).toBe(false);
    clock.now = 2000;
    expect(synthesisPoll!()).toBe(true);
    expect(sourcePoll!()).toBe(true);
  });

  it('renders continuation digests under the same deadline: a stopped digest becomes a preview', async () => {
    // Wide enough for the digest to read the clock a few dozen times (not 290, as 200 000 keys
    // did at 3 s alone and 15 s on a loaded machine): the clock is injected, so the size only
    // has to outlast ten readings.
    const wide = JSON.stringify(
      Object.fromEntries(Array.from({ length: 50_000 }, (_, i) => [`k${i}`, i])),
    );
    const render = async (msPerPoll: number) => {
      let clock = 0;
      // Each reading of the clock stands for msPerPoll of work: the digest polls as it goes.
      const compaction = createCompaction({
        env: {},
        config: { distill: { deadlineMs: 2000 }, continuation: { digestMaxKeys: 25_000 } },
        now: () => (clock += msPerPoll),
      });
      return compaction.renderContinuation([{ id: 'step-1', status: 'succeeded', result: wide }]);
    };
    expect((await render(1)).views[0]!.view).toBe('digest');
    const late = await render(200);
    expect(late.views[0]!.view).toBe('preview');
    expect(late.contentLost).toBe(true);
  });
});
