import type { MetricName } from './telemetry-names.js';

/** Attribute values as OpenTelemetry accepts them. */
export type TelemetryAttributeValue = string | number | boolean | string[] | number[];

/** Span and metric attributes. */
export type TelemetryAttributes = Record<string, TelemetryAttributeValue | undefined>;

/** The span handed to `withSpan` callbacks. */
export interface TelemetrySpan {
  /** Adds a named event with attributes. */
  addEvent(name: string, attributes?: TelemetryAttributes): void;
  /** Sets attributes on the span. */
  setAttributes(attributes: TelemetryAttributes): void;
  /** Records an error on the span without ending it. */
  recordError(error: unknown): void;
}

/**
 * The telemetry seam. The default does nothing; `@compaction/core/otel` adapts it to
 * `@opentelemetry/api`. Implementations must never throw into the host.
 */
export interface CompactionTelemetry {
  /** Runs `fn` inside a span named `name`; the span ends when `fn` settles. */
  withSpan<T>(
    name: string,
    attributes: TelemetryAttributes,
    fn: (span: TelemetrySpan) => Promise<T> | T,
  ): Promise<T>;
  /** Adds `value` (default 1) to a counter. */
  count(metric: MetricName, value?: number, attributes?: TelemetryAttributes): void;
  /** Records one value on a histogram (durations in seconds, sizes in bytes). */
  record(metric: MetricName, value: number, attributes?: TelemetryAttributes): void;
}

const noopSpan: TelemetrySpan = {
  addEvent() {},
  setAttributes() {},
  recordError() {},
};

/** Telemetry that records nothing. The default everywhere. */
export const noopTelemetry: CompactionTelemetry = {
  async withSpan(_name, _attributes, fn) {
    return fn(noopSpan);
  },
  count() {},
  record() {},
};
