import { trailingDisclosureNotes, utf8ByteLength } from '@compaction/core';
import { createProviderServer } from '@compaction/distiller/test';
import { describe, expect, it } from 'vitest';
import { modelFromEnv } from './model-from-env.js';
import { runDevopsAgent } from './run-devops-agent.js';

describe('the devops agent example', () => {
  it('runs end to end offline: every result compacted within budget, honest notes, the evidence kept', async () => {
    const run = await runDevopsAgent({ env: {} });
    expect(run.mode).toBe('offline');
    expect(run.steps.map((step) => step.status)).toEqual([
      'succeeded',
      'succeeded',
      'failed',
      'succeeded',
    ]);
    expect(run.synthesis.successBytes).toBeLessThanOrEqual(
      run.compaction.synthesisBudgets.totalBytes,
    );
    for (const section of run.synthesis.sections.filter((s) => s.status === 'succeeded')) {
      expect(section.metadata!.contentLost).toBe(true);
      expect(trailingDisclosureNotes(section.text).length).toBeGreaterThan(0);
    }
    expect(run.binding?.value).toMatch(/^payments-/);
    // The pod list's view names every pod (and the crash-looping one stands out in it).
    const pods = (
      JSON.parse(run.steps[0]!.result as string) as { items: Array<{ metadata: { name: string } }> }
    ).items.map((pod) => pod.metadata.name);
    const podView = run.synthesis.sections.find((section) => section.stepId === 'step-1')!.text;
    expect(pods.filter((name) => !podView.includes(`"${name}"`))).toEqual([]);
    expect(podView).toContain('CrashLoopBackOff');
    const found = Object.fromEntries(
      run.needles.map((needle) => [needle.what.split(' ')[0], needle.found]),
    );
    expect(found).toEqual({ 'crash-looping': true, log: true, config: true });
    // The logs fetched are the bound pod's: their failure line names it.
    const logView = run.synthesis.sections.find((section) => section.stepId === 'step-4')!.text;
    expect(logView).toMatch(
      new RegExp(`ERROR ${run.binding!.value} db: connection pool exhausted`),
    );
    expect(run.answer).toContain('connection pool exhausted');
    // Phase 2 is planned from the first three steps; the run ends with the view of all four.
    expect(run.plannerSection.text).toContain('[showing 3 of 3 completed steps]');
    expect(run.continuation.text).toContain('[showing 4 of 4 completed steps]');
  });

  it('distills through the real OpenAI SDK when OPENAI_BASE_URL points at a compatible server', async () => {
    const server = await createProviderServer({
      handler: (request) => ({
        text: request.system.includes('plan the next tool call')
          ? '{"tool":"fetch_logs","params":{"pod":"{{step-1.items[138].metadata.name}}"},"task":"logs of the failing pod"}'
          : `distilled ${request.prompt.length} chars`,
      }),
    });
    try {
      const env = { OPENAI_BASE_URL: server.openaiBaseUrl, OPENAI_API_KEY: 'local' };
      const run = await runDevopsAgent({ env, aiClient: modelFromEnv(env) });
      expect(run.mode).toBe('model');
      expect(run.binding).toEqual({
        template: '{{step-1.items[138].metadata.name}}',
        value: expect.stringMatching(/^payments-/),
      });
      const strategies = run.synthesis.sections.flatMap((s) =>
        s.metadata ? [s.metadata.strategy] : [],
      );
      expect(strategies).toContain('map-reduce');
      expect(server.requests.some((request) => request.system.includes('You are an SRE'))).toBe(
        true,
      );
      expect(utf8ByteLength(run.synthesis.text)).toBeLessThan(
        run.compaction.synthesisBudgets.totalBytes + 4096,
      );
    } finally {
      await server.close();
    }
  });
});
