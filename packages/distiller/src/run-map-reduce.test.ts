// When the reduce of a map-reduce cannot run, the view is the segments' extracts as written:
// it must say so (a `[findings unreduced: …]` note when they fit, `[findings truncated: …]` when
// they are cut) and carry `reduceSkippedReason`, and it is cached only when that is
// deterministic (`over_context`). Real OpenAI SDK client against the local provider server.
import {
  disclosureNotes,
  type ProcessedResult,
  type ReduceSkippedReason,
  stripDisclosureNotes,
  trailingDisclosureNotes,
  utf8ByteLength,
} from '@compaction/core';
import { createMemoryDistillCache } from '@compaction/core/test';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createDistiller, type DistillerSettings } from './create-distiller.js';
import type { DistillProgress } from './distill-progress.js';
import { createOpenAIClient } from './openai/index.js';
import { createProviderServer, type ProviderRequest, type ProviderServer } from './test/index.js';
import { atDeadlineWhen } from './test-support/at-deadline-when.js';
import { sampleRecords } from './test-support/sample-data.js';

let server: ProviderServer;

beforeAll(async () => {
  server = await createProviderServer();
});
afterAll(async () => {
  await server.close();
});
beforeEach(() => {
  server.resetStats();
  server.setHandler(() => ({}));
});

const context = { userQuery: 'which requests failed?', stepTask: 'fetch the logs' };
// Over the byte threshold: four segments of at most 128 KB.
const RESULT = sampleRecords(400_000);
const MAP_REDUCE = { mapReduceThresholdBytes: 131_072 } as const;
const BUDGET = 4096;

function distiller(settings: DistillerSettings = {}) {
  return createDistiller({
    client: createOpenAIClient({
      env: { OPENAI_API_KEY: 'sk-test', OPENAI_BASE_URL: server.openaiBaseUrl },
      maxRetries: 0,
    }),
    onWarning: () => {},
    ...settings,
  });
}

const isReduce = (request: ProviderRequest) => request.prompt.includes('### Extract');
/** True once the reduce call reached the server: every segment is in. */
const reduceSent = () => server.requests.some(isReduce);
const segmentOf = (request: ProviderRequest) =>
  Number(/Segment (\d+) of \d+/.exec(request.prompt)?.[1]);
const extractOf = (segment: number) => `request ${segment * 1000} failed with status 500`;

/** The segments' extracts as the view shows them without a reduce. */
function combinedExtracts(segments: readonly number[], total: number): string {
  return segments
    .map((segment) => `[segment ${segment} of ${total}]\n${extractOf(segment)}`)
    .join('\n\n');
}

/** The view is the extracts, whole, within the budget, disclosed as unreduced for `reason`. */
function expectUnreduced(
  out: ProcessedResult,
  reason: ReduceSkippedReason,
  budget: number,
  coverage: Array<'partial'> = [],
) {
  expect(utf8ByteLength(out.text)).toBeLessThanOrEqual(budget);
  expect(out.metadata.outputBytes).toBe(utf8ByteLength(out.text));
  const analyzed = out.metadata.segmentsAnalyzed!;
  const total = out.metadata.segmentsTotal!;
  const notes = trailingDisclosureNotes(out.text);
  expect(notes.map((note) => note.kind)).toEqual(['distilled', ...coverage, 'findings-unreduced']);
  expect(notes.at(-1)!.text).toBe(
    disclosureNotes.findingsUnreduced({ extracts: analyzed, reason }),
  );
  expect(out.metadata).toMatchObject({
    contentLost: true,
    strategy: 'map-reduce',
    combineTruncated: false,
    reduceSkippedReason: reason,
  });
  expect(out.metadata.combineTruncatedReason).toBeUndefined();
  const shown = Array.from({ length: analyzed }, (_, i) => i + 1);
  expect(stripDisclosureNotes(out.text)).toBe(combinedExtracts(shown, total));
}

