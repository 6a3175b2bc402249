import { EVENT_NAMES, METRIC_NAMES, SPAN_NAMES } from '@compaction/core';
import { createOpenTelemetry } from '@compaction/core/otel';
import { context as otelContext } from '@opentelemetry/api';
import { AsyncLocalStorageContextManager } from '@opentelemetry/context-async-hooks';
import {
  AggregationTemporality,
  InMemoryMetricExporter,
  MeterProvider,
  PeriodicExportingMetricReader,
} from '@opentelemetry/sdk-metrics';
import {
  BasicTracerProvider,
  InMemorySpanExporter,
  SimpleSpanProcessor,
} from '@opentelemetry/sdk-trace-base';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDistiller } from './create-distiller.js';
import { createLruDistillCache } from './create-lru-distill-cache.js';
import { createOpenAIClient } from './openai/index.js';
import { createProviderServer, type ProviderServer } from './test/index.js';
import { sampleRecords } from './test-support/sample-data.js';

let server: ProviderServer;
// As an application's OpenTelemetry SDK does: spans started inside another become its children.
const contextManager = new AsyncLocalStorageContextManager();
beforeAll(async () => {
  server = await createProviderServer();
  otelContext.setGlobalContextManager(contextManager.enable());
});
afterAll(async () => {
  await server.close();
  otelContext.disable();
});

function otel() {
  const spans = new InMemorySpanExporter();
  const tracerProvider = new BasicTracerProvider({
    spanProcessors: [new SimpleSpanProcessor(spans)],
  });
  const exporter = new InMemoryMetricExporter(AggregationTemporality.CUMULATIVE);
  const reader = new PeriodicExportingMetricReader({ exporter, exportIntervalMillis: 60_000 });
  const meterProvider = new MeterProvider({ readers: [reader] });
  const telemetry = createOpenTelemetry({
    tracer: tracerProvider.getTracer('test'),
    meter: meterProvider.getMeter('test'),
  });
  const metricValues = async () => {
    await reader.forceFlush();
    const values = new Map<string, number>();
    for (const resource of exporter.getMetrics()) {
      for (const scope of resource.scopeMetrics) {
        for (const metric of scope.metrics) {
          let total = 0;
          for (const point of metric.dataPoints) {
            const value = point.value as number | { count: number };
            total += typeof value === 'number' ? value : value.count;
          }
          values.set(metric.descriptor.name, total);
        }
      }
    }
    return values;
  };
  const labels = (name: string) =>
    exporter
      .getMetrics()
      .flatMap((resource) => resource.scopeMetrics)
      .flatMap((scope) => scope.metrics)
      .filter((metric) => metric.descriptor.name === name)
      .flatMap((metric) => metric.dataPoints.map((point) => point.attributes));
  return { telemetry, spans, metricValues, meterProvider, labels };
}

const client = () =>
  createOpenAIClient({
    env: { OPENAI_API_KEY: 'sk-test', OPENAI_BASE_URL: server.openaiBaseUrl },
    maxRetries: 0,
  });
const context = {
  userQuery: 'errors?',
  stepTask: 'fetch logs',
  stepId: 'step-1',
  requestId: 'req-1',
};

