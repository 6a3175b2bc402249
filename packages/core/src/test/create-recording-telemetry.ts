import type { CompactionTelemetry, TelemetryAttributes } from '../telemetry.js';
import type { MetricName } from '../telemetry-names.js';

/** A finished span as the recording telemetry saw it. */
export interface RecordedSpan {
  name: string;
  attributes: TelemetryAttributes;
  events: Array<{ name: string; attributes: TelemetryAttributes }>;
  errors: unknown[];
  /** Name of the span that was active when this one started. */
  parent: string | undefined;
}

/** A metric data point. */
export interface RecordedMetric {
  name: MetricName;
  kind: 'count' | 'record';
  value: number;
  attributes: TelemetryAttributes;
}

/** Telemetry that keeps everything in memory, for assertions in tests. */
export interface RecordingTelemetry extends CompactionTelemetry {
  readonly spans: RecordedSpan[];
  readonly metrics: RecordedMetric[];
  /** All events of all spans with this name. */
  events(name: string): Array<{ name: string; attributes: TelemetryAttributes }>;
  /** Sum of the values recorded for `name`. */
  total(name: MetricName): number;
}

/** Creates an in-memory telemetry recorder. */
export function createRecordingTelemetry(): RecordingTelemetry {
  const spans: RecordedSpan[] = [];
  const metrics: RecordedMetric[] = [];
  const active: RecordedSpan[] = [];
  return {
    spans,
    metrics,
    async withSpan(name, attributes, fn) {
      const span: RecordedSpan = {
        name,
        attributes: { ...attributes },
        events: [],
        errors: [],
        parent: active[active.length - 1]?.name,
      };
      active.push(span);
      try {
        return await fn({
          addEvent: (event, eventAttributes = {}) =>
            span.events.push({ name: event, attributes: { ...eventAttributes } }),
          setAttributes: (more) => Object.assign(span.attributes, more),
          recordError: (error) => span.errors.push(error),
        });
      } finally {
        active.splice(active.indexOf(span), 1);
        spans.push(span);
      }
    },
    count(name, value = 1, attributes = {}) {
      metrics.push({ name, kind: 'count', value, attributes });
    },
    record(name, value, attributes = {}) {
      metrics.push({ name, kind: 'record', value, attributes });
    },
    events(name) {
      return spans.flatMap((span) => span.events.filter((event) => event.name === name));
    },
    total(name) {
      return metrics.filter((metric) => metric.name === name).reduce((sum, m) => sum + m.value, 0);
    },
  };
}
