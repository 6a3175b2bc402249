import {
  type ContinuationDistiller,
  METRIC_NAMES,
  SPAN_NAMES,
  type StepRecord,
  utf8ByteLength,
} from '@compaction/core';
import { createRecordingTelemetry } from '@compaction/core/test';
import { fixturesAvailable, readFixture } from '@compaction/fixtures';
import { createStructuralTrimmer } from '@compaction/trimmer';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { digestJson } from './create-digester.js';
import { createHeadPreviewProcessor } from './create-head-preview-processor.js';
import { createPlanningSectionRenderer } from './create-planning-section-renderer.js';

const env = {};

function jsonStep(id: string, bytes: number): StepRecord {
  const items = Array.from({ length: Math.max(1, Math.floor(bytes / 40)) }, (_, i) => ({
    id: i,
    name: `item-${i}`,
  }));
  // Wide objects keep every key, so the digest grows with the size asked for.
  const wide = Object.fromEntries(items.slice(0, 50).map((item) => [`k${item.id}`, item.name]));
  return { id, status: 'succeeded', result: JSON.stringify({ items, wide }) };
}

function textStep(id: string, text: string): StepRecord {
  return { id, status: 'succeeded', result: text };
}

function failedStep(id: string, inputs?: StepRecord['inputs']): StepRecord {
  return {
    id,
    status: 'failed',
    error: { code: 'timeout', message: 'upstream\ntimed out' },
    inputs,
  };
}

const arbitrarySteps = fc
  .array(
    fc.record({
      status: fc.constantFrom('succeeded', 'succeeded', 'succeeded', 'failed', 'rejected'),
      size: fc.integer({ min: 10, max: 4000 }),
      json: fc.boolean(),
    }),
    { maxLength: 25 },
  )
  .map((specs) =>
    specs.map((spec, i): StepRecord => {
      const id = `step-${i + 1}`;
      if (spec.status === 'failed') return failedStep(id, { q: 'x'.repeat(spec.size) });
      if (spec.status === 'rejected') {
        return { id, status: 'rejected', error: { code: 'unbound', message: 'no {{step-0}}' } };
      }
      return spec.json ? jsonStep(id, spec.size) : textStep(id, 'log line\n'.repeat(spec.size / 9));
    }),
  );

