import {
  type Attributes,
  type Counter,
  type Histogram,
  type Meter,
  metrics,
  SpanStatusCode,
  type Tracer,
  trace,
} from '@opentelemetry/api';
import type { CompactionTelemetry, TelemetryAttributes, TelemetrySpan } from '../telemetry.js';
import { METRIC_DEFINITIONS, type MetricName } from '../telemetry-names.js';

/** Settings of `createOpenTelemetry`. */
export interface OpenTelemetrySettings {
  /** Tracer to use. Default: `trace.getTracer('@compaction')` from the global provider. */
  tracer?: Tracer;
  /** Meter to use. Default: `metrics.getMeter('@compaction')` from the global provider. */
  meter?: Meter;
}

function clean(attributes: TelemetryAttributes | undefined): Attributes {
  const result: Attributes = {};
  if (!attributes) return result;
  for (const [key, value] of Object.entries(attributes))
    if (value !== undefined) result[key] = value;
  return result;
}

function safely(action: () => void): void {
  try {
    action();
  } catch {
    // Telemetry never breaks the host.
  }
}

/**
 * Telemetry through `@opentelemetry/api` only. Without a registered SDK every call is a cheap
 * no-op; with one, spans, events and metrics use the names in `telemetry-names`.
 */
export function createOpenTelemetry(settings: OpenTelemetrySettings = {}): CompactionTelemetry {
  const tracer = settings.tracer ?? trace.getTracer('@compaction');
  const meter = settings.meter ?? metrics.getMeter('@compaction');
  const instruments = new Map<MetricName, Counter | Histogram>();

  const instrument = (name: MetricName): Counter | Histogram => {
    let existing = instruments.get(name);
    if (!existing) {
      const definition = METRIC_DEFINITIONS[name];
      const options = { unit: definition.unit, description: definition.description };
      existing =
        definition.kind === 'counter'
          ? meter.createCounter(name, options)
          : meter.createHistogram(name, options);
      instruments.set(name, existing);
    }
    return existing;
  };

  return {
    withSpan(name, attributes, fn) {
      return tracer.startActiveSpan(name, { attributes: clean(attributes) }, async (otelSpan) => {
        const span: TelemetrySpan = {
          addEvent: (event, eventAttributes) =>
            safely(() => otelSpan.addEvent(event, clean(eventAttributes))),
          setAttributes: (more) => safely(() => otelSpan.setAttributes(clean(more))),
          recordError: (error) =>
            safely(() =>
              otelSpan.recordException(error instanceof Error ? error : new Error(String(error))),
            ),
        };
        try {
          return await fn(span);
        } catch (error) {
          safely(() => {
            otelSpan.recordException(error instanceof Error ? error : new Error(String(error)));
            otelSpan.setStatus({ code: SpanStatusCode.ERROR });
          });
          throw error;
        } finally {
          safely(() => otelSpan.end());
        }
      });
    },
    count(metric, value = 1, attributes) {
      safely(() => (instrument(metric) as Counter).add(value, clean(attributes)));
    },
    record(metric, value, attributes) {
      safely(() => (instrument(metric) as Histogram).record(value, clean(attributes)));
    },
  };
}