describe('a map-reduce whose reduce cannot run shows its extracts and says so', () => {
  it('reduce call fails (HTTP 500): [findings unreduced: … (reduce_failed)], not cached', async () => {
    server.setHandler((request) =>
      isReduce(request) ? { status: 500 } : { text: extractOf(segmentOf(request)) },
    );
    const cache = createMemoryDistillCache();
    const out = await distiller({ ...MAP_REDUCE, cache }).process(RESULT, BUDGET, context);
    expect(out.metadata.segmentsTotal).toBeGreaterThan(1);
    expect(out.metadata.segmentsAnalyzed).toBe(out.metadata.segmentsTotal);
    expectUnreduced(out, 'reduce_failed', BUDGET);
    expect(server.requests.filter(isReduce)).toHaveLength(1);
    expect(cache.calls.set).toBe(0);

    // A transient failure is not served again: the next run reduces.
    server.setHandler((request) =>
      isReduce(request) ? { text: 'request 1000 failed' } : { text: extractOf(segmentOf(request)) },
    );
    const again = await distiller({ ...MAP_REDUCE, cache }).process(RESULT, BUDGET, context);
    expect(stripDisclosureNotes(again.text)).toBe('request 1000 failed');
    expect(again.metadata.reduceSkippedReason).toBeUndefined();
    expect(cache.calls.set).toBe(1);
  });

  it('reduce answers nothing: [findings unreduced: … (reduce_failed)], not cached', async () => {
    server.setHandler((request) =>
      isReduce(request) ? { text: '  \n ' } : { text: extractOf(segmentOf(request)) },
    );
    const cache = createMemoryDistillCache();
    const out = await distiller({ ...MAP_REDUCE, cache }).process(RESULT, BUDGET, context);
    expectUnreduced(out, 'reduce_failed', BUDGET);
    expect(cache.calls.set).toBe(0);
  });

  it('reduce stalls past the deadline: [findings unreduced: … (deadline)], not cached', async () => {
    server.setHandler((request) =>
      isReduce(request) ? { hang: true } : { text: extractOf(segmentOf(request)) },
    );
    const cache = createMemoryDistillCache();
    // The deadline passes once the reduce call is out, however long the segments took.
    const out = await atDeadlineWhen(reduceSent, () =>
      distiller({ ...MAP_REDUCE, cache, deadlineMs: 1500 }).process(RESULT, BUDGET, context),
    );
    expect(out.metadata.segmentsAnalyzed).toBe(out.metadata.segmentsTotal);
    expectUnreduced(out, 'deadline', BUDGET);
    expect(server.requests.filter(isReduce)).toHaveLength(1);
    expect(cache.calls.set).toBe(0);
  });

  it('deadline before the reduce starts: [partial: …] and [findings unreduced: … (deadline)]', async () => {
    server.setHandler((request) =>
      segmentOf(request) === 1 ? { text: extractOf(1) } : { hang: true },
    );
    let completed = 0;
    const onProgress = (progress: DistillProgress) => {
      completed = progress.completed;
    };
    const out = await atDeadlineWhen(
      () => completed >= 1,
      () =>
        distiller({ ...MAP_REDUCE, deadlineMs: 1500, onProgress }).process(RESULT, BUDGET, context),
    );
    expect(out.metadata).toMatchObject({ segmentsAnalyzed: 1, partialCoverage: true });
    expectUnreduced(out, 'deadline', BUDGET, ['partial']);
    expect(server.requests.filter(isReduce)).toHaveLength(0);
  });

  it('extracts over the context: [findings unreduced: … (over_context)], cached with its metadata', async () => {
    // A 1 000-token context: 1 KB segments, and their extracts together are over 3 500 bytes.
    server.setHandler((request) => ({ text: extractOf(segmentOf(request)).repeat(5) }));
    const settings = { contextTokens: 1000, cache: createMemoryDistillCache() };
    const result = sampleRecords(20_000);
    const budget = 16_384;
    const out = await distiller(settings).process(result, budget, context);
    expect(server.requests.filter(isReduce)).toHaveLength(0);
    const total = out.metadata.segmentsTotal!;
    expect(total).toBeGreaterThan(10);
    expect(out.metadata.segmentsAnalyzed).toBe(total);
    const notes = trailingDisclosureNotes(out.text);
    expect(notes.map((note) => note.kind)).toEqual(['distilled', 'findings-unreduced']);
    expect(notes[1]!.text).toBe(
      disclosureNotes.findingsUnreduced({ extracts: total, reason: 'over_context' }),
    );
    expect(utf8ByteLength(out.text)).toBeLessThanOrEqual(budget);
    expect(utf8ByteLength(stripDisclosureNotes(out.text))).toBeGreaterThan(3500);
    expect(out.metadata).toMatchObject({
      contentLost: true,
      combineTruncated: false,
      reduceSkippedReason: 'over_context',
    });
    // Deterministic, so cached; a hit reads the same, metadata included.
    expect(settings.cache.calls.set).toBe(1);
    const requests = server.requests.length;
    const hit = await distiller(settings).process(result, budget, context);
    expect(server.requests).toHaveLength(requests);
    expect(hit).toEqual(out);
  });
});