describe('createPlanningSectionRenderer', () => {
  it('digests JSON steps, previews text steps and closes with the N-of-M marker', async () => {
    const section = await createPlanningSectionRenderer({ env }).render([
      jsonStep('step-1', 2000),
      textStep('step-2', 'hello\r\nworld'),
      failedStep('step-3', { url: 'https://example.test/a"b' }),
    ]);
    expect(section.text).toContain('## step-1: succeeded, JSON digest\n{"items":[{"id":0');
    expect(section.text).toContain('"…47 more of 50"');
    expect(section.text).toContain('## step-2: succeeded, text preview\nhello\r\nworld');
    expect(section.text).toContain('[FAILED: timeout: upstream timed out]');
    expect(section.text).toContain(
      'failed-operation evidence (complete): {"errorCode":"timeout","inputs":{"url":"https://example.test/a\\"b"}}',
    );
    expect(section.text.endsWith('[showing 3 of 3 completed steps]')).toBe(true);
    expect(section.bytes).toBe(utf8ByteLength(section.text));
    expect(section.views.map((view) => view.view)).toEqual(['digest', 'preview', 'failed']);
    expect(section.contentLost).toBe(true);
  });

  it('keeps failures and the newest success, evicts oldest successes first, renders chronologically (property)', async () => {
    await fc.assert(
      fc.asyncProperty(
        arbitrarySteps,
        fc.integer({ min: 200, max: 20_000 }),
        async (steps, target) => {
          const section = await createPlanningSectionRenderer({
            env,
            maxTotalBytes: target,
            nonJsonFloorBytes: 600,
          }).render(steps);
          const successes = steps
            .filter((step) => step.status === 'succeeded')
            .map((step) => step.id);
          // Evicted steps are exactly the oldest successes.
          expect(section.evictedStepIds).toEqual(successes.slice(0, section.evictedStepIds.length));
          if (successes.length > 0) expect(section.evictedStepIds).not.toContain(successes.at(-1));
          for (const step of steps) {
            if (step.status !== 'succeeded') {
              expect(section.text).toContain(`## ${step.id}:`);
            }
          }
          const shown = steps.filter((step) => !section.evictedStepIds.includes(step.id));
          let last = -1;
          for (const step of shown) {
            const at = section.text.indexOf(`## ${step.id}:`);
            expect(at).toBeGreaterThan(last);
            last = at;
          }
          expect(
            section.text.endsWith(`[showing ${shown.length} of ${steps.length} completed steps]`),
          ).toBe(true);
          expect(section.stepsShown).toBe(shown.length);
          // Beyond the force-kept entries, the body (closing markers aside) stays within the target.
          const kept = successes.filter((id) => !section.evictedStepIds.includes(id));
          const cut = section.text.search(/\n\n(Older successful steps left out|\[showing )/);
          if (kept.length > 1) {
            expect(utf8ByteLength(section.text.slice(0, cut))).toBeLessThanOrEqual(target);
          }
          // Greedy: the newest evicted success really did not fit beside what was kept.
          const newestEvicted = section.evictedStepIds.at(-1);
          if (newestEvicted !== undefined) {
            const step = steps.find((candidate) => candidate.id === newestEvicted)!;
            const digest = digestJson(step.result!, { env });
            const entry = digest.ok
              ? `## ${step.id}: succeeded, JSON digest\n${digest.digest}`
              : `## ${step.id}: succeeded, text preview\n${(await createHeadPreviewProcessor().process(step.result!, 600)).text}`;
            expect(
              utf8ByteLength(section.text.slice(0, cut)) + 2 + utf8ByteLength(entry),
            ).toBeGreaterThan(target);
          }
        },
      ),
      { numRuns: 120 },
    );
  });

  it('stays within the target when everything fits, and shows N of M when some is evicted', async () => {
    const steps = Array.from({ length: 10 }, (_, i) => jsonStep(`step-${i + 1}`, 2000));
    const all = await createPlanningSectionRenderer({ env }).render(steps);
    expect(all.evictedStepIds).toEqual([]);
    expect(all.overTarget).toBe(false);
    const one = await createPlanningSectionRenderer({ env, maxTotalBytes: 1 }).render(steps);
    expect(one.evictedStepIds).toHaveLength(9);
    expect(one.text).toContain('## step-10:');
    expect(one.text).toContain('[showing 1 of 10 completed steps]');
    expect(one.text).toContain('step-1, step-2');
  });

  it('labels legacy, rejected and policy-omitted failures', async () => {
    const section = await createPlanningSectionRenderer({
      env,
      inputPolicy: ({ name }) => (name === 'token' ? 'omit' : 'allow'),
    }).render([
      failedStep('legacy'),
      {
        id: 'bind',
        status: 'rejected',
        error: { code: 'unknown_reference', message: '{{step-9.x}}' },
      },
      failedStep('policy', { token: 'secret', q: 'up' }),
    ]);
    expect(section.text).toContain('failed-operation evidence: unavailable');
    expect(section.text).toContain('[NOT DISPATCHED:');
    expect(section.text).toContain('not a tool failure');
    expect(section.text).not.toContain('secret');
    expect(section.text).toContain('"omittedByPolicy":["token"]');
    expect(section.evidence).toEqual({ legacy: 'unavailable', policy: 'partial' });
  });

  it('limits each view to min(per-step floor, total/(failed+1)) and the section to the prompt cap', async () => {
    const inputs = Object.fromEntries(
      Array.from({ length: 8 }, (_, i) => [`p${i}`, `"${'é'.repeat(1500)}`]),
    );
    const steps = Array.from({ length: 6 }, (_, i) => failedStep(`f${i}`, inputs));
    const section = await createPlanningSectionRenderer({
      env,
      maxTotalBytes: 60_000,
      failedOperationMaxPromptBytes: 20_000,
    }).render(steps);
    const views = [
      ...section.text.matchAll(/failed-operation evidence \((?:complete|partial)\): (.*)/g),
    ].map((match) => match[1]!);
    const perStep = Math.min(16_384, 10_000, Math.floor(60_000 / 7));
    for (const view of views) {
      expect(utf8ByteLength(view)).toBeLessThanOrEqual(perStep);
      for (const value of Object.values(JSON.parse(view).inputs as object)) {
        expect(utf8ByteLength(JSON.stringify(value))).toBeLessThanOrEqual(4096);
      }
    }
    expect(views.reduce((sum, view) => sum + utf8ByteLength(view), 0)).toBeLessThanOrEqual(20_000);
    expect(section.evidence.f5).toBe('partial');
    // Newest failures are served first; older ones are labelled when the cap is spent.
    const tight = await createPlanningSectionRenderer({
      env,
      failedOperationMaxPromptBytes: 150,
    }).render(steps);
    expect(tight.evidence.f5).toBe('partial');
    expect(tight.evidence.f0).toBe('omitted');
    expect(tight.text).toContain("omitted (the section's evidence budget of 150 bytes is spent)");
    expect(JSON.stringify(steps[0]!.inputs)).toBe(JSON.stringify(inputs));
  });

  it('shows no evidence when the view is disabled', async () => {
    const section = await createPlanningSectionRenderer({
      env,
      failedOperationViewEnabled: false,
    }).render([failedStep('f', { a: 1 })]);
    expect(section.text).toContain('[FAILED: timeout');
    expect(section.text).not.toContain('evidence');
  });

  it('escalates the newest K non-JSON steps and fails open on empty or rejected summaries', async () => {
    const calls: string[] = [];
    const distiller: ContinuationDistiller = {
      async distill(input) {
        calls.push(input.stepId);
        expect(input.preview.length).toBeGreaterThan(0);
        if (input.stepId === 't4') return '';
        if (input.stepId === 't3') throw new Error('model down');
        return `summary of ${input.stepId}`;
      },
    };
    const telemetry = createRecordingTelemetry();
    const steps = ['t1', 't2', 't3', 't4', 't5'].map((id) =>
      textStep(id, `text of ${id}. `.repeat(60)),
    );
    steps.splice(2, 0, jsonStep('j', 100));
    // A text that fits its floor whole is shown whole and never escalated.
    steps.splice(4, 0, textStep('short', 'fits'));
    const section = await createPlanningSectionRenderer({
      env,
      maxEscalations: 3,
      nonJsonFloorBytes: 300,
      distiller,
      telemetry,
    }).render(steps);
    expect(section.text).toContain('## short: succeeded, text preview\nfits');
    expect(calls.sort()).toEqual(['t3', 't4', 't5']);
    expect(section.escalatedStepIds).toEqual(['t5', 't4', 't3']);
    expect(section.text).toContain(
      'summarised by a model (a lossy summary; the full text stays addressable)\nsummary of t5',
    );
    expect(section.text).toContain('## t4: succeeded, text preview\ntext of t4');
    expect(section.text).toContain('## t3: succeeded, text preview\ntext of t3');
    expect(section.views.find((view) => view.stepId === 't5')?.view).toBe('summary');
    expect(telemetry.total(METRIC_NAMES.continuationEscalations)).toBe(3);
    expect(telemetry.spans[0]?.errors).toHaveLength(1);

    calls.length = 0;
    const none = await createPlanningSectionRenderer({
      env,
      maxEscalations: 0,
      nonJsonFloorBytes: 300,
      distiller,
    }).render(steps);
    expect(none.escalatedStepIds).toEqual([]);
    const off = await createPlanningSectionRenderer({
      env: { COMPACTION_RESULT_DISTILL_ENABLED: 'false' },
      nonJsonFloorBytes: 300,
      distiller,
    }).render(steps);
    expect(off.escalatedStepIds).toEqual([]);
    expect(calls).toEqual([]);
  });

  it('reports the section through the telemetry seam', async () => {
    const telemetry = createRecordingTelemetry();
    const steps = [jsonStep('a', 3000), failedStep('b', { q: 1 }), jsonStep('c', 3000)];
    const section = await createPlanningSectionRenderer({
      env,
      telemetry,
      maxTotalBytes: 1500,
    }).render(steps, { requestId: 'req-1' });
    const span = telemetry.spans.find(
      (recorded) => recorded.name === SPAN_NAMES.continuationBudget,
    );
    expect(span?.attributes['compaction.steps_total']).toBe(3);
    expect(span?.attributes['compaction.steps_shown']).toBe(section.stepsShown);
    expect(span?.attributes['compaction.request_id']).toBe('req-1');
    expect(telemetry.total(METRIC_NAMES.continuationSectionBytes)).toBe(section.bytes);
    expect(telemetry.total(METRIC_NAMES.continuationStepsShown)).toBe(2);
    expect(telemetry.total(METRIC_NAMES.continuationStepsEvicted)).toBe(1);
    // Seed 002 §10's label on every continuation metric.
    for (const metric of telemetry.metrics) expect(metric.attributes.module).toBe('orchestration');
    const [retention] = telemetry.events('failure_evidence.continuation_retention');
    expect(retention?.attributes['compaction.retained_with_projection']).toEqual(['c']);
  });

  it('uses the injected floor for non-JSON steps, such as the structural trimmer', async () => {
    const log = Array.from(
      { length: 2000 },
      (_, i) => `2024-05-01 INFO request ${i} handled in ${i % 90} ms`,
    ).join('\n');
    const section = await createPlanningSectionRenderer({
      env,
      floor: createStructuralTrimmer(),
      nonJsonFloorBytes: 2000,
    }).render([textStep('logs', log)]);
    const body = section.text.slice(section.text.indexOf('## logs'));
    expect(utf8ByteLength(body)).toBeLessThan(2200);
    expect(body).toMatch(/\[(trimmed|severely reduced): /);
  });

  it('falls back to a head preview when the floor throws, and honours an abort', async () => {
    const section = await createPlanningSectionRenderer({
      env,
      nonJsonFloorBytes: 300,
      floor: {
        async process() {
          throw new Error('floor bug');
        },
      },
    }).render([textStep('t', 'word '.repeat(500))]);
    expect(section.text).toContain('[trimmed: 2500 → ');
    const greedy = await createPlanningSectionRenderer({
      env,
      nonJsonFloorBytes: 300,
      floor: {
        async process(result) {
          return {
            text: result,
            metadata: { contentLost: false, originalBytes: 0, outputBytes: 0 },
          };
        },
      },
    }).render([textStep('t', 'word '.repeat(500))]);
    const body = greedy.text.slice(greedy.text.indexOf('## t:'));
    expect(body).toContain('[trimmed: 2500 → ');
    expect(
      utf8ByteLength(body.slice(body.indexOf('\n') + 1, body.indexOf('\n\n[showing'))),
    ).toBeLessThanOrEqual(300);
    const controller = new AbortController();
    controller.abort(new Error('stop'));
    await expect(
      createPlanningSectionRenderer({ env }).render([textStep('t', 'x')], {
        signal: controller.signal,
      }),
    ).rejects.toThrow('stop');
  });

  it('renders an empty history honestly', async () => {
    const section = await createPlanningSectionRenderer({ env }).render([]);
    expect(section.text.endsWith('[showing 0 of 0 completed steps]')).toBe(true);
  });
});

describe('createPlanningSectionRenderer edge cases', () => {
  it('handles a 100 MB text step, 100 000-deep JSON and __proto__ step ids', async () => {
    const huge = textStep('huge', `${'log line\r\n'.repeat(10 * 1024 * 1024)}`);
    const deep = {
      id: 'deep',
      status: 'succeeded' as const,
      result: `${'['.repeat(100_000)}${']'.repeat(100_000)}`,
    };
    const proto = failedStep('__proto__', JSON.parse('{"__proto__":{"x":1}}'));
    const section = await createPlanningSectionRenderer({ env }).render([proto, deep, huge]);
    const body = section.text.slice(
      section.text.indexOf('## huge'),
      section.text.indexOf('\n\n[showing'),
    );
    expect(utf8ByteLength(body)).toBeLessThan(10_200);
    expect(body).toContain('[trimmed: ');
    expect(section.text).toContain('"…(array of 1)"');
    expect(Object.hasOwn(section.evidence, '__proto__')).toBe(true);
    expect(Object.getOwnPropertyDescriptor(section.evidence, '__proto__')?.value).toBe('complete');
    expect(section.text).toContain('"inputs":{"__proto__":{"x":1}}');
  });
});

describe('the planning section under a poll that says stop', () => {
  it('previews JSON steps whose digest was stopped, handing the floor the same poll', async () => {
    const wide = JSON.stringify(
      Object.fromEntries(Array.from({ length: 50_000 }, (_, i) => [`k${i}`, i])),
    );
    const seen: Array<(() => boolean) | undefined> = [];
    const floor = createHeadPreviewProcessor();
    const renderer = createPlanningSectionRenderer({
      env,
      digestMaxKeys: 100_000,
      floor: {
        process: (result, maxBytes, context) => {
          seen.push(context?.shouldStop);
          return floor.process(result, maxBytes, context);
        },
      },
    });
    const shouldStop = () => true;
    const steps = [textStep('step-1', wide), jsonStep('step-2', 2_000)];
    steps[0] = { ...steps[0]!, result: wide };
    const section = await renderer.render(steps, { shouldStop });
    const views = Object.fromEntries(section.views.map((entry) => [entry.stepId, entry.view]));
    // The wide object outlasts one poll interval and is previewed; the small one is digested.
    expect(views['step-1']).toBe('preview');
    expect(views['step-2']).toBe('digest');
    // The floor polls the caller's poll (under the seam deadline's own).
    expect(seen).toHaveLength(1);
    expect(seen[0]?.()).toBe(true);
    expect(section.contentLost).toBe(true);
  });
});

const WIDE = JSON.stringify(
  Object.fromEntries(
    Array.from({ length: 50 }, (_, i) => [
      `k${i}`,
      Object.fromEntries(
        Array.from({ length: 50 }, (_, j) => [`v${j}`, `${i}-${j}-`.padEnd(200, 'x')]),
      ),
    ]),
  ),
);

describe('bounding the newest digest (issue: one 498 KB digest took the whole section)', () => {
  const available = fixturesAvailable();
  if (!available && process.env.CI === 'true')
    throw new Error('fixtures are required under CI=true');

  it.skipIf(!available)(
    'tightens the caps of an oversized newest digest until it fits, and says so',
    async () => {
      const twilio = readFixture('cloud/openapi-twilio-api-v2010.json');
      const steps: StepRecord[] = [
        jsonStep('step-1', 2000),
        failedStep('step-2', { q: 'x' }),
        { id: 'step-3', status: 'succeeded', toolName: 'openapi', result: twilio },
      ];
      const section = await createPlanningSectionRenderer({ env }).render(steps);
      const target = 196_608;
      expect(section.bytes).toBeLessThanOrEqual(target + 1024);
      expect(section.views.find((view) => view.stepId === 'step-3')!.view).toBe('digest');
      expect(section.text).toMatch(
        /## step-3 \(openapi\): succeeded, JSON digest with tightened caps \(keys \d+, array sample \d+, strings \d+ chars, depth \d+\) to fit \d+ bytes\n\{/,
      );
      expect(section.text).toContain('[FAILED: timeout');
      expect(section.contentLost).toBe(true);
      // The digest is still valid JSON, every key it shows addressable.
      const digest = section.text
        .split('to fit')[1]!
        .split('\n')
        .slice(1)
        .join('\n')
        .split('\n\n')[0]!;
      expect(() => JSON.parse(digest)).not.toThrow();

      // The seed's literal rule stays available: the newest digest whatever its size.
      const literal = await createPlanningSectionRenderer({ env, boundNewestDigest: false }).render(
        steps,
      );
      expect(literal.bytes).toBeGreaterThan(400_000);
      expect(literal.overTarget).toBe(true);
    },
  );

  it.skipIf(!available)(
    'tightens under the poll: a stop during tightening shows the floor preview, in bounds',
    async () => {
      const twilio = readFixture('cloud/openapi-twilio-api-v2010.json');
      const steps: StepRecord[] = [{ id: 'big', status: 'succeeded', result: twilio }];
      const target = 196_608;
      // The polls of the loose digest alone (the seed's literal rule makes no other).
      let loosePolls = 0;
      await createPlanningSectionRenderer({ env, boundNewestDigest: false }).render(steps, {
        shouldStop: () => {
          loosePolls++;
          return false;
        },
      });
      expect(loosePolls).toBeGreaterThan(0);
      const renderer = createPlanningSectionRenderer({ env });
      let polls = 0;
      const tightened = await renderer.render(steps, {
        shouldStop: () => {
          polls++;
          return false;
        },
      });
      expect(tightened.text).toContain('with tightened caps');
      // The tightening passes poll too.
      expect(polls).toBeGreaterThan(loosePolls);
      // Stopped right after the loose digest: the floor's preview stands in, in bounds.
      let seen = 0;
      const stopped = await renderer.render(steps, { shouldStop: () => ++seen > loosePolls });
      expect(stopped.views[0]!.view).toBe('preview');
      expect(stopped.text).not.toContain('with tightened caps');
      expect(stopped.contentLost).toBe(true);
      expect(stopped.bytes).toBeLessThanOrEqual(target);
    },
  );

  it('leaves a newest digest that fits alone, and bounds any oversized one (property)', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.integer({ min: 2000, max: 40_000 }),
        fc.integer({ min: 1, max: 3 }),
        async (target, failures) => {
          // 50 × 50 strings of 200 characters: a digest of about 0.5 MB at the default caps.
          const steps: StepRecord[] = [
            ...Array.from({ length: failures }, (_, i) => failedStep(`f-${i}`)),
            { id: 'big', status: 'succeeded', result: WIDE },
          ];
          const renderer = createPlanningSectionRenderer({ env, maxTotalBytes: target });
          const section = await renderer.render(steps);
          const fixed = (await renderer.render(steps.slice(0, failures))).bytes;
          expect(section.bytes).toBeLessThanOrEqual(Math.max(target, fixed + 4096) + 512);
          expect(section.text).toContain('with tightened caps');
        },
      ),
      { numRuns: 30 },
    );
  });
});
