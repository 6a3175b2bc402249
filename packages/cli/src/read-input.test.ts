import { constants } from 'node:buffer';
import { mkdtempSync, rmSync, truncateSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { InputTooLargeError } from './input-too-large-error.js';
import { readInput } from './read-input.js';
import { runCli } from './run-cli.js';
import { createMemoryIo } from './test-support/memory-io.js';

const dir = mkdtempSync(join(tmpdir(), 'compaction-read-input-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** Over three times the string limit in size, sparse, so no disk is used. */
function sparseHugeFile(): string {
  const file = join(dir, 'huge.bin');
  writeFileSync(file, '');
  truncateSync(file, constants.MAX_STRING_LENGTH * 3 + 1);
  return file;
}

async function failure(run: () => Promise<unknown>): Promise<unknown> {
  try {
    await run();
  } catch (error) {
    return error;
  }
  return undefined;
}

describe('readInput', () => {
  it('reads a file or standard input as UTF-8', async () => {
    const file = join(dir, 'small.txt');
    writeFileSync(file, 'héllo ✓');
    const { io } = createMemoryIo({ stdin: 'from stdin ✓', cwd: dir });
    expect(await readInput('small.txt', io)).toBe('héllo ✓');
    expect(await readInput('-', io)).toBe('from stdin ✓');
  });

  it('refuses a file too big for one string by its size, before reading it', async () => {
    sparseHugeFile();
    const { io } = createMemoryIo({ cwd: dir });
    const error = await failure(() => readInput('huge.bin', io));
    expect(InputTooLargeError.isInstance(error)).toBe(true);
    expect((error as InputTooLargeError).maxChars).toBe(constants.MAX_STRING_LENGTH);
  });

  it('refuses a decoded input over the limit, file or stream, and stops reading the stream', async () => {
    const file = join(dir, 'medium.txt');
    writeFileSync(file, 'x'.repeat(2000));
    const { io } = createMemoryIo({ cwd: dir });
    expect(
      InputTooLargeError.isInstance(await failure(() => readInput(file, io, { maxChars: 1000 }))),
    ).toBe(true);
    let pulled = 0;
    const stream = {
      isTTY: false,
      async *[Symbol.asyncIterator]() {
        for (let i = 0; i < 1000; i++) {
          pulled++;
          yield 'y'.repeat(1000);
        }
      },
    };
    const error = await failure(() => readInput('-', { ...io, stdin: stream }, { maxChars: 1000 }));
    expect(InputTooLargeError.isInstance(error)).toBe(true);
    // Over three times the limit in bytes cannot fit whatever the encoding: it stops there.
    expect(pulled).toBe(4);
    // Within three times in bytes, it is the decoded length that decides.
    const multibyte = '✓'.repeat(900); // 900 units, 2700 bytes
    expect(await readInput('-', createMemoryIo({ stdin: multibyte }).io, { maxChars: 1000 })).toBe(
      multibyte,
    );
  });

  it('gives trim, digest and distill a one-line error naming the limit and the streaming commands', async () => {
    sparseHugeFile();
    for (const [command, ...flags] of [['trim'], ['digest'], ['distill', '--query', 'errors?']]) {
      const memory = createMemoryIo({ cwd: dir });
      const code = await runCli([command!, ...flags, 'huge.bin'], memory.io);
      expect(code).toBe(1);
      const message = memory.stderr();
      expect(message.split('\n').filter(Boolean)).toHaveLength(1);
      expect(message).toMatch(
        new RegExp(`^compaction ${command}: the input is 1,610,612,665 bytes`),
      );
      expect(message).toContain('536,870,888 UTF-16 code units');
      expect(message).toContain("'compaction excerpt'");
      expect(message).toContain("'compaction store'");
    }
  });
});