describe('cut extracts say the reduce was skipped too', () => {
  it('a failed reduce over a long set of extracts: [findings truncated: …] and reduceSkippedReason', async () => {
    server.setHandler((request) =>
      isReduce(request) ? { status: 500 } : { text: 'finding '.repeat(300) },
    );
    const out = await distiller(MAP_REDUCE).process(RESULT, 2048, context);
    expect(utf8ByteLength(out.text)).toBeLessThanOrEqual(2048);
    expect(trailingDisclosureNotes(out.text).map((note) => note.kind)).toEqual([
      'distilled',
      'findings-truncated',
    ]);
    expect(out.metadata).toMatchObject({
      combineTruncated: true,
      combineTruncatedReason: 'reduce_failed',
      reduceSkippedReason: 'reduce_failed',
    });
  });

  it('a reduce the deadline stopped keeps seed 002 reason in the cut note, deadline in the metadata', async () => {
    server.setHandler((request) =>
      isReduce(request) ? { hang: true } : { text: 'finding '.repeat(300) },
    );
    const out = await atDeadlineWhen(reduceSent, () =>
      distiller({ ...MAP_REDUCE, deadlineMs: 1500 }).process(RESULT, 2048, context),
    );
    expect(utf8ByteLength(out.text)).toBeLessThanOrEqual(2048);
    expect(out.text).toMatch(
      /\n\[findings truncated: combined extracts cut to \d+ bytes \(reduce_failed\)/,
    );
    expect(out.metadata).toMatchObject({
      combineTruncated: true,
      combineTruncatedReason: 'reduce_failed',
      reduceSkippedReason: 'deadline',
    });
  });

  it('extracts that fit only without the unreduced note are cut, never left without a note', async () => {
    server.setHandler((request) =>
      isReduce(request) ? { status: 500 } : { text: extractOf(segmentOf(request)) },
    );
    const roomy = await distiller(MAP_REDUCE).process(RESULT, BUDGET, context);
    const [distilled, unreduced] = trailingDisclosureNotes(roomy.text);
    const body = stripDisclosureNotes(roomy.text);
    // Room for the extracts and the [distilled: …] note, not for [findings unreduced: …].
    const budget =
      utf8ByteLength(body) +
      1 +
      utf8ByteLength(distilled!.text) +
      Math.floor(utf8ByteLength(unreduced!.text) / 2);
    const out = await distiller(MAP_REDUCE).process(RESULT, budget, context);
    expect(utf8ByteLength(out.text)).toBeLessThanOrEqual(budget);
    expect(trailingDisclosureNotes(out.text).map((note) => note.kind)).toEqual([
      'distilled',
      'findings-truncated',
    ]);
    expect(utf8ByteLength(stripDisclosureNotes(out.text))).toBeLessThan(utf8ByteLength(body));
    expect(out.metadata).toMatchObject({
      combineTruncated: true,
      reduceSkippedReason: 'reduce_failed',
    });
  });
});
