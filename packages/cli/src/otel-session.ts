import { createOpenTelemetry } from '@compaction/core/otel';
import {
  AggregationTemporality,
  InMemoryMetricExporter,
  PeriodicExportingMetricReader,
} from '@opentelemetry/sdk-metrics';
import { NodeSDK } from '@opentelemetry/sdk-node';
import {
  type ReadableSpan,
  SimpleSpanProcessor,
  type SpanExporter,
} from '@opentelemetry/sdk-trace-base';
import type { CliIo } from './cli-io.js';

/** Telemetry for one CLI run and how to flush it. */
export interface OtelSession {
  telemetry: NonNullable<CliIo['telemetry']>;
  shutdown(): Promise<void>;
}

function stderrSpanExporter(io: CliIo): SpanExporter {
  return {
    export(spans: ReadableSpan[], done) {
      for (const span of spans) {
        const [seconds, nanos] = span.duration;
        io.stderr.write(
          `${JSON.stringify({
            span: span.name,
            durationMs: Math.round((seconds * 1e3 + nanos / 1e6) * 10) / 10,
            attributes: span.attributes,
            events: span.events.map((event) => ({
              name: event.name,
              attributes: event.attributes,
            })),
          })}\n`,
        );
      }
      done({ code: 0 });
    },
    shutdown: () => Promise.resolve(),
  };
}

/**
 * Starts the OpenTelemetry Node SDK for one command. With `OTEL_EXPORTER_OTLP_ENDPOINT` set the
 * SDK's own OTLP exporters send everything to that collector; otherwise every span is written
 * to standard error as one JSON line as it ends, and the metrics are written there at exit.
 * Standard output stays exactly the command's output.
 */
export function startOtelSession(io: CliIo): OtelSession {
  const otlp = Boolean(io.env.OTEL_EXPORTER_OTLP_ENDPOINT);
  const metrics = new InMemoryMetricExporter(AggregationTemporality.CUMULATIVE);
  const reader = new PeriodicExportingMetricReader({
    exporter: metrics,
    exportIntervalMillis: 3_600_000,
  });
  const sdk = new NodeSDK({
    serviceName: 'compaction-cli',
    ...(otlp
      ? {}
      : {
          spanProcessors: [new SimpleSpanProcessor(stderrSpanExporter(io))],
          metricReader: reader,
        }),
  });
  sdk.start();
  return {
    telemetry: createOpenTelemetry(),
    async shutdown() {
      if (!otlp) {
        await reader.forceFlush();
        for (const batch of metrics.getMetrics().slice(-1)) {
          for (const scope of batch.scopeMetrics) {
            for (const metric of scope.metrics) {
              const points = metric.dataPoints.map((point) =>
                typeof point.value === 'number'
                  ? point.value
                  : ((point.value as { sum?: number }).sum ?? 0),
              );
              io.stderr.write(
                `${JSON.stringify({ metric: metric.descriptor.name, unit: metric.descriptor.unit, value: points.reduce((a, b) => a + b, 0) })}\n`,
              );
            }
          }
        }
      }
      await sdk.shutdown();
    },
  };
}
