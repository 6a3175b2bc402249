import type { ResourceMetrics } from '@opentelemetry/sdk-metrics';
import type { ReadableSpan } from '@opentelemetry/sdk-trace-base';

/** A short text summary of finished spans (with their events) and exported metrics. */
export function summarizeTelemetry(
  spans: readonly ReadableSpan[],
  metrics: readonly ResourceMetrics[],
): string {
  const lines: string[] = ['Spans (count, events):'];
  const byName = new Map<string, { count: number; events: Map<string, number> }>();
  for (const span of spans) {
    const entry = byName.get(span.name) ?? { count: 0, events: new Map() };
    entry.count++;
    for (const event of span.events)
      entry.events.set(event.name, (entry.events.get(event.name) ?? 0) + 1);
    byName.set(span.name, entry);
  }
  for (const [name, entry] of [...byName].sort()) {
    const events = [...entry.events].map(([event, count]) => `${event} ×${count}`).join(', ');
    lines.push(`  ${name} ×${entry.count}${events ? `  [${events}]` : ''}`);
  }
  const trim = spans.find((span) => span.name === 'result_trim.completed');
  if (trim)
    lines.push(`  e.g. result_trim.completed attributes: ${JSON.stringify(trim.attributes)}`);
  lines.push('Metrics (sum of data points):');
  const latest = metrics[metrics.length - 1];
  for (const scope of latest?.scopeMetrics ?? []) {
    for (const metric of scope.metrics) {
      let total = 0;
      let points = 0;
      for (const point of metric.dataPoints as Array<{
        value: number | { sum?: number; count?: number };
      }>) {
        points++;
        total += typeof point.value === 'number' ? point.value : (point.value.sum ?? 0);
      }
      lines.push(
        `  ${metric.descriptor.name} = ${Number(total.toFixed(3))} ${metric.descriptor.unit} (${points} series)`,
      );
    }
  }
  return lines.join('\n');
}
