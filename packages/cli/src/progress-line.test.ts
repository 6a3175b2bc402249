import { describe, expect, it } from 'vitest';
import { countingStream, progressLine } from './progress-line.js';
import { createMemoryIo } from './test-support/memory-io.js';

async function drain(source: AsyncIterable<unknown>) {
  for await (const _ of source) {
  }
}

describe('progressLine', () => {
  it('draws nothing when standard error is not a terminal', async () => {
    const { io, stderr } = createMemoryIo();
    await drain(
      countingStream(
        (async function* () {
          yield 'x'.repeat(2 ** 20);
        })(),
        progressLine(io),
        'storing',
      ),
    );
    expect(stderr()).toBe('');
  });

  it('redraws one line on a terminal, throttled, and ends it', async () => {
    const { io, stderr } = createMemoryIo();
    (io.stderr as { isTTY?: boolean }).isTTY = true;
    let clock = 0;
    const line = progressLine(io, 200, () => clock);
    const chunks = (async function* () {
      for (let i = 0; i < 10; i++) {
        clock += 100;
        yield Buffer.alloc(2 ** 20);
      }
    })();
    await drain(countingStream(chunks, line, 'storing'));
    const output = stderr();
    expect(output.endsWith('storing 10.0 MB, done\n')).toBe(true);
    expect(output.split('\r').length - 1).toBeLessThanOrEqual(7);
    expect(output.split('\n')).toHaveLength(2);
  });
});
