import {
  SeamDeadlineError,
  type StepRecord,
  trailingDisclosureNotes,
  utf8ByteLength,
} from '@compaction/core';
import { createRecordingTelemetry } from '@compaction/core/test';
import { describe, expect, it } from 'vitest';
import { createCompaction } from './create-compaction.js';

// Every seam you plug in runs under the compaction deadline (COMPACTION_RESULT_DISTILL_DEADLINE)
// and the caller's signal: one that never settles cannot hang a render.
const never = <T>(): Promise<T> => new Promise<T>(() => {});
const logs = Array.from({ length: 4000 }, (_, i) => `line ${i} of the service log`).join('\n');
const steps: StepRecord[] = [
  { id: 'step-1', status: 'succeeded', toolName: 'logs', result: logs },
  { id: 'step-2', status: 'succeeded', toolName: 'small', result: '{"ok":true}' },
];
const config = { distill: { deadlineMs: 300 } };

describe('seams under the compaction deadline', () => {
  it('falls open when a custom result processor never settles', async () => {
    const seen: AbortSignal[] = [];
    const compaction = createCompaction({
      env: {},
      config,
      deps: {
        resultProcessor: {
          process: (_result, _maxBytes, context) => {
            seen.push(context!.signal!);
            return never();
          },
        },
      },
    });
    // The processor never settles: only the deadline ends the assembly (or the test's timeout would).
    const assembly = await compaction.assembleSynthesis(steps);
    expect(seen.every((signal) => signal.aborted)).toBe(true);
    expect(SeamDeadlineError.isInstance(seen[0]!.reason)).toBe(true);
    const [cut, small] = assembly.sections;
    expect(cut!.metadata!.contentLost).toBe(true);
    expect(trailingDisclosureNotes(cut!.text).map((note) => note.kind)).toEqual([
      'reduced-without-model-analysis',
    ]);
    expect(small!.text).toContain('{"ok":true}');
  });

  it('falls open when a custom source processor never settles', async () => {
    const compaction = createCompaction({
      env: {},
      config: { ...config, trim: { maxMicroBytes: 4096 } },
      deps: { sourceResultProcessor: { process: () => never() } },
    });
    const view = await compaction.compactSource(logs);
    expect(utf8ByteLength(view.text)).toBeLessThanOrEqual(4096);
    expect(view.metadata.contentLost).toBe(true);
  });

  it('keeps the floor preview when a custom continuation distiller never settles', async () => {
    const compaction = createCompaction({
      env: {},
      config: { ...config, continuation: { nonJsonFloorBytes: 2000 } },
      deps: { continuationDistiller: { distill: () => never() } },
      aiClient: { provider: 'unused', complete: () => never() },
    });
    const section = await compaction.renderContinuation(steps);
    expect(section.views[0]).toEqual({ stepId: 'step-1', view: 'preview' });
    expect(section.escalatedStepIds).toEqual(['step-1']);
  });

  it('fails closed when a custom tool-input transform never settles (it may be a redactor)', async () => {
    const compaction = createCompaction({
      env: {},
      config,
      deps: { agentInputProcessor: { process: () => never() } },
    });
    const failure = await compaction.agentInputProcessor.process({ a: 1 }).catch((e) => e);
    expect(SeamDeadlineError.isInstance(failure)).toBe(true);
    expect((failure as SeamDeadlineError).seam).toBe('agentInputProcessor');
  });

  it("rejects with the caller's reason when the caller aborts, without waiting for the deadline", async () => {
    const compaction = createCompaction({
      env: {},
      config: { distill: { deadlineMs: 60_000 } },
      deps: { resultProcessor: { process: () => never() } },
    });
    const controller = new AbortController();
    const reason = new Error('user went away');
    setTimeout(() => controller.abort(reason), 50);
    await expect(compaction.assembleSynthesis(steps, { signal: controller.signal })).rejects.toBe(
      reason,
    );
  });

  it('emits result_trim.completed for a custom processor, with the step ids', async () => {
    const telemetry = createRecordingTelemetry();
    const compaction = createCompaction({
      env: {},
      telemetry,
      deps: {
        resultProcessor: {
          process: async (result) => ({
            text: `${result.slice(0, 100)}\n[trimmed: 1 → 100 bytes kept by byte cut; the rest is UNKNOWN, not absent]`,
            metadata: { contentLost: true, originalBytes: 0, outputBytes: 0 },
          }),
        },
      },
    });
    await compaction.assembleSynthesis(steps, { requestId: 'req-7' });
    const spans = telemetry.spans.filter((span) => span.name === 'result_trim.completed');
    expect(spans.length).toBeGreaterThan(0);
    expect(spans[0]!.attributes).toMatchObject({
      'compaction.request_id': 'req-7',
      'compaction.step_id': 'step-1',
      'compaction.content_lost': true,
    });
  });
});
