#!/usr/bin/env node
// Wires the OpenTelemetry Node SDK the way an application would, runs the devops agent example
// with Compaction's OpenTelemetry adapter, and prints what was recorded. With --console the
// spans are also printed by the SDK's ConsoleSpanExporter as they end.
import { createOpenTelemetry } from '@compaction/core/otel';
import { createProviderServer } from '@compaction/distiller/test';
import { modelFromEnv, runDevopsAgent } from '@compaction/example-devops-agent';
import {
  AggregationTemporality,
  InMemoryMetricExporter,
  PeriodicExportingMetricReader,
} from '@opentelemetry/sdk-metrics';
import { NodeSDK } from '@opentelemetry/sdk-node';
import {
  ConsoleSpanExporter,
  InMemorySpanExporter,
  SimpleSpanProcessor,
} from '@opentelemetry/sdk-trace-base';
import { summarizeTelemetry } from './summarize-telemetry.js';

const spans = new InMemorySpanExporter();
const metricExporter = new InMemoryMetricExporter(AggregationTemporality.CUMULATIVE);
const spanProcessors = [new SimpleSpanProcessor(spans)];
if (process.argv.includes('--console'))
  spanProcessors.push(new SimpleSpanProcessor(new ConsoleSpanExporter()));
const sdk = new NodeSDK({
  serviceName: 'compaction-otel-example',
  spanProcessors,
  metricReader: new PeriodicExportingMetricReader({
    exporter: metricExporter,
    exportIntervalMillis: 3_600_000,
  }),
});
sdk.start();

let env: Record<string, string | undefined> = process.env;
let server: Awaited<ReturnType<typeof createProviderServer>> | undefined;
if (!modelFromEnv(env)) {
  // No key: a local OpenAI-compatible stand-in, so the distillation spans have something to show.
  server = await createProviderServer({ latencyMs: 20 });
  env = { ...env, OPENAI_BASE_URL: server.openaiBaseUrl, OPENAI_API_KEY: 'local' };
  console.log(
    `No model configured: distilling against a local simulated OpenAI-compatible server (${server.openaiBaseUrl}).`,
  );
}
try {
  const run = await runDevopsAgent({
    env,
    aiClient: modelFromEnv(env),
    telemetry: createOpenTelemetry(),
  });
  console.log(
    `Run finished: ${run.synthesis.sections.length} results in a ${run.synthesis.bytes}-byte synthesis prompt.`,
  );
} finally {
  await server?.close();
}
// The in-memory exporters forget everything on shutdown: read them first.
const finished = [...spans.getFinishedSpans()];
await sdk.shutdown();
console.log(summarizeTelemetry(finished, metricExporter.getMetrics()));