describe('distiller telemetry through the OpenTelemetry SDK', () => {
  it('emits the distill span with stage events, the trim mirror and the metrics', async () => {
    server.setHandler(() => ({ text: 'summary', usage: { inputTokens: 900, outputTokens: 12 } }));
    const { telemetry, spans, metricValues, meterProvider, labels } = otel();
    const distiller = createDistiller({
      client: client(),
      telemetry,
      cache: createLruDistillCache(),
      agentName: 'devops-chat-agent',
    });
    const result = sampleRecords(300_000);
    await distiller.process(result, 4096, context);
    await distiller.process(result, 4096, context);

    const finished = spans.getFinishedSpans();
    const distill = finished.filter((s) => s.name === SPAN_NAMES.resultDistill);
    expect(distill).toHaveLength(2);
    expect(distill[0]!.attributes).toMatchObject({
      'compaction.step_id': 'step-1',
      'compaction.request_id': 'req-1',
      'compaction.original_bytes': result.length,
      'compaction.content_lost': true,
    });
    expect(distill[0]!.events.map((e) => e.name)).toEqual([
      EVENT_NAMES.stage1Complete,
      EVENT_NAMES.stage2Complete,
    ]);
    expect(distill[0]!.events[1]!.attributes).toMatchObject({
      'compaction.distilled_bytes': 7,
      'gen_ai.usage.input_tokens': 900,
      'gen_ai.usage.output_tokens': 12,
    });
    expect(distill[1]!.events.map((e) => e.name)).toEqual([EVENT_NAMES.cacheHit]);

    const call = finished.find((s) => s.name === SPAN_NAMES.modelCall)!;
    expect(call.attributes).toMatchObject({
      'gen_ai.system': 'openai',
      'gen_ai.request.model': 'fast',
    });

    const mirrors = finished.filter((s) => s.name === SPAN_NAMES.resultTrimCompleted);
    expect(mirrors).toHaveLength(2);
    expect(mirrors[0]!.attributes).toMatchObject({
      'compaction.content_lost': true,
      'compaction.partial_coverage': true,
      'compaction.step_id': 'step-1',
      'compaction.request_id': 'req-1',
    });
    // The mirror and the model call are children of their distill span.
    expect(mirrors[0]!.parentSpanContext?.spanId).toBe(distill[0]!.spanContext().spanId);
    expect(call.parentSpanContext?.spanId).toBe(distill[0]!.spanContext().spanId);
    expect(mirrors[0]!.attributes['compaction.source_coverage_ratio']).toBeLessThan(1);
    expect(mirrors[0]!.attributes['compaction.llm_input_bytes']).toBeGreaterThan(100_000);

    const values = await metricValues();
    expect(values.get(METRIC_NAMES.distillTriggered)).toBe(2);
    expect(labels(METRIC_NAMES.distillTriggered)).toContainEqual(
      expect.objectContaining({ agent_name: 'devops-chat-agent' }),
    );
    expect(values.get(METRIC_NAMES.distillCacheMiss)).toBe(1);
    expect(values.get(METRIC_NAMES.distillCacheHit)).toBe(1);
    expect(values.get(METRIC_NAMES.distillDuration)).toBe(1);
    await meterProvider.shutdown();
  });

  it('records llm_failed, the failed metric and the map-reduce route and completion', async () => {
    server.setHandler((request) =>
      request.prompt.includes('Segment 1 of') ? { status: 500 } : { text: 'extract' },
    );
    const { telemetry, spans, metricValues, meterProvider } = otel();
    const distiller = createDistiller({
      client: client(),
      telemetry,
      mapReduceThresholdBytes: 131_072,
    });
    await distiller.process(sampleRecords(400_000), 4096, context);
    const [distill] = spans.getFinishedSpans().filter((s) => s.name === SPAN_NAMES.resultDistill);
    const names = distill!.events.map((e) => e.name);
    expect(names[0]).toBe(EVENT_NAMES.mapReduceRoute);
    expect(names).toContain(EVENT_NAMES.llmFailed);
    expect(names.at(-1)).toBe(EVENT_NAMES.mapReduceComplete);
    const complete = distill!.events.at(-1)!;
    expect(complete.attributes!['compaction.chunks_completed']).toBe(
      (complete.attributes!['compaction.chunks_total'] as number) - 1,
    );
    const values = await metricValues();
    expect(values.get(METRIC_NAMES.distillMapReduce)).toBe(1);
    expect(values.get(METRIC_NAMES.distillFailed)).toBeUndefined();

    server.setHandler(() => ({ status: 500 }));
    await distiller.process(sampleRecords(40_000), 4096, context);
    expect((await metricValues()).get(METRIC_NAMES.distillFailed)).toBe(1);
    await meterProvider.shutdown();
  });
});
