// The drill of issue 17: hostile inputs that once kept the synchronous trimmer busy for minutes
// (a 207 KB log holding one 200 000-dot progress line, and others) return their floor within
// the compaction deadline, with and without a model (a real SDK client against the local
// provider server, hanging). Time is an injected clock that every poll of the deadline
// advances by one millisecond, so the drill counts work, not wall-clock time.
import { trailingDisclosureNotes, utf8ByteLength } from '@compaction/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDistiller } from './create-distiller.js';
import { createOpenAIClient } from './openai/index.js';
import { createProviderServer, type ProviderServer } from './test/index.js';
import { atDeadlineWhen } from './test-support/at-deadline-when.js';

let server: ProviderServer;
beforeAll(async () => {
  server = await createProviderServer();
  server.setHandler(() => ({ hang: true }));
});
afterAll(async () => {
  await server.close();
});

const logLine = '2026-01-01T00:00:00Z INFO worker-7 processed batch latency=12ms\n';
const HOSTILE: Record<string, string> = {
  '207 KB log with one 200 000-dot progress line': `${logLine.repeat(60)}progress ${'.'.repeat(200_000)}\n${logLine.repeat(60)}`,
  '200 000 sentence marks with no space': '?!.")]'.repeat(33_334),
  '100 000-deep nested arrays': `${'['.repeat(100_000)}${']'.repeat(100_000)}`,
  '60 000 decomposed accents': 'e\u0301'.repeat(60_000),
};

const DEADLINE_MS = 2000;
const BUDGET = 4096;

describe('a compaction returns its floor within its deadline whatever the input', () => {
  for (const [name, result] of Object.entries(HOSTILE)) {
    for (const withModel of [false, true]) {
      it(`${name}, ${withModel ? 'with a hanging model' : 'without a model'}`, async () => {
        let clock = 0;
        const distiller = createDistiller({
          ...(withModel
            ? {
                client: createOpenAIClient({
                  env: { OPENAI_API_KEY: 'k', OPENAI_BASE_URL: server.openaiBaseUrl },
                  maxRetries: 0,
                }),
                // The model path even for the smaller inputs.
                thresholdBytes: 1024,
              }
            : {}),
          deadlineMs: DEADLINE_MS,
          now: () => clock++,
          onWarning: () => {},
        });
        // The model's wait ends on the deadline's timer, moved on a fake clock once the call is
        // out: two seconds of waiting fewer per case, and the same cut on any machine.
        const sent = server.requests.length;
        const out = await atDeadlineWhen(
          () => !withModel || server.requests.length > sent,
          () => distiller.process(result, BUDGET, { userQuery: 'why did it fail?' }),
        );
        expect(utf8ByteLength(out.text)).toBeLessThanOrEqual(BUDGET);
        expect(out.metadata.contentLost).toBe(true);
        expect(trailingDisclosureNotes(out.text).length).toBeGreaterThanOrEqual(1);
        // Within the deadline in polls of the clock: the passes stopped when told to (a floor
        // after the timed-out model call may add its grace of at most 1 s).
        expect(clock).toBeLessThanOrEqual(DEADLINE_MS + (withModel ? 1000 : 0) + 50);
      });
    }
  }
});
