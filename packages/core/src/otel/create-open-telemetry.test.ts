import { metrics, trace } from '@opentelemetry/api';
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
import { afterEach, describe, expect, it } from 'vitest';
import { EVENT_NAMES, METRIC_NAMES, SPAN_NAMES } from '../telemetry-names.js';
import { createOpenTelemetry } from './create-open-telemetry.js';

function setup() {
  const spans = new InMemorySpanExporter();
  const tracerProvider = new BasicTracerProvider({
    spanProcessors: [new SimpleSpanProcessor(spans)],
  });
  const metricExporter = new InMemoryMetricExporter(AggregationTemporality.CUMULATIVE);
  const reader = new PeriodicExportingMetricReader({
    exporter: metricExporter,
    exportIntervalMillis: 60_000,
  });
  const meterProvider = new MeterProvider({ readers: [reader] });
  const telemetry = createOpenTelemetry({
    tracer: tracerProvider.getTracer('test'),
    meter: meterProvider.getMeter('test'),
  });
  return { telemetry, spans, reader, metricExporter, meterProvider };
}

afterEach(() => {
  trace.disable();
  metrics.disable();
});

describe('createOpenTelemetry', () => {
  it('records spans with attributes and events, and metrics with their units', async () => {
    const { telemetry, spans, reader, metricExporter, meterProvider } = setup();
    const result = await telemetry.withSpan(
      SPAN_NAMES.resultDistill,
      { 'compaction.step_id': 's1', skipped: undefined },
      async (span) => {
        span.addEvent(EVENT_NAMES.stage1Complete, { 'compaction.original_bytes': 1000 });
        span.setAttributes({ 'compaction.content_lost': true });
        return 42;
      },
    );
    expect(result).toBe(42);
    telemetry.count(METRIC_NAMES.distillTriggered);
    telemetry.record(METRIC_NAMES.distillDuration, 1.5);
    const [span] = spans.getFinishedSpans();
    expect(span!.name).toBe('compaction.result_distill');
    expect(span!.attributes).toEqual({
      'compaction.step_id': 's1',
      'compaction.content_lost': true,
    });
    expect(span!.events.map((event) => event.name)).toEqual(['result_distill.stage1_complete']);

    await reader.forceFlush();
    const exported = metricExporter
      .getMetrics()
      .flatMap((batch) => batch.scopeMetrics.flatMap((scope) => scope.metrics));
    const byName = new Map(exported.map((metric) => [metric.descriptor.name, metric]));
    expect(byName.get('compaction.result_distill.triggered')!.dataPoints[0]!.value).toBe(1);
    expect(byName.get('compaction.result_distill.duration')!.descriptor.unit).toBe('s');
    await meterProvider.shutdown();
  });

  it('marks the span as failed and rethrows what the callback threw', async () => {
    const { telemetry, spans } = setup();
    await expect(
      telemetry.withSpan('x', {}, () => {
        throw new Error('boom');
      }),
    ).rejects.toThrow('boom');
    const [span] = spans.getFinishedSpans();
    expect(span!.status.code).toBe(2);
    expect(span!.events[0]!.name).toBe('exception');
  });

  it('never throws into the host when the SDK misbehaves', async () => {
    const broken = createOpenTelemetry({
      meter: {
        createCounter() {
          throw new Error('meter down');
        },
        createHistogram() {
          throw new Error('meter down');
        },
      } as never,
    });
    expect(() => broken.count(METRIC_NAMES.distillFailed)).not.toThrow();
    expect(() => broken.record(METRIC_NAMES.distillDuration, 1)).not.toThrow();
  });
});
