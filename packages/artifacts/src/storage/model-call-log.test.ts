import { mkdtemp, open, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createModelCallLog, MODEL_CALLS_FILE, type ModelCallRecord } from './model-call-log.js';

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'model-calls-'));
});
afterEach(async () => {
  vi.restoreAllMocks();
  await rm(dir, { recursive: true, force: true });
});

const call = (i: number): ModelCallRecord => ({
  description: `call ${i}`,
  model: 'm',
  output: `${'output ✓ '.repeat(i % 7 === 0 ? 2000 : 30)}${i}`,
  at: i,
});

describe('createModelCallLog', () => {
  it('reads back what it appends, oldest first', async () => {
    const log = createModelCallLog({ dir });
    for (let i = 0; i < 3; i++) log.append(call(i));
    await log.flushed();
    expect(await log.read()).toEqual([call(0), call(1), call(2)]);
    expect(await createModelCallLog({ dir: join(dir, 'none') }).read()).toEqual([]);
  });

  it('keeps the newest 2000 records, skipping blank, torn and foreign lines, from the end only', async () => {
    const lines: string[] = ['\ufeff{"description":"with a byte-order mark"}'];
    for (let i = 0; i < 5000; i++) {
      lines.push(JSON.stringify(call(i)));
      if (i % 500 === 0) lines.push('', 'not json', '{"no":"description"}', 'null', '  ');
    }
    // A line torn by a crash, with no newline after it.
    const text = `${lines.join('\n')}\n{"description":"torn`;
    await writeFile(join(dir, MODEL_CALLS_FILE), text);
    const expected = Array.from({ length: 2000 }, (_, i) => call(3000 + i));

    const probe = await open(join(dir, MODEL_CALLS_FILE));
    const prototype = Object.getPrototypeOf(probe) as { read: (...args: unknown[]) => unknown };
    await probe.close();
    const read = prototype.read;
    let bytesAsked = 0;
    vi.spyOn(prototype, 'read').mockImplementation(function (this: unknown, ...args: unknown[]) {
      bytesAsked += args[2] as number;
      return read.apply(this, args);
    });
    expect(await createModelCallLog({ dir }).read()).toEqual(expected);
    // The older records (more than half the log) were never read.
    expect(bytesAsked).toBeLessThan(Buffer.byteLength(text) / 2);
  });
});
